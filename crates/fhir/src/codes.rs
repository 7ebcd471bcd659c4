//! The canonical URLs, code systems and code mappings the directory speaks: Plan-Net's, FHIR's
//! and the few of our own for facts Plan-Net has no code for (docs/fhir-contract.md).

use domain::OrganisationKind;

/// FHIR's version of the API.
pub const FHIR_VERSION: &str = "4.0.1";

const PLAN_NET: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net";
pub const PLAN_NET_CAPABILITY: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CapabilityStatement/plan-net";

pub const PROFILE_ORGANIZATION: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-Organization";
pub const PROFILE_NETWORK: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-Network";
pub const PROFILE_LOCATION: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-Location";
pub const PROFILE_HEALTHCARE_SERVICE: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-HealthcareService";
pub const PROFILE_PRACTITIONER: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-Practitioner";
pub const PROFILE_PRACTITIONER_ROLE: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-PractitionerRole";
pub const PROFILE_INSURANCE_PLAN: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/plannet-InsurancePlan";

pub const EXT_NEW_PATIENTS: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/newpatients";
pub const EXT_DELIVERY_METHOD: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/delivery-method";
pub const EXT_NETWORK_REFERENCE: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/network-reference";
pub const EXT_LOCATION_REFERENCE: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/location-reference";
pub const EXT_LOCATION_DISTANCE: &str = "http://hl7.org/fhir/StructureDefinition/location-distance";
/// Ours: a position geocoded from the address rather than given.
pub const EXT_POSITION_APPROXIMATE: &str = "https://nearcare.example/fhir/StructureDefinition/position-approximate";
/// Ours: when the clinic last confirmed the listing (Location) or its clinician's (Practitioner),
/// or an operator imported it; Plan-Net has no element for it (docs/listings-contract.md).
pub const EXT_LAST_VERIFIED: &str = "https://nearcare.example/fhir/StructureDefinition/last-verified";
/// Plan-Net's accessibility of a Location (one extension per AccessibilityCS code).
pub const EXT_ACCESSIBILITY: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/accessibility";
/// FHIR's own extension for a Location's IANA time zone, in which its hoursOfOperation are read.
pub const EXT_TIME_ZONE: &str = "http://hl7.org/fhir/StructureDefinition/timezone";
/// Ours: whether the clinic (HealthcareService) or the clinician (Practitioner) sees patients by
/// video or phone. Plan-Net's virtual delivery method says it too, but cannot tell it apart from
/// a clinic's phone, video and text contact modalities, so the flag is carried as it is.
pub const EXT_TELEHEALTH: &str = "https://nearcare.example/fhir/StructureDefinition/telehealth";
/// Ours: the ages, in years, of the children a clinic's pediatric service takes.
pub const EXT_PEDIATRIC_AGES: &str = "https://nearcare.example/fhir/StructureDefinition/pediatric-age-range";

pub const CS_ACCEPTING_PATIENTS: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AcceptingPatientsCS";
pub const CS_DELIVERY_METHOD: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/DeliveryMethodCS";
pub const CS_VIRTUAL_MODALITIES: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/VirtualModalitiesCS";
pub const CS_ACCESSIBILITY: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/AccessibilityCS";
/// Languages as BCP 47 tags (the ISO 639 codes the listings keep).
pub const CS_LANGUAGE: &str = "urn:ietf:bcp:47";
pub const CS_ORG_TYPE: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/OrgTypeCS";
pub const CS_SERVICE_CATEGORY: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/HealthcareServiceCategoryCS";
pub const CS_PROVIDER_ROLE: &str = "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/ProviderRoleCS";
pub const CS_INSURANCE_PRODUCT_TYPE: &str =
    "http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/InsuranceProductTypeCS";
