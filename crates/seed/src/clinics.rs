//! Organisations and their clinic locations.
//!
//! Clinics go where people live: an organisation's home city is drawn by population, each
//! location sits on one of the city's nearest ZIP centroids, moved by up to 2 km. About 60% of
//! clinics belong to single-location organisations; the others to organisations of 2 to 30
//! locations, most of them in the home city, some in the wider metro and a few elsewhere.
//! Every organisation's locations are contiguous in the location table.

use std::collections::{HashMap, HashSet};

use domain::listing::{AccessibilitySet, LanguageSet};
use domain::{CareModalities, Location, Organisation, OrganisationKind};
use gazetteer::{Gazetteer, ZipPlace};

use crate::demo;
use crate::names::{Census, slug};
use crate::places::{self, Places, STATES};
use crate::rng::{Rng, pick_weighted, stream};
use crate::text::{self, ClinicFacts, Vars};

mod naming;

use naming::{NEIGHBOURHOODS, organisation_name};

/// Share of clinics that are the only location of their organisation.
const SINGLE_LOCATION_CLINIC_SHARE: f64 = 0.60;
/// Sizes of multi-location organisations and their relative frequencies (mean about 7.2).
const MULTI_LOCATION_SIZES: &[(usize, u32)] = &[
    (2, 30),
    (3, 20),
    (4, 14),
    (5, 10),
    (6, 7),
    (7, 5),
    (8, 4),
    (9, 3),
    (10, 3),
    (11, 2),
    (12, 2),
    (13, 2),
    (14, 2),
    (15, 2),
    (16, 1),
    (17, 1),
    (18, 1),
    (19, 1),
    (20, 1),
    (21, 1),
    (22, 1),
    (23, 1),
    (24, 1),
    (25, 1),
    (26, 1),
    (27, 1),
    (28, 1),
    (29, 1),
    (30, 1),
];
const GROUP_SHARE: f64 = 0.20;
const VIRTUAL_SHARE: f64 = 0.03;
const NOT_ACCEPTING_SHARE: f64 = 0.15;
/// Share of organisations whose locations mostly offer pediatrics (BH); with the 7% of other
/// organisations' locations that do too, about 40% of locations offer it.
const PEDIATRIC_FOCUS_SHARE: f64 = 0.40;
const PORTAL_SHARE: f64 = 0.50;
const REDIRECT_SHARE: f64 = 0.10;
const LONG_DESCRIPTION_SHARE: f64 = 0.30;
/// How far a clinic may sit from its ZIP centroid.
const JITTER_KM: f64 = 2.0;
/// Demo clinics stay close to their ZIP's centroid.
const DEMO_JITTER_KM: f64 = 0.4;

/// The organisations and locations of a catalogue.
pub(crate) struct Clinics {
    pub organisations: Vec<Organisation>,
    pub locations: Vec<Location>,
    /// For each organisation, the index of its first location and how many it has.
    pub spans: Vec<(usize, usize)>,
}

pub(crate) fn generate(clinics: usize, seed: u64, gazetteer: &Gazetteer) -> Clinics {
    let mut builder = Builder {
        places: Places::new(gazetteer),
        census: Census::get(),
        layout: Rng::new(seed, stream::ORGANISATIONS),
        rows: Rng::new(seed, stream::LOCATIONS),
        target: clinics,
        organisations: Vec::with_capacity(clinics * 2 / 3 + 16),
        locations: Vec::with_capacity(clinics),
        spans: Vec::with_capacity(clinics * 2 / 3 + 16),
        slugs: HashSet::new(),
        slug_counters: HashMap::new(),
        location_names: Vec::new(),
    };
    builder.demo_organisations();
    let single_probability = single_organisation_probability();
    while builder.locations.len() < builder.target {
        let remaining = builder.target - builder.locations.len();
        let size = if builder.layout.chance(single_probability) {
            1
        } else {
            pick_weighted(&mut builder.layout, MULTI_LOCATION_SIZES).min(remaining)
        };
        builder.organisation(size);
    }
    Clinics {
        organisations: builder.organisations,
        locations: builder.locations,
        spans: builder.spans,
    }
}

