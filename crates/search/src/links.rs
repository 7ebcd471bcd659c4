//! Clinicians re-linked by a patch: where a clinician works changed since the snapshot was
//! built (a provider edited `locationIds`). The snapshot's own relation lists, per-location
//! summaries, clinician-filter sets and name index stay as built; this overlay holds the lists
//! of the clinicians and locations that changed, the card slots of new pairings, the summaries
//! and filter sets recomputed for the locations concerned, and a small name index of their texts
//! (a location is found by the names of the people who work there). Empty until a patch
//! re-links someone, and then as small as what changed. Imports `bitset` and `text`.

use std::collections::HashMap;
use std::sync::Arc;

use crate::bitset::Bitset;
use crate::text::TextIndex;

/// What re-linked clinicians changed, by ordinal.
#[derive(Clone, Default)]
pub(crate) struct Links {
    /// Clinicians whose locations changed: their locations now.
    pub(crate) clinician_locations: HashMap<u32, Box<[u32]>>,
    /// Locations whose clinicians changed: their clinicians now.
    pub(crate) location_clinicians: HashMap<u32, Box<[u32]>>,
    /// Card slots of (location, clinician) pairings the snapshot's lists do not hold, numbered
    /// after the snapshot's own pairs.
    pub(crate) new_pairs: HashMap<(u32, u32), u32>,
    /// Per changed location: its clinicians' credentials ("MD, NP") and most common speciality.
    pub(crate) summaries: HashMap<u32, (String, u16)>,
    /// Filter sets (locations with such a clinician) that changed, by credential, speciality
    /// and gender (F, M) code.
    pub(crate) credential_locations: HashMap<u16, Bitset>,
    pub(crate) speciality_locations: HashMap<u16, Bitset>,
    pub(crate) gender_locations: [Option<Bitset>; 2],
    /// The changed locations' name texts, searched in place of the snapshot's for them.
    pub(crate) text: Option<Arc<LinkedText>>,
}

/// The name texts of the locations whose clinicians changed.
pub(crate) struct LinkedText {
    /// Those locations: the snapshot's index answers for every other one.
    pub(crate) locations: Bitset,
    pub(crate) index: TextIndex,
}