pub const CS_NUCC: &str = "http://nucc.org/provider-taxonomy";
pub const CS_DEGREE: &str = "http://terminology.hl7.org/CodeSystem/v2-0360";
pub const CS_ROLE_CODE: &str = "http://terminology.hl7.org/CodeSystem/v3-RoleCode";
pub const CS_PHYSICAL_TYPE: &str = "http://terminology.hl7.org/CodeSystem/location-physical-type";
pub const CS_X12_SERVICE_TYPE: &str = "https://x12.org/codes/service-type-codes";
/// Ours: the care settings Plan-Net has no code for.
pub const CS_CARE_SETTING: &str = "https://nearcare.example/fhir/CodeSystem/care-setting";
pub const CS_UCUM: &str = "http://unitsofmeasure.org";
pub const NPI_SYSTEM: &str = "http://hl7.org/fhir/sid/us-npi";

/// The category every clinic's HealthcareService has: a clinic or outpatient facility.
pub const CLINIC_SERVICE_CATEGORY: (&str, &str) = ("outpat", "Clinic or Outpatient Facility");
/// A physical clinic's Location type: a primary care clinic.
pub const CLINIC_LOCATION_TYPE: (&str, &str) = ("PC", "primary care clinic");

/// The Plan-Net organisation type of a catalogue organisation, and back. Plan-Net's other
/// types (atypical provider, non-healthcare business) are read as `organisation`.
pub fn organisation_type(kind: OrganisationKind) -> (&'static str, &'static str) {
    match kind {
        OrganisationKind::Group => ("prvgrp", "Provider Group"),
        OrganisationKind::Organisation => ("fac", "Facility"),
        OrganisationKind::Payer => ("payer", "Payer"),
    }
}

pub fn organisation_kind(type_code: &str) -> OrganisationKind {
    match type_code {
        "prvgrp" => OrganisationKind::Group,
        "payer" | "ins" => OrganisationKind::Payer,
        _ => OrganisationKind::Organisation,
    }
}

/// NUCC provider taxonomy codes of the catalogue's specialities (the name is always sent as
/// the text; a speciality without a fitting code is sent as text alone).
const SPECIALITY_CODES: &[(&str, &str, &str)] = &[
    ("Family Medicine", "207Q00000X", "Family Medicine Physician"),
    ("Internal Medicine", "207R00000X", "Internal Medicine Physician"),
    ("Pediatrics", "208000000X", "Pediatrics Physician"),
    (
        "Geriatrics",
        "207QG0300X",
        "Geriatric Medicine (Family Medicine) Physician",
    ),
    (
        "Sports Medicine",
        "207QS0010X",
        "Sports Medicine (Family Medicine) Physician",
    ),
];

pub fn speciality_code(speciality: &str) -> Option<(&'static str, &'static str)> {
    SPECIALITY_CODES
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(speciality))
        .map(|(_, code, display)| (*code, *display))
}

/// The catalogue speciality a NUCC code names, for a file that sends the code without text.
pub fn speciality_for_code(code: &str) -> Option<&'static str> {
    SPECIALITY_CODES
        .iter()
        .find(|(_, candidate, _)| *candidate == code)
        .map(|(name, _, _)| *name)
}

/// HL7 v2 table 0360 (degree/licence) codes of the catalogue's credentials.
pub fn credential_code(credential: &str) -> Option<&'static str> {
    match credential.trim().to_ascii_uppercase().as_str() {
        "MD" => Some("MD"),
        "DO" => Some("DO"),
        "NP" => Some("NP"),
        "PA" => Some("PA"),
        _ => None,
    }
}

/// Plan-Net ProviderRoleCS codes of the catalogue's clinician categories.
pub fn category_code(category: &str) -> Option<(&'static str, &'static str)> {
    match category.trim().to_ascii_lowercase().as_str() {
        "physician" => Some(("ph", "Physician")),
        "nurse practitioner" => Some(("crnp", "Certified Registered Nurse Practitioner")),
        "physician assistant" => Some(("pa", "Physician Assistant")),
        _ => None,
    }
}

/// The catalogue category a ProviderRoleCS code names.
pub fn category_for_code(code: &str) -> Option<&'static str> {
    match code {
        "ph" => Some("Physician"),
        "crnp" | "apn" => Some("Nurse Practitioner"),
        "pa" => Some("Physician Assistant"),
        _ => None,
    }
}

