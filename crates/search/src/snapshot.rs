//! An immutable search snapshot: built from catalogue rows, written to a generation directory,
//! opened by servers, and patched in memory for small attribute changes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use domain::{Clinician, Employer, Gender, LatLng, Location, Organisation, PEDIATRICS_SERVICE_TYPE};
use serde::{Deserialize, Serialize};

use crate::SearchError;
use crate::bitset::Bitset;
use crate::cards::CardCache;
use crate::spatial::{MortonIndex, SpatialTrees, morton_code};
use crate::text::TextIndex;

const CATALOGUE_FILE: &str = "catalogue.postcard";
const READY_FILE: &str = "READY";
const LOCATION_TEXT_DIR: &str = "locations";
const CLINICIAN_TEXT_DIR: &str = "clinicians";

/// The rows a snapshot is built from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SnapshotInput {
    pub organisations: Vec<Organisation>,
    pub locations: Vec<Location>,
    pub clinicians: Vec<Clinician>,
    pub employers: Vec<Employer>,
    /// Microseconds since the Unix epoch of the newest catalogue change included.
    pub watermark_micros: i64,
}

/// Lists of ordinals per entity, in compressed sparse row form.
#[derive(Debug, Default)]
pub(crate) struct Lists {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    fn from_pairs(owners: usize, pairs: &[(u32, u32)]) -> Self {
        let mut counts = vec![0u32; owners + 1];
        for (owner, _) in pairs {
            counts[*owner as usize + 1] += 1;
        }
        for position in 1..counts.len() {
            counts[position] += counts[position - 1];
        }
        let offsets = counts.clone();
        let mut items = vec![0u32; pairs.len()];
        let mut cursor = counts;
        for (owner, item) in pairs {
            items[cursor[*owner as usize] as usize] = *item;
            cursor[*owner as usize] += 1;
        }
        Self { offsets, items }
    }

    pub(crate) fn get(&self, owner: usize) -> &[u32] {
        &self.items[self.offsets[owner] as usize..self.offsets[owner + 1] as usize]
    }

    /// The position of the pairing (`owner`, `item`) among all pairs.
    pub(crate) fn pair_position(&self, owner: usize, item: u32) -> Option<u32> {
        let at = self.get(owner).iter().position(|candidate| *candidate == item)?;
        Some(self.offsets[owner] + at as u32)
    }

    pub(crate) fn pair_count(&self) -> usize {
        self.items.len()
    }
}

/// The parts of a snapshot that never change after the build.
pub(crate) struct Core {
    pub(crate) input: SnapshotInput,
    /// Ordinals `0..physical_len` are physical locations in Morton order; the rest are virtual.
    pub(crate) physical_len: usize,
    pub(crate) location_organisation: Vec<u32>,
    pub(crate) location_clinicians: Lists,
    pub(crate) clinician_locations: Lists,
    pub(crate) organisation_locations: Lists,
    pub(crate) location_by_id: HashMap<i64, u32>,
    pub(crate) clinician_by_id: HashMap<i64, u32>,
    pub(crate) organisation_by_id: HashMap<i64, u32>,
    /// Organisation ordinals sorted by case-folded name, for name filters.
    pub(crate) organisations_by_name: Vec<u32>,
    pub(crate) employer_by_alias: HashMap<String, u32>,
    /// Lower-cased company names with employer positions, sorted for prefix matching.
    pub(crate) employer_names: Vec<(String, u32)>,
    employer_networks: Vec<OnceLock<Option<Bitset>>>,
    pub(crate) clinician_credential: Vec<u16>,
    pub(crate) clinician_speciality: Vec<u16>,
    pub(crate) credential_names: Vec<String>,
    pub(crate) speciality_names: Vec<String>,
    /// Per location: its clinicians' credentials ("MD, NP") as an index into `credential_sets`.
    pub(crate) location_credential_set: Vec<u32>,
    pub(crate) credential_sets: Vec<String>,
    /// Per location: the most common speciality code, or `NO_SPECIALITY`.
    pub(crate) location_speciality: Vec<u16>,
    /// Per credential / speciality / gender: the locations with such a clinician.
    pub(crate) credential_locations: Vec<Bitset>,
    pub(crate) speciality_locations: Vec<Bitset>,
    pub(crate) gender_locations: [Bitset; 2],
    pub(crate) physical: Bitset,
    /// Virtual locations serving each state, sorted by name.
    pub(crate) virtual_by_state: HashMap<String, Vec<u32>>,
    pub(crate) morton: MortonIndex,
    pub(crate) trees: SpatialTrees,
    pub(crate) location_text: TextIndex,
    pub(crate) clinician_text: TextIndex,
}

