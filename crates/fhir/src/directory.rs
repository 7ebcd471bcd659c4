//! The directory's resources as items of a snapshot, each with its id, its order, the values
//! its search parameters compare, and where it points; plus the indexes a search needs that
//! the snapshot does not keep (locations in id order, the networks of each organisation).

use domain::{Location, OrganisationKind};
use search::Snapshot;

use crate::codes::*;
use crate::params::ResourceType;
use crate::resources::{RoleKey, network_resource_id, parse_id, parse_network_resource_id};

/// A resource of the directory, by where it is in the snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// An organisation, by its position in `Snapshot::organisations` (sorted by id).
    Organisation(u32),
    /// A network, by its position in `Snapshot::networks`.
    Network(u32),
    /// A location, by ordinal.
    Location(u32),
    /// A state's coverage-area Location, by its position in [`STATES`].
    State(u8),
    /// The clinic at a location, by the location's ordinal.
    Service(u32),
    /// A clinician, by ordinal (clinicians are in id order).
    Practitioner(u32),
    /// A clinician's role at a location, in a network of the location's organisation
    /// ([`NO_NETWORK`] when it takes part in none).
    Role {
        clinician: u32,
        location: u32,
        network: u32,
    },
    /// An insurance plan, by its position in `Snapshot::insurance_plans`.
    Plan(u32),
}

pub const NO_NETWORK: u32 = u32::MAX;

/// An item's place in its type's id order: numeric ids in order, then the others (networks
/// after organisations, states after locations).
pub type OrderKey = (u8, i64, i64, i64);

/// What a search needs besides the snapshot's own tables; built on first use per snapshot.
pub struct DirectoryIndex {
    /// Location ordinals in id order.
    pub locations_by_id: Vec<u32>,
    /// The networks (positions, in network id order) of the organisation at position `p` of
    /// `Snapshot::organisations` are `network_positions[network_starts[p]..network_starts[p + 1]]`.
    /// A map of vectors by organisation id took 0.6 s to build at a million locations (1.6
    /// million memberships, each a hash and a push), on the first FHIR request of every server.
    network_starts: Vec<u32>,
    network_positions: Vec<u32>,
}

impl DirectoryIndex {
    fn build(snapshot: &Snapshot) -> Self {
        // Read from the snapshot's id table: sorting a million ordinals by their rows' ids
        // (a cache miss a comparison) held a server's first FHIR request for seconds at 1M.
        let locations_by_id = snapshot.location_ordinals_by_id();
        let organisations = snapshot.organisations();
        let mut networks: Vec<(i64, u32)> = snapshot
            .networks()
            .iter()
            .enumerate()
            .map(|(position, network)| (network.id, position as u32))
            .collect();
        networks.sort_unstable();
        let members: Vec<Vec<u32>> = networks
            .iter()
            .map(|(_, position)| {
                organisation_positions(organisations, &snapshot.networks()[*position as usize].organisation_ids)
            })
            .collect();
        let mut network_starts = vec![0u32; organisations.len() + 1];
        for organisation in members.iter().flatten() {
            network_starts[*organisation as usize + 1] += 1;
        }
        for position in 1..network_starts.len() {
            network_starts[position] += network_starts[position - 1];
        }
        let mut filled = network_starts.clone();
        let mut network_positions = vec![0u32; members.iter().map(Vec::len).sum()];
        for ((_, network), organisations) in networks.iter().zip(&members) {
            for organisation in organisations {
                let slot = &mut filled[*organisation as usize];
                network_positions[*slot as usize] = *network;
                *slot += 1;
            }
        }
        Self {
            locations_by_id,
            network_starts,
            network_positions,
        }
    }

    pub fn of(snapshot: &Snapshot) -> &Self {
        snapshot.derived_from_rows(Self::build)
    }

    /// The networks (positions) the organisation at `organisation` (its position in
    /// `Snapshot::organisations`) takes part in, in network id order.
    pub fn networks_of(&self, organisation: u32) -> &[u32] {
        let organisation = organisation as usize;
        match (
            self.network_starts.get(organisation),
            self.network_starts.get(organisation + 1),
        ) {
            (Some(start), Some(end)) => &self.network_positions[*start as usize..*end as usize],
            _ => &[],
        }
    }
}

