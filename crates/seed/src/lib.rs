//! A deterministic generator of a realistic US catalogue: organisations and their clinic
//! locations where people live, clinicians with valid NPIs, employers, marketplace vendors
//! and solutions, payers, plans and an eligibility roster.
//!
//! The same [`SeedConfig`] and day always yield the same [`Catalogue`], on every platform and
//! for ever (the day only dates the listings' `lastVerified`): the random numbers come from a
//! SplitMix64-seeded xoshiro256** written out in this crate, with one stream per table, and only
//! IEEE basic arithmetic touches coordinates.
//! [`demo`] lists the fixed records every catalogue starts with.
//!
//! Main distributions (see the modules for the rest):
//! * clinics: home city drawn by population, one of its nearest ZIP centroids, up to 2 km of
//!   jitter; about 60% of clinics are the only location of their organisation, the others
//!   belong to organisations of 2 to 30 locations clustered in one metro; 20% of organisations
//!   are groups; 3% of locations are virtual; 15% do not accept new patients; about 40% offer
//!   pediatrics (BH), 20% mental health (MH), 10% urgent care (UC);
//! * clinicians: 60% female, MD 45%, DO 15%, NP 25%, PA 10%, FNP/APRN 5%; most work at one
//!   location, some at two or three of the same organisation;
//! * employers: 40 plus one per 5,000 clinics (at most 500); roster: 200 rows plus one per 200
//!   clinics (at most 5,000);
//! * directory: each payer is an organisation without locations managing one network that
//!   half the clinic organisations take part in, and selling its plans on it.

mod clinicians;
mod clinics;
pub mod demo;
mod directory;
mod insurance;
pub mod listings;
mod market;
mod names;
mod places;
mod rng;
mod text;

use domain::Catalogue;
use gazetteer::Gazetteer;

/// How big a catalogue to generate, and from which seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedConfig {
    /// Number of clinic locations.
    pub clinics: usize,
    /// Number of clinicians (at most 100,000,000, the number of distinct NPIs available).
    pub clinicians: usize,
    pub seed: u64,
}

impl Default for SeedConfig {
    fn default() -> Self {
        Self {
            clinics: 1500,
            clinicians: 1200,
            seed: 1,
        }
    }
}

/// Generates the whole catalogue, its listings confirmed over the 200 days before today (UTC).
/// Ids are dense and 1-based in every table; an organisation's locations are contiguous. With
/// `clinics == 0` clinicians have no locations.
pub fn generate(config: &SeedConfig, gazetteer: &Gazetteer) -> Catalogue {
    generate_as_of(config, chrono::Utc::now().date_naive(), gazetteer)
}

/// [`generate`] for a given day: the listings' `lastVerified` dates are spread over the 200 days
/// up to `as_of`. The same configuration and day always give the same catalogue.
pub fn generate_as_of(config: &SeedConfig, as_of: chrono::NaiveDate, gazetteer: &Gazetteer) -> Catalogue {
    let mut clinics = clinics::generate(config.clinics, config.seed, gazetteer);
    let mut clinicians = clinicians::generate(config.clinicians, config.seed, &clinics.locations, &clinics.spans);
    listings::fill(&mut clinics.locations, &mut clinicians, config.seed, as_of);
    let employers = market::employers(
        config.clinics,
        config.seed,
        clinics.organisations.len(),
        &clinics.locations,
    );
    let vendors = market::vendors(config.seed);
    let solutions = market::solutions(&vendors);
    let directory = directory::generate(&clinics.organisations, &clinics.locations, config.seed);
    let plans = insurance::plans();
    let employer_groups = insurance::employer_groups(&employers, &plans, config.seed);
    let roster = insurance::roster(
        insurance::roster_size(config.clinics),
        &employers,
        &employer_groups,
        config.seed,
    );
    let mut organisations = clinics.organisations;
    organisations.extend(directory.payers);
    Catalogue {
        organisations,
        locations: clinics.locations,
        clinicians,
        employers,
        categories: market::categories(),
        vendors,
        solutions,
        solution_rates: market::solution_rates(),
        payers: insurance::payers(),
        plans,
        employer_groups,
        roster,
        networks: directory.networks,
        insurance_plans: directory.insurance_plans,
    }
}
