//! The facts clinics keep in their own listings (docs/listings-contract.md), generated after the
//! clinics and clinicians from a stream of their own, so the rest of the catalogue is the same
//! as before they existed:
//! * hours: one of a dozen weekly patterns (weekdays 8 to 5, a lunch break, late days, Saturday
//!   mornings, seven days for urgent care, around the clock for a third of virtual clinics); 3%
//!   give none;
//! * time zone: the state's main one, with the larger split states divided by longitude;
//! * languages: English nearly everywhere, then the languages most spoken at home in the
//!   clinic's state (Spanish first almost everywhere; Chinese, Vietnamese, Tagalog, Korean in
//!   the West; Haitian Creole in Florida; Somali and Hmong in Minnesota; ...); clinicians speak
//!   English and often one of their clinic's other languages;
//! * accessibility: wheelchair access at three quarters of physical clinics, and the other
//!   Plan-Net codes less often;
//! * telehealth where video visits are offered; panel capacity at 60% of clinics (300 to 2,500
//!   members, in fifties);
//! * lastVerified: spread evenly over the 200 days before the day the catalogue is generated
//!   for; a clinician was confirmed with their clinic, or (one in five) on an earlier day.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use domain::listing::{
    Accessibility, AccessibilitySet, ClockTime, Language, LanguageSet, OpeningRange, TimeZone, Weekday, WeeklyHours,
};
use domain::{Clinician, Location};

use crate::rng::{Rng, pick_weighted, stream};

/// lastVerified is spread over this many days before the catalogue's day.
pub const VERIFIED_SPREAD_DAYS: i64 = 200;

/// Fills the listing facts of every location and clinician.
pub(crate) fn fill(locations: &mut [Location], clinicians: &mut [Clinician], seed: u64, as_of: NaiveDate) {
    let mut rng = Rng::new(seed, stream::LISTINGS);
    let end_of_day = as_of.and_hms_opt(23, 59, 59).expect("a valid time").and_utc();
    for location in locations.iter_mut() {
        fill_location(location, end_of_day, &mut rng);
    }
    for clinician in clinicians.iter_mut() {
        let primary = clinician
            .location_ids
            .first()
            .and_then(|id| usize::try_from(*id - 1).ok())
            .and_then(|position| locations.get(position));
        fill_clinician(clinician, primary, end_of_day, &mut rng);
    }
}

fn verified_within_spread(end_of_day: DateTime<Utc>, rng: &mut Rng) -> DateTime<Utc> {
    let seconds = (rng.unit() * (VERIFIED_SPREAD_DAYS * 86_400) as f64) as i64;
    end_of_day - Duration::seconds(seconds)
}

fn fill_location(location: &mut Location, end_of_day: DateTime<Utc>, rng: &mut Rng) {
    location.time_zone = Some(time_zone(location));
    location.hours = hours(location, rng);
    location.languages = location_languages(&location.state, rng);
    location.accessibility = accessibility(location, rng);
    location.telehealth = location.is_virtual || (location.modalities.video && rng.chance(0.9)) || rng.chance(0.1);
    location.panel_capacity = rng.chance(0.6).then(|| 300 + 50 * rng.between(0, 44));
    location.last_verified = Some(verified_within_spread(end_of_day, rng));
}

fn fill_clinician(clinician: &mut Clinician, primary: Option<&Location>, end_of_day: DateTime<Utc>, rng: &mut Rng) {
    let english = Language::parse("en").expect("English is listed");
    let mut spoken = Vec::with_capacity(3);
    if rng.chance(0.98) {
        spoken.push(english);
    }
    if let Some(location) = primary {
        for language in location.languages.iter().filter(|language| *language != english) {
            if rng.chance(0.45) {
                spoken.push(language);
            }
        }
        if spoken.is_empty() {
            // Somebody at the clinic speaks with the patients: the clinic's first language.
            spoken.extend(location.languages.iter().take(1));
        }
    }
    if spoken.is_empty() {
        spoken.push(english);
    }
    clinician.languages = LanguageSet::new(spoken);
    clinician.telehealth = primary.is_some_and(|location| location.telehealth) && rng.chance(0.85);
    clinician.last_verified = match primary.and_then(|location| location.last_verified) {
        Some(with_clinic) if rng.chance(0.8) => Some(with_clinic),
        _ => Some(verified_within_spread(end_of_day, rng)),
    };
}