/// The positions in `organisations` (sorted by id) of the listed ids that are there, each once.
/// The ids come sorted from PostgreSQL, so each is found by galloping on from the last; only
/// ids in another order are copied to be sorted.
fn organisation_positions(organisations: &[domain::Organisation], ids: &[i64]) -> Vec<u32> {
    let sorted: std::borrow::Cow<'_, [i64]> = if ids.is_sorted() {
        ids.into()
    } else {
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        sorted.into()
    };
    let mut positions: Vec<u32> = Vec::with_capacity(sorted.len());
    let mut from = 0;
    for id in sorted.iter() {
        from = first_at_or_after(organisations, from, *id);
        let found = organisations
            .get(from)
            .is_some_and(|organisation| organisation.id == *id);
        // A repeated id finds the position it found before.
        if found && positions.last() != Some(&(from as u32)) {
            positions.push(from as u32);
        }
    }
    positions
}

/// The first position at or after `from` whose organisation's id is not below `id`: steps
/// doubling from `from`, then a binary search within the last step.
fn first_at_or_after(organisations: &[domain::Organisation], from: usize, id: i64) -> usize {
    let (mut low, mut high, mut step) = (from, from, 1);
    while high < organisations.len() && organisations[high].id < id {
        low = high + 1;
        high += step;
        step *= 2;
    }
    let high = high.min(organisations.len());
    low + organisations[low..high].partition_point(|organisation| organisation.id < id)
}

/// A view of one snapshot for the directory.
#[derive(Clone, Copy)]
pub struct Directory<'s> {
    pub snapshot: &'s Snapshot,
    pub index: &'s DirectoryIndex,
}

impl<'s> Directory<'s> {
    pub fn new(snapshot: &'s Snapshot) -> Self {
        Self {
            snapshot,
            index: DirectoryIndex::of(snapshot),
        }
    }

    pub fn organisation_position(&self, id: i64) -> Option<u32> {
        let organisations = self.snapshot.organisations();
        organisations
            .binary_search_by_key(&id, |organisation| organisation.id)
            .ok()
            .map(|position| position as u32)
    }

    pub fn network_position(&self, id: i64) -> Option<u32> {
        self.snapshot
            .networks()
            .iter()
            .position(|network| network.id == id)
            .map(|position| position as u32)
    }

    fn plan_position(&self, id: i64) -> Option<u32> {
        self.snapshot
            .insurance_plans()
            .iter()
            .position(|plan| plan.id == id)
            .map(|position| position as u32)
    }

    /// The item a resource type and id name, if it exists.
    pub fn find(&self, kind: ResourceType, id: &str) -> Option<Item> {
        let snapshot = self.snapshot;
        match kind {
            ResourceType::Organization => match parse_network_resource_id(id) {
                Some(network) => self.network_position(network).map(Item::Network),
                None => self.organisation_position(parse_id(id)?).map(Item::Organisation),
            },
            ResourceType::Location => match id.strip_prefix("state-") {
                Some(code) => STATES
                    .iter()
                    .position(|(state, _)| *state == code)
                    .map(|position| Item::State(position as u8)),
                None => snapshot
                    .location_ordinal(parse_id(id)?)
                    .map(|ordinal| Item::Location(ordinal as u32)),
            },
            ResourceType::HealthcareService => snapshot
                .location_ordinal(parse_id(id)?)
                .map(|ordinal| Item::Service(ordinal as u32)),
            ResourceType::Practitioner => snapshot
                .clinician_ordinal(parse_id(id)?)
                .map(|ordinal| Item::Practitioner(ordinal as u32)),
            ResourceType::PractitionerRole => {
                let key = RoleKey::parse(id)?;
                let clinician = snapshot.clinician_ordinal(key.clinician_id)?;
                let location = snapshot.location_ordinal(key.location_id)?;
                if !snapshot.locations_of(clinician).contains(&(location as u32)) {
                    return None;
                }
                let networks = self.index.networks_of(snapshot.organisation_position_of(location));
                let network = match key.network_id {
                    None if networks.is_empty() => NO_NETWORK,
                    None => return None,
                    Some(network_id) => *networks
                        .iter()
                        .find(|position| snapshot.networks()[**position as usize].id == network_id)?,
                };
                Some(Item::Role {
                    clinician: clinician as u32,
                    location: location as u32,
                    network,
                })
            }
            ResourceType::InsurancePlan => self.plan_position(parse_id(id)?).map(Item::Plan),
        }
    }