/// The probability that a new organisation has one location, chosen so that about
/// [`SINGLE_LOCATION_CLINIC_SHARE`] of clinics are single: p / (p + (1 - p) * mean) = share.
fn single_organisation_probability() -> f64 {
    let (weighted, total) = MULTI_LOCATION_SIZES
        .iter()
        .fold((0.0, 0.0), |(weighted, total), &(size, weight)| {
            (weighted + size as f64 * f64::from(weight), total + f64::from(weight))
        });
    let mean = weighted / total;
    let share = SINGLE_LOCATION_CLINIC_SHARE;
    share * mean / (1.0 - share + share * mean)
}

/// Organisation-wide traits that its locations share.
struct Profile {
    id: i64,
    name: String,
    home_city: String,
    website: String,
    portal: Option<String>,
    slug: String,
    pediatric_focus: bool,
    multi_location: bool,
}

/// How a demo location's pediatric offer is set.
#[derive(Clone, Copy)]
enum Pediatrics {
    Random,
    None,
    Ages(i16, i16),
}

/// What is fixed about one location; everything else is drawn.
struct Spec {
    location_name: Option<String>,
    is_virtual: bool,
    virtual_states: Option<Vec<String>>,
    accepting: Option<bool>,
    pediatrics: Pediatrics,
    redirect: Option<bool>,
    jitter_km: f64,
}

impl Spec {
    fn drawn() -> Self {
        Self {
            location_name: None,
            is_virtual: false,
            virtual_states: None,
            accepting: None,
            pediatrics: Pediatrics::Random,
            redirect: None,
            jitter_km: JITTER_KM,
        }
    }

    fn demo(location_name: Option<&str>, accepting: bool, pediatrics: Pediatrics) -> Self {
        Self {
            location_name: location_name.map(str::to_owned),
            accepting: Some(accepting),
            pediatrics,
            redirect: Some(false),
            jitter_km: DEMO_JITTER_KM,
            ..Self::drawn()
        }
    }
}

struct Builder<'g> {
    places: Places<'g>,
    census: &'static Census,
    /// Draws the structure: organisation sizes, cities, ZIPs, names.
    layout: Rng,
    /// Draws each location's attributes.
    rows: Rng,
    target: usize,
    organisations: Vec<Organisation>,
    locations: Vec<Location>,
    spans: Vec<(usize, usize)>,
    slugs: HashSet<String>,
    /// How many organisations took each "name-city" slug.
    slug_counters: HashMap<String, u32>,
    /// Location names already used in the current organisation.
    location_names: Vec<String>,
}

impl<'g> Builder<'g> {
    fn full(&self) -> bool {
        self.locations.len() >= self.target
    }

    /// The fixed demo organisations and locations (see [`crate::demo`]).
    fn demo_organisations(&mut self) {
        let ages = Pediatrics::Ages(0, 17);
        let denver = [
            (
                demo::DENVER_ZIP,
                Spec::demo(Some(demo::DENVER_LOCATION_NAME), true, ages),
            ),
            (
                demo::DENVER_WAITLIST_ZIP,
                Spec::demo(Some("Cherry Creek"), false, Pediatrics::Random),
            ),
            (
                "80211",
                Spec {
                    redirect: Some(true),
                    ..Spec::demo(Some("Highlands"), true, Pediatrics::None)
                },
            ),
        ];
        self.demo_organisation(
            demo::DENVER_ORGANISATION_NAME,
            OrganisationKind::Organisation,
            Some(true),
            denver,
        );
        let virtual_states = demo::VIRTUAL_STATES.iter().map(|state| (*state).to_owned()).collect();
        let virtual_clinic = Spec {
            is_virtual: true,
            virtual_states: Some(virtual_states),
            ..Spec::demo(Some("Virtual Clinic"), true, Pediatrics::None)
        };
        self.demo_organisation(
            demo::VIRTUAL_ORGANISATION_NAME,
            OrganisationKind::Organisation,
            Some(false),
            [(demo::DENVER_ZIP, virtual_clinic)],
        );
        let new_york = [
            (
                demo::NEW_YORK_ZIP,
                Spec::demo(Some(demo::NEW_YORK_LOCATION_NAME), true, ages),
            ),
            ("10016", Spec::demo(Some("Murray Hill"), true, Pediatrics::Random)),
        ];
        self.demo_organisation(
            demo::NEW_YORK_ORGANISATION_NAME,
            OrganisationKind::Group,
            None,
            new_york,
        );
        for zip_code in demo::METRO_ZIPS {
            if self.full() {
                return;
            }
            let zip = self.demo_zip(zip_code);
            let kind = self.organisation_kind();
            let profile = self.profile(kind, &zip.city, false, false);
            self.push_organisation(&profile, kind);
            self.push_location(&profile, zip, Spec::demo(None, true, Pediatrics::Random));
            self.close_organisation();
        }
    }

