//! Catalogue rows as Plan-Net resources (docs/fhir-contract.md, "Resources and the
//! catalogue"), read from a search snapshot. References are relative (`Organization/5`), so a
//! resource is the same whatever address the server is reached at.

use domain::listing::LanguageSet;
use domain::{Clinician, Gender, InsurancePlan, Location, Network, Organisation};
use search::Snapshot;
use serde_json::{Map, Value, json};

use crate::codes::*;

/// Which resource a role is: a clinician at a location, once per network the location's
/// organisation takes part in (Plan-Net gives a role at most one network).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoleKey {
    pub clinician_id: i64,
    pub location_id: i64,
    pub network_id: Option<i64>,
}

impl RoleKey {
    pub fn id(&self) -> String {
        match self.network_id {
            Some(network) => format!("{}-{}-network-{network}", self.clinician_id, self.location_id),
            None => format!("{}-{}", self.clinician_id, self.location_id),
        }
    }

    /// Reads `{clinician}-{location}` or `{clinician}-{location}-network-{network}`.
    pub fn parse(id: &str) -> Option<Self> {
        let (head, network_id) = match id.split_once("-network-") {
            Some((head, network)) => (head, Some(parse_id(network)?)),
            None => (id, None),
        };
        let (clinician, location) = head.split_once('-')?;
        Some(Self {
            clinician_id: parse_id(clinician)?,
            location_id: parse_id(location)?,
            network_id,
        })
    }
}

