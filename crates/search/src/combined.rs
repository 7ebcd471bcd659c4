//! Sets that several filters combine into, kept per snapshot's filter bitsets: the locations a
//! search's listing filters leave together (a language and new patients, say), the clinicians a
//! clinician rule lists by language and new patients, and the locations where such a clinician
//! works. At a million locations each is a 125 KB set that every search with those filters
//! copied and combined afresh, and the clinician list read each nearby clinic's clinicians (a
//! random memory access each) to refuse most of them. Imports `bitset`.
//!
//! The cache belongs to the filter bitsets it was made from (`snapshot::AttributeBits`): a patch
//! makes new bitsets, and with them an empty cache, so a patched listing is never answered from a
//! set made before it.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use domain::listing::Language;

use crate::bitset::Bitset;

/// Combined sets kept at once: about 8 MB at a million locations. The listing filters' useful
/// combinations are few (a handful of languages, new patients, a few codes); the bound is
/// against requests naming ever new combinations.
const KEPT_SETS: usize = 64;

/// A search's listing filters: the locations accepting new patients (when `new_patients`),
/// offering every service type, where one of the languages is spoken, and listing every
/// accessibility code (by position in `Accessibility::ALL`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct ListingFilters {
    pub(crate) new_patients: bool,
    pub(crate) service_types: Vec<String>,
    pub(crate) languages: Vec<Language>,
    pub(crate) accessibility: Vec<usize>,
}

/// What a combined set is made of, each list sorted and without repeats so the same filters
/// in another order find the same set.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Combination {
    /// The locations the listing filters admit together.
    Locations(ListingFilters),
    /// The clinicians (by ordinal) who speak one of `languages` (any, when empty) and accept new
    /// patients when `accepting_only`.
    Clinicians {
        accepting_only: bool,
        languages: Vec<Language>,
    },
    /// The locations (by ordinal) where at least one of those clinicians works.
    ClinicianLocations {
        accepting_only: bool,
        languages: Vec<Language>,
    },
}

/// The combined sets made so far, the oldest dropped first past [`KEPT_SETS`].
#[derive(Default)]
pub(crate) struct CombinedSets {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    sets: HashMap<Combination, Arc<Bitset>>,
    made: VecDeque<Combination>,
}

/// A copy starts empty: bitsets are copied only to be patched, and sets combined from the
/// bitsets before the patch must not answer for the patched ones.
impl Clone for CombinedSets {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl CombinedSets {
    /// The set of `combination`, made by `make` the first time (outside the lock: two searches
    /// may both make it, and the first kept is the one shared).
    pub(crate) fn get(&self, combination: &Combination, make: impl FnOnce() -> Bitset) -> Arc<Bitset> {
        if let Some(set) = self.lock().sets.get(combination) {
            return Arc::clone(set);
        }
        let made = Arc::new(make());
        let mut kept = self.lock();
        if let Some(set) = kept.sets.get(combination) {
            return Arc::clone(set);
        }
        if kept.made.len() == KEPT_SETS
            && let Some(oldest) = kept.made.pop_front()
        {
            kept.sets.remove(&oldest);
        }
        kept.made.push_back(combination.clone());
        kept.sets.insert(combination.clone(), Arc::clone(&made));
        made
    }

    /// How many sets are kept now.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().sets.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // A panic while holding the lock left a consistent map (inserts and removes are whole).
        self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clinicians(language: &str) -> Combination {
        Combination::Clinicians {
            accepting_only: false,
            languages: vec![Language::parse(language).unwrap()],
        }
    }

    #[test]
    fn a_set_is_made_once_and_shared_until_more_than_the_bound_are_made() {
        let sets = CombinedSets::default();
        let first = sets.get(&clinicians("es"), || Bitset::full(10));
        let again = sets.get(&clinicians("es"), || unreachable!("kept"));
        assert!(Arc::ptr_eq(&first, &again));
        for ordinal in 0..KEPT_SETS {
            let listing = ListingFilters {
                service_types: vec![ordinal.to_string()],
                ..ListingFilters::default()
            };
            sets.get(&Combination::Locations(listing), || Bitset::empty(10));
        }
        assert_eq!(sets.len(), KEPT_SETS);
        let remade = sets.get(&clinicians("es"), || Bitset::empty(10));
        assert_eq!(remade.count(), 0, "the oldest set was dropped and made again");
        assert_eq!(sets.clone().len(), 0, "a copy starts empty");
    }
}