/// Plan-Net's insurance product types (InsuranceProductTypeCS).
pub const PRODUCT_TYPES: &[(&str, &str)] = &[
    ("commppo", "Commercial PPO"),
    ("commhdhp", "Commercial HDHP"),
    ("commpos", "Commercial POS"),
    ("commhmo", "Commercial HMO"),
    ("commepo", "Commercial EPO"),
    ("medi", "Medicaid"),
    ("medihmo", "Medicaid HMO"),
    ("mediadv", "Medicare Advantage"),
    ("mediadvhmo", "Medicare Advantage HMO"),
    ("media", "Medicare Part A"),
    ("medib", "Medicare Part B"),
    ("medid", "Medicare Part D"),
    ("mediab", "Medicare A/B"),
    ("qhp", "Qualified Health Plan"),
    ("ihs", "Indian Health Service"),
    ("fep", "Federal Employee Program"),
    ("tri", "TRICARE"),
    ("va", "Veterans Affairs Plan"),
    ("dent", "Dental Plan"),
    ("denthmo", "Dental HMO"),
    ("vis", "Vision Plan"),
    ("vishmo", "Vision HMO"),
];

pub fn product_type_display(code: &str) -> Option<&'static str> {
    PRODUCT_TYPES
        .iter()
        .find(|(candidate, _)| *candidate == code)
        .map(|(_, display)| *display)
}

/// The catalogue's care settings and virtual modalities, as `(catalogue word, code system,
/// code)`: what a clinic's HealthcareService says about where and how patients are seen.
pub const CARE_SETTINGS: &[&str] = &["at-clinic", "at-work", "in-home", "home-care"];
pub const VIRTUAL_MODALITIES: &[(&str, &str)] = &[
    ("phone", "Voice Telephone"),
    ("video", "Video Chat"),
    ("sms", "SMS Text Messaging"),
];

/// AccessibilityCS's display of each code.
pub fn accessibility_display(code: domain::listing::Accessibility) -> &'static str {
    use domain::listing::Accessibility::*;
    match code {
        CulturalCompetence => "Cultural competence",
        HandicapAccessible => "handicap accessible",
        AdaCompliant => "ADA compliant",
        PublicTransit => "public transit options",
        AnsweringService => "answering service",
        Cognitive => "cognitive",
        Mobility => "mobility",
    }
}

/// The US states and territories the gazetteer knows, with their names: the coverage areas
/// (`Location/state-XX`).
pub const STATES: &[(&str, &str)] = &[
    ("AK", "Alaska"),
    ("AL", "Alabama"),
    ("AR", "Arkansas"),
    ("AZ", "Arizona"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DC", "District of Columbia"),
    ("DE", "Delaware"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("IA", "Iowa"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("MA", "Massachusetts"),
    ("MD", "Maryland"),
    ("ME", "Maine"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MO", "Missouri"),
    ("MS", "Mississippi"),
    ("MT", "Montana"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("NE", "Nebraska"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NV", "Nevada"),
    ("NY", "New York"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("PR", "Puerto Rico"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VA", "Virginia"),
    ("VT", "Vermont"),
    ("WA", "Washington"),
    ("WI", "Wisconsin"),
    ("WV", "West Virginia"),
    ("WY", "Wyoming"),
];

pub fn state_name(code: &str) -> Option<&'static str> {
    STATES
        .binary_search_by(|(candidate, _)| (*candidate).cmp(code))
        .ok()
        .map(|position| STATES[position].1)
}

/// The id of a state's coverage-area Location.
pub fn state_location_id(code: &str) -> String {
    format!("state-{code}")
}

/// The Plan-Net canonical base, for the CapabilityStatement's search parameter definitions.
pub fn plan_net_search_parameter(name: &str) -> String {
    format!("{PLAN_NET}/SearchParameter/{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_sorted_for_the_binary_search() {
        assert!(STATES.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert_eq!(state_name("CO"), Some("Colorado"));
        assert_eq!(state_name("ZZ"), None);
    }

    #[test]
    fn organisation_kinds_survive_the_type_code() {
        for kind in [
            OrganisationKind::Group,
            OrganisationKind::Organisation,
            OrganisationKind::Payer,
        ] {
            assert_eq!(organisation_kind(organisation_type(kind).0), kind);
        }
    }
}
