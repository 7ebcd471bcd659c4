//! An immutable search snapshot: built from catalogue rows, written to a generation directory,
//! opened by servers, and patched in memory for small attribute changes; row accessors for the
//! queries. Imports `rows`, `bitset`, `text`, `cards` (the card cache it owns) and `error`,
//! never the query modules (`plan`, `search`, `pins`, `lists`): they depend on it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use domain::{Clinician, Employer, LatLng, Location, Organisation, PEDIATRICS_SERVICE_TYPE};

use crate::bitset::Bitset;
use crate::cards::CardCache;
use crate::error::SearchError;
use crate::rows::{
    CatalogueVersion, NO_SPECIALITY, SnapshotInput, Tables, folded, location_text, sort_into_ordinal_order,
};
use crate::text::TextIndex;

const CATALOGUE_FILE: &str = "catalogue.postcard";
const READY_FILE: &str = "READY";
/// The longest text a catalogue row may hold when a snapshot is opened (descriptions are the
/// longest, a few kilobytes).
const LONGEST_STRING: usize = 1 << 20;
const LOCATION_TEXT_DIR: &str = "locations";
const CLINICIAN_TEXT_DIR: &str = "clinicians";

/// The parts of a snapshot that never change after the build.
pub(crate) struct Core {
    pub(crate) input: SnapshotInput,
    pub(crate) tables: Tables,
    employer_networks: Vec<OnceLock<Option<Bitset>>>,
    pub(crate) location_text: TextIndex,
    pub(crate) clinician_text: TextIndex,
}

/// Filter bitsets that a patch may change.
#[derive(Clone)]
pub(crate) struct AttributeBits {
    pub(crate) accepting: Bitset,
    /// Clinicians accepting new patients, by ordinal: the clinician list under the new-patients
    /// filter asks of every clinician it passes, and their rows are a random memory access each.
    pub(crate) clinicians_accepting: Bitset,
    pub(crate) service_types: HashMap<String, Bitset>,
    /// The virtual locations accepting new patients in each state, counted on first use: the
    /// new-patients filter alone is a common search, and counting it afresh read two bitsets'
    /// worth of the virtual range (some 900 words at a million locations).
    virtual_accepting: OnceLock<HashMap<String, usize>>,
}

impl AttributeBits {
    fn build(locations: &[Location], clinicians: &[Clinician]) -> Self {
        let accepting = Bitset::from_fn(locations.len(), |ordinal| locations[ordinal].accepting_new_patients);
        let clinicians_accepting =
            Bitset::from_fn(clinicians.len(), |ordinal| clinicians[ordinal].accepting_new_patients);
        let mut service_types: HashMap<String, Bitset> = HashMap::new();
        for (ordinal, location) in locations.iter().enumerate() {
            for code in &location.service_type_codes {
                service_types
                    .entry(code.clone())
                    .or_insert_with(|| Bitset::empty(locations.len()))
                    .insert(ordinal);
            }
        }
        Self {
            accepting,
            clinicians_accepting,
            service_types,
            virtual_accepting: OnceLock::new(),
        }
    }

    /// The number of virtual locations serving `state` that accept new patients.
    pub(crate) fn virtual_accepting_in(&self, tables: &Tables, state: &str) -> usize {
        let counts = self.virtual_accepting.get_or_init(|| {
            tables
                .virtual_by_state
                .iter()
                .map(|(state, virtuals)| {
                    let count =
                        self.accepting
                            .count_range_and(&virtuals.members, tables.physical_len, self.accepting.len());
                    (state.clone(), count)
                })
                .collect()
        });
        counts.get(state).copied().unwrap_or(0)
    }

    fn apply(&mut self, ordinal: usize, location: &Location, len: usize) {
        self.virtual_accepting = OnceLock::new();
        self.accepting.set(ordinal, location.accepting_new_patients);
        for (code, bits) in &mut self.service_types {
            bits.set(ordinal, location.offers_service(code));
        }
        for code in &location.service_type_codes {
            self.service_types
                .entry(code.clone())
                .or_insert_with(|| Bitset::empty(len))
                .insert(ordinal);
        }
    }
}