/// The state's main zone, with the larger split states divided by longitude.
fn time_zone(location: &Location) -> TimeZone {
    let (lat, lng) = (location.lat, location.lng);
    match location.state.as_str() {
        "TX" if lng < -104.9 => TimeZone::Denver,
        "FL" if lng < -85.0 && lat > 29.5 => TimeZone::Chicago,
        "TN" if lng > -85.6 => TimeZone::NewYork,
        "KY" if lng < -86.0 => TimeZone::Chicago,
        "IN" if lng < -86.9 => TimeZone::Chicago,
        "MI" if lng < -87.5 && lat > 45.0 => TimeZone::Chicago,
        "SD" if lng < -100.5 => TimeZone::Denver,
        "NE" | "KS" if lng < -101.5 => TimeZone::Denver,
        "ND" if lng < -101.5 && lat < 47.5 => TimeZone::Denver,
        "ID" if lat > 45.5 => TimeZone::LosAngeles,
        "OR" if lng > -117.3 => TimeZone::Boise,
        state => TimeZone::for_state(state),
    }
}

// ---- Hours --------------------------------------------------------------------------------

const WEEKDAYS: [Weekday; 5] = [Weekday::Mon, Weekday::Tue, Weekday::Wed, Weekday::Thu, Weekday::Fri];

/// A weekly pattern: (days, [(opens, closes)]) rows, times as (hour, minute).
type Pattern = &'static [(&'static [Weekday], &'static [((u16, u16), (u16, u16))])];

const PATTERNS: &[(Pattern, u32)] = &[
    (&[(&WEEKDAYS, &[((8, 0), (17, 0))])], 30),
    (&[(&WEEKDAYS, &[((8, 0), (12, 0)), ((13, 0), (17, 0))])], 15),
    (
        &[
            (&WEEKDAYS, &[((7, 30), (18, 0))]),
            (&[Weekday::Sat], &[((9, 0), (13, 0))]),
        ],
        15,
    ),
    (
        &[
            (
                &[Weekday::Mon, Weekday::Tue, Weekday::Wed, Weekday::Thu],
                &[((8, 0), (18, 0))],
            ),
            (&[Weekday::Fri], &[((8, 0), (12, 0))]),
        ],
        10,
    ),
    (
        &[
            (&WEEKDAYS, &[((9, 0), (17, 30))]),
            (&[Weekday::Sat], &[((9, 0), (12, 0))]),
        ],
        10,
    ),
    (
        &[
            (&[Weekday::Mon, Weekday::Wed, Weekday::Fri], &[((8, 0), (17, 0))]),
            (&[Weekday::Tue, Weekday::Thu], &[((10, 0), (19, 0))]),
        ],
        10,
    ),
    (&[(&WEEKDAYS, &[((8, 0), (16, 30))])], 5),
    (
        &[
            (&WEEKDAYS, &[((8, 30), (12, 30)), ((13, 30), (17, 0))]),
            (&[Weekday::Sat], &[((8, 30), (11, 30))]),
        ],
        5,
    ),
];

const SEVEN_DAYS: Pattern = &[(&Weekday::ALL, &[((8, 0), (20, 0))])];
const VIRTUAL_DAYS: Pattern = &[
    (&WEEKDAYS, &[((7, 0), (19, 0))]),
    (&[Weekday::Sat, Weekday::Sun], &[((9, 0), (17, 0))]),
];
const AROUND_THE_CLOCK: Pattern = &[(&Weekday::ALL, &[((0, 0), (24, 0))])];

fn hours(location: &Location, rng: &mut Rng) -> Option<WeeklyHours> {
    if rng.chance(0.03) {
        return None;
    }
    let pattern = if location.is_virtual {
        if rng.chance(0.33) {
            AROUND_THE_CLOCK
        } else {
            VIRTUAL_DAYS
        }
    } else if location.offers_service("UC") && rng.chance(0.6) {
        SEVEN_DAYS
    } else {
        pick_weighted(rng, PATTERNS)
    };
    let time = |(hour, minute): (u16, u16)| ClockTime::new(hour, minute).expect("pattern times are valid");
    let ranges = pattern.iter().flat_map(|(days, times)| {
        days.iter().flat_map(move |day| {
            times.iter().map(move |(opens, closes)| OpeningRange {
                day: *day,
                opens: time(*opens),
                closes: time(*closes),
            })
        })
    });
    Some(WeeklyHours::new(ranges).expect("the patterns are valid weeks"))
}

// ---- Languages ----------------------------------------------------------------------------