    pub fn kind_of(item: Item) -> ResourceType {
        match item {
            Item::Organisation(_) | Item::Network(_) => ResourceType::Organization,
            Item::Location(_) | Item::State(_) => ResourceType::Location,
            Item::Service(_) => ResourceType::HealthcareService,
            Item::Practitioner(_) => ResourceType::Practitioner,
            Item::Role { .. } => ResourceType::PractitionerRole,
            Item::Plan(_) => ResourceType::InsurancePlan,
        }
    }

    pub fn location_row(&self, ordinal: u32) -> &'s Location {
        self.snapshot.location(ordinal as usize)
    }

    /// The item's resource id.
    pub fn id(&self, item: Item) -> String {
        let snapshot = self.snapshot;
        match item {
            Item::Organisation(position) => snapshot.organisations()[position as usize].id.to_string(),
            Item::Network(position) => network_resource_id(snapshot.networks()[position as usize].id),
            Item::Location(ordinal) | Item::Service(ordinal) => self.location_row(ordinal).id.to_string(),
            Item::State(position) => state_location_id(STATES[position as usize].0),
            Item::Practitioner(ordinal) => snapshot.clinician(ordinal as usize).id.to_string(),
            Item::Role { .. } => self.role_key(item).map(|key| key.id()).unwrap_or_default(),
            Item::Plan(position) => snapshot.insurance_plans()[position as usize].id.to_string(),
        }
    }

    pub fn role_key(&self, item: Item) -> Option<RoleKey> {
        let Item::Role {
            clinician,
            location,
            network,
        } = item
        else {
            return None;
        };
        Some(RoleKey {
            clinician_id: self.snapshot.clinician(clinician as usize).id,
            location_id: self.location_row(location).id,
            network_id: (network != NO_NETWORK).then(|| self.snapshot.networks()[network as usize].id),
        })
    }

    /// The item's place in its type's order.
    pub fn order_key(&self, item: Item) -> OrderKey {
        let snapshot = self.snapshot;
        match item {
            Item::Organisation(position) => (0, snapshot.organisations()[position as usize].id, 0, 0),
            Item::Network(position) => (1, snapshot.networks()[position as usize].id, 0, 0),
            Item::Location(ordinal) | Item::Service(ordinal) => (0, self.location_row(ordinal).id, 0, 0),
            Item::State(position) => (1, i64::from(position), 0, 0),
            Item::Practitioner(ordinal) => (0, snapshot.clinician(ordinal as usize).id, 0, 0),
            Item::Role { .. } => {
                let key = self.role_key(item).expect("a role");
                (0, key.clinician_id, key.location_id, key.network_id.unwrap_or(0))
            }
            Item::Plan(position) => (0, snapshot.insurance_plans()[position as usize].id, 0, 0),
        }
    }

    /// When the item last changed (states: never).
    pub fn updated_at(&self, item: Item) -> i64 {
        let snapshot = self.snapshot;
        match item {
            Item::Organisation(position) => snapshot.organisations()[position as usize].updated_at_micros,
            Item::Network(position) => snapshot.networks()[position as usize].updated_at_micros,
            Item::Location(ordinal) | Item::Service(ordinal) => self.location_row(ordinal).updated_at_micros,
            Item::State(_) => 0,
            Item::Practitioner(ordinal) => snapshot.clinician(ordinal as usize).updated_at_micros,
            Item::Role {
                clinician, location, ..
            } => snapshot
                .clinician(clinician as usize)
                .updated_at_micros
                .max(self.location_row(location).updated_at_micros),
            Item::Plan(position) => snapshot.insurance_plans()[position as usize].updated_at_micros,
        }
    }

    /// The roles of a clinician at a location: one per network of the location's organisation,
    /// or one without a network.
    pub fn roles_at(&self, clinician: u32, location: u32) -> impl Iterator<Item = Item> + 's {
        let networks = self
            .index
            .networks_of(self.snapshot.organisation_position_of(location as usize));
        let any: &'static [u32] = &[NO_NETWORK];
        let networks = if networks.is_empty() { any } else { networks };
        networks.iter().map(move |network| Item::Role {
            clinician,
            location,
            network: *network,
        })
    }

    /// A clinician's roles in id order.
    pub fn roles_of(&self, clinician: u32) -> Vec<Item> {
        let mut locations: Vec<u32> = self.snapshot.locations_of(clinician as usize).to_vec();
        locations.sort_by_key(|ordinal| self.location_row(*ordinal).id);
        locations
            .into_iter()
            .flat_map(|location| self.roles_at(clinician, location))
            .collect()
    }

    /// The roles at a location, in id order.
    pub fn roles_at_location(&self, location: u32) -> Vec<Item> {
        let mut clinicians: Vec<u32> = self.snapshot.clinicians_at(location as usize).to_vec();
        clinicians.sort_unstable();
        clinicians
            .into_iter()
            .flat_map(|clinician| self.roles_at(clinician, location))
            .collect()
    }

    /// Every item of a type, in id order.
    pub fn all(&self, kind: ResourceType) -> Box<dyn Iterator<Item = Item> + 's> {
        let snapshot = self.snapshot;
        let this = *self;
        match kind {
            ResourceType::Organization => {
                let mut networks: Vec<u32> = (0..snapshot.networks().len() as u32).collect();
                networks.sort_by_key(|position| snapshot.networks()[*position as usize].id);
                Box::new(
                    (0..snapshot.organisations().len() as u32)
                        .map(Item::Organisation)
                        .chain(networks.into_iter().map(Item::Network)),
                )
            }
            ResourceType::Location => Box::new(
                self.index
                    .locations_by_id
                    .iter()
                    .map(|ordinal| Item::Location(*ordinal))
                    .chain((0..STATES.len() as u8).map(Item::State)),
            ),
            ResourceType::HealthcareService => {
                Box::new(self.index.locations_by_id.iter().map(|ordinal| Item::Service(*ordinal)))
            }
            ResourceType::Practitioner => Box::new((0..snapshot.clinician_count() as u32).map(Item::Practitioner)),
            ResourceType::PractitionerRole => {
                Box::new((0..snapshot.clinician_count() as u32).flat_map(move |clinician| this.roles_of(clinician)))
            }
            ResourceType::InsurancePlan => {
                let mut plans: Vec<u32> = (0..snapshot.insurance_plans().len() as u32).collect();
                plans.sort_by_key(|position| snapshot.insurance_plans()[*position as usize].id);
                Box::new(plans.into_iter().map(Item::Plan))
            }
        }
    }

    /// Whether an organisation is a payer (it has no clinic).
    pub fn is_payer(&self, position: u32) -> bool {
        self.snapshot.organisations()[position as usize].kind == OrganisationKind::Payer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn organisations(ids: &[i64]) -> Vec<domain::Organisation> {
        ids.iter()
            .map(|id| domain::Organisation {
                id: *id,
                name: format!("Organisation {id}"),
                kind: OrganisationKind::Organisation,
                updated_at_micros: 0,
            })
            .collect()
    }

    /// Galloping finds what a binary search per id finds, for ids sorted or not, dense or
    /// sparse, repeated, or not among the organisations.
    #[test]
    fn organisation_positions_are_those_a_binary_search_finds() {
        let mut listed: Vec<i64> = (0..300).map(|n| n * 3 + (n % 7)).collect();
        listed.sort_unstable();
        listed.dedup();
        let organisations = organisations(&listed);
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for case in 0..400 {
            let count = (next() % 400) as usize;
            let spread = [2, 10, 1_000][case % 3];
            let mut ids: Vec<i64> = (0..count).map(|_| (next() % spread.min(1_000)) as i64 - 5).collect();
            if case % 2 == 0 {
                ids.sort_unstable();
            }
            let mut expected: Vec<u32> = ids
                .iter()
                .filter_map(|id| {
                    organisations
                        .binary_search_by_key(id, |organisation| organisation.id)
                        .ok()
                })
                .map(|position| position as u32)
                .collect();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(organisation_positions(&organisations, &ids), expected, "ids {ids:?}");
        }
        assert!(organisation_positions(&[], &[1, 2]).is_empty());
    }
}
