//! Clinicians: Census names, valid NPIs, credentials, specialities and where they work.
//!
//! Each clinician has a primary location and, when that location's organisation has several,
//! sometimes one or two more of the same organisation. With at least as many clinicians as
//! locations, clinician n (n <= locations) works at location n, so every location is staffed;
//! with fewer, the demo locations get one each, the other primaries are spread evenly and the
//! extra locations prefer unstaffed ones.

use domain::listing::LanguageSet;
use domain::{Clinician, Gender, Location};

use crate::demo;
use crate::names::Census;
use crate::rng::{Permutation, Rng, pick_weighted, stream};
use crate::text::{self, Licence, Vars};

const FEMALE_SHARE: f64 = 0.60;
const LONG_DESCRIPTION_SHARE: f64 = 0.15;
/// The largest number of clinicians with distinct NPIs (the 8 free digits of "1xxxxxxxx").
pub(crate) const MAX_CLINICIANS: usize = 100_000_000;

const CREDENTIALS: &[((&str, Licence), u32)] = &[
    (("MD", Licence::Physician), 45),
    (("DO", Licence::Physician), 15),
    (("NP", Licence::NursePractitioner), 25),
    (("PA", Licence::PhysicianAssistant), 10),
    (("FNP", Licence::NursePractitioner), 3),
    (("APRN", Licence::NursePractitioner), 2),
];

/// Specialities: (name, frequency, what a physician of it is called, typical interests).
const SPECIALITIES: &[((&str, &str, &str), u32)] = &[
    (
        (
            "Family Medicine",
            "family physician",
            "preventive care, chronic disease management and family health",
        ),
        55,
    ),
    (
        (
            "Internal Medicine",
            "internist",
            "diabetes, heart health and complex chronic conditions",
        ),
        15,
    ),
    (
        (
            "Pediatrics",
            "pediatrician",
            "newborn care, childhood asthma and adolescent health",
        ),
        9,
    ),
    (
        (
            "Geriatrics",
            "geriatrician",
            "healthy aging, memory care and medication management",
        ),
        5,
    ),
    (
        (
            "Women's Health",
            "women's health physician",
            "preventive gynecology, prenatal care and menopause",
        ),
        7,
    ),
    (
        (
            "Sports Medicine",
            "sports medicine physician",
            "sports injuries, joint pain and active lifestyles",
        ),
        4,
    ),
    (
        (
            "Behavioral Health",
            "physician in integrated behavioral health",
            "anxiety, depression and integrated mental health care",
        ),
        5,
    ),
];

/// How many locations a clinician works at, before capping at the organisation's size.
const LOCATION_COUNTS: &[(usize, u32)] = &[(1, 75), (2, 18), (3, 7)];

pub(crate) fn generate(count: usize, seed: u64, locations: &[Location], spans: &[(usize, usize)]) -> Vec<Clinician> {
    assert!(
        count <= MAX_CLINICIANS,
        "at most {MAX_CLINICIANS} clinicians have distinct NPIs"
    );
    let census = Census::get();
    let mut rng = Rng::new(seed, stream::CLINICIANS);
    let npis = NpiSequence::new(&mut Rng::new(seed, stream::IDENTIFIERS));
    let primaries: Vec<usize> = if locations.is_empty() {
        Vec::new()
    } else {
        (0..count)
            .map(|index| primary_location(index, count, locations.len(), &mut rng))
            .collect()
    };
    let mut staffed = vec![false; locations.len()];
    for &primary in &primaries {
        staffed[primary] = true;
    }
    let mut clinicians = Vec::with_capacity(count);
    for index in 0..count {
        let gender = if rng.chance(FEMALE_SHARE) { Gender::F } else { Gender::M };
        let first_name = census.first_name(gender, &mut rng);
        let last_name = census.surname(&mut rng);
        let (credentials, licence) = pick_weighted(&mut rng, CREDENTIALS);
        let (speciality, role, interest) = pick_weighted(&mut rng, SPECIALITIES);
        let location_ids = match primaries.get(index) {
            Some(&primary) => {
                let organisation = locations[primary].organisation_id as usize - 1;
                work_locations(primary, spans[organisation], &mut staffed, &mut rng)
            }
            None => Vec::new(),
        };
        let location_accepts = primaries
            .get(index)
            .is_none_or(|&primary| locations[primary].accepting_new_patients);
        let accepting_new_patients = rng.chance(if location_accepts { 0.93 } else { 0.25 });
        let (pronoun, possessive) = match gender {
            Gender::F => ("she", "her"),
            Gender::M => ("he", "his"),
        };
        let lowercase_speciality = speciality.to_lowercase();
        let vars = Vars {
            first: first_name,
            last: last_name,
            credentials,
            speciality: &lowercase_speciality,
            role,
            interest,
            pronoun,
            possessive,
            number: rng.between(3, 20),
            ..Vars::default()
        };
        let long = rng.chance(LONG_DESCRIPTION_SHARE);
        let description = text::clinician_description(&vars, licence, long, &mut rng);
        clinicians.push(Clinician {
            id: index as i64 + 1,
            npi: npis.get(index as u64),
            first_name: first_name.to_owned(),
            last_name: last_name.to_owned(),
            credentials: credentials.to_owned(),
            category: category(licence).to_owned(),
            speciality: speciality.to_owned(),
            gender,
            accepting_new_patients,
            description,
            logo: String::new(),
            location_ids,
            // Filled by `listings::fill` from a stream of its own.
            languages: LanguageSet::default(),
            telehealth: false,
            last_verified: None,
            updated_at_micros: 0,
        });
    }
    clinicians
}