/// A searchable, immutable view of the catalogue.
#[derive(Clone)]
pub struct Snapshot {
    pub(crate) core: Arc<Core>,
    pub(crate) bits: Arc<AttributeBits>,
    location_overrides: Arc<HashMap<u32, Location>>,
    clinician_overrides: Arc<HashMap<u32, Clinician>>,
    pub(crate) cards: Arc<CardCache>,
    /// The published generation this snapshot was loaded from (0 when built in memory).
    pub generation: i64,
    pub version: CatalogueVersion,
    directory: Option<PathBuf>,
}

/// Why a set of changes cannot be patched in and needs a rebuild.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NeedsRebuild(pub String);

impl Snapshot {
    /// Builds a snapshot from rows. With `directory`, the snapshot is written there (a
    /// generation directory) and can later be opened with [`Snapshot::open`].
    pub fn build(input: SnapshotInput, directory: Option<&Path>) -> Result<Self, SearchError> {
        Self::build_with_progress(input, directory, &|_, _, _| {})
    }

    /// Like [`Snapshot::build`], reporting `(stage, done, total)` as it goes.
    pub fn build_with_progress(
        mut input: SnapshotInput,
        directory: Option<&Path>,
        progress: &dyn Fn(&str, u64, u64),
    ) -> Result<Self, SearchError> {
        let total = (input.locations.len() + input.clinicians.len()) as u64;
        progress("ordering locations", 0, total);
        sort_into_ordinal_order(&mut input.locations);
        input.clinicians.sort_by_key(|clinician| clinician.id);
        input.organisations.sort_by_key(|organisation| organisation.id);
        let tables = Tables::new(&input);
        // Texts are made as the index consumes them: at a million rows, holding them all
        // at once would cost hundreds of megabytes at the build's peak.
        let location_count = input.locations.len() as u64;
        let location_text = TextIndex::build(
            directory.map(|d| d.join(LOCATION_TEXT_DIR)).as_deref(),
            (0..input.locations.len()).map(|ordinal| location_text(&input, &tables, ordinal)),
            &|done| progress("indexing locations", done, total),
        )?;
        let clinician_text = TextIndex::build(
            directory.map(|d| d.join(CLINICIAN_TEXT_DIR)).as_deref(),
            input
                .clinicians
                .iter()
                .map(|clinician| (clinician.display_name(), String::new())),
            &|done| progress("indexing clinicians", location_count + done, total),
        )?;
        progress("writing snapshot", total, total);
        if let Some(directory) = directory {
            let file = std::io::BufWriter::new(std::fs::File::create(directory.join(CATALOGUE_FILE))?);
            let mut file = postcard::to_io(&input, file)?;
            std::io::Write::flush(&mut file)?;
            // Written last: a directory without it is an interrupted build and is never opened.
            std::fs::write(directory.join(READY_FILE), b"ready\n")?;
        }
        Ok(Self::assemble(
            input,
            tables,
            location_text,
            clinician_text,
            directory.map(Path::to_path_buf),
        ))
    }

