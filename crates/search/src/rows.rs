//! The rows a snapshot is built from, and the tables derived from them: ordinals (Morton
//! order), id maps, relation lists, dictionaries of credentials and specialities, per-location
//! summaries and the spatial indexes. Imports `bitset`, `spatial` and `morton`; `snapshot`
//! assembles these into a snapshot.

use std::collections::HashMap;

use domain::listing::WeeklyHours;
use domain::{Clinician, Employer, Gender, InsurancePlan, LatLng, Location, Network, Organisation};
use serde::{Deserialize, Serialize};

use crate::bitset::Bitset;
use crate::morton::MortonIndex;
use crate::spatial::{SpatialTrees, morton_code};

/// The rows a snapshot is built from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SnapshotInput {
    #[serde(deserialize_with = "presized")]
    pub organisations: Vec<Organisation>,
    #[serde(deserialize_with = "presized")]
    pub locations: Vec<Location>,
    #[serde(deserialize_with = "presized")]
    pub clinicians: Vec<Clinician>,
    pub employers: Vec<Employer>,
    /// The provider directory's networks and insurance plans (the FHIR API serves them).
    pub networks: Vec<Network>,
    pub insurance_plans: Vec<InsurancePlan>,
    /// The locations' opening hours, each distinct week once with the locations keeping it: a
    /// week per location would be some 64 MB at a million, and clinics share a few weeks. A
    /// location row's own `hours` is moved here when a snapshot is built.
    pub hours_patterns: Vec<HoursPattern>,
    /// Which state of the catalogue these rows are.
    pub version: CatalogueVersion,
}

/// The locations part of a catalogue file (see `snapshot::write_rows`), read into a vector
/// sized once like the rows' own lists.
#[derive(Deserialize)]
pub(crate) struct LocationRows(#[serde(deserialize_with = "presized")] pub(crate) Vec<Location>);

/// A catalogue's rows for a snapshot (tests and benches build from a generated catalogue).
impl From<domain::catalogue::Catalogue> for SnapshotInput {
    fn from(catalogue: domain::catalogue::Catalogue) -> Self {
        Self {
            organisations: catalogue.organisations,
            locations: catalogue.locations,
            clinicians: catalogue.clinicians,
            employers: catalogue.employers,
            networks: catalogue.networks,
            insurance_plans: catalogue.insurance_plans,
            ..Self::default()
        }
    }
}

/// The most bytes of rows [`presized`] reserves before reading them: a corrupt length must not
/// reserve more than a real catalogue could hold.
const LONGEST_PRESIZED_ROWS: usize = 4 << 30;

/// Reads a list of rows into a vector sized once from the length written before them. serde's
/// own reads reserve at most 1 MiB ahead and then double: at a million locations that copied
/// the vector nine times and faulted in twice its final memory, a fifth of a server's start-up.
fn presized<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Rows<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Rows<T> {
        type Value = Vec<T>;

        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("a list of rows")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let most = LONGEST_PRESIZED_ROWS / std::mem::size_of::<T>().max(1);
            let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(most));
            while let Some(row) = seq.next_element()? {
                rows.push(row);
            }
            Ok(rows)
        }
    }
    deserializer.deserialize_seq(Rows(std::marker::PhantomData))
}

/// One week of opening hours and the locations (by id) that keep it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HoursPattern {
    pub hours: WeeklyHours,
    pub location_ids: Vec<i64>,
}

/// A location without opening hours in [`Tables::location_hours`].
pub(crate) const NO_HOURS: u32 = u32::MAX;

impl SnapshotInput {
    /// Moves the hours the location rows carry into `hours_patterns`, and merges patterns that
    /// are the same week, so each distinct week is kept once.
    pub(crate) fn share_hours_patterns(&mut self) {
        let mut position_of: HashMap<WeeklyHours, usize> = HashMap::new();
        let mut shared: Vec<HoursPattern> = Vec::new();
        let given = std::mem::take(&mut self.hours_patterns);
        let from_rows = self.locations.iter_mut().filter_map(|location| {
            let hours = location.hours.take()?;
            Some(HoursPattern {
                hours,
                location_ids: vec![location.id],
            })
        });
        for pattern in given.into_iter().chain(from_rows) {
            match position_of.get(&pattern.hours) {
                Some(position) => shared[*position].location_ids.extend(pattern.location_ids),
                None => {
                    position_of.insert(pattern.hours.clone(), shared.len());
                    shared.push(pattern);
                }
            }
        }
        for pattern in &mut shared {
            pattern.location_ids.sort_unstable();
            pattern.location_ids.dedup();
        }
        self.hours_patterns = shared;
    }
}

