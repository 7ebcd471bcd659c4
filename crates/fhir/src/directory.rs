//! The directory's resources as items of a snapshot, each with its id, its order, the values
//! its search parameters compare, and where it points; plus the indexes a search needs that
//! the snapshot does not keep (locations in id order, the networks of each organisation).

use std::collections::HashMap;

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
    /// Network positions of each organisation id, in network id order.
    networks_of: HashMap<i64, Vec<u32>>,
}

impl DirectoryIndex {
    fn build(snapshot: &Snapshot) -> Self {
        // Read from the snapshot's id table: sorting a million ordinals by their rows' ids
        // (a cache miss a comparison) held a server's first FHIR request for seconds at 1M.
        let locations_by_id = snapshot.location_ordinals_by_id();
        let mut networks_of: HashMap<i64, Vec<u32>> = HashMap::new();
        let mut networks: Vec<(i64, u32)> = snapshot
            .networks()
            .iter()
            .enumerate()
            .map(|(position, network)| (network.id, position as u32))
            .collect();
        networks.sort_unstable();
        for (_, position) in networks {
            for organisation in &snapshot.networks()[position as usize].organisation_ids {
                networks_of.entry(*organisation).or_default().push(position);
            }
        }
        Self {
            locations_by_id,
            networks_of,
        }
    }

    pub fn of(snapshot: &Snapshot) -> &Self {
        snapshot.derived_from_rows(Self::build)
    }

    /// The networks (positions) an organisation takes part in.
    pub fn networks_of(&self, organisation_id: i64) -> &[u32] {
        self.networks_of.get(&organisation_id).map_or(&[], Vec::as_slice)
    }
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
                let networks = self.index.networks_of(snapshot.organisation_of(location).id);
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
        let organisation_id = self.snapshot.organisation_of(location as usize).id;
        let networks = self.index.networks_of(organisation_id);
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