    /// Opens a snapshot written by [`Snapshot::build`].
    pub fn open(directory: &Path, generation: i64) -> Result<Self, SearchError> {
        if !directory.join(READY_FILE).exists() {
            return Err(SearchError::Corrupt(format!(
                "{} is not a finished snapshot",
                directory.display()
            )));
        }
        // Streamed, not read whole: the file is 300 MB at a million locations, and a buffer
        // that size outlived the decoding in the server's resident memory.
        let file = std::io::BufReader::new(std::fs::File::open(directory.join(CATALOGUE_FILE))?);
        let mut scratch = vec![0u8; LONGEST_STRING];
        let (mut input, _): (SnapshotInput, _) = postcard::from_io((file, &mut scratch))?;
        sort_into_ordinal_order(&mut input.locations);
        let tables = Tables::new(&input);
        let location_text = TextIndex::open(&directory.join(LOCATION_TEXT_DIR), input.locations.len())?;
        let clinician_text = TextIndex::open(&directory.join(CLINICIAN_TEXT_DIR), input.clinicians.len())?;
        let mut snapshot = Self::assemble(
            input,
            tables,
            location_text,
            clinician_text,
            Some(directory.to_path_buf()),
        );
        snapshot.generation = generation;
        Ok(snapshot)
    }

    fn assemble(
        input: SnapshotInput,
        tables: Tables,
        location_text: TextIndex,
        clinician_text: TextIndex,
        directory: Option<PathBuf>,
    ) -> Self {
        let bits = AttributeBits::build(&input.locations, &input.clinicians);
        let version = input.version.clone();
        let employer_networks = (0..input.employers.len()).map(|_| OnceLock::new()).collect();
        let core = Core {
            input,
            tables,
            employer_networks,
            location_text,
            clinician_text,
        };
        let cards = CardCache::new(core.input.locations.len(), core.tables.location_clinicians.pair_count());
        Self {
            core: Arc::new(core),
            bits: Arc::new(bits),
            location_overrides: Arc::default(),
            clinician_overrides: Arc::default(),
            cards: Arc::new(cards),
            generation: 0,
            version,
            directory,
        }
    }

    /// The same snapshot with an empty card cache that keeps at most `bytes` of card text
    /// (the default is 16 MiB; tests use a small one to see answers written past it).
    pub fn with_card_budget(&self, bytes: usize) -> Self {
        Self {
            cards: Arc::new(CardCache::with_budget(
                self.location_count(),
                self.core.tables.location_clinicians.pair_count(),
                bytes,
            )),
            ..self.clone()
        }
    }

    /// Bytes of card text the card cache keeps now.
    pub fn cached_card_bytes(&self) -> usize {
        self.cards.kept_bytes()
    }

    pub fn directory(&self) -> Option<&Path> {
        self.directory.as_deref()
    }

    /// True when both name indexes are single segments addressed by ordinal (the fast path).
    pub fn text_indexes_are_compact(&self) -> bool {
        self.core.location_text.doc_ids_are_ordinals() && self.core.clinician_text.doc_ids_are_ordinals()
    }

    pub fn location_count(&self) -> usize {
        self.core.input.locations.len()
    }

    pub fn clinician_count(&self) -> usize {
        self.core.input.clinicians.len()
    }

    pub fn organisations(&self) -> &[Organisation] {
        &self.core.input.organisations
    }

    pub fn employers(&self) -> &[Employer] {
        &self.core.input.employers
    }

    /// Returns the location row at an ordinal, with any patch applied.
    pub fn location(&self, ordinal: usize) -> &Location {
        if !self.location_overrides.is_empty()
            && let Some(patched) = self.location_overrides.get(&(ordinal as u32))
        {
            return patched;
        }
        &self.core.input.locations[ordinal]
    }

    pub fn clinician(&self, ordinal: usize) -> &Clinician {
        if !self.clinician_overrides.is_empty()
            && let Some(patched) = self.clinician_overrides.get(&(ordinal as u32))
        {
            return patched;
        }
        &self.core.input.clinicians[ordinal]
    }

    pub fn location_ordinal(&self, id: i64) -> Option<usize> {
        self.core
            .tables
            .location_by_id
            .get(&id)
            .map(|ordinal| *ordinal as usize)
    }

    pub fn clinician_ordinal(&self, id: i64) -> Option<usize> {
        self.core
            .tables
            .clinician_by_id
            .get(&id)
            .map(|ordinal| *ordinal as usize)
    }