/// The location a clinician mainly works at. With enough clinicians, clinician n works at
/// location n while there are locations left, then at a random one. With fewer clinicians
/// than locations, the demo locations get one each and the others are evenly spread.
fn primary_location(index: usize, clinicians: usize, locations: usize, rng: &mut Rng) -> usize {
    if clinicians >= locations {
        return if index < locations { index } else { rng.below(locations) };
    }
    let fixed = demo::LOCATION_COUNT.min(clinicians);
    if index < fixed {
        return index;
    }
    let spread = (index - fixed) as u128 * (locations - fixed) as u128 / (clinicians - fixed) as u128;
    fixed + spread as usize
}

/// The primary location's id first, then up to two more of the same organisation, unstaffed
/// ones preferred.
fn work_locations(primary: usize, (first, size): (usize, usize), staffed: &mut [bool], rng: &mut Rng) -> Vec<i64> {
    let wanted = pick_weighted(rng, LOCATION_COUNTS).min(size);
    let mut chosen = Vec::with_capacity(wanted);
    chosen.push(primary);
    if wanted > 1 {
        let start = rng.below(size);
        let others = (0..size).map(|offset| first + (start + offset) % size);
        let mut candidates: Vec<usize> = others.filter(|&location| location != primary).collect();
        // Stable sort: unstaffed locations first, otherwise in the random rotation's order.
        candidates.sort_by_key(|&location| staffed[location]);
        for location in candidates.into_iter().take(wanted - 1) {
            staffed[location] = true;
            chosen.push(location);
        }
    }
    chosen.into_iter().map(|location| location as i64 + 1).collect()
}

fn category(licence: Licence) -> &'static str {
    match licence {
        Licence::Physician => "Physician",
        Licence::NursePractitioner => "Nurse Practitioner",
        Licence::PhysicianAssistant => "Physician Assistant",
    }
}

/// Distinct NPIs: "1", then a keyed permutation of the clinician's index over the 8 free
/// digits, then the check digit.
struct NpiSequence {
    permutation: Permutation,
}

impl NpiSequence {
    fn new(rng: &mut Rng) -> Self {
        Self {
            permutation: Permutation::new(MAX_CLINICIANS as u64, rng),
        }
    }

    fn get(&self, index: u64) -> String {
        let base = MAX_CLINICIANS as u64 + self.permutation.apply(index);
        format!("{base}{}", domain::npi::check_digit(base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npi_sequence_is_a_bijection_on_a_sample() {
        let npis = NpiSequence::new(&mut Rng::new(9, 0));
        let mut seen = std::collections::HashSet::new();
        for index in 0..50_000 {
            let npi = npis.get(index);
            assert_eq!(npi.len(), 10);
            assert!(npi.starts_with('1'));
            assert!(seen.insert(npi));
        }
    }

    #[test]
    fn primaries_cover_every_location_when_there_are_enough_clinicians() {
        let mut rng = Rng::new(1, 0);
        let primaries: Vec<usize> = (0..12).map(|index| primary_location(index, 12, 10, &mut rng)).collect();
        assert_eq!(&primaries[..10], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let few: Vec<usize> = (0..4).map(|index| primary_location(index, 4, 10, &mut rng)).collect();
        assert_eq!(few, [0, 1, 2, 3]);
        let spread: Vec<usize> = (17..25)
            .map(|index| primary_location(index, 25, 100, &mut rng))
            .collect();
        assert_eq!(spread, [17, 18, 19, 32, 46, 59, 73, 86]);
    }
}