/// Which state of the catalogue a snapshot holds: the newest change time (for people) and the
/// catalogue's own cursor (opaque here: PostgreSQL's snapshot the rows were read under), from
/// which the next catch-up reads what changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueVersion {
    /// Microseconds since the Unix epoch of the newest catalogue change included.
    pub watermark_micros: i64,
    /// Empty for rows that did not come from the catalogue (tests, benches).
    pub cursor: String,
}

/// Row ids to ordinals. Catalogue ids are a sequence with few gaps, so a table indexed by id
/// (4 bytes a row) stands in for a hash map (some 35 bytes a row at a million locations, 60 MB
/// of a server's memory for the three maps); ids spread wider than twice their count are kept
/// in a map.
#[derive(Debug)]
pub(crate) enum IdMap {
    Dense { first: i64, ordinals: Vec<u32> },
    Sparse(HashMap<i64, u32>),
}

/// An id between others that no row has, in [`IdMap::Dense`].
const NO_ROW: u32 = u32::MAX;

impl IdMap {
    /// The ordinal of each id is its position in `ids`; a repeated id keeps its last position.
    pub(crate) fn new(ids: impl ExactSizeIterator<Item = i64> + Clone) -> Self {
        let count = ids.len();
        let Some((lowest, highest)) = ids.clone().fold(None, |range: Option<(i64, i64)>, id| {
            Some(range.map_or((id, id), |(lowest, highest)| (lowest.min(id), highest.max(id))))
        }) else {
            return Self::Dense {
                first: 0,
                ordinals: Vec::new(),
            };
        };
        let span = i128::from(highest) - i128::from(lowest) + 1;
        if span > 2 * count as i128 + 1024 {
            return Self::Sparse(ids.enumerate().map(|(ordinal, id)| (id, ordinal as u32)).collect());
        }
        let mut ordinals = vec![NO_ROW; span as usize];
        for (ordinal, id) in ids.enumerate() {
            ordinals[(id - lowest) as usize] = ordinal as u32;
        }
        Self::Dense {
            first: lowest,
            ordinals,
        }
    }

    /// Every row's ordinal, in the order of their ids: a walk of the table when it is dense.
    pub(crate) fn ordinals_in_id_order(&self) -> Vec<u32> {
        match self {
            Self::Dense { ordinals, .. } => ordinals.iter().copied().filter(|ordinal| *ordinal != NO_ROW).collect(),
            Self::Sparse(map) => {
                let mut pairs: Vec<(i64, u32)> = map.iter().map(|(id, ordinal)| (*id, *ordinal)).collect();
                pairs.sort_unstable();
                pairs.into_iter().map(|(_, ordinal)| ordinal).collect()
            }
        }
    }

    pub(crate) fn get(&self, id: i64) -> Option<u32> {
        match self {
            Self::Dense { first, ordinals } => {
                let at = usize::try_from(id.checked_sub(*first)?).ok()?;
                ordinals.get(at).copied().filter(|ordinal| *ordinal != NO_ROW)
            }
            Self::Sparse(map) => map.get(&id).copied(),
        }
    }
}

