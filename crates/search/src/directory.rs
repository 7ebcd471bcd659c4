//! What the provider directory (the FHIR API in `crates/fhir`) reads from a snapshot besides
//! the rows: networks and insurance plans, the rows a patch replaced, a nearest-first walk of the
//! physical locations with a caller's filter, and room for the structures it derives from a
//! snapshot. Imports `snapshot`, `spatial`.

use std::any::Any;

use domain::geo::miles_for_chord;
use domain::{InsurancePlan, LatLng, Network};

use crate::snapshot::Snapshot;
use crate::spatial::chord_limit;

impl Snapshot {
    pub fn networks(&self) -> &[Network] {
        &self.core.input.networks
    }

    pub fn insurance_plans(&self) -> &[InsurancePlan] {
        &self.core.input.insurance_plans
    }

    /// Ordinals of the locations a patch replaced: their rows may differ from what structures
    /// built from the original rows say (see [`Self::derived_from_rows`]).
    pub fn patched_location_ordinals(&self) -> impl Iterator<Item = usize> + '_ {
        self.location_overrides.keys().map(|ordinal| *ordinal as usize)
    }

    /// Ordinals of the clinicians a patch replaced.
    pub fn patched_clinician_ordinals(&self) -> impl Iterator<Item = usize> + '_ {
        self.clinician_overrides.keys().map(|ordinal| *ordinal as usize)
    }

    /// The physical locations within `radius_miles` of `origin` that `keep` lets through,
    /// nearest first by great-circle distance (ties by ordinal), each with its distance in
    /// miles: the marketplace's R-tree walk, lazily, so a page reads only what it shows.
    pub fn nearest_physical<'a>(
        &'a self,
        origin: LatLng,
        radius_miles: f64,
        keep: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = (usize, f64)> + 'a {
        let mut walk =
            self.core
                .tables
                .trees
                .nearest_first(origin.unit_vector(), chord_limit(radius_miles), move |ordinal| {
                    keep(ordinal as usize)
                });
        // The tree's points are the Morton index's unit vectors, so the walk's chord is the
        // one the marketplace measures miles by.
        std::iter::from_fn(move || walk.next_with_chord_2())
            .map(|(ordinal, chord_2)| (ordinal, miles_for_chord(chord_2.sqrt())))
    }

    /// A structure derived from the rows as they were built (patches not applied), made by
    /// `build` on first use and kept for the life of the snapshot and the ones patched from it.
    /// One type per snapshot: the FHIR API's indexes.
    ///
    /// # Panics
    /// When asked for another type than the first call made.
    pub fn derived_from_rows<T: Any + Send + Sync>(&self, build: impl FnOnce(&Self) -> T) -> &T {
        self.core
            .derived_from_rows
            .get_or_init(|| Box::new(build(self)))
            .downcast_ref()
            .expect("one type is derived from a snapshot's rows")
    }

    /// A structure derived from this snapshot, patches included, made by `build` on first use;
    /// a patched snapshot starts without. One type per snapshot: the FHIR API's rendered
    /// resources.
    ///
    /// # Panics
    /// When asked for another type than the first call made.
    pub fn derived<T: Any + Send + Sync>(&self, build: impl FnOnce(&Self) -> T) -> &T {
        self.derived
            .get_or_init(|| Box::new(build(self)))
            .downcast_ref()
            .expect("one type is derived from a snapshot")
    }
}