/// Languages other than English offered at clinics, with the share of clinics offering each, by
/// state (after the American Community Survey's languages spoken at home); states not listed
/// get [`ELSEWHERE`].
const BY_STATE: &[(&str, &[(&str, f64)])] = &[
    (
        "CA",
        &[
            ("es", 0.45),
            ("zh", 0.10),
            ("vi", 0.07),
            ("tl", 0.07),
            ("ko", 0.05),
            ("hy", 0.02),
            ("fa", 0.02),
            ("yue", 0.03),
        ],
    ),
    (
        "TX",
        &[("es", 0.50), ("vi", 0.04), ("zh", 0.02), ("ar", 0.01), ("hi", 0.01)],
    ),
    ("FL", &[("es", 0.45), ("ht", 0.07), ("pt", 0.02), ("fr", 0.01)]),
    (
        "NY",
        &[
            ("es", 0.35),
            ("zh", 0.10),
            ("ru", 0.05),
            ("ht", 0.03),
            ("bn", 0.02),
            ("yi", 0.02),
            ("ko", 0.02),
        ],
    ),
    (
        "NJ",
        &[
            ("es", 0.35),
            ("pt", 0.03),
            ("ko", 0.03),
            ("gu", 0.02),
            ("hi", 0.02),
            ("zh", 0.02),
        ],
    ),
    (
        "IL",
        &[("es", 0.30), ("pl", 0.05), ("zh", 0.03), ("ar", 0.02), ("tl", 0.02)],
    ),
    ("MN", &[("es", 0.12), ("so", 0.06), ("hmn", 0.05), ("vi", 0.02)]),
    (
        "WA",
        &[
            ("es", 0.22),
            ("vi", 0.05),
            ("zh", 0.05),
            ("ko", 0.04),
            ("ru", 0.03),
            ("tl", 0.03),
        ],
    ),
    (
        "HI",
        &[
            ("tl", 0.15),
            ("ilo", 0.10),
            ("ja", 0.08),
            ("haw", 0.05),
            ("zh", 0.05),
            ("ko", 0.04),
        ],
    ),
    ("AZ", &[("es", 0.45), ("nv", 0.04)]),
    ("NM", &[("es", 0.50), ("nv", 0.08)]),
    (
        "MA",
        &[("es", 0.20), ("pt", 0.08), ("zh", 0.05), ("ht", 0.04), ("vi", 0.03)],
    ),
    ("MI", &[("es", 0.10), ("ar", 0.06)]),
    ("LA", &[("es", 0.10), ("fr", 0.05), ("vi", 0.04)]),
    ("PR", &[("es", 1.0)]),
    ("CO", &[("es", 0.30), ("vi", 0.02), ("ru", 0.01)]),
    ("GA", &[("es", 0.20), ("vi", 0.02), ("ko", 0.02)]),
    ("NV", &[("es", 0.35), ("tl", 0.04), ("zh", 0.02)]),
    ("VA", &[("es", 0.15), ("ko", 0.02), ("vi", 0.02), ("ar", 0.01)]),
    ("MD", &[("es", 0.18), ("zh", 0.02), ("ko", 0.02), ("fr", 0.01)]),
    ("PA", &[("es", 0.15), ("zh", 0.02), ("ru", 0.01), ("vi", 0.01)]),
    ("OH", &[("es", 0.08), ("ar", 0.01), ("so", 0.01)]),
];

const ELSEWHERE: &[(&str, f64)] = &[
    ("es", 0.15),
    ("zh", 0.02),
    ("vi", 0.02),
    ("ko", 0.01),
    ("de", 0.01),
    ("fr", 0.01),
    ("ar", 0.01),
    ("tl", 0.01),
    ("ru", 0.01),
];

fn location_languages(state: &str, rng: &mut Rng) -> LanguageSet {
    let others = BY_STATE
        .iter()
        .find(|(listed, _)| *listed == state)
        .map_or(ELSEWHERE, |(_, languages)| languages);
    let mut spoken = Vec::with_capacity(4);
    // In Puerto Rico English is the second language.
    if rng.chance(if state == "PR" { 0.7 } else { 0.995 }) {
        spoken.push("en");
    }
    for (code, share) in others {
        if rng.chance(*share) {
            spoken.push(code);
        }
    }
    if rng.chance(0.02) {
        spoken.push("ase");
    }
    if spoken.is_empty() {
        spoken.push("en");
    }
    LanguageSet::new(
        spoken
            .into_iter()
            .map(|code| Language::parse(code).expect("seeded codes are listed")),
    )
}

// ---- Accessibility ------------------------------------------------------------------------

fn accessibility(location: &Location, rng: &mut Rng) -> AccessibilitySet {
    let shares: &[(Accessibility, f64)] = if location.is_virtual {
        &[
            (Accessibility::AnsweringService, 0.6),
            (Accessibility::CulturalCompetence, 0.3),
            (Accessibility::Cognitive, 0.1),
        ]
    } else {
        &[
            (Accessibility::HandicapAccessible, 0.75),
            (Accessibility::AdaCompliant, 0.6),
            (Accessibility::Mobility, 0.3),
            (Accessibility::PublicTransit, 0.4),
            (Accessibility::AnsweringService, 0.5),
            (Accessibility::CulturalCompetence, 0.25),
            (Accessibility::Cognitive, 0.1),
        ]
    };
    AccessibilitySet::new(
        shares
            .iter()
            .filter(|(_, share)| rng.chance(*share))
            .map(|(code, _)| *code),
    )
}