    pub fn organisation_of(&self, location_ordinal: usize) -> &Organisation {
        &self.core.input.organisations[self.core.tables.location_organisation[location_ordinal] as usize]
    }

    pub fn organisation(&self, id: i64) -> Option<&Organisation> {
        self.core
            .tables
            .organisation_by_id
            .get(&id)
            .map(|ordinal| &self.core.input.organisations[*ordinal as usize])
    }

    /// Location ordinals of an organisation.
    pub fn organisation_locations(&self, organisation_id: i64) -> &[u32] {
        match self.core.tables.organisation_by_id.get(&organisation_id) {
            Some(ordinal) => self.core.tables.organisation_locations.get(*ordinal as usize),
            None => &[],
        }
    }

    pub fn clinicians_at(&self, location_ordinal: usize) -> &[u32] {
        self.core.tables.location_clinicians.get(location_ordinal)
    }

    /// Which pairing of a location's clinicians this is; they must be paired.
    pub(crate) fn clinician_link(&self, location_ordinal: usize, clinician_ordinal: usize) -> u32 {
        self.core
            .tables
            .location_clinicians
            .pair_position(location_ordinal, clinician_ordinal as u32)
            .expect("a clinician card names a location the clinician works at")
    }

    pub fn locations_of(&self, clinician_ordinal: usize) -> &[u32] {
        self.core.tables.clinician_locations.get(clinician_ordinal)
    }

    pub fn is_physical(&self, ordinal: usize) -> bool {
        ordinal < self.core.tables.physical_len
    }

    pub fn position(&self, ordinal: usize) -> LatLng {
        let location = &self.core.input.locations[ordinal];
        LatLng {
            lat: location.lat,
            lng: location.lng,
        }
    }

    /// Finds an employer by alias (exact, case-insensitive).
    pub fn employer_by_alias(&self, alias: &str) -> Option<&Employer> {
        self.core
            .tables
            .employer_by_alias
            .get(&alias.trim().to_lowercase())
            .map(|position| &self.core.input.employers[*position as usize])
    }

    /// Finds an employer by company name: an exact case-insensitive match wins, otherwise the
    /// first company name that starts with the text.
    pub fn employer_by_name(&self, name: &str) -> Option<&Employer> {
        let wanted = name.trim().to_lowercase();
        if wanted.is_empty() {
            return None;
        }
        let names = &self.core.tables.employer_names;
        let start = names.partition_point(|(candidate, _)| candidate.as_str() < wanted.as_str());
        let matching = names[start..]
            .iter()
            .take_while(|(candidate, _)| candidate.starts_with(&wanted));
        let mut first = None;
        for (candidate, position) in matching {
            if *candidate == wanted {
                return Some(&self.core.input.employers[*position as usize]);
            }
            first.get_or_insert(*position);
        }
        first.map(|position| &self.core.input.employers[position as usize])
    }

    /// The locations an employer's network allows; `None` when the employer has no network
    /// (the whole marketplace is open to it).
    pub(crate) fn employer_network(&self, employer: &Employer) -> Option<&Bitset> {
        let position = self
            .core
            .input
            .employers
            .iter()
            .position(|candidate| candidate.id == employer.id)?;
        self.core.employer_networks[position]
            .get_or_init(|| {
                if employer.network_organisation_ids.is_empty() {
                    return None;
                }
                let mut allowed = Bitset::empty(self.location_count());
                for organisation_id in &employer.network_organisation_ids {
                    for ordinal in self.organisation_locations(*organisation_id) {
                        allowed.insert(*ordinal as usize);
                    }
                }
                Some(allowed)
            })
            .as_ref()
    }

