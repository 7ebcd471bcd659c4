//! The CapabilityStatement served at `/fhir/r4/metadata`, written from the same tables the
//! search reads (parameters, includes), so it cannot promise what the server does not do.

use serde_json::{Value, json};

use crate::codes::*;
use crate::params::{Kind, ResourceType, includes_of, params_of, revincludes_of};

fn profiles(kind: ResourceType) -> Vec<&'static str> {
    match kind {
        ResourceType::Organization => vec![PROFILE_ORGANIZATION, PROFILE_NETWORK],
        ResourceType::Location => vec![PROFILE_LOCATION],
        ResourceType::HealthcareService => vec![PROFILE_HEALTHCARE_SERVICE],
        ResourceType::Practitioner => vec![PROFILE_PRACTITIONER],
        ResourceType::PractitionerRole => vec![PROFILE_PRACTITIONER_ROLE],
        ResourceType::InsurancePlan => vec![PROFILE_INSURANCE_PLAN],
    }
}

fn type_name(kind: Kind) -> &'static str {
    match kind {
        Kind::String => "string",
        Kind::Token => "token",
        Kind::Reference(_) => "reference",
        Kind::Date => "date",
        Kind::Special => "special",
    }
}

/// The statement; `base` is the API's address and `software_version` the server's.
pub fn capability_statement(base: &str, software_version: &str, date: &str) -> Value {
    let resources: Vec<Value> = ResourceType::ALL
        .into_iter()
        .map(|kind| {
            let params: Vec<Value> = params_of(kind)
                .iter()
                .map(|spec| json!({ "name": spec.name, "definition": spec.definition, "type": type_name(spec.kind) }))
                .collect();
            let mut resource = json!({
                "type": kind.name(),
                "profile": profiles(kind)[0],
                "supportedProfile": profiles(kind),
                "interaction": [{ "code": "read" }, { "code": "search-type" }],
                "versioning": "no-version",
                "readHistory": false,
                "updateCreate": false,
                "searchParam": params,
            });
            if !includes_of(kind).is_empty() {
                resource["searchInclude"] = json!(includes_of(kind));
            }
            if !revincludes_of(kind).is_empty() {
                resource["searchRevInclude"] = json!(revincludes_of(kind));
            }
            resource
        })
        .collect();
    json!({
        "resourceType": "CapabilityStatement",
        "status": "active",
        "date": date,
        "publisher": "Nearcare",
        "kind": "instance",
        "instantiates": [PLAN_NET_CAPABILITY],
        "software": { "name": "Nearcare", "version": software_version },
        "implementation": { "description": "Nearcare provider directory (Da Vinci PDex Plan-Net), read-only", "url": base },
        "fhirVersion": FHIR_VERSION,
        "format": ["json", "application/fhir+json"],
        "rest": [{
            "mode": "server",
            "documentation": "Public and read-only. Paging with _count (default 20, at most 100) and next links; near on Location is sorted by distance and returns it in the location-distance extension.",
            "resource": resources,
            "searchParam": [
                { "name": "_count", "type": "number", "documentation": "Page size, 0 to 100 (default 20)" },
                { "name": "_summary", "type": "token", "documentation": "count: the total only" }
            ]
        }]
    })
}