/// A positive decimal id without sign or leading zeros (so each id has one spelling).
pub fn parse_id(text: &str) -> Option<i64> {
    if text.is_empty() || text.starts_with('0') || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The id of a network's Organization resource.
pub fn network_resource_id(network_id: i64) -> String {
    format!("network-{network_id}")
}

/// A network's id from its Organization resource id.
pub fn parse_network_resource_id(id: &str) -> Option<i64> {
    parse_id(id.strip_prefix("network-")?)
}

/// An instant as FHIR writes it (UTC, microseconds).
pub fn instant(micros: i64) -> String {
    chrono::DateTime::from_timestamp_micros(micros)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

fn meta(profile: &str, updated_at_micros: i64) -> Value {
    json!({ "profile": [profile], "lastUpdated": instant(updated_at_micros) })
}

fn coding(system: &str, code: &str, display: &str) -> Value {
    json!({ "system": system, "code": code, "display": display })
}

fn concept(system: &str, code: &str, display: &str) -> Value {
    json!({ "coding": [coding(system, code, display)] })
}

fn reference(target: String) -> Value {
    json!({ "reference": target })
}

fn new_patients(accepting: bool) -> Value {
    let (code, display) = if accepting {
        ("newpt", "Accepting")
    } else {
        ("nopt", "Not Accepting")
    };
    json!({
        "url": EXT_NEW_PATIENTS,
        "extension": [{ "url": "acceptingPatients", "valueCodeableConcept": concept(CS_ACCEPTING_PATIENTS, code, display) }]
    })
}

/// When the listing was last confirmed (ours: Plan-Net has no element for it).
fn last_verified(at: Option<chrono::DateTime<chrono::Utc>>) -> Option<Value> {
    at.map(|at| {
        json!({
            "url": EXT_LAST_VERIFIED,
            "valueDateTime": at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
        })
    })
}

/// Languages as FHIR's `communication` (HealthcareService's and Practitioner's).
fn communication(languages: &LanguageSet) -> Vec<Value> {
    languages
        .iter()
        .map(|language| {
            json!({ "coding": [coding(CS_LANGUAGE, language.code(), language.name())], "text": language.name() })
        })
        .collect()
}

fn telehealth(offered: bool) -> Value {
    json!({ "url": EXT_TELEHEALTH, "valueBoolean": offered })
}

fn telecom(location: &Location) -> Vec<Value> {
    let mut telecom = Vec::new();
    if !location.phone.is_empty() {
        telecom.push(json!({ "system": "phone", "value": location.phone }));
    }
    if !location.website.is_empty() {
        telecom.push(json!({ "system": "url", "value": location.website }));
    }
    telecom
}

fn address(location: &Location) -> Value {
    json!({
        "line": [location.address1],
        "city": location.city,
        "state": location.state,
        "postalCode": location.zip,
        "country": "US"
    })
}

fn state_references(states: &[String]) -> Vec<Value> {
    states
        .iter()
        .map(|state| reference(format!("Location/{}", state_location_id(state))))
        .collect()
}

/// Inserts `key` only when `values` is not empty (FHIR forbids empty arrays).
fn put_list(resource: &mut Map<String, Value>, key: &str, values: Vec<Value>) {
    if !values.is_empty() {
        resource.insert(key.to_owned(), Value::Array(values));
    }
}

/// An organisation (a clinic group or organisation, or a payer). Its address is its first
/// location's: the catalogue keeps none for the organisation itself.
pub fn organisation(snapshot: &Snapshot, organisation: &Organisation) -> Value {
    let (code, display) = organisation_type(organisation.kind);
    let mut resource = json!({
        "resourceType": "Organization",
        "id": organisation.id.to_string(),
        "meta": meta(PROFILE_ORGANIZATION, organisation.updated_at_micros),
        "active": true,
        "type": [concept(CS_ORG_TYPE, code, display)],
        "name": organisation.name,
    });
    let first_location = snapshot
        .organisation_locations(organisation.id)
        .iter()
        .map(|ordinal| snapshot.location(*ordinal as usize))
        .min_by_key(|location| location.id);
    if let (Some(location), Value::Object(fields)) = (first_location, &mut resource) {
        fields.insert("address".into(), json!([address(location)]));
    }
    resource
}

/// A provider network (Plan-Net's Network profile of Organization).
pub fn network(network: &Network) -> Value {
    let mut resource = Map::new();
    resource.insert("resourceType".into(), json!("Organization"));
    resource.insert("id".into(), json!(network_resource_id(network.id)));
    resource.insert("meta".into(), meta(PROFILE_NETWORK, network.updated_at_micros));
    let coverage: Vec<Value> = state_references(&network.coverage_states)
        .into_iter()
        .map(|area| json!({ "url": EXT_LOCATION_REFERENCE, "valueReference": area }))
        .collect();
    put_list(&mut resource, "extension", coverage);
    resource.insert("active".into(), json!(true));
    resource.insert("type".into(), json!([concept(CS_ORG_TYPE, "ntwk", "Network")]));
    resource.insert("name".into(), json!(network.name));
    if let Some(owner) = network.owner_organisation_id {
        resource.insert("partOf".into(), reference(format!("Organization/{owner}")));
    }
    Value::Object(resource)
}

/// A clinic location, with its opening hours.
pub fn location(snapshot: &Snapshot, ordinal: usize) -> Value {
    let location = snapshot.location(ordinal);
    let organisation = snapshot.organisation_of(ordinal);
    let mut resource = Map::new();
    resource.insert("resourceType".into(), json!("Location"));
    resource.insert("id".into(), json!(location.id.to_string()));
    resource.insert("meta".into(), meta(PROFILE_LOCATION, location.updated_at_micros));
    let mut extensions = vec![new_patients(location.accepting_new_patients)];
    extensions.extend(location.accessibility.iter().map(|code| {
        json!({
            "url": EXT_ACCESSIBILITY,
            "valueCodeableConcept": concept(CS_ACCESSIBILITY, code.code(), accessibility_display(code))
        })
    }));
    if let Some(zone) = location.time_zone {
        extensions.push(json!({ "url": EXT_TIME_ZONE, "valueCode": zone.as_str() }));
    }
    extensions.extend(last_verified(location.last_verified));
    resource.insert("extension".into(), Value::Array(extensions));
    resource.insert("status".into(), json!("active"));
    resource.insert("name".into(), json!(location.location_name));
    resource.insert("alias".into(), json!([location.name]));
    resource.insert(
        "type".into(),
        json!([concept(CS_ROLE_CODE, CLINIC_LOCATION_TYPE.0, CLINIC_LOCATION_TYPE.1)]),
    );
    put_list(&mut resource, "telecom", telecom(location));
    resource.insert("address".into(), address(location));
    let physical_type = if location.is_virtual {
        concept(CS_PHYSICAL_TYPE, "vi", "Virtual")
    } else {
        concept(CS_PHYSICAL_TYPE, "bu", "Building")
    };
    resource.insert("physicalType".into(), physical_type);
    let mut position = json!({ "longitude": location.lng, "latitude": location.lat });
    if location.position_approximate {
        position["extension"] = json!([{ "url": EXT_POSITION_APPROXIMATE, "valueBoolean": true }]);
    }
    resource.insert("position".into(), position);
    resource.insert(
        "managingOrganization".into(),
        json!({ "reference": format!("Organization/{}", organisation.id), "display": organisation.name }),
    );
    if let Some(hours) = snapshot.location_hours(ordinal) {
        put_list(
            &mut resource,
            "hoursOfOperation",
            crate::hours::hours_of_operation(hours),
        );
    }
    Value::Object(resource)
}

/// A US state as a coverage area (`Location/state-XX`); `None` for a code that is no state.
pub fn state_location(code: &str) -> Option<Value> {
    let name = state_name(code)?;
    Some(json!({
        "resourceType": "Location",
        "id": state_location_id(code),
        "meta": { "profile": [PROFILE_LOCATION] },
        "status": "active",
        "name": name,
        "physicalType": concept(CS_PHYSICAL_TYPE, "jdn", "Jurisdiction"),
        "address": { "state": code, "country": "US" }
    }))
}

/// The clinic at a location: its services, settings and who runs it.
pub fn healthcare_service(snapshot: &Snapshot, ordinal: usize) -> Value {
    let location = snapshot.location(ordinal);
    let organisation = snapshot.organisation_of(ordinal);
    let modalities = location.modalities;
    let mut extensions = vec![new_patients(location.accepting_new_patients)];
    if modalities.at_clinic || modalities.at_work || modalities.in_home || location.home_care {
        extensions.push(json!({
            "url": EXT_DELIVERY_METHOD,
            "extension": [{ "url": "type", "valueCodeableConcept": concept(CS_DELIVERY_METHOD, "physical", "Physical") }]
        }));
    }
    let virtual_modalities: Vec<Value> = [(modalities.phone, 0), (modalities.video, 1), (modalities.text_chat, 2)]
        .into_iter()
        .filter(|(offered, _)| *offered)
        .map(|(_, index)| {
            let (code, display) = VIRTUAL_MODALITIES[index];
            json!({ "url": "virtualModalities", "valueCodeableConcept": concept(CS_VIRTUAL_MODALITIES, code, display) })
        })
        .collect();
    if location.is_virtual || location.telehealth || !virtual_modalities.is_empty() {
        let mut parts =
            vec![json!({ "url": "type", "valueCodeableConcept": concept(CS_DELIVERY_METHOD, "virtual", "Virtual") })];
        parts.extend(virtual_modalities);
        extensions.push(json!({ "url": EXT_DELIVERY_METHOD, "extension": parts }));
    }
    extensions.push(telehealth(location.telehealth));
    if let (Some(low), Some(high)) = (location.pediatric_min_age, location.pediatric_max_age) {
        extensions.push(json!({
            "url": EXT_PEDIATRIC_AGES,
            "valueRange": {
                "low": { "value": low, "unit": "a", "system": CS_UCUM, "code": "a" },
                "high": { "value": high, "unit": "a", "system": CS_UCUM, "code": "a" }
            }
        }));
    }
    let mut resource = Map::new();
    resource.insert("resourceType".into(), json!("HealthcareService"));
    resource.insert("id".into(), json!(location.id.to_string()));
    resource.insert(
        "meta".into(),
        meta(PROFILE_HEALTHCARE_SERVICE, location.updated_at_micros),
    );
    resource.insert("extension".into(), Value::Array(extensions));
    resource.insert("active".into(), json!(true));
    resource.insert(
        "providedBy".into(),
        json!({ "reference": format!("Organization/{}", organisation.id), "display": organisation.name }),
    );
    resource.insert(
        "category".into(),
        json!([concept(
            CS_SERVICE_CATEGORY,
            CLINIC_SERVICE_CATEGORY.0,
            CLINIC_SERVICE_CATEGORY.1
        )]),
    );
    let types: Vec<Value> = location
        .service_type_codes
        .iter()
        .map(|code| json!({ "coding": [{ "system": CS_X12_SERVICE_TYPE, "code": code }], "text": code }))
        .collect();
    put_list(&mut resource, "type", types);
    resource.insert(
        "location".into(),
        json!([reference(format!("Location/{}", location.id))]),
    );
    resource.insert("name".into(), json!(location.name));
    put_list(&mut resource, "telecom", telecom(location));
    if !location.logo.is_empty() {
        resource.insert("photo".into(), json!({ "url": location.logo }));
    }
    put_list(&mut resource, "communication", communication(&location.languages));
    let settings: Vec<Value> = [
        (modalities.at_clinic, CARE_SETTINGS[0]),
        (modalities.at_work, CARE_SETTINGS[1]),
        (modalities.in_home, CARE_SETTINGS[2]),
        (location.home_care, CARE_SETTINGS[3]),
    ]
    .into_iter()
    .filter(|(offered, _)| *offered)
    .map(|(_, code)| json!({ "coding": [{ "system": CS_CARE_SETTING, "code": code }] }))
    .collect();
    put_list(&mut resource, "characteristic", settings);
    if location.is_virtual {
        put_list(
            &mut resource,
            "coverageArea",
            state_references(&location.virtual_states),
        );
    }
    Value::Object(resource)
}

/// A clinician.
pub fn practitioner(clinician: &Clinician) -> Value {
    let mut resource = Map::new();
    resource.insert("resourceType".into(), json!("Practitioner"));
    resource.insert("id".into(), json!(clinician.id.to_string()));
    resource.insert("meta".into(), meta(PROFILE_PRACTITIONER, clinician.updated_at_micros));
    let mut extensions = vec![telehealth(clinician.telehealth)];
    extensions.extend(last_verified(clinician.last_verified));
    resource.insert("extension".into(), Value::Array(extensions));
    resource.insert(
        "identifier".into(),
        json!([{ "system": NPI_SYSTEM, "value": clinician.npi }]),
    );
    resource.insert("active".into(), json!(true));
    let text = if clinician.credentials.is_empty() {
        clinician.display_name()
    } else {
        format!("{}, {}", clinician.display_name(), clinician.credentials)
    };
    resource.insert(
        "name".into(),
        json!([{ "text": text, "family": clinician.last_name, "given": [clinician.first_name] }]),
    );
    resource.insert(
        "gender".into(),
        json!(match clinician.gender {
            Gender::F => "female",
            Gender::M => "male",
        }),
    );
    if !clinician.credentials.is_empty() {
        let code = match credential_code(&clinician.credentials) {
            Some(code) => json!({ "coding": [{ "system": CS_DEGREE, "code": code }], "text": clinician.credentials }),
            None => json!({ "text": clinician.credentials }),
        };
        resource.insert("qualification".into(), json!([{ "code": code }]));
    }
    if !clinician.logo.is_empty() {
        resource.insert("photo".into(), json!([{ "url": clinician.logo }]));
    }
    put_list(&mut resource, "communication", communication(&clinician.languages));
    Value::Object(resource)
}

/// A clinician's role at a location (in one of its organisation's networks, if any).
pub fn practitioner_role(
    snapshot: &Snapshot,
    clinician_ordinal: usize,
    location_ordinal: usize,
    network: Option<&Network>,
) -> Value {
    let clinician = snapshot.clinician(clinician_ordinal);
    let location = snapshot.location(location_ordinal);
    let organisation = snapshot.organisation_of(location_ordinal);
    let key = RoleKey {
        clinician_id: clinician.id,
        location_id: location.id,
        network_id: network.map(|network| network.id),
    };
    let mut extensions = vec![new_patients(
        clinician.accepting_new_patients && location.accepting_new_patients,
    )];
    if let Some(network) = network {
        extensions.push(json!({
            "url": EXT_NETWORK_REFERENCE,
            "valueReference": { "reference": format!("Organization/{}", network_resource_id(network.id)), "display": network.name }
        }));
    }
    let mut resource = Map::new();
    resource.insert("resourceType".into(), json!("PractitionerRole"));
    resource.insert("id".into(), json!(key.id()));
    resource.insert(
        "meta".into(),
        meta(
            PROFILE_PRACTITIONER_ROLE,
            clinician.updated_at_micros.max(location.updated_at_micros),
        ),
    );
    resource.insert("extension".into(), Value::Array(extensions));
    resource.insert("active".into(), json!(true));
    resource.insert(
        "practitioner".into(),
        json!({ "reference": format!("Practitioner/{}", clinician.id), "display": clinician.display_name() }),
    );
    resource.insert(
        "organization".into(),
        json!({ "reference": format!("Organization/{}", organisation.id), "display": organisation.name }),
    );
    if !clinician.category.is_empty() {
        let code = match category_code(&clinician.category) {
            Some((code, display)) => {
                json!({ "coding": [coding(CS_PROVIDER_ROLE, code, display)], "text": clinician.category })
            }
            None => json!({ "text": clinician.category }),
        };
        resource.insert("code".into(), json!([code]));
    }
    if !clinician.speciality.is_empty() {
        let specialty = match speciality_code(&clinician.speciality) {
            Some((code, display)) => {
                json!({ "coding": [coding(CS_NUCC, code, display)], "text": clinician.speciality })
            }
            None => json!({ "text": clinician.speciality }),
        };
        resource.insert("specialty".into(), json!([specialty]));
    }
    resource.insert(
        "location".into(),
        json!([reference(format!("Location/{}", location.id))]),
    );
    resource.insert(
        "healthcareService".into(),
        json!([reference(format!("HealthcareService/{}", location.id))]),
    );
    if !location.phone.is_empty() {
        resource.insert(
            "telecom".into(),
            json!([{ "system": "phone", "value": location.phone }]),
        );
    }
    Value::Object(resource)
}

/// An insurance plan.
pub fn insurance_plan(plan: &InsurancePlan) -> Value {
    let mut resource = Map::new();
    resource.insert("resourceType".into(), json!("InsurancePlan"));
    resource.insert("id".into(), json!(plan.id.to_string()));
    resource.insert("meta".into(), meta(PROFILE_INSURANCE_PLAN, plan.updated_at_micros));
    resource.insert("status".into(), json!("active"));
    let display = product_type_display(&plan.product_type).unwrap_or(&plan.product_type);
    resource.insert(
        "type".into(),
        json!([concept(CS_INSURANCE_PRODUCT_TYPE, &plan.product_type, display)]),
    );
    resource.insert("name".into(), json!(plan.name));
    if let Some(owner) = plan.owned_by_organisation_id {
        resource.insert("ownedBy".into(), reference(format!("Organization/{owner}")));
    }
    if let Some(administrator) = plan.administered_by_organisation_id {
        resource.insert(
            "administeredBy".into(),
            reference(format!("Organization/{administrator}")),
        );
    }
    put_list(&mut resource, "coverageArea", state_references(&plan.coverage_states));
    let networks: Vec<Value> = plan
        .network_ids
        .iter()
        .map(|network| reference(format!("Organization/{}", network_resource_id(*network))))
        .collect();
    put_list(&mut resource, "network", networks);
    Value::Object(resource)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_ids_read_back() {
        for key in [
            RoleKey {
                clinician_id: 7,
                location_id: 12,
                network_id: None,
            },
            RoleKey {
                clinician_id: 7,
                location_id: 12,
                network_id: Some(3),
            },
        ] {
            assert_eq!(RoleKey::parse(&key.id()), Some(key));
        }
        for bad in ["7", "7-", "-12", "07-12", "7-12-network-", "7-12-13", "x-12"] {
            assert_eq!(RoleKey::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn instants_are_utc_with_microseconds() {
        assert_eq!(instant(1_700_000_000_123_456), "2023-11-14T22:13:20.123456Z");
    }
}