/// Filter bitsets that a patch may change.
#[derive(Clone)]
pub(crate) struct AttributeBits {
    pub(crate) accepting: Bitset,
    pub(crate) service_types: HashMap<String, Bitset>,
}

impl AttributeBits {
    fn build(locations: &[Location]) -> Self {
        let accepting = Bitset::from_fn(locations.len(), |ordinal| locations[ordinal].accepting_new_patients);
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
            service_types,
        }
    }

    fn apply(&mut self, ordinal: usize, location: &Location, len: usize) {
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
    pub watermark_micros: i64,
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
        let derived = Derived::new(&input);
        // Texts are made as the index consumes them: at a million rows, holding them all
        // at once would cost hundreds of megabytes at the build's peak.
        let location_count = input.locations.len() as u64;
        let location_text = TextIndex::build(
            directory.map(|d| d.join(LOCATION_TEXT_DIR)).as_deref(),
            (0..input.locations.len()).map(|ordinal| location_text(&input, &derived, ordinal)),
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
            derived,
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
        let bytes = std::fs::read(directory.join(CATALOGUE_FILE))?;
        let mut input: SnapshotInput = postcard::from_bytes(&bytes)?;
        sort_into_ordinal_order(&mut input.locations);
        let derived = Derived::new(&input);
        let location_text = TextIndex::open(&directory.join(LOCATION_TEXT_DIR), input.locations.len())?;
        let clinician_text = TextIndex::open(&directory.join(CLINICIAN_TEXT_DIR), input.clinicians.len())?;
        let mut snapshot = Self::assemble(
            input,
            derived,
            location_text,
            clinician_text,
            Some(directory.to_path_buf()),
        );
        snapshot.generation = generation;
        Ok(snapshot)
    }

    fn assemble(
        input: SnapshotInput,
        derived: Derived,
        location_text: TextIndex,
        clinician_text: TextIndex,
        directory: Option<PathBuf>,
    ) -> Self {
        let bits = AttributeBits::build(&input.locations);
        let watermark_micros = input.watermark_micros;
        let employer_networks = (0..input.employers.len()).map(|_| OnceLock::new()).collect();
        let core = Core {
            physical_len: derived.physical_len,
            location_organisation: derived.location_organisation,
            location_clinicians: derived.location_clinicians,
            clinician_locations: derived.clinician_locations,
            organisation_locations: derived.organisation_locations,
            location_by_id: derived.location_by_id,
            clinician_by_id: derived.clinician_by_id,
            organisation_by_id: derived.organisation_by_id,
            organisations_by_name: derived.organisations_by_name,
            employer_by_alias: derived.employer_by_alias,
            employer_names: derived.employer_names,
            employer_networks,
            clinician_credential: derived.clinician_credential,
            clinician_speciality: derived.clinician_speciality,
            credential_names: derived.credential_names,
            speciality_names: derived.speciality_names,
            location_credential_set: derived.location_credential_set,
            credential_sets: derived.credential_sets,
            location_speciality: derived.location_speciality,
            credential_locations: derived.credential_locations,
            speciality_locations: derived.speciality_locations,
            gender_locations: derived.gender_locations,
            physical: derived.physical,
            virtual_by_state: derived.virtual_by_state,
            morton: derived.morton,
            trees: derived.trees,
            location_text,
            clinician_text,
            input,
        };
        let cards = CardCache::new(core.input.locations.len(), core.location_clinicians.pair_count());
        Self {
            core: Arc::new(core),
            bits: Arc::new(bits),
            location_overrides: Arc::default(),
            clinician_overrides: Arc::default(),
            cards: Arc::new(cards),
            generation: 0,
            watermark_micros,
            directory,
        }
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
        self.core.location_by_id.get(&id).map(|ordinal| *ordinal as usize)
    }

    pub fn clinician_ordinal(&self, id: i64) -> Option<usize> {
        self.core.clinician_by_id.get(&id).map(|ordinal| *ordinal as usize)
    }

    pub fn organisation_of(&self, location_ordinal: usize) -> &Organisation {
        &self.core.input.organisations[self.core.location_organisation[location_ordinal] as usize]
    }

    pub fn organisation(&self, id: i64) -> Option<&Organisation> {
        self.core
            .organisation_by_id
            .get(&id)
            .map(|ordinal| &self.core.input.organisations[*ordinal as usize])
    }

    /// Location ordinals of an organisation.
    pub fn organisation_locations(&self, organisation_id: i64) -> &[u32] {
        match self.core.organisation_by_id.get(&organisation_id) {
            Some(ordinal) => self.core.organisation_locations.get(*ordinal as usize),
            None => &[],
        }
    }

    pub fn clinicians_at(&self, location_ordinal: usize) -> &[u32] {
        self.core.location_clinicians.get(location_ordinal)
    }

    /// Which pairing of a location's clinicians this is; they must be paired.
    pub(crate) fn clinician_link(&self, location_ordinal: usize, clinician_ordinal: usize) -> u32 {
        self.core
            .location_clinicians
            .pair_position(location_ordinal, clinician_ordinal as u32)
            .expect("a clinician card names a location the clinician works at")
    }

    pub fn locations_of(&self, clinician_ordinal: usize) -> &[u32] {
        self.core.clinician_locations.get(clinician_ordinal)
    }

    pub fn is_physical(&self, ordinal: usize) -> bool {
        ordinal < self.core.physical_len
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
        let names = &self.core.employer_names;
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
        watermark_micros: i64,
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
            clinician_overrides.insert(ordinal as u32, changed.clone());
        }
        Ok(Self {
            core: Arc::clone(&self.core),
            bits: Arc::new(bits),
            location_overrides: Arc::new(location_overrides),
            clinician_overrides: Arc::new(clinician_overrides),
            cards: Arc::new(CardCache::new(
                self.location_count(),
                self.core.location_clinicians.pair_count(),
            )),
            generation: self.generation,
            watermark_micros: watermark_micros.max(self.watermark_micros),
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
        &self.core.credential_sets[self.core.location_credential_set[ordinal] as usize]
    }

    /// The most common speciality at a location.
    pub fn location_speciality(&self, ordinal: usize) -> &str {
        match self.core.location_speciality[ordinal] {
            NO_SPECIALITY => "",
            code => &self.core.speciality_names[code as usize],
        }
    }
}

/// Case-folded characters of a name, for comparing without allocating.
pub(crate) fn folded(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars().flat_map(char::to_lowercase)
}

impl Snapshot {
    /// Organisation ordinals whose name equals `name`, ignoring case.
    pub(crate) fn organisations_named(&self, name: &str) -> &[u32] {
        let sorted = &self.core.organisations_by_name;
        let organisations = &self.core.input.organisations;
        let name = name.trim();
        let start = sorted.partition_point(|o| folded(&organisations[*o as usize].name).lt(folded(name)));
        let end =
            start + sorted[start..].partition_point(|o| folded(&organisations[*o as usize].name).eq(folded(name)));
        &sorted[start..end]
    }
}

/// Orders locations: physical ones by Morton code (then id), virtual ones after, by id.
fn sort_into_ordinal_order(locations: &mut [Location]) {
    locations.sort_by_cached_key(|location| {
        let code = if location.is_virtual {
            u64::MAX
        } else {
            morton_code(LatLng {
                lat: location.lat,
                lng: location.lng,
            })
        };
        (location.is_virtual, code, location.id)
    });
}

/// The texts a location is found by: its place names, and the names of the people there.
fn location_text(input: &SnapshotInput, derived: &Derived, ordinal: usize) -> (String, String) {
    let location = &input.locations[ordinal];
    let organisation = &input.organisations[derived.location_organisation[ordinal] as usize];
    let primary = format!("{} {} {}", location.name, location.location_name, organisation.name);
    let people: Vec<String> = derived
        .location_clinicians
        .get(ordinal)
        .iter()
        .map(|c| input.clinicians[*c as usize].display_name())
        .collect();
    (primary, people.join(" "))
}

/// Everything derived from the rows, shared by build and open.
struct Derived {
    physical_len: usize,
    location_organisation: Vec<u32>,
    location_clinicians: Lists,
    clinician_locations: Lists,
    organisation_locations: Lists,
    location_by_id: HashMap<i64, u32>,
    clinician_by_id: HashMap<i64, u32>,
    organisation_by_id: HashMap<i64, u32>,
    organisations_by_name: Vec<u32>,
    employer_by_alias: HashMap<String, u32>,
    employer_names: Vec<(String, u32)>,
    clinician_credential: Vec<u16>,
    clinician_speciality: Vec<u16>,
    credential_names: Vec<String>,
    speciality_names: Vec<String>,
    location_credential_set: Vec<u32>,
    credential_sets: Vec<String>,
    location_speciality: Vec<u16>,
    credential_locations: Vec<Bitset>,
    speciality_locations: Vec<Bitset>,
    gender_locations: [Bitset; 2],
    physical: Bitset,
    virtual_by_state: HashMap<String, Vec<u32>>,
    morton: MortonIndex,
    trees: SpatialTrees,
}

impl Derived {
    fn new(input: &SnapshotInput) -> Self {
        let locations = &input.locations;
        let location_count = locations.len();
        let physical_len = locations.iter().take_while(|location| !location.is_virtual).count();
        let organisation_by_id: HashMap<i64, u32> = input
            .organisations
            .iter()
            .enumerate()
            .map(|(ordinal, organisation)| (organisation.id, ordinal as u32))
            .collect();
        // Sorted ordinals rather than a map of lower-cased copies: a million locations bring
        // hundreds of thousands of organisations, and the names are already in the rows.
        let mut organisations_by_name: Vec<u32> = (0..input.organisations.len() as u32).collect();
        organisations_by_name.sort_by(|a, b| {
            folded(&input.organisations[*a as usize].name).cmp(folded(&input.organisations[*b as usize].name))
        });
        // A location whose organisation is missing is attached to the first one rather than
        // dropped; the database's foreign key makes this unreachable in practice.
        let location_organisation: Vec<u32> = locations
            .iter()
            .map(|location| organisation_by_id.get(&location.organisation_id).copied().unwrap_or(0))
            .collect();
        let location_by_id: HashMap<i64, u32> = locations
            .iter()
            .enumerate()
            .map(|(ordinal, location)| (location.id, ordinal as u32))
            .collect();
        let clinician_by_id: HashMap<i64, u32> = input
            .clinicians
            .iter()
            .enumerate()
            .map(|(ordinal, clinician)| (clinician.id, ordinal as u32))
            .collect();

        let mut clinician_location_pairs = Vec::new();
        for (clinician_ordinal, clinician) in input.clinicians.iter().enumerate() {
            for location_id in &clinician.location_ids {
                if let Some(location_ordinal) = location_by_id.get(location_id) {
                    clinician_location_pairs.push((clinician_ordinal as u32, *location_ordinal));
                }
            }
        }
        let clinician_locations = Lists::from_pairs(input.clinicians.len(), &clinician_location_pairs);
        let location_clinician_pairs: Vec<(u32, u32)> =
            clinician_location_pairs.iter().map(|(c, l)| (*l, *c)).collect();
        let location_clinicians = Lists::from_pairs(location_count, &location_clinician_pairs);
        let organisation_location_pairs: Vec<(u32, u32)> = location_organisation
            .iter()
            .enumerate()
            .map(|(location, organisation)| (*organisation, location as u32))
            .collect();
        let organisation_locations = Lists::from_pairs(input.organisations.len().max(1), &organisation_location_pairs);

        let (clinician_credential, credential_names) =
            dictionary(input.clinicians.iter().map(|c| c.credentials.as_str()));
        let (clinician_speciality, speciality_names) =
            dictionary(input.clinicians.iter().map(|c| c.speciality.as_str()));
        let mut credential_locations = vec![Bitset::empty(location_count); credential_names.len()];
        let mut speciality_locations = vec![Bitset::empty(location_count); speciality_names.len()];
        let mut gender_locations = [Bitset::empty(location_count), Bitset::empty(location_count)];
        for (clinician_ordinal, clinician) in input.clinicians.iter().enumerate() {
            for location in clinician_locations.get(clinician_ordinal) {
                let location = *location as usize;
                credential_locations[clinician_credential[clinician_ordinal] as usize].insert(location);
                speciality_locations[clinician_speciality[clinician_ordinal] as usize].insert(location);
                gender_locations[usize::from(clinician.gender == Gender::M)].insert(location);
            }
        }

        let employer_by_alias = input
            .employers
            .iter()
            .enumerate()
            .filter_map(|(position, employer)| {
                employer
                    .alias
                    .as_ref()
                    .map(|alias| (alias.to_lowercase(), position as u32))
            })
            .collect();
        let mut employer_names: Vec<(String, u32)> = input
            .employers
            .iter()
            .enumerate()
            .map(|(position, employer)| (employer.company_name.to_lowercase(), position as u32))
            .collect();
        employer_names.sort();

        let physical_positions: Vec<LatLng> = locations[..physical_len]
            .iter()
            .map(|l| LatLng { lat: l.lat, lng: l.lng })
            .collect();
        let trees = SpatialTrees::build(&physical_positions);
        let morton = MortonIndex::new(physical_positions);
        let (location_credential_set, credential_sets, location_speciality) =
            location_summaries(location_count, &location_clinicians, input, &clinician_speciality);
        let physical = Bitset::from_fn(location_count, |ordinal| ordinal < physical_len);
        let mut virtual_by_state: HashMap<String, Vec<u32>> = HashMap::new();
        for (ordinal, location) in locations.iter().enumerate().skip(physical_len) {
            for state in &location.virtual_states {
                virtual_by_state.entry(state.clone()).or_default().push(ordinal as u32);
            }
        }
        for ordinals in virtual_by_state.values_mut() {
            ordinals.sort_by(|a, b| {
                locations[*a as usize]
                    .name
                    .cmp(&locations[*b as usize].name)
                    .then(a.cmp(b))
            });
        }
        Self {
            physical_len,
            location_organisation,
            location_clinicians,
            clinician_locations,
            organisation_locations,
            location_by_id,
            clinician_by_id,
            organisation_by_id,
            organisations_by_name,
            employer_by_alias,
            employer_names,
            clinician_credential,
            clinician_speciality,
            credential_names,
            speciality_names,
            location_credential_set,
            credential_sets,
            location_speciality,
            credential_locations,
            speciality_locations,
            gender_locations,
            physical,
            virtual_by_state,
            morton,
            trees,
        }
    }
}

/// Marks a location with no clinician, hence no speciality.
const NO_SPECIALITY: u16 = u16::MAX;

/// What a card shows of a location's clinicians, computed once: the credentials (interned,
/// since a handful of combinations cover everyone) and the most common speciality.
fn location_summaries(
    location_count: usize,
    location_clinicians: &Lists,
    input: &SnapshotInput,
    clinician_speciality: &[u16],
) -> (Vec<u32>, Vec<String>, Vec<u16>) {
    let mut set_codes: HashMap<String, u32> = HashMap::new();
    let mut sets = Vec::new();
    let mut location_sets = Vec::with_capacity(location_count);
    let mut specialities = Vec::with_capacity(location_count);
    for ordinal in 0..location_count {
        let clinicians = location_clinicians.get(ordinal);
        let mut credentials: Vec<&str> = clinicians
            .iter()
            .map(|c| input.clinicians[*c as usize].credentials.as_str())
            .collect();
        credentials.sort_unstable();
        credentials.dedup();
        let joined = credentials.join(", ");
        let code = *set_codes.entry(joined.clone()).or_insert_with(|| {
            sets.push(joined);
            (sets.len() - 1) as u32
        });
        location_sets.push(code);
        let mut counts: HashMap<u16, usize> = HashMap::new();
        for clinician in clinicians {
            *counts.entry(clinician_speciality[*clinician as usize]).or_default() += 1;
        }
        let most_common = counts
            .into_iter()
            .max_by_key(|(speciality, count)| (*count, std::cmp::Reverse(*speciality)))
            .map_or(NO_SPECIALITY, |(speciality, _)| speciality);
        specialities.push(most_common);
    }
    (location_sets, sets, specialities)
}

/// Assigns small integer codes to distinct strings (sorted), returning the codes per row.
fn dictionary<'a>(values: impl Iterator<Item = &'a str> + Clone) -> (Vec<u16>, Vec<String>) {
    let mut names: Vec<String> = values
        .clone()
        .map(str::to_owned)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    names.truncate(u16::MAX as usize);
    let code_of: HashMap<&str, u16> = names
        .iter()
        .enumerate()
        .map(|(code, name)| (name.as_str(), code as u16))
        .collect();
    let codes = values.map(|value| code_of.get(value).copied().unwrap_or(0)).collect();
    (codes, names)
}
