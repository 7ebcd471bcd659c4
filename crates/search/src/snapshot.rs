//! An immutable search snapshot: built from catalogue rows, written to a generation directory,
//! opened by servers, and patched in memory for small attribute changes; row accessors for the
//! queries. Imports `rows`, `bitset`, `text`, `cards` (the card cache it owns), `combined` (the
//! combined filter sets its filter bitsets own), `pin_records` (made on first use) and `error`,
//! never the query modules (`plan`, `search`, `pins`, `lists`): they depend on it.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use domain::listing::{Accessibility, Language, WeeklyHours};
use domain::{Clinician, Employer, Gender, LatLng, Location, Organisation, PEDIATRICS_SERVICE_TYPE};

use crate::bitset::Bitset;
use crate::cards::CardCache;
use crate::combined::CombinedSets;
use crate::error::SearchError;
use crate::links::{LinkedText, Links};
use crate::pin_records::PinRecords;
use crate::rows::{
    CatalogueVersion, LocationRows, NO_HOURS, NO_SPECIALITY, SnapshotInput, Tables, folded, joined, location_summary,
    location_text, organisations_by_name, sort_into_ordinal_order,
};
use crate::text::{Fields, TextIndex, TextQuery};

const CATALOGUE_FILE: &str = "catalogue.postcard";
const READY_FILE: &str = "READY";
/// The longest text a catalogue row may hold when a snapshot is opened (descriptions are the
/// longest, a few kilobytes).
const LONGEST_STRING: usize = 1 << 20;
/// The first bytes of the catalogue file, naming how its rows are written. Rows written
/// otherwise (by an older build) are refused by name instead of misread; the number goes up
/// whenever the rows' encoding changes.
const CATALOGUE_FORMAT: &[u8; 16] = b"nearcare rows 4\n";
/// The format's name and the length of the locations part that follows it (a little-endian
/// `u64`): the rest of the rows start there, so a server reads the two parts side by side.
const CATALOGUE_HEADER_LEN: u64 = CATALOGUE_FORMAT.len() as u64 + 8;
const LOCATION_TEXT_DIR: &str = "locations";
const CLINICIAN_TEXT_DIR: &str = "clinicians";

/// The parts of a snapshot that never change after the build.
pub(crate) struct Core {
    pub(crate) input: SnapshotInput,
    pub(crate) tables: Tables,
    employer_networks: Vec<OnceLock<Option<Bitset>>>,
    pub(crate) location_text: TextIndex,
    pub(crate) clinician_text: TextIndex,
    /// Structures another crate derives from the rows on first use (see
    /// [`Snapshot::derived_from_rows`]).
    pub(crate) derived_from_rows: OnceLock<Box<dyn Any + Send + Sync>>,
    /// What pins are written from, made beside the serving threads after the first pins
    /// answer asks for them (see [`Snapshot::pin_records`]).
    pin_records: OnceLock<Option<PinRecords>>,
    pin_records_asked: AtomicBool,
}

/// Filter bitsets that a patch may change.
#[derive(Clone)]
pub(crate) struct AttributeBits {
    pub(crate) accepting: Bitset,
    /// Clinicians accepting new patients, by ordinal: the clinician list under the new-patients
    /// filter asks of every clinician it passes, and their rows are a random memory access each.
    pub(crate) clinicians_accepting: Bitset,
    pub(crate) service_types: HashMap<String, Bitset>,
    /// Per language: the locations where it is spoken, by the clinic or one of its clinicians.
    pub(crate) languages: HashMap<Language, Bitset>,
    /// Per language: the clinicians who speak it (by clinician ordinal).
    pub(crate) clinician_languages: HashMap<Language, Bitset>,
    /// Per accessibility code (its position in `Accessibility::ALL`): the locations listing it.
    pub(crate) accessibility: Vec<Bitset>,
    /// The virtual locations accepting new patients in each state, counted on first use: the
    /// new-patients filter alone is a common search, and counting it afresh read two bitsets'
    /// worth of the virtual range (some 900 words at a million locations).
    virtual_accepting: OnceLock<HashMap<String, usize>>,
    /// Sets the filters combine into, made from these bitsets on first use (a copy of the
    /// bitsets, made to patch them, starts without).
    pub(crate) combined: CombinedSets,
}