/// Lists of ordinals per entity, in compressed sparse row form.
#[derive(Debug, Default)]
pub(crate) struct Lists {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    pub(crate) fn from_pairs(owners: usize, pairs: &[(u32, u32)]) -> Self {
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

/// Case-folded characters of a name, for comparing without allocating.
pub(crate) fn folded(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars().flat_map(char::to_lowercase)
}

/// Orders locations: physical ones by Morton code (then id), virtual ones after, by id.
pub(crate) fn sort_into_ordinal_order(locations: &mut [Location]) {
    // A published snapshot's rows are written in this order: checking costs no memory, where
    // sorting by cached keys held 32 bytes a location (32 MB at a million) to find nothing to move.
    if locations.is_sorted_by_key(ordinal_order) {
        return;
    }
    locations.sort_by_cached_key(ordinal_order);
}

fn ordinal_order(location: &Location) -> (bool, u64, i64) {
    let code = if location.is_virtual {
        u64::MAX
    } else {
        morton_code(LatLng {
            lat: location.lat,
            lng: location.lng,
        })
    };
    (location.is_virtual, code, location.id)
}

/// The texts a location is found by: its place names, and the names of the people there.
pub(crate) fn location_text(input: &SnapshotInput, tables: &Tables, ordinal: usize) -> (String, String) {
    let location = &input.locations[ordinal];
    let organisation = &input.organisations[tables.location_organisation[ordinal] as usize];
    let primary = format!("{} {} {}", location.name, location.location_name, organisation.name);
    let people: Vec<String> = tables
        .location_clinicians
        .get(ordinal)
        .iter()
        .map(|c| input.clinicians[*c as usize].display_name())
        .collect();
    (primary, people.join(" "))
}

/// Everything derived from the rows, shared by build and open.
pub(crate) struct Tables {
    /// Ordinals `0..physical_len` are physical locations in Morton order; the rest are virtual.
    pub(crate) physical_len: usize,
    pub(crate) location_organisation: Vec<u32>,
    pub(crate) location_clinicians: Lists,
    pub(crate) clinician_locations: Lists,
    pub(crate) organisation_locations: Lists,
    pub(crate) location_by_id: IdMap,
    /// Per location: its week in `SnapshotInput::hours_patterns`, or `NO_HOURS`.
    pub(crate) location_hours: Vec<u32>,
    pub(crate) clinician_by_id: IdMap,
    pub(crate) organisation_by_id: IdMap,
    /// Organisation ordinals sorted by case-folded name, for name filters.
    pub(crate) organisations_by_name: Vec<u32>,
    pub(crate) employer_by_alias: HashMap<String, u32>,
    /// Lower-cased company names with employer positions, sorted for prefix matching.
    pub(crate) employer_names: Vec<(String, u32)>,
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
    /// Every location: where a search's filters start.
    pub(crate) everywhere: Bitset,
    /// Virtual locations serving each state.
    pub(crate) virtual_by_state: HashMap<String, StateVirtuals>,
    pub(crate) morton: MortonIndex,
    pub(crate) trees: SpatialTrees,
}

impl Tables {
    pub(crate) fn new(input: &SnapshotInput) -> Self {
        Self::with_name_order(input, None)
    }

    /// The tables, given the organisations' name order when it is already made (a server
    /// opening a snapshot makes it while the locations are still being read).
    pub(crate) fn with_name_order(input: &SnapshotInput, name_order: Option<Vec<u32>>) -> Self {
        let locations = &input.locations;
        let physical_len = locations.iter().take_while(|location| !location.is_virtual).count();
        // The name order and the spatial indexes need nothing else derived here: on their own
        // threads they take half of this work off the critical path of a server's start.
        std::thread::scope(|scope| {
            let by_name =
                scope.spawn(move || name_order.unwrap_or_else(|| organisations_by_name(&input.organisations)));
            let spatial = scope.spawn(|| spatial_indexes(&locations[..physical_len]));
            let tables = Self::relations(input, physical_len);
            let organisations_by_name = joined(by_name);
            let (trees, morton) = joined(spatial);
            Self {
                organisations_by_name,
                trees,
                morton,
                ..tables
            }
        })
    }