    /// Applies changed rows that only touch attributes (new patients, modalities, texts shown on
    /// cards). Anything that moves, renames or re-links a row needs a rebuild.
    pub fn with_changes(
        &self,
        locations: &[Location],
        clinicians: &[Clinician],
        version: CatalogueVersion,
    ) -> Result<Self, NeedsRebuild> {
        let mut location_overrides = (*self.location_overrides).clone();
        let mut bits = (*self.bits).clone();
        for changed in locations {
            let ordinal = self
                .location_ordinal(changed.id)
                .ok_or_else(|| NeedsRebuild(format!("new location {}", changed.id)))?;
            let current = &self.core.input.locations[ordinal];
            let structural = current.organisation_id != changed.organisation_id
                || current.name != changed.name
                || current.location_name != changed.location_name
                || current.lat != changed.lat
                || current.lng != changed.lng
                || current.is_virtual != changed.is_virtual
                || current.virtual_states != changed.virtual_states;
            if structural {
                return Err(NeedsRebuild(format!("location {} moved or was renamed", changed.id)));
            }
            bits.apply(ordinal, changed, self.location_count());
            location_overrides.insert(ordinal as u32, changed.clone());
        }
        let mut clinician_overrides = (*self.clinician_overrides).clone();
        for changed in clinicians {
            let ordinal = self
                .clinician_ordinal(changed.id)
                .ok_or_else(|| NeedsRebuild(format!("new clinician {}", changed.id)))?;
            let current = &self.core.input.clinicians[ordinal];
            let mut current_locations = current.location_ids.clone();
            let mut changed_locations = changed.location_ids.clone();
            current_locations.sort_unstable();
            changed_locations.sort_unstable();
            let structural = current.first_name != changed.first_name
                || current.last_name != changed.last_name
                || current.credentials != changed.credentials
                || current.speciality != changed.speciality
                || current.gender != changed.gender
                || current_locations != changed_locations;
            if structural {
                return Err(NeedsRebuild(format!(
                    "clinician {} was renamed, re-credentialed or moved",
                    changed.id
                )));
            }
            bits.clinicians_accepting.set(ordinal, changed.accepting_new_patients);
            clinician_overrides.insert(ordinal as u32, changed.clone());
        }
        Ok(Self {
            core: Arc::clone(&self.core),
            bits: Arc::new(bits),
            location_overrides: Arc::new(location_overrides),
            clinician_overrides: Arc::new(clinician_overrides),
            cards: Arc::new(CardCache::new(
                self.location_count(),
                self.core.tables.location_clinicians.pair_count(),
            )),
            generation: self.generation,
            version: CatalogueVersion {
                watermark_micros: version.watermark_micros.max(self.version.watermark_micros),
                cursor: version.cursor,
            },
            directory: self.directory.clone(),
        })
    }

    /// Whether a location offers pediatrics (service type BH).
    pub fn offers_pediatrics(&self, ordinal: usize) -> bool {
        self.bits
            .service_types
            .get(PEDIATRICS_SERVICE_TYPE)
            .is_some_and(|bits| bits.contains(ordinal))
    }

    /// Credentials of the clinicians at a location, e.g. "MD, NP".
    pub fn location_credentials(&self, ordinal: usize) -> &str {
        &self.core.tables.credential_sets[self.core.tables.location_credential_set[ordinal] as usize]
    }

    /// The most common speciality at a location.
    pub fn location_speciality(&self, ordinal: usize) -> &str {
        match self.core.tables.location_speciality[ordinal] {
            NO_SPECIALITY => "",
            code => &self.core.tables.speciality_names[code as usize],
        }
    }
}

impl Snapshot {
    /// Organisation ordinals whose name equals `name`, ignoring case.
    pub(crate) fn organisations_named(&self, name: &str) -> &[u32] {
        let sorted = &self.core.tables.organisations_by_name;
        let organisations = &self.core.input.organisations;
        let name = name.trim();
        let start = sorted.partition_point(|o| folded(&organisations[*o as usize].name).lt(folded(name)));
        let end =
            start + sorted[start..].partition_point(|o| folded(&organisations[*o as usize].name).eq(folded(name)));
        &sorted[start..end]
    }
}