impl AttributeBits {
    fn build(locations: &[Location], clinicians: &[Clinician], tables: &Tables) -> Self {
        let accepting = Bitset::from_fn(locations.len(), |ordinal| locations[ordinal].accepting_new_patients);
        let clinicians_accepting =
            Bitset::from_fn(clinicians.len(), |ordinal| clinicians[ordinal].accepting_new_patients);
        let mut service_types: HashMap<String, Bitset> = HashMap::new();
        let mut languages: HashMap<Language, Bitset> = HashMap::new();
        let mut accessibility = vec![Bitset::empty(locations.len()); Accessibility::ALL.len()];
        for (ordinal, location) in locations.iter().enumerate() {
            for code in &location.service_type_codes {
                // Looked up by reference: a copy of the code per location was a million allocations.
                match service_types.get_mut(code) {
                    Some(bits) => bits.insert(ordinal),
                    None => {
                        let mut bits = Bitset::empty(locations.len());
                        bits.insert(ordinal);
                        service_types.insert(code.clone(), bits);
                    }
                }
            }
            for language in location.languages.iter() {
                languages
                    .entry(language)
                    .or_insert_with(|| Bitset::empty(locations.len()))
                    .insert(ordinal);
            }
            for (position, code) in Accessibility::ALL.into_iter().enumerate() {
                if location.accessibility.contains(code) {
                    accessibility[position].insert(ordinal);
                }
            }
        }
        let mut clinician_languages: HashMap<Language, Bitset> = HashMap::new();
        for (ordinal, clinician) in clinicians.iter().enumerate() {
            for language in clinician.languages.iter() {
                clinician_languages
                    .entry(language)
                    .or_insert_with(|| Bitset::empty(clinicians.len()))
                    .insert(ordinal);
                for location in tables.clinician_locations.get(ordinal) {
                    languages
                        .entry(language)
                        .or_insert_with(|| Bitset::empty(locations.len()))
                        .insert(*location as usize);
                }
            }
        }
        Self {
            accepting,
            clinicians_accepting,
            service_types,
            languages,
            clinician_languages,
            accessibility,
            virtual_accepting: OnceLock::new(),
            combined: CombinedSets::default(),
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

    /// A changed location's own attributes; its languages are set by [`Self::set_languages`].
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
        for (position, code) in Accessibility::ALL.into_iter().enumerate() {
            self.accessibility[position].set(ordinal, location.accessibility.contains(code));
        }
    }

    /// The languages spoken at a location: exactly `spoken`.
    fn set_languages(&mut self, ordinal: usize, spoken: &[Language], len: usize) {
        for (language, bits) in &mut self.languages {
            bits.set(ordinal, spoken.contains(language));
        }
        for language in spoken {
            self.languages
                .entry(*language)
                .or_insert_with(|| Bitset::empty(len))
                .insert(ordinal);
        }
    }

    /// The languages a clinician speaks: exactly those of `clinician`.
    fn set_clinician_languages(&mut self, ordinal: usize, clinician: &Clinician, len: usize) {
        for (language, bits) in &mut self.clinician_languages {
            bits.set(ordinal, clinician.languages.contains(*language));
        }
        for language in clinician.languages.iter() {
            self.clinician_languages
                .entry(language)
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
    pub(crate) location_overrides: Arc<HashMap<u32, Location>>,
    pub(crate) clinician_overrides: Arc<HashMap<u32, Clinician>>,
    /// Clinicians re-linked by patches (see `links`).
    links: Arc<Links>,
    pub(crate) cards: Arc<CardCache>,
    /// Structures another crate derives from this snapshot, patches included, on first use (see
    /// [`Snapshot::derived`]); a patched snapshot starts without.
    pub(crate) derived: Arc<OnceLock<Box<dyn Any + Send + Sync>>>,
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
        input.share_hours_patterns();
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
            write_rows(file, &mut input)?;
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
        let mut phases = OpenPhases::start();
        let catalogue = directory.join(CATALOGUE_FILE);
        let (mut input, name_order) = read_rows(|| std::fs::File::open(&catalogue), LONGEST_STRING)?;
        phases.end("rows read");
        sort_into_ordinal_order(&mut input.locations);
        phases.end("locations ordered");
        let tables = Tables::with_name_order(&input, Some(name_order));
        phases.end("tables derived");
        let location_text = TextIndex::open(&directory.join(LOCATION_TEXT_DIR), input.locations.len())?;
        let clinician_text = TextIndex::open(&directory.join(CLINICIAN_TEXT_DIR), input.clinicians.len())?;
        phases.end("text indexes opened");
        let mut snapshot = Self::assemble(
            input,
            tables,
            location_text,
            clinician_text,
            Some(directory.to_path_buf()),
        );
        phases.end("filters assembled");
        snapshot.generation = generation;
        Ok(snapshot)
    }

    fn assemble(
        mut input: SnapshotInput,
        tables: Tables,
        location_text: TextIndex,
        clinician_text: TextIndex,
        directory: Option<PathBuf>,
    ) -> Self {
        let bits = AttributeBits::build(&input.locations, &input.clinicians, &tables);
        // `tables.location_hours` says which week each location keeps; the ids are not needed.
        for pattern in &mut input.hours_patterns {
            pattern.location_ids = Vec::new();
        }
        let version = input.version.clone();
        let employer_networks = (0..input.employers.len()).map(|_| OnceLock::new()).collect();
        let core = Core {
            input,
            tables,
            employer_networks,
            location_text,
            clinician_text,
            derived_from_rows: OnceLock::new(),
            pin_records: OnceLock::new(),
            pin_records_asked: AtomicBool::new(false),
        };
        let cards = CardCache::new(core.input.locations.len(), core.tables.location_clinicians.pair_count());
        Self {
            core: Arc::new(core),
            bits: Arc::new(bits),
            location_overrides: Arc::default(),
            clinician_overrides: Arc::default(),
            links: Arc::default(),
            cards: Arc::new(cards),
            derived: Arc::default(),
            generation: 0,
            version,
            directory,
        }
    }

    /// The same snapshot with an empty card cache that keeps at most `bytes` (card text and its slots)
    /// (the default is 16 MiB; tests use a small one to see answers written past it).
    pub fn with_card_budget(&self, bytes: usize) -> Self {
        Self {
            cards: Arc::new(CardCache::with_budget(
                self.location_count(),
                self.card_pair_count(),
                bytes,
            )),
            ..self.clone()
        }
    }

    /// Bytes the card cache keeps now: card text and the slots holding it.
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

    /// A location's opening hours (`None`: the clinic gave none), with any patch applied; the
    /// row itself ([`Snapshot::location`]) carries them only when patched.
    pub fn location_hours(&self, ordinal: usize) -> Option<&WeeklyHours> {
        if !self.location_overrides.is_empty()
            && let Some(patched) = self.location_overrides.get(&(ordinal as u32))
        {
            return patched.hours.as_ref();
        }
        match self.core.tables.location_hours[ordinal] {
            NO_HOURS => None,
            pattern => Some(&self.core.input.hours_patterns[pattern as usize].hours),
        }
    }

    /// How many distinct weeks of opening hours the snapshot keeps (patches aside).
    pub fn hours_pattern_count(&self) -> usize {
        self.core.input.hours_patterns.len()
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
        self.core.tables.location_by_id.get(id).map(|ordinal| ordinal as usize)
    }

    /// The locations' ordinals in the order of their ids (the FHIR API's order).
    pub fn location_ordinals_by_id(&self) -> Vec<u32> {
        self.core.tables.location_by_id.ordinals_in_id_order()
    }

    pub fn clinician_ordinal(&self, id: i64) -> Option<usize> {
        self.core.tables.clinician_by_id.get(id).map(|ordinal| ordinal as usize)
    }

    /// The position in [`Snapshot::organisations`] of a location's organisation.
    pub fn organisation_position_of(&self, location_ordinal: usize) -> u32 {
        self.core.tables.location_organisation[location_ordinal]
    }

    pub fn organisation_of(&self, location_ordinal: usize) -> &Organisation {
        &self.core.input.organisations[self.core.tables.location_organisation[location_ordinal] as usize]
    }

    /// The physical locations' pin records, when they are made. The first call has them made
    /// on a thread of their own and answers `None` (pins are then written from the rows, the
    /// same bytes): made on a serving thread, they held every connection of its core for 0.3 s
    /// at a million locations. Made on first use rather than at open: a server that never
    /// answers pins keeps their 55 MB free, and start-up is not made longer. Patches never
    /// change what they hold: renaming or moving a location, or changing its organisation,
    /// needs a rebuild. `None` too when the ids do not fit them.
    pub(crate) fn pin_records(&self) -> Option<&PinRecords> {
        if let Some(records) = self.core.pin_records.get() {
            return records.as_ref();
        }
        if !self.core.pin_records_asked.swap(true, Ordering::Relaxed) {
            let core = Arc::clone(&self.core);
            let spawned = std::thread::Builder::new().name("pin-records".into()).spawn(move || {
                core.pin_records.get_or_init(|| Self::build_pin_records(&core));
            });
            if spawned.is_err() {
                // Asked again by a later answer; until then pins come from the rows.
                self.core.pin_records_asked.store(false, Ordering::Relaxed);
            }
        }
        None
    }

    /// Makes the pin records on this thread if they are not made yet, and says whether pins are
    /// now written from them (not when the ids do not fit). For tests and benchmarks, which
    /// would otherwise read the rows' answers until the records' own thread is done.
    pub fn make_pin_records(&self) -> bool {
        self.core
            .pin_records
            .get_or_init(|| Self::build_pin_records(&self.core))
            .is_some()
    }

    fn build_pin_records(core: &Core) -> Option<PinRecords> {
        PinRecords::build(&core.input.locations[..core.tables.physical_len], |ordinal| {
            &core.input.organisations[core.tables.location_organisation[ordinal] as usize]
        })
    }

    pub fn organisation(&self, id: i64) -> Option<&Organisation> {
        self.core
            .tables
            .organisation_by_id
            .get(id)
            .map(|ordinal| &self.core.input.organisations[ordinal as usize])
    }

    /// Location ordinals of an organisation.
    pub fn organisation_locations(&self, organisation_id: i64) -> &[u32] {
        match self.core.tables.organisation_by_id.get(organisation_id) {
            Some(ordinal) => self.core.tables.organisation_locations.get(ordinal as usize),
            None => &[],
        }
    }

    /// The clinicians working at a location, by ordinal.
    pub fn clinicians_at(&self, location_ordinal: usize) -> &[u32] {
        if !self.links.location_clinicians.is_empty()
            && let Some(relinked) = self.links.location_clinicians.get(&(location_ordinal as u32))
        {
            return relinked;
        }
        self.core.tables.location_clinicians.get(location_ordinal)
    }

    /// Which pairing of a location's clinicians this is (a card slot); they must be paired.
    pub(crate) fn clinician_link(&self, location_ordinal: usize, clinician_ordinal: usize) -> u32 {
        self.core
            .tables
            .location_clinicians
            .pair_position(location_ordinal, clinician_ordinal as u32)
            .or_else(|| {
                self.links
                    .new_pairs
                    .get(&(location_ordinal as u32, clinician_ordinal as u32))
                    .copied()
            })
            .expect("a clinician card names a location the clinician works at")
    }

    /// Card slots of clinician pairings: the snapshot's own pairs and those patches added.
    fn card_pair_count(&self) -> usize {
        self.core.tables.location_clinicians.pair_count() + self.links.new_pairs.len()
    }

    /// The locations a clinician works at, by ordinal.
    pub fn locations_of(&self, clinician_ordinal: usize) -> &[u32] {
        if !self.links.clinician_locations.is_empty()
            && let Some(relinked) = self.links.clinician_locations.get(&(clinician_ordinal as u32))
        {
            return relinked;
        }
        self.core.tables.clinician_locations.get(clinician_ordinal)
    }

    /// The locations with a clinician of this credential code.
    pub(crate) fn credential_locations(&self, code: u16) -> &Bitset {
        self.links
            .credential_locations
            .get(&code)
            .unwrap_or(&self.core.tables.credential_locations[code as usize])
    }

    /// The locations with a clinician of this speciality code.
    pub(crate) fn speciality_locations(&self, code: u16) -> &Bitset {
        self.links
            .speciality_locations
            .get(&code)
            .unwrap_or(&self.core.tables.speciality_locations[code as usize])
    }

    /// The locations with a clinician of this gender.
    pub(crate) fn gender_locations(&self, gender: Gender) -> &Bitset {
        let position = usize::from(gender == Gender::M);
        self.links.gender_locations[position]
            .as_ref()
            .unwrap_or(&self.core.tables.gender_locations[position])
    }

    /// The locations whose names, or the names of the people working there, match `text`;
    /// `Fields::Primary` for place names only.
    pub(crate) fn location_text_matches(&self, text: &TextQuery, fields: Fields) -> Result<Arc<Bitset>, SearchError> {
        let matches = self.core.location_text.matches(text, fields)?;
        let Some(linked) = self.links.text.as_ref().filter(|_| fields == Fields::All) else {
            return Ok(matches);
        };
        // The snapshot's index still has the re-linked locations' old people.
        let mut combined = (*matches).clone();
        combined.difference_with(&linked.locations);
        combined.union_with(&*linked.index.matches(text, fields)?);
        Ok(Arc::new(combined))
    }

    /// The languages spoken at a location (by the clinic or its clinicians), by code.
    pub fn location_languages(&self, ordinal: usize) -> Vec<Language> {
        let mut spoken: Vec<Language> = self
            .bits
            .languages
            .iter()
            .filter(|(_, locations)| locations.contains(ordinal))
            .map(|(language, _)| *language)
            .collect();
        spoken.sort_unstable_by_key(|language| language.code());
        spoken
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

    /// Applies changed rows that only touch attributes (new patients, modalities, listing
    /// facts, texts shown on cards) or where a clinician works. Anything that moves or renames a
    /// row, or adds one, needs a rebuild.
    pub fn with_changes(
        &self,
        locations: &[Location],
        clinicians: &[Clinician],
        version: CatalogueVersion,
    ) -> Result<Self, NeedsRebuild> {
        let len = self.location_count();
        let mut location_overrides = (*self.location_overrides).clone();
        let mut bits = (*self.bits).clone();
        // Locations whose spoken languages may have changed.
        let mut language_locations: Vec<u32> = Vec::new();
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
            bits.apply(ordinal, changed, len);
            // The patched row keeps its own week: patches are few, and the shared weeks are
            // the build's.
            location_overrides.insert(ordinal as u32, changed.clone());
            language_locations.push(ordinal as u32);
        }
        let mut clinician_overrides = (*self.clinician_overrides).clone();
        let mut moves: Vec<(u32, Vec<u32>)> = Vec::new();
        for changed in clinicians {
            let ordinal = self
                .clinician_ordinal(changed.id)
                .ok_or_else(|| NeedsRebuild(format!("new clinician {}", changed.id)))?;
            let current = &self.core.input.clinicians[ordinal];
            let structural = current.first_name != changed.first_name
                || current.last_name != changed.last_name
                || current.credentials != changed.credentials
                || current.speciality != changed.speciality
                || current.gender != changed.gender;
            if structural {
                return Err(NeedsRebuild(format!(
                    "clinician {} was renamed or re-credentialed",
                    changed.id
                )));
            }
            // In the row's order, as a rebuild lists them.
            let mut works_at: Vec<u32> = Vec::with_capacity(changed.location_ids.len());
            for id in &changed.location_ids {
                let location = self.location_ordinal(*id).ok_or_else(|| {
                    NeedsRebuild(format!(
                        "clinician {} works at location {id}, new to the snapshot",
                        changed.id
                    ))
                })?;
                if !works_at.contains(&(location as u32)) {
                    works_at.push(location as u32);
                }
            }
            let worked_at = self.locations_of(ordinal);
            language_locations.extend(worked_at);
            language_locations.extend(&works_at);
            // The same places in another order count too: a rebuild keeps the rows' order.
            if works_at != worked_at {
                moves.push((ordinal as u32, works_at));
            }
            bits.clinicians_accepting.set(ordinal, changed.accepting_new_patients);
            bits.set_clinician_languages(ordinal, changed, self.clinician_count());
            clinician_overrides.insert(ordinal as u32, changed.clone());
        }
        let mut patched = Self {
            core: Arc::clone(&self.core),
            bits: Arc::clone(&self.bits),
            location_overrides: Arc::new(location_overrides),
            clinician_overrides: Arc::new(clinician_overrides),
            links: Arc::clone(&self.links),
            cards: Arc::clone(&self.cards),
            derived: Arc::default(),
            generation: self.generation,
            version: CatalogueVersion {
                watermark_micros: version.watermark_micros.max(self.version.watermark_micros),
                cursor: version.cursor,
            },
            directory: self.directory.clone(),
        };
        if !moves.is_empty() {
            patched.links =
                Arc::new(patched.relinked(&moves).map_err(|error| {
                    NeedsRebuild(format!("indexing the names of re-linked locations failed: {error}"))
                })?);
        }
        language_locations.sort_unstable();
        language_locations.dedup();
        for ordinal in language_locations {
            let spoken = patched.spoken_at(ordinal as usize);
            bits.set_languages(ordinal as usize, &spoken, len);
        }
        patched.bits = Arc::new(bits);
        patched.cards = Arc::new(CardCache::new(len, patched.card_pair_count()));
        Ok(patched)
    }

    /// The languages of a location's own row and of everyone working there now.
    fn spoken_at(&self, ordinal: usize) -> Vec<Language> {
        let mut spoken: Vec<Language> = self.location(ordinal).languages.iter().collect();
        for clinician in self.clinicians_at(ordinal) {
            spoken.extend(self.clinician(*clinician as usize).languages.iter());
        }
        spoken.sort_unstable();
        spoken.dedup();
        spoken
    }

    /// The links overlay after clinicians moved: `moves` are (clinician, its locations now, in
    /// the row's order), against this snapshot's view.
    fn relinked(&self, moves: &[(u32, Vec<u32>)]) -> Result<Links, SearchError> {
        let tables = &self.core.tables;
        let mut links = (*self.links).clone();
        let mut touched: Vec<u32> = Vec::new();
        for (clinician, works_at) in moves {
            let worked_at = self.locations_of(*clinician as usize).to_vec();
            for location in worked_at.iter().filter(|location| !works_at.contains(location)) {
                let remaining: Vec<u32> = current_clinicians(&links, tables, *location)
                    .iter()
                    .copied()
                    .filter(|other| other != clinician)
                    .collect();
                links
                    .location_clinicians
                    .insert(*location, remaining.into_boxed_slice());
                touched.push(*location);
            }
            for location in works_at.iter().filter(|location| !worked_at.contains(location)) {
                let mut joined = current_clinicians(&links, tables, *location).to_vec();
                // By clinician ordinal, as a rebuild lists a location's clinicians.
                let at = joined.partition_point(|other| other < clinician);
                joined.insert(at, *clinician);
                links.location_clinicians.insert(*location, joined.into_boxed_slice());
                touched.push(*location);
                let own_pair = tables
                    .location_clinicians
                    .pair_position(*location as usize, *clinician)
                    .is_some();
                let next_slot = (tables.location_clinicians.pair_count() + links.new_pairs.len()) as u32;
                if !own_pair {
                    links.new_pairs.entry((*location, *clinician)).or_insert(next_slot);
                }
            }
            links
                .clinician_locations
                .insert(*clinician, works_at.clone().into_boxed_slice());
        }
        touched.sort_unstable();
        touched.dedup();
        let len = self.location_count();
        for location in &touched {
            let clinicians = current_clinicians(&links, tables, *location).to_vec();
            let summary = location_summary(
                &clinicians,
                |clinician| self.clinician(clinician as usize).credentials.as_str(),
                |clinician| tables.clinician_speciality[clinician as usize],
            );
            links.summaries.insert(*location, summary);
            set_coded_locations(
                &mut links.credential_locations,
                &tables.credential_locations,
                clinicians.iter().map(|c| tables.clinician_credential[*c as usize]),
                *location,
            );
            set_coded_locations(
                &mut links.speciality_locations,
                &tables.speciality_locations,
                clinicians.iter().map(|c| tables.clinician_speciality[*c as usize]),
                *location,
            );
            for (position, gender) in [Gender::F, Gender::M].into_iter().enumerate() {
                let wanted = clinicians.iter().any(|c| self.clinician(*c as usize).gender == gender);
                let base = &tables.gender_locations[position];
                let current = links.gender_locations[position].as_ref().unwrap_or(base);
                if current.contains(*location as usize) != wanted {
                    links.gender_locations[position]
                        .get_or_insert_with(|| base.clone())
                        .set(*location as usize, wanted);
                }
            }
        }
        // Every location re-linked so far, not only this patch's: the index is rebuilt whole.
        let mut relinked_locations: Vec<u32> = links.location_clinicians.keys().copied().collect();
        relinked_locations.sort_unstable();
        let texts: Vec<(u32, (String, String))> = relinked_locations
            .iter()
            .map(|location| {
                let (primary, _) = location_text(&self.core.input, tables, *location as usize);
                let people: Vec<String> = current_clinicians(&links, tables, *location)
                    .iter()
                    .map(|c| self.clinician(*c as usize).display_name())
                    .collect();
                (*location, (primary, people.join(" ")))
            })
            .collect();
        let index = TextIndex::build_for_ordinals(texts.into_iter(), len)?;
        links.text = Some(Arc::new(LinkedText {
            locations: Bitset::from_ordinals(len, relinked_locations.iter().map(|l| *l as usize)),
            index,
        }));
        Ok(links)
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
        if let Some((credentials, _)) = self.relinked_summary(ordinal) {
            return credentials;
        }
        &self.core.tables.credential_sets[self.core.tables.location_credential_set[ordinal] as usize]
    }

    /// The most common speciality at a location.
    pub fn location_speciality(&self, ordinal: usize) -> &str {
        let code = match self.relinked_summary(ordinal) {
            Some((_, code)) => *code,
            None => self.core.tables.location_speciality[ordinal],
        };
        match code {
            NO_SPECIALITY => "",
            code => &self.core.tables.speciality_names[code as usize],
        }
    }

    fn relinked_summary(&self, ordinal: usize) -> Option<&(String, u16)> {
        if self.links.summaries.is_empty() {
            return None;
        }
        self.links.summaries.get(&(ordinal as u32))
    }
}

/// A location's clinicians in an overlay being built: its own list there, else the snapshot's.
fn current_clinicians<'a>(links: &'a Links, tables: &'a Tables, location: u32) -> &'a [u32] {
    match links.location_clinicians.get(&location) {
        Some(relinked) => relinked,
        None => tables.location_clinicians.get(location as usize),
    }
}

/// Sets one location's bit in every coded filter set (by credential or speciality code) of the
/// overlay: in the sets of the codes its clinicians have, out of the others, copying the
/// snapshot's set the first time it differs.
fn set_coded_locations(
    copies: &mut HashMap<u16, Bitset>,
    base: &[Bitset],
    present: impl Iterator<Item = u16>,
    location: u32,
) {
    let present: std::collections::HashSet<u16> = present.collect();
    for (code, base) in base.iter().enumerate() {
        let code = code as u16;
        let wanted = present.contains(&code);
        let current = copies.get(&code).unwrap_or(base);
        if current.contains(location as usize) != wanted {
            copies
                .entry(code)
                .or_insert_with(|| base.clone())
                .set(location as usize, wanted);
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

/// Logs how long each phase of opening a snapshot took (at info, so a server's start-up log
/// says where its seconds went).
struct OpenPhases {
    since: std::time::Instant,
}

impl OpenPhases {
    fn start() -> Self {
        Self {
            since: std::time::Instant::now(),
        }
    }

    fn end(&mut self, phase: &'static str) {
        let now = std::time::Instant::now();
        tracing::info!(
            phase,
            millis = (now - self.since).as_millis() as u64,
            "opening a snapshot"
        );
        self.since = now;
    }
}

/// Writes a catalogue file: the format's name, the locations part's length, the locations,
/// then the other rows. In two parts so that a server opening it reads them on two threads:
/// at a million locations reading the rows was three quarters of a server's start, most of it
/// faulting in the memory they fill, which two cores do twice as fast as one.
fn write_rows<W: std::io::Write + std::io::Seek>(mut file: W, input: &mut SnapshotInput) -> Result<(), SearchError> {
    use std::io::SeekFrom;
    file.write_all(CATALOGUE_FORMAT)?;
    file.write_all(&0u64.to_le_bytes())?;
    let mut file = postcard::to_io(&input.locations, file)?;
    let locations_len = file.stream_position()? - CATALOGUE_HEADER_LEN;
    let locations = std::mem::take(&mut input.locations);
    let written = postcard::to_io(&*input, file);
    input.locations = locations;
    let mut file = written?;
    file.seek(SeekFrom::Start(CATALOGUE_FORMAT.len() as u64))?;
    file.write_all(&locations_len.to_le_bytes())?;
    file.flush()?;
    Ok(())
}

/// Reads a catalogue file's rows with a scratch buffer of `longest_text` bytes for each of its
/// two parts, read side by side from two handles that `open` gives; with them, the
/// organisations' name order, which the thread reading the smaller part makes while the
/// locations are still being read. postcard's streaming
/// reader keeps each text read by borrowing for the rest of the file, so every row type must
/// read its texts as owned strings (or not as text): then the buffer bounds the longest text,
/// never their sum.
fn read_rows<R, E>(
    open: impl Fn() -> Result<R, E> + Sync,
    longest_text: usize,
) -> Result<(SnapshotInput, Vec<u32>), SearchError>
where
    R: std::io::Read + std::io::Seek,
    SearchError: From<E>,
{
    use std::io::{BufReader, SeekFrom};
    let refused = || {
        SearchError::Corrupt(format!(
            "not written as {:?} (an older build's snapshot?): publish a new one with `indexer rebuild`",
            String::from_utf8_lossy(CATALOGUE_FORMAT).trim_end()
        ))
    };
    let mut file = open()?;
    let mut header = [0u8; CATALOGUE_HEADER_LEN as usize];
    if file.read_exact(&mut header).is_err() || !header.starts_with(CATALOGUE_FORMAT) {
        return Err(refused());
    }
    let mut length = [0u8; 8];
    length.copy_from_slice(&header[CATALOGUE_FORMAT.len()..]);
    let locations_len = u64::from_le_bytes(length);
    let corrupt = |error: postcard::Error| SearchError::Corrupt(format!("reading its rows: {error}"));
    std::thread::scope(|scope| {
        let rest = scope.spawn(|| -> Result<(SnapshotInput, Vec<u32>), SearchError> {
            let mut file = open()?;
            let start = CATALOGUE_HEADER_LEN
                .checked_add(locations_len)
                .ok_or_else(|| SearchError::Corrupt("its locations part is longer than any file".into()))?;
            file.seek(SeekFrom::Start(start))?;
            let mut scratch = vec![0u8; longest_text];
            let (rest, _): (SnapshotInput, _) =
                postcard::from_io((BufReader::with_capacity(1 << 16, file), &mut scratch)).map_err(corrupt)?;
            let name_order = organisations_by_name(&rest.organisations);
            Ok((rest, name_order))
        });
        let mut scratch = vec![0u8; longest_text];
        let part = BufReader::with_capacity(1 << 16, file.take(locations_len));
        let locations: Result<(LocationRows, _), _> = postcard::from_io((part, &mut scratch));
        let (LocationRows(locations), _) = locations.map_err(corrupt)?;
        let (rest, name_order) = joined(rest)?;
        Ok((SnapshotInput { locations, ..rest }, name_order))
    })
}

#[cfg(test)]
mod tests {
    use gazetteer::Gazetteer;

    use super::*;

    /// Rows as a small seeded catalogue has them, every listing verified.
    fn verified_rows() -> SnapshotInput {
        let config = seed::SeedConfig {
            clinics: 600,
            clinicians: 500,
            seed: 3,
        };
        let catalogue = seed::generate(&config, &Gazetteer::embedded());
        let verified = chrono::DateTime::from_timestamp_micros(1_790_000_000_123_456);
        SnapshotInput {
            organisations: catalogue.organisations,
            locations: catalogue
                .locations
                .into_iter()
                .map(|row| Location {
                    last_verified: verified,
                    ..row
                })
                .collect(),
            clinicians: catalogue
                .clinicians
                .into_iter()
                .map(|row| Clinician {
                    last_verified: verified,
                    ..row
                })
                .collect(),
            employers: catalogue.employers,
            networks: catalogue.networks,
            insurance_plans: catalogue.insurance_plans,
            hours_patterns: Vec::new(),
            version: CatalogueVersion::default(),
        }
    }

    fn written(rows: &SnapshotInput) -> Vec<u8> {
        let mut file = std::io::Cursor::new(Vec::new());
        write_rows(&mut file, &mut rows.clone()).unwrap();
        file.into_inner()
    }

    fn read_written(file: &[u8], longest_text: usize) -> Result<SnapshotInput, SearchError> {
        read_rows(|| Ok::<_, SearchError>(std::io::Cursor::new(file)), longest_text).map(|(rows, _)| rows)
    }

    /// At a million rows the texts read by borrowing (chrono's dates were) outgrew the 1 MiB
    /// buffer together, and no server could open a published snapshot. A buffer the size of
    /// the longest text must read any number of rows.
    #[test]
    fn rows_read_with_a_buffer_the_size_of_their_longest_text() {
        let rows = verified_rows();
        let longest_text = rows
            .locations
            .iter()
            .map(|row| row.description.len().max(row.name.len()))
            .chain(rows.clinicians.iter().map(|row| row.description.len()))
            .max()
            .unwrap();
        let file = written(&rows);
        let (read, name_order) = read_rows(
            || Ok::<_, SearchError>(std::io::Cursor::new(&file[..])),
            longest_text.max(256),
        )
        .unwrap();
        assert_eq!(read, rows);
        assert_eq!(name_order, organisations_by_name(&rows.organisations));
    }

    /// The two parts are read on their own threads; a file cut short in either, or whose
    /// locations part claims more than the file holds, is refused as corrupt, never misread.
    #[test]
    fn a_catalogue_file_cut_short_in_either_part_is_refused() {
        let rows = verified_rows();
        let file = written(&rows);
        let locations_len = u64::from_le_bytes(file[16..24].try_into().unwrap()) as usize;
        assert!(locations_len > 0 && locations_len < file.len());
        for end in [CATALOGUE_HEADER_LEN as usize + locations_len / 2, file.len() - 10] {
            let refused = read_written(&file[..end], LONGEST_STRING).unwrap_err();
            assert!(
                matches!(refused, SearchError::Corrupt(_) | SearchError::Io(_)),
                "cut at {end}: {refused}"
            );
        }
        let mut overlong = file.clone();
        overlong[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(read_written(&overlong, LONGEST_STRING).is_err());
    }

    #[test]
    fn rows_written_in_another_format_are_refused_by_name() {
        let rows = verified_rows();
        let mut older = written(&rows);
        older.drain(..CATALOGUE_FORMAT.len());
        let refused = read_written(&older, LONGEST_STRING).unwrap_err().to_string();
        assert!(refused.contains("indexer rebuild"), "{refused}");
    }
}