    /// Everything but the name order and the spatial indexes, which are left empty.
    fn relations(input: &SnapshotInput, physical_len: usize) -> Self {
        let locations = &input.locations;
        let location_count = locations.len();
        let organisation_by_id = IdMap::new(input.organisations.iter().map(|organisation| organisation.id));
        // A location whose organisation is missing is attached to the first one rather than
        // dropped; the database's foreign key makes this unreachable in practice.
        let location_organisation: Vec<u32> = locations
            .iter()
            .map(|location| organisation_by_id.get(location.organisation_id).unwrap_or(0))
            .collect();
        let location_by_id = IdMap::new(locations.iter().map(|location| location.id));
        let mut location_hours = vec![NO_HOURS; location_count];
        for (position, pattern) in input.hours_patterns.iter().enumerate() {
            for id in &pattern.location_ids {
                if let Some(ordinal) = location_by_id.get(*id) {
                    location_hours[ordinal as usize] = position as u32;
                }
            }
        }
        let clinician_by_id = IdMap::new(input.clinicians.iter().map(|clinician| clinician.id));

        let mut clinician_location_pairs =
            Vec::with_capacity(input.clinicians.iter().map(|c| c.location_ids.len()).sum());
        for (clinician_ordinal, clinician) in input.clinicians.iter().enumerate() {
            for location_id in &clinician.location_ids {
                if let Some(location_ordinal) = location_by_id.get(*location_id) {
                    clinician_location_pairs.push((clinician_ordinal as u32, location_ordinal));
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

        let (location_credential_set, credential_sets, location_speciality) =
            location_summaries(location_count, &location_clinicians, input, &clinician_speciality);
        let everywhere = Bitset::full(location_count);
        let mut by_state: HashMap<String, Vec<u32>> = HashMap::new();
        for (ordinal, location) in locations.iter().enumerate().skip(physical_len) {
            for state in &location.virtual_states {
                by_state.entry(state.clone()).or_default().push(ordinal as u32);
            }
        }
        let virtual_by_state = by_state
            .into_iter()
            .map(|(state, mut by_name)| {
                by_name.sort_by(|a, b| {
                    locations[*a as usize]
                        .name
                        .cmp(&locations[*b as usize].name)
                        .then(a.cmp(b))
                });
                let members = Bitset::from_ordinals(location_count, by_name.iter().map(|ordinal| *ordinal as usize));
                let count = members.count();
                (
                    state,
                    StateVirtuals {
                        by_name,
                        members,
                        count,
                    },
                )
            })
            .collect();
        Self {
            physical_len,
            location_organisation,
            location_clinicians,
            clinician_locations,
            organisation_locations,
            location_by_id,
            location_hours,
            clinician_by_id,
            organisation_by_id,
            organisations_by_name: Vec::new(),
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
            everywhere,
            virtual_by_state,
            morton: MortonIndex::new(Vec::new()),
            trees: SpatialTrees::build(&[]),
        }
    }
}

/// Organisation ordinals sorted by case-folded name (ties by ordinal).
pub(crate) fn organisations_by_name(organisations: &[Organisation]) -> Vec<u32> {
    // Sorted ordinals rather than a map of lower-cased copies: a million locations bring
    // hundreds of thousands of organisations, and the names are already in the rows.
    let mut by_name: Vec<u32> = (0..organisations.len() as u32).collect();
    // Each name folded once: folding both names afresh in every comparison of the sort was a
    // third of a million-location server's start.
    by_name.sort_by_cached_key(|o| folded(&organisations[*o as usize].name).collect::<String>());
    by_name
}

/// The R-tree and the Morton index of the physical locations (already in Morton order).
fn spatial_indexes(physical: &[Location]) -> (SpatialTrees, MortonIndex) {
    let positions: Vec<LatLng> = physical.iter().map(|l| LatLng { lat: l.lat, lng: l.lng }).collect();
    (SpatialTrees::build(&positions), MortonIndex::new(positions))
}

/// A scoped thread's result, its panic carried on to the caller.
pub(crate) fn joined<T>(thread: std::thread::ScopedJoinHandle<'_, T>) -> T {
    thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The virtual locations serving a state: listed by name, and as a set to count a filter's
/// matches among them (a popcount, where walking the list cost a search several microseconds
/// in the states with thousands).
pub(crate) struct StateVirtuals {
    pub(crate) by_name: Vec<u32>,
    pub(crate) members: Bitset,
    /// How many they are: the count of a search with no filter.
    pub(crate) count: usize,
}

/// Marks a location with no clinician, hence no speciality.
pub(crate) const NO_SPECIALITY: u16 = u16::MAX;

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
        let (joined, most_common) = location_summary(
            location_clinicians.get(ordinal),
            |clinician| input.clinicians[clinician as usize].credentials.as_str(),
            |clinician| clinician_speciality[clinician as usize],
        );
        let code = match set_codes.get(&joined) {
            Some(code) => *code,
            None => {
                let code = sets.len() as u32;
                set_codes.insert(joined.clone(), code);
                sets.push(joined);
                code
            }
        };
        location_sets.push(code);
        specialities.push(most_common);
    }
    (location_sets, sets, specialities)
}

/// The summary of one location's clinicians: their credentials joined ("MD, NP", sorted, each
/// once) and their most common speciality code (ties to the lowest code; `NO_SPECIALITY` for
/// nobody).
pub(crate) fn location_summary<'a>(
    clinicians: &[u32],
    credential_of: impl Fn(u32) -> &'a str,
    speciality_of: impl Fn(u32) -> u16,
) -> (String, u16) {
    let mut credentials: Vec<&str> = clinicians.iter().map(|c| credential_of(*c)).collect();
    credentials.sort_unstable();
    credentials.dedup();
    // A location has a handful of clinicians: a list counts them without a map per location.
    let mut counts: Vec<(u16, usize)> = Vec::with_capacity(clinicians.len());
    for clinician in clinicians {
        let speciality = speciality_of(*clinician);
        match counts.iter_mut().find(|(counted, _)| *counted == speciality) {
            Some((_, count)) => *count += 1,
            None => counts.push((speciality, 1)),
        }
    }
    let most_common = counts
        .into_iter()
        .max_by_key(|(speciality, count)| (*count, std::cmp::Reverse(*speciality)))
        .map_or(NO_SPECIALITY, |(speciality, _)| speciality);
    (credentials.join(", "), most_common)
}

/// Assigns small integer codes to distinct strings (sorted), returning the codes per row.
fn dictionary<'a>(values: impl Iterator<Item = &'a str> + Clone) -> (Vec<u16>, Vec<String>) {
    // Distinct values first, copied once each: 800,000 clinicians name a few dozen.
    let mut distinct: Vec<&str> = values
        .clone()
        .collect::<std::collections::HashSet<&str>>()
        .into_iter()
        .collect();
    distinct.sort_unstable();
    distinct.truncate(u16::MAX as usize);
    let names: Vec<String> = distinct.into_iter().map(str::to_owned).collect();
    let code_of: HashMap<&str, u16> = names
        .iter()
        .enumerate()
        .map(|(code, name)| (name.as_str(), code as u16))
        .collect();
    let codes = values.map(|value| code_of.get(value).copied().unwrap_or(0)).collect();
    (codes, names)
}

#[cfg(test)]
mod tests {
    use domain::OrganisationKind;