    fn demo_organisation<const N: usize>(
        &mut self,
        name: &str,
        kind: OrganisationKind,
        portal: Option<bool>,
        locations: [(&str, Spec); N],
    ) {
        if self.full() {
            return;
        }
        let home = self.demo_zip(locations[0].0);
        let mut profile = self.profile_named(name.to_owned(), &home.city, N > 1);
        if let Some(portal) = portal {
            profile.portal = portal.then(|| format!("https://portal.{}.example", profile.slug));
        }
        self.push_organisation(&profile, kind);
        for (zip_code, spec) in locations {
            if self.full() {
                break;
            }
            let zip = self.demo_zip(zip_code);
            self.push_location(&profile, zip, spec);
        }
        self.close_organisation();
    }

    fn demo_zip(&self, code: &str) -> &'g ZipPlace {
        self.places
            .zip(code)
            .unwrap_or_else(|| panic!("demo ZIP {code} is not in the gazetteer"))
    }

    /// Generates one organisation with `size` locations.
    fn organisation(&mut self, size: usize) {
        let multi_location = size > 1;
        let home = if multi_location {
            self.places
                .pick_city_of_at_least(size as u32 * 10_000, &mut self.layout)
        } else {
            self.places.pick_city(&mut self.layout)
        };
        let first_zip = self.places.local_zip(home, &mut self.layout);
        let all_virtual = !multi_location && self.layout.chance(VIRTUAL_SHARE);
        let kind = self.organisation_kind();
        let profile = self.profile(kind, &first_zip.city, multi_location, all_virtual);
        self.push_organisation(&profile, kind);
        for index in 0..size {
            let zip = if index == 0 {
                first_zip
            } else {
                match self.layout.below(20) {
                    0..=13 => self.places.local_zip(home, &mut self.layout),
                    14..=18 => self.places.metro_zip(home, &mut self.layout),
                    _ => {
                        let elsewhere = self.places.pick_city(&mut self.layout);
                        self.places.local_zip(elsewhere, &mut self.layout)
                    }
                }
            };
            let is_virtual = all_virtual || (multi_location && self.layout.chance(VIRTUAL_SHARE));
            self.push_location(
                &profile,
                zip,
                Spec {
                    is_virtual,
                    ..Spec::drawn()
                },
            );
        }
        self.close_organisation();
    }

    fn organisation_kind(&mut self) -> OrganisationKind {
        if self.layout.chance(GROUP_SHARE) {
            OrganisationKind::Group
        } else {
            OrganisationKind::Organisation
        }
    }

    fn profile(&mut self, kind: OrganisationKind, city: &str, multi_location: bool, all_virtual: bool) -> Profile {
        let pediatric_focus = self.layout.chance(PEDIATRIC_FOCUS_SHARE);
        let name = organisation_name(kind, city, all_virtual, pediatric_focus, self.census, &mut self.layout);
        let mut profile = self.profile_named(name, city, multi_location);
        profile.pediatric_focus = pediatric_focus;
        profile
    }

    fn profile_named(&mut self, name: String, city: &str, multi_location: bool) -> Profile {
        let slug = self.unique_slug(&name, city);
        let portal = self
            .layout
            .chance(PORTAL_SHARE)
            .then(|| format!("https://portal.{slug}.example"));
        Profile {
            id: self.organisations.len() as i64 + 1,
            website: format!("https://www.{slug}.example"),
            portal,
            slug,
            name,
            home_city: city.to_owned(),
            pediatric_focus: true,
            multi_location,
        }
    }

    /// Returns the slug of `name`, or of `name` and `city` (then a number) when another
    /// organisation already has it, so websites never collide.
    fn unique_slug(&mut self, name: &str, city: &str) -> String {
        let base = slug(name);
        if self.slugs.insert(base.clone()) {
            return base;
        }
        let with_city = format!("{base}-{}", slug(city));
        // Counting per name and city keeps this constant-time when a popular name repeats.
        let counter = self.slug_counters.entry(with_city.clone()).or_insert(0);
        loop {
            *counter += 1;
            let candidate = if *counter == 1 {
                with_city.clone()
            } else {
                format!("{with_city}-{counter}")
            };
            if self.slugs.insert(candidate.clone()) {
                return candidate;
            }
        }
    }

    fn push_organisation(&mut self, profile: &Profile, kind: OrganisationKind) {
        self.organisations.push(Organisation {
            id: profile.id,
            name: profile.name.clone(),
            kind,
            updated_at_micros: 0,
        });
        self.spans.push((self.locations.len(), 0));
        self.location_names.clear();
    }

    fn close_organisation(&mut self) {
        if let Some(span) = self.spans.last_mut() {
            span.1 = self.locations.len() - span.0;
        }
    }

    fn push_location(&mut self, profile: &Profile, zip: &'g ZipPlace, spec: Spec) {
        let rng = &mut self.rows;
        let (lat, lng) = places::jitter(zip.position, spec.jitter_km, rng);
        let address = places::street_address(rng);
        let phone = places::phone(zip, rng);
        let accepting_new_patients = spec.accepting.unwrap_or_else(|| !rng.chance(NOT_ACCEPTING_SHARE));
        let is_virtual = spec.is_virtual;
        let virtual_states = match (is_virtual, spec.virtual_states) {
            (false, _) => Vec::new(),
            (true, Some(states)) => states,
            (true, None) => virtual_states(&zip.state, rng),
        };
        let modalities = modalities(is_virtual, rng);
        let home_care = if is_virtual {
            rng.chance(0.10)
        } else if modalities.in_home {
            rng.chance(0.80)
        } else {
            rng.chance(0.02)
        };
        let pediatrics = match spec.pediatrics {
            Pediatrics::Ages(min, max) => Some((min, max)),
            Pediatrics::None => None,
            Pediatrics::Random => {
                let offers = rng.chance(if profile.pediatric_focus { 0.90 } else { 0.07 });
                offers.then(|| {
                    let min = if rng.chance(0.80) { 0 } else { 2 };
                    let max = if rng.chance(0.85) { 17 } else { 12 };
                    (min, max)
                })
            }
        };
        let mental_health = rng.chance(0.20);
        let urgent_care = rng.chance(0.10);
        let mut service_type_codes = Vec::with_capacity(5);
        service_type_codes.push("30".to_owned());
        service_type_codes.push("98".to_owned());
        for (offered, code) in [(pediatrics.is_some(), "BH"), (mental_health, "MH"), (urgent_care, "UC")] {
            if offered {
                service_type_codes.push(code.to_owned());
            }
        }
        let redirect = spec.redirect.unwrap_or_else(|| rng.chance(REDIRECT_SHARE));
        let post_enrolment_redirect = redirect.then(|| match &profile.portal {
            Some(portal) => format!("{portal}/welcome"),
            None => format!("{}/new-members", profile.website),
        });
        let states_text = virtual_states_text(&virtual_states);
        let vars = Vars {
            name: &profile.name,
            city: &zip.city,
            state: &zip.state,
            states: &states_text,
            min_age: pediatrics.map_or(0, |ages| ages.0),
            max_age: pediatrics.map_or(17, |ages| ages.1),
            ..Vars::default()
        };
        let facts = ClinicFacts {
            is_virtual,
            pediatrics,
            mental_health,
            urgent_care,
            at_work: modalities.at_work,
            in_home: modalities.in_home,
            accepting_new_patients,
        };
        let long = rng.chance(LONG_DESCRIPTION_SHARE);
        let description = text::clinic_description(&vars, &facts, long, rng);
        let location_name = match spec.location_name {
            Some(name) => name,
            None => self.location_name(profile, zip, &address.street, is_virtual),
        };
        self.location_names.push(location_name.clone());
        self.locations.push(Location {
            id: self.locations.len() as i64 + 1,
            organisation_id: profile.id,
            name: profile.name.clone(),
            location_name,
            address1: address.address1,
            city: zip.city.clone(),
            state: zip.state.clone(),
            zip: zip.zip.clone(),
            lat,
            lng,
            position_approximate: false,
            phone,
            website: profile.website.clone(),
            logo: String::new(),
            description,
            accepting_new_patients,
            is_virtual,
            virtual_states,
            home_care,
            modalities,
            service_type_codes,
            pediatric_min_age: pediatrics.map(|ages| ages.0),
            pediatric_max_age: pediatrics.map(|ages| ages.1),
            provider_portal_url: profile.portal.clone(),
            post_enrolment_redirect,
            // Filled by `listings::fill` from a stream of its own.
            hours: None,
            time_zone: None,
            languages: LanguageSet::default(),
            accessibility: AccessibilitySet::default(),
            telehealth: false,
            panel_capacity: None,
            last_verified: None,
            updated_at_micros: 0,
        });
    }

    /// Names a location within its organisation ("Downtown", "Aurora", "Boise North",
    /// "Oak Street Clinic", ...), unique within the organisation.
    fn location_name(&mut self, profile: &Profile, zip: &ZipPlace, street: &str, is_virtual: bool) -> String {
        let rng = &mut self.layout;
        for _ in 0..6 {
            let candidate = if is_virtual {
                if profile.multi_location {
                    "Virtual Care".to_owned()
                } else {
                    "Virtual Clinic".to_owned()
                }
            } else if !profile.multi_location {
                match rng.below(4) {
                    0 | 1 => zip.city.clone(),
                    2 => (*rng.pick(&["Main Office", "Main Clinic", "Family Clinic"])).to_owned(),
                    _ => format!("{street} Clinic"),
                }
            } else {
                match rng.below(20) {
                    0..=3 => (*rng.pick(&["Downtown", "Midtown", "Uptown", "Old Town", "Central"])).to_owned(),
                    4..=8 if zip.city != profile.home_city => zip.city.clone(),
                    4..=8 => format!("{} {}", zip.city, rng.pick(&["North", "South", "East", "West"])),
                    9..=12 => format!("{street} Clinic"),
                    _ => (*rng.pick(NEIGHBOURHOODS)).to_owned(),
                }
            };
            if !self.location_names.contains(&candidate) {
                return candidate;
            }
        }
        format!("{} Clinic {}", zip.city, self.location_names.len() + 1)
    }
}

