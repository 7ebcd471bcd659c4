//! The provider directory's payers, networks and insurance plans (what a Plan-Net export lists
//! besides clinics and clinicians): each payer of the eligibility roster is an organisation
//! that runs no clinic, manages one network that about half the clinic organisations take part
//! in, and sells its plans on it.

use std::collections::{BTreeSet, HashMap};

use domain::{InsurancePlan, Location, Network, Organisation, OrganisationKind};

use crate::insurance;
use crate::rng::{Rng, stream};

/// The share of clinic organisations in each payer's network.
const NETWORK_SHARE: f64 = 0.5;

/// Payer organisations (ids after the clinic organisations'), their networks and their plans.
pub(crate) struct Directory {
    pub(crate) payers: Vec<Organisation>,
    pub(crate) networks: Vec<Network>,
    pub(crate) insurance_plans: Vec<InsurancePlan>,
}

pub(crate) fn generate(organisations: &[Organisation], locations: &[Location], seed: u64) -> Directory {
    let mut rng = Rng::new(seed, stream::DIRECTORY);
    let first_payer_id = organisations
        .iter()
        .map(|organisation| organisation.id)
        .max()
        .unwrap_or(0)
        + 1;
    // Each organisation's physical states, for the networks' coverage areas.
    let mut states_of: Vec<BTreeSet<&str>> = vec![BTreeSet::new(); organisations.len()];
    let position_of: HashMap<i64, usize> = organisations
        .iter()
        .enumerate()
        .map(|(position, organisation)| (organisation.id, position))
        .collect();
    for location in locations.iter().filter(|location| !location.is_virtual) {
        if let Some(position) = position_of.get(&location.organisation_id) {
            states_of[*position].insert(location.state.as_str());
        }
    }
    let mut directory = Directory {
        payers: Vec::new(),
        networks: Vec::new(),
        insurance_plans: Vec::new(),
    };
    for (index, (_, payer_name, plans)) in insurance::payer_plans().enumerate() {
        let payer_id = first_payer_id + index as i64;
        directory.payers.push(Organisation {
            id: payer_id,
            name: payer_name.to_owned(),
            kind: OrganisationKind::Payer,
            updated_at_micros: 0,
        });
        let network_id = index as i64 + 1;
        let mut coverage: BTreeSet<&str> = BTreeSet::new();
        let mut members = Vec::new();
        for (position, organisation) in organisations.iter().enumerate() {
            if rng.chance(NETWORK_SHARE) {
                members.push(organisation.id);
                coverage.extend(states_of[position].iter().copied());
            }
        }
        let coverage_states: Vec<String> = coverage.into_iter().map(str::to_owned).collect();
        directory.networks.push(Network {
            id: network_id,
            name: format!("{payer_name} Direct Primary Care Network"),
            owner_organisation_id: Some(payer_id),
            coverage_states: coverage_states.clone(),
            organisation_ids: members,
            updated_at_micros: 0,
        });
        for (_, plan_name, _) in plans.iter() {
            directory.insurance_plans.push(InsurancePlan {
                id: directory.insurance_plans.len() as i64 + 1,
                name: (*plan_name).to_owned(),
                product_type: product_type(plan_name).to_owned(),
                owned_by_organisation_id: Some(payer_id),
                administered_by_organisation_id: Some(payer_id),
                coverage_states: coverage_states.clone(),
                network_ids: vec![network_id],
                updated_at_micros: 0,
            });
        }
    }
    directory
}

/// The Plan-Net product type (InsuranceProductTypeCS) a plan's name says.
fn product_type(plan_name: &str) -> &'static str {
    let name = plan_name.to_ascii_uppercase();
    if name.contains("HMO") {
        "commhmo"
    } else if name.contains("EPO") {
        "commepo"
    } else if name.contains("HDHP") || name.contains("HSA") {
        "commhdhp"
    } else if name.contains("PPO") {
        "commppo"
    } else {
        "commpos"
    }
}