    use super::*;

    #[test]
    fn ids_find_their_ordinals_in_a_table_or_a_map() {
        // Catalogue ids with gaps: a table from the lowest id.
        let dense = IdMap::new([7, 9, 8, 12].into_iter());
        assert!(matches!(dense, IdMap::Dense { first: 7, .. }));
        // Spread wide (a test's or an import's ids): a map.
        let sparse = IdMap::new([5, 1 << 40, -3].into_iter());
        assert!(matches!(sparse, IdMap::Sparse(_)));
        for (map, ids) in [(&dense, vec![7, 9, 8, 12]), (&sparse, vec![5, 1 << 40, -3])] {
            for (ordinal, id) in ids.iter().enumerate() {
                assert_eq!(map.get(*id), Some(ordinal as u32), "{id} in {map:?}");
            }
            for absent in [10, 11, 6, 13, 0, -1, i64::MIN, i64::MAX] {
                assert_eq!(map.get(absent), None, "{absent} in {map:?}");
            }
        }
        // In id order, the FHIR API's: 7, 8, 9, 12 and -3, 5, 2^40.
        assert_eq!(dense.ordinals_in_id_order(), [0, 2, 1, 3]);
        assert_eq!(sparse.ordinals_in_id_order(), [2, 0, 1]);
        assert_eq!(IdMap::new(std::iter::empty()).get(0), None);
        // A repeated id keeps its last position, as the maps built before did.
        assert_eq!(IdMap::new([3, 4, 3].into_iter()).get(3), Some(2));
    }

    #[test]
    fn organisations_are_ordered_by_their_folded_names_then_ordinal() {
        let names = [
            "beta",
            "Alpha",
            "ΣΟΦΙΑ",
            "alpha",
            "σοφια",
            "Zeta",
            "ÄRZTE",
            "ärzte",
            "b",
        ];
        let organisations: Vec<Organisation> = names
            .iter()
            .enumerate()
            .map(|(id, name)| Organisation {
                id: id as i64,
                name: (*name).to_owned(),
                kind: OrganisationKind::Group,
                updated_at_micros: 0,
            })
            .collect();
        // The order name filters were written against: folded characters compared afresh.
        let mut expected: Vec<u32> = (0..names.len() as u32).collect();
        expected.sort_by(|a, b| folded(names[*a as usize]).cmp(folded(names[*b as usize])));
        assert_eq!(organisations_by_name(&organisations), expected);
        assert_eq!(expected[..2], [1, 3], "equal folded names keep their ordinals' order");
    }
}