fn modalities(is_virtual: bool, rng: &mut Rng) -> CareModalities {
    if is_virtual {
        return CareModalities {
            at_clinic: false,
            at_work: false,
            in_home: true,
            phone: rng.chance(0.90),
            text_chat: rng.chance(0.85),
            video: true,
        };
    }
    let mut modalities = CareModalities {
        at_clinic: rng.chance(0.97),
        at_work: rng.chance(0.20),
        in_home: rng.chance(0.10),
        phone: rng.chance(0.85),
        text_chat: rng.chance(0.75),
        video: rng.chance(0.70),
    };
    if !modalities.at_clinic && !modalities.at_work && !modalities.in_home {
        modalities.in_home = true;
    }
    modalities
}

/// The states a virtual clinic serves: its own and up to four others, sorted.
fn virtual_states(own: &str, rng: &mut Rng) -> Vec<String> {
    let mut states = vec![own.to_owned()];
    let extra = pick_weighted(rng, &[(0, 30), (1, 25), (2, 20), (3, 15), (4, 10)]);
    while states.len() < 1 + extra {
        let state = *rng.pick(STATES);
        if !states.iter().any(|existing| existing == state) {
            states.push(state.to_owned());
        }
    }
    states.sort();
    states
}

/// "CO", "CO and WY", "CO, NM and WY".
fn virtual_states_text(states: &[String]) -> String {
    match states {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_probability_yields_sixty_percent_single_clinics() {
        let p = single_organisation_probability();
        assert!((0.88..0.95).contains(&p), "{p}");
    }

    #[test]
    fn virtual_states_text_reads_as_a_list() {
        let states = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(virtual_states_text(&states(&["CO"])), "CO");
        assert_eq!(virtual_states_text(&states(&["CO", "WY"])), "CO and WY");
        assert_eq!(virtual_states_text(&states(&["CO", "NM", "WY"])), "CO, NM and WY");
    }
}
