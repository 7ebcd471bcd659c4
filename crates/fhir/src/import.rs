//! Reading Plan-Net resources for `indexer import`: each resource on its own into a record of
//! what the catalogue keeps, with every problem named by its line and the element's path
//! (docs/fhir-contract.md, "indexer import"). References are only read here; the importer
//! resolves them across the file and the catalogue.

use std::fmt;

use domain::ZipCode;
use domain::listing::{Accessibility, AccessibilitySet, Language, LanguageSet, TimeZone, WeeklyHours};
use gazetteer::Gazetteer;
use serde_json::{Map, Value};

use crate::codes::*;
use crate::params::{ResourceType, is_fhir_id};

/// A problem found in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based; in a Bundle, the line where the entry starts.
    pub line: usize,
    /// `Type/id` when known.
    pub resource: Option<String>,
    /// The element at fault (`address.postalCode`), or empty for the whole resource.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "line {}: ", self.line)?;
        if let Some(resource) = &self.resource {
            write!(formatter, "{resource}: ")?;
        }
        if self.path.is_empty() {
            write!(formatter, "{}", self.message)
        } else {
            write!(formatter, "{} {}", self.path, self.message)
        }
    }
}

/// A reference as written: the target's type and id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ref {
    pub kind: &'static str,
    pub id: String,
}

impl fmt::Display for Ref {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}/{}", self.kind, self.id)
    }
}

/// A coverage area: a state named directly (`Location/state-CO`) or an area Location of the
/// file (resolved to its state by the importer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Area {
    State(String),
    Location(Ref),
}

/// An organisation (not a network).
#[derive(Debug, Clone, PartialEq)]
pub struct OrganisationRecord {
    pub name: String,
    pub kind: domain::OrganisationKind,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NetworkRecord {
    pub name: String,
    pub owner: Option<Ref>,
    pub coverage: Vec<Area>,
}

/// A Location: a clinic's place, or an area (a state) other resources name as coverage.
#[derive(Debug, Clone, PartialEq)]
pub struct LocationRecord {
    pub organisation: Option<Ref>,
    pub name: String,
    pub alias: Option<String>,
    pub address1: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    /// Given, or `None`: geocoded from the ZIP code by the importer.
    pub position: Option<(f64, f64)>,
    pub phone: String,
    pub website: String,
    pub accepting: Option<bool>,
    pub is_virtual: bool,
    /// The `last-verified` extension; `None` keeps what the catalogue has (now for a new row).
    pub last_verified: Option<chrono::DateTime<chrono::Utc>>,
    /// `hoursOfOperation`; `None` (no element) keeps what the catalogue has, as for the facts
    /// below (none for a new row).
    pub hours: Option<WeeklyHours>,
    /// The `timezone` extension.
    pub time_zone: Option<TimeZone>,
    /// The `accessibility` extensions.
    pub accessibility: Option<AccessibilitySet>,
    /// An area (physical type `jdn` or `area`): only a coverage area, not a clinic.
    pub area_state: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServiceRecord {
    pub location: Ref,
    pub name: Option<String>,
    pub accepting: Option<bool>,
    pub service_types: Vec<String>,
    /// Care settings named (`at-clinic`, ...); `None` when the resource names none.
    pub care_settings: Option<Vec<String>>,
    pub physical: bool,
    pub virtual_modalities: Vec<String>,
    pub pediatric_ages: Option<(i16, i16)>,
    pub logo: String,
    pub coverage: Vec<Area>,
    /// `communication`: the languages spoken at the clinic; `None` keeps the catalogue's.
    pub languages: Option<LanguageSet>,
    /// Our `telehealth` extension, else whether a delivery method says virtual; `None` when
    /// neither is given (keeps the catalogue's).
    pub telehealth: Option<bool>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PractitionerRecord {
    pub npi: String,
    pub first_name: String,
    pub last_name: String,
    pub credentials: String,
    pub gender: domain::Gender,
    pub logo: String,
    /// The `last-verified` extension, as on a Location.
    pub last_verified: Option<chrono::DateTime<chrono::Utc>>,
    /// `communication`; `None` keeps the catalogue's.
    pub languages: Option<LanguageSet>,
    /// Our `telehealth` extension; `None` keeps the catalogue's.
    pub telehealth: Option<bool>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RoleRecord {
    pub practitioner: Ref,
    pub locations: Vec<Ref>,
    pub organisation: Option<Ref>,
    pub network: Option<Ref>,
    pub accepting: Option<bool>,
    pub category: String,
    pub speciality: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PlanRecord {
    pub name: String,
    pub product_type: String,
    pub owned_by: Option<Ref>,
    pub administered_by: Option<Ref>,
    pub networks: Vec<Ref>,
    pub coverage: Vec<Area>,
}

/// What a resource says, in the catalogue's terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Organisation(OrganisationRecord),
    Network(NetworkRecord),
    Location(LocationRecord),
    Service(ServiceRecord),
    Practitioner(PractitionerRecord),
    Role(RoleRecord),
    Plan(PlanRecord),
}

/// A resource read from the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub line: usize,
    pub kind: ResourceType,
    pub id: String,
    pub body: Body,
}

impl Record {
    pub fn reference(&self) -> Ref {
        Ref {
            kind: self.kind.name(),
            id: self.id.clone(),
        }
    }

    /// Every reference the record makes (for resolving and for what depends on what).
    pub fn references(&self) -> Vec<&Ref> {
        fn areas(areas: &[Area]) -> Vec<&Ref> {
            areas
                .iter()
                .filter_map(|area| match area {
                    Area::Location(reference) => Some(reference),
                    Area::State(_) => None,
                })
                .collect()
        }
        match &self.body {
            Body::Organisation(_) | Body::Practitioner(_) => Vec::new(),
            Body::Network(network) => network.owner.iter().chain(areas(&network.coverage)).collect(),
            Body::Location(location) => location.organisation.iter().collect(),
            Body::Service(service) => std::iter::once(&service.location)
                .chain(areas(&service.coverage))
                .collect(),
            Body::Role(role) => std::iter::once(&role.practitioner)
                .chain(&role.locations)
                .chain(&role.organisation)
                .chain(&role.network)
                .collect(),
            Body::Plan(plan) => plan
                .owned_by
                .iter()
                .chain(&plan.administered_by)
                .chain(&plan.networks)
                .chain(areas(&plan.coverage))
                .collect(),
        }
    }
}

/// Collects problems while a resource is read.
struct Reader<'a> {
    line: usize,
    resource: Option<String>,
    problems: Vec<Problem>,
    gazetteer: &'a Gazetteer,
}

impl Reader<'_> {
    fn problem(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            line: self.line,
            resource: self.resource.clone(),
            path: path.to_owned(),
            message: message.into(),
        });
    }

    /// An optional string element.
    fn string<'v>(&mut self, object: &'v Map<String, Value>, path: &str, key: &str) -> Option<&'v str> {
        match object.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.as_str()),
            Some(_) => {
                self.problem(&join(path, key), "must be a string");
                None
            }
        }
    }

    /// A required, non-blank string element.
    fn required(&mut self, object: &Map<String, Value>, path: &str, key: &str) -> String {
        match self.string(object, path, key).map(str::trim) {
            Some(text) if !text.is_empty() => text.to_owned(),
            Some(_) => {
                self.problem(&join(path, key), "is blank");
                String::new()
            }
            None => {
                self.problem(&join(path, key), "is required");
                String::new()
            }
        }
    }

    /// An optional array element (a lone object is read as one element, as FHIR JSON never
    /// writes, but a hand-made file might: it is refused with a clear message instead).
    fn array<'v>(&mut self, object: &'v Map<String, Value>, path: &str, key: &str) -> &'v [Value] {
        match object.get(key) {
            None | Some(Value::Null) => &[],
            Some(Value::Array(items)) => items,
            Some(_) => {
                self.problem(&join(path, key), "must be an array");
                &[]
            }
        }
    }

    fn object<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        match value {
            Value::Object(object) => Some(object),
            _ => {
                self.problem(path, "must be an object");
                None
            }
        }
    }

    /// A reference element (`{"reference": "Type/id"}`) to one of `kinds`.
    fn reference(&mut self, value: &Value, path: &str, kinds: &[ResourceType]) -> Option<Ref> {
        let object = self.object(value, path)?;
        let Some(text) = self.string(object, path, "reference") else {
            self.problem(
                &join(path, "reference"),
                "is required (a reference by identifier or display alone cannot be resolved)",
            );
            return None;
        };
        let relative = text.rsplitn(3, '/').collect::<Vec<_>>();
        let (kind, id) = match relative.as_slice() {
            [id, kind, ..] => (*kind, *id),
            _ => {
                self.problem(&join(path, "reference"), format!("\"{text}\" is not Type/id"));
                return None;
            }
        };
        let Some(found) = kinds.iter().find(|candidate| candidate.name() == kind) else {
            let names: Vec<&str> = kinds.iter().map(|kind| kind.name()).collect();
            self.problem(
                &join(path, "reference"),
                format!("\"{text}\" must refer to {}", names.join(" or ")),
            );
            return None;
        };
        if !is_fhir_id(id) {
            self.problem(
                &join(path, "reference"),
                format!("\"{text}\" does not end in a resource id"),
            );
            return None;
        }
        Some(Ref {
            kind: found.name(),
            id: id.to_owned(),
        })
    }

    /// The codes of a CodeableConcept in `system` (any system when `None`).
    fn codes(&mut self, value: &Value, path: &str, system: Option<&str>) -> Vec<String> {
        let Some(concept) = self.object(value, path) else {
            return Vec::new();
        };
        let mut codes = Vec::new();
        let codings = self.array(concept, path, "coding");
        for (index, coding) in codings.iter().enumerate() {
            let coding_path = format!("{path}.coding[{index}]");
            let Some(coding) = self.object(coding, &coding_path) else {
                continue;
            };
            let coding_system = self.string(coding, &coding_path, "system");
            let code = self.string(coding, &coding_path, "code");
            if let Some(code) = code
                && system.is_none_or(|wanted| coding_system == Some(wanted))
            {
                codes.push(code.to_owned());
            }
        }
        codes
    }

    fn concept_text(&mut self, value: &Value, path: &str) -> Option<String> {
        let concept = self.object(value, path)?;
        self.string(concept, path, "text").map(|text| text.trim().to_owned())
    }

    /// The extensions among `extensions` whose `url` is `url`, with their paths (an entry that is
    /// not an object is a problem, as everywhere).
    fn extensions_named<'v>(
        &mut self,
        extensions: &'v [Value],
        path: &str,
        url: &str,
    ) -> Vec<(String, &'v Map<String, Value>)> {
        let mut named = Vec::new();
        for (index, extension) in extensions.iter().enumerate() {
            let extension_path = format!("{path}[{index}]");
            let Some(object) = self.object(extension, &extension_path) else {
                continue;
            };
            if object.get("url").and_then(Value::as_str) == Some(url) {
                named.push((extension_path, object));
            }
        }
        named
    }

    /// The `acceptingPatients` code of a `newpatients` extension among `extensions`.
    fn accepting(&mut self, extensions: &[Value], path: &str) -> Option<bool> {
        let mut found = None;
        for (extension_path, object) in self.extensions_named(extensions, path, EXT_NEW_PATIENTS) {
            for (part_index, part) in self.array(object, &extension_path, "extension").iter().enumerate() {
                let part_path = format!("{extension_path}.extension[{part_index}]");
                let Some(part) = self.object(part, &part_path) else {
                    continue;
                };
                if part.get("url").and_then(Value::as_str) != Some("acceptingPatients") {
                    continue;
                }
                let Some(concept) = part.get("valueCodeableConcept") else {
                    self.problem(&part_path, "needs a valueCodeableConcept");
                    continue;
                };
                let codes = self.codes(
                    concept,
                    &format!("{part_path}.valueCodeableConcept"),
                    Some(CS_ACCEPTING_PATIENTS),
                );
                match codes.first().map(String::as_str) {
                    Some("newpt") => found = Some(true),
                    Some("nopt" | "existptonly" | "existptfam") => found = Some(found.unwrap_or(false)),
                    Some(other) => self.problem(
                        &format!("{part_path}.valueCodeableConcept"),
                        format!(
                            "\"{other}\" is not an AcceptingPatientsCS code (newpt, nopt, existptonly, existptfam)"
                        ),
                    ),
                    None => self.problem(
                        &format!("{part_path}.valueCodeableConcept"),
                        "has no AcceptingPatientsCS code",
                    ),
                }
            }
        }
        found
    }

    /// The `valueDateTime` of a `last-verified` extension among `extensions` (a date-time with
    /// its offset, as FHIR's dateTime with a time has it).
    fn last_verified(&mut self, extensions: &[Value], path: &str) -> Option<chrono::DateTime<chrono::Utc>> {
        let mut found = None;
        for (extension_path, object) in self.extensions_named(extensions, path, EXT_LAST_VERIFIED) {
            let text = self.string(object, &extension_path, "valueDateTime");
            match text.map(chrono::DateTime::parse_from_rfc3339) {
                Some(Ok(at)) => found = Some(at.to_utc()),
                Some(Err(_)) => self.problem(
                    &join(&extension_path, "valueDateTime"),
                    format!(
                        "\"{}\" is not a date-time with a time zone (2026-11-26T17:00:00Z)",
                        text.unwrap_or_default()
                    ),
                ),
                None => self.problem(&extension_path, "needs a valueDateTime"),
            }
        }
        found
    }

    /// The languages of `communication` (BCP 47 tags; a region or script subtag is read as its
    /// language: `es-MX` is Spanish); `None` when there is no such element.
    fn languages(&mut self, concepts: &[Value], path: &str) -> Option<LanguageSet> {
        if concepts.is_empty() {
            return None;
        }
        let mut languages = Vec::new();
        for (index, concept) in concepts.iter().enumerate() {
            let concept_path = format!("{path}[{index}]");
            let codes = self.codes(concept, &concept_path, Some(CS_LANGUAGE));
            if codes.is_empty() {
                self.problem(&concept_path, format!("has no language code (system {CS_LANGUAGE})"));
            }
            for code in codes {
                let primary = code.split('-').next().unwrap_or_default();
                match Language::parse(primary) {
                    Some(language) => languages.push(language),
                    None => self.problem(
                        &concept_path,
                        format!("\"{code}\" is not a language code (ISO 639, as BCP 47 writes it: en, es, zh)"),
                    ),
                }
            }
        }
        Some(LanguageSet::new(languages))
    }

    /// The AccessibilityCS codes of the `accessibility` extensions; `None` when there is none.
    fn accessibility(&mut self, extensions: &[Value], path: &str) -> Option<AccessibilitySet> {
        let named = self.extensions_named(extensions, path, EXT_ACCESSIBILITY);
        if named.is_empty() {
            return None;
        }
        let mut codes = Vec::new();
        for (extension_path, object) in named {
            let concept_path = join(&extension_path, "valueCodeableConcept");
            let Some(concept) = object.get("valueCodeableConcept") else {
                self.problem(
                    &extension_path,
                    "needs a valueCodeableConcept (an AccessibilityCS code)",
                );
                continue;
            };
            let found = self.codes(concept, &concept_path, Some(CS_ACCESSIBILITY));
            if found.is_empty() {
                self.problem(&concept_path, "has no AccessibilityCS code");
            }
            for code in found {
                match Accessibility::parse(&code) {
                    Some(known) => codes.push(known),
                    None => {
                        let known: Vec<&str> = Accessibility::ALL.iter().map(|code| code.code()).collect();
                        self.problem(
                            &concept_path,
                            format!("\"{code}\" is not an AccessibilityCS code ({})", known.join(", ")),
                        );
                    }
                }
            }
        }
        Some(AccessibilitySet::new(codes))
    }

    /// The `valueBoolean` of our `telehealth` extension among `extensions`.
    fn telehealth(&mut self, extensions: &[Value], path: &str) -> Option<bool> {
        let mut found = None;
        for (extension_path, object) in self.extensions_named(extensions, path, EXT_TELEHEALTH) {
            match object.get("valueBoolean") {
                Some(Value::Bool(offered)) => found = Some(*offered),
                _ => self.problem(&join(&extension_path, "valueBoolean"), "is required: true or false"),
            }
        }
        found
    }

    /// The IANA zone of a `timezone` extension among `extensions`.
    fn time_zone(&mut self, extensions: &[Value], path: &str) -> Option<TimeZone> {
        let mut found = None;
        for (extension_path, object) in self.extensions_named(extensions, path, EXT_TIME_ZONE) {
            let value_path = join(&extension_path, "valueCode");
            match object.get("valueCode").and_then(Value::as_str) {
                Some(name) => match TimeZone::parse(name) {
                    Some(zone) => found = Some(zone),
                    None => {
                        let known: Vec<&str> = TimeZone::ALL.iter().map(|zone| zone.as_str()).collect();
                        self.problem(
                            &value_path,
                            format!("\"{name}\" is not a time zone of US clinics ({})", known.join(", ")),
                        );
                    }
                },
                None => self.problem(&value_path, "is required (an IANA time zone, America/Denver)"),
            }
        }
        found
    }

    /// `hoursOfOperation`; `None` when there is no such element.
    fn hours(&mut self, resource: &Map<String, Value>) -> Option<WeeklyHours> {
        let entries = self.array(resource, "", "hoursOfOperation");
        if entries.is_empty() {
            return None;
        }
        match crate::hours::read_hours_of_operation(entries) {
            Ok(hours) => Some(hours),
            Err(problems) => {
                for (path, message) in problems {
                    self.problem(&path, message);
                }
                None
            }
        }
    }

    fn areas(&mut self, values: &[Value], path: &str) -> Vec<Area> {
        let mut areas = Vec::new();
        for (index, value) in values.iter().enumerate() {
            let item_path = format!("{path}[{index}]");
            let Some(reference) = self.reference(value, &item_path, &[ResourceType::Location]) else {
                continue;
            };
            match reference.id.strip_prefix("state-") {
                Some(state) if state_name(state).is_some() => areas.push(Area::State(state.to_owned())),
                Some(state) => self.problem(
                    &join(&item_path, "reference"),
                    format!("\"{state}\" is not a US state code"),
                ),
                None => areas.push(Area::Location(reference)),
            }
        }
        areas
    }

    fn state(&mut self, text: &str, path: &str) -> String {
        let state = text.trim().to_ascii_uppercase();
        if state_name(&state).is_none() {
            self.problem(path, format!("\"{text}\" is not a US state code"));
        }
        state
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// Reads one resource (a parsed JSON value) found at `line`.
pub fn read_resource(value: &Value, line: usize, gazetteer: &Gazetteer) -> Result<Record, Vec<Problem>> {
    let mut reader = Reader {
        line,
        resource: None,
        problems: Vec::new(),
        gazetteer,
    };
    let Value::Object(resource) = value else {
        reader.problem("", "is not a JSON object (a FHIR resource)");
        return Err(reader.problems);
    };
    let Some(type_name) = resource.get("resourceType").and_then(Value::as_str) else {
        reader.problem("resourceType", "is required");
        return Err(reader.problems);
    };
    let Some(kind) = ResourceType::parse(type_name) else {
        let served: Vec<&str> = ResourceType::ALL.iter().map(|kind| kind.name()).collect();
        reader.problem(
            "resourceType",
            format!(
                "\"{type_name}\" is not imported (the directory takes {})",
                served.join(", ")
            ),
        );
        return Err(reader.problems);
    };
    let id = match resource.get("id").and_then(Value::as_str) {
        Some(id) if is_fhir_id(id) => id.to_owned(),
        Some(id) => {
            reader.resource = Some(type_name.to_owned());
            reader.problem("id", format!("\"{id}\" is not a FHIR id (1 to 64 of A-Z a-z 0-9 - .)"));
            return Err(reader.problems);
        }
        None => {
            reader.resource = Some(type_name.to_owned());
            reader.problem("id", "is required (identity is the source and the resource id)");
            return Err(reader.problems);
        }
    };
    reader.resource = Some(format!("{type_name}/{id}"));
    let body = match kind {
        ResourceType::Organization => read_organisation(&mut reader, resource),
        ResourceType::Location => Body::Location(read_location(&mut reader, resource)),
        ResourceType::HealthcareService => read_service(&mut reader, resource),
        ResourceType::Practitioner => Body::Practitioner(read_practitioner(&mut reader, resource)),
        ResourceType::PractitionerRole => read_role(&mut reader, resource),
        ResourceType::InsurancePlan => Body::Plan(read_plan(&mut reader, resource)),
    };
    if !reader.problems.is_empty() {
        return Err(reader.problems);
    }
    Ok(Record { line, kind, id, body })
}

fn is_network(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> bool {
    let profiled = resource
        .get("meta")
        .and_then(|meta| meta.get("profile"))
        .and_then(Value::as_array)
        .is_some_and(|profiles| profiles.iter().any(|profile| profile.as_str() == Some(PROFILE_NETWORK)));
    let types = reader.array(resource, "", "type");
    let typed = types.iter().enumerate().any(|(index, concept)| {
        reader
            .codes(concept, &format!("type[{index}]"), Some(CS_ORG_TYPE))
            .iter()
            .any(|code| code == "ntwk")
    });
    profiled || typed
}

fn read_organisation(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> Body {
    let name = reader.required(resource, "", "name");
    if is_network(reader, resource) {
        let owner = resource
            .get("partOf")
            .and_then(|value| reader.reference(value, "partOf", &[ResourceType::Organization]));
        let coverage_refs: Vec<Value> = reader
            .array(resource, "", "extension")
            .iter()
            .filter(|extension| extension.get("url").and_then(Value::as_str) == Some(EXT_LOCATION_REFERENCE))
            .filter_map(|extension| extension.get("valueReference").cloned())
            .collect();
        let coverage = reader.areas(&coverage_refs, "extension(location-reference)");
        return Body::Network(NetworkRecord { name, owner, coverage });
    }
    let types = reader.array(resource, "", "type");
    let mut kind = domain::OrganisationKind::Organisation;
    for (index, concept) in types.iter().enumerate() {
        if let Some(code) = reader
            .codes(concept, &format!("type[{index}]"), Some(CS_ORG_TYPE))
            .first()
        {
            kind = organisation_kind(code);
            break;
        }
    }
    Body::Organisation(OrganisationRecord { name, kind })
}

fn read_location(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> LocationRecord {
    let physical_type = resource
        .get("physicalType")
        .map(|concept| reader.codes(concept, "physicalType", None))
        .unwrap_or_default();
    let is_area = physical_type.iter().any(|code| code == "jdn" || code == "area");
    let is_virtual = physical_type.iter().any(|code| code == "vi");
    let name = reader.required(resource, "", "name");
    let address = match resource.get("address") {
        Some(value) => reader.object(value, "address").cloned(),
        None => None,
    };
    if is_area {
        let state = address
            .as_ref()
            .and_then(|address| reader.string(address, "address", "state").map(str::to_owned));
        let state = match state {
            Some(state) => reader.state(&state, "address.state"),
            None => {
                reader.problem("address.state", "is required for an area (a coverage area is a state)");
                String::new()
            }
        };
        return LocationRecord {
            organisation: None,
            name,
            alias: None,
            address1: String::new(),
            city: String::new(),
            state: state.clone(),
            zip: String::new(),
            position: None,
            phone: String::new(),
            website: String::new(),
            accepting: None,
            is_virtual: false,
            last_verified: None,
            hours: None,
            time_zone: None,
            accessibility: None,
            area_state: Some(state),
        };
    }
    let organisation = match resource.get("managingOrganization") {
        Some(value) => reader.reference(value, "managingOrganization", &[ResourceType::Organization]),
        None => {
            reader.problem(
                "managingOrganization",
                "is required (the organisation that runs the clinic)",
            );
            None
        }
    };
    let alias = reader
        .array(resource, "", "alias")
        .first()
        .and_then(Value::as_str)
        .map(|alias| alias.trim().to_owned())
        .filter(|alias| !alias.is_empty());
    let (mut address1, mut city, mut state, mut zip) = (String::new(), String::new(), String::new(), String::new());
    match &address {
        None => reader.problem("address", "is required (a clinic has a US address)"),
        Some(address) => {
            let lines = reader.array(address, "address", "line");
            match lines.first().and_then(Value::as_str).map(str::trim) {
                Some(line) if !line.is_empty() => address1 = line.to_owned(),
                _ => reader.problem("address.line", "is required"),
            }
            city = reader.required(address, "address", "city");
            let state_text = reader.required(address, "address", "state");
            if !state_text.is_empty() {
                state = reader.state(&state_text, "address.state");
            }
            let zip_text = reader.required(address, "address", "postalCode");
            if !zip_text.is_empty() {
                match ZipCode::parse(&zip_text) {
                    None => reader.problem("address.postalCode", format!("\"{zip_text}\" is not a ZIP code")),
                    Some(code) => match reader.gazetteer.zip(code) {
                        None => reader.problem(
                            "address.postalCode",
                            format!("\"{zip_text}\" is not a ZIP code that exists (not in the gazetteer)"),
                        ),
                        Some(_) => zip = code.as_str().to_owned(),
                    },
                }
            }
        }
    }
    let position = match resource.get("position") {
        None => None,
        Some(value) => reader.object(value, "position").and_then(|position| {
            let lat = position.get("latitude").and_then(Value::as_f64);
            let lng = position.get("longitude").and_then(Value::as_f64);
            match (lat, lng) {
                (Some(lat), Some(lng)) if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng) => {
                    Some((lat, lng))
                }
                (Some(_), Some(_)) => {
                    reader.problem(
                        "position",
                        "latitude must be within -90..90 and longitude within -180..180",
                    );
                    None
                }
                _ => {
                    reader.problem("position", "needs a numeric latitude and longitude");
                    None
                }
            }
        }),
    };
    let mut phone = String::new();
    let mut website = String::new();
    for (index, contact) in reader.array(resource, "", "telecom").iter().enumerate() {
        let path = format!("telecom[{index}]");
        let Some(contact) = reader.object(contact, &path) else {
            continue;
        };
        let system = reader.string(contact, &path, "system").unwrap_or_default().to_owned();
        let value = reader
            .string(contact, &path, "value")
            .unwrap_or_default()
            .trim()
            .to_owned();
        match system.as_str() {
            "phone" if phone.is_empty() => phone = value,
            "url" if website.is_empty() => website = value,
            _ => {}
        }
    }
    let extensions = reader.array(resource, "", "extension");
    let accepting = reader.accepting(extensions, "extension");
    let last_verified = reader.last_verified(extensions, "extension");
    let accessibility = reader.accessibility(extensions, "extension");
    let time_zone = reader.time_zone(extensions, "extension");
    let hours = reader.hours(resource);
    LocationRecord {
        organisation,
        name,
        alias,
        address1,
        city,
        state,
        zip,
        position,
        phone,
        website,
        accepting,
        is_virtual,
        last_verified,
        hours,
        time_zone,
        accessibility,
        area_state: None,
    }
}

fn read_service(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> Body {
    let locations = reader.array(resource, "", "location");
    let location = match locations {
        [] => {
            reader.problem("location", "is required (a clinic's service is listed at its location)");
            None
        }
        [only] => reader.reference(only, "location[0]", &[ResourceType::Location]),
        _ => {
            reader.problem(
                "location",
                "must name one location (the catalogue lists one clinic per location)",
            );
            None
        }
    };
    let name = reader
        .string(resource, "", "name")
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty());
    let extensions = reader.array(resource, "", "extension");
    let accepting = reader.accepting(extensions, "extension");
    let mut physical = false;
    let mut delivery_named = false;
    let mut virtual_delivery = false;
    let mut virtual_modalities = Vec::new();
    let mut pediatric_ages = None;
    for (index, extension) in extensions.iter().enumerate() {
        let path = format!("extension[{index}]");
        let Some(object) = reader.object(extension, &path) else {
            continue;
        };
        match object.get("url").and_then(Value::as_str) {
            Some(EXT_DELIVERY_METHOD) => {
                for (part_index, part) in reader.array(object, &path, "extension").iter().enumerate() {
                    let part_path = format!("{path}.extension[{part_index}]");
                    let Some(part) = reader.object(part, &part_path) else {
                        continue;
                    };
                    let concept_path = format!("{part_path}.valueCodeableConcept");
                    let codes = match part.get("valueCodeableConcept") {
                        Some(concept) => reader.codes(concept, &concept_path, None),
                        None => Vec::new(),
                    };
                    match part.get("url").and_then(Value::as_str) {
                        Some("type") => match codes.first().map(String::as_str) {
                            Some("physical") => {
                                delivery_named = true;
                                physical = true;
                            }
                            Some("virtual") => {
                                delivery_named = true;
                                virtual_delivery = true;
                            }
                            other => reader.problem(
                                &concept_path,
                                format!(
                                    "{:?} is not a DeliveryMethodCS code (physical, virtual)",
                                    other.unwrap_or("")
                                ),
                            ),
                        },
                        Some("virtualModalities") => virtual_modalities.extend(codes),
                        _ => {}
                    }
                }
            }
            Some(EXT_PEDIATRIC_AGES) => {
                let low = extension.pointer("/valueRange/low/value").and_then(Value::as_i64);
                let high = extension.pointer("/valueRange/high/value").and_then(Value::as_i64);
                match (low, high) {
                    (Some(low), Some(high)) if (0..=21).contains(&low) && low <= high && high <= 21 => {
                        pediatric_ages = Some((low as i16, high as i16));
                    }
                    _ => reader.problem(
                        &path,
                        "pediatric-age-range needs valueRange.low and .high in years, 0 to 21, low <= high",
                    ),
                }
            }
            _ => {}
        }
    }
    let mut service_types = Vec::new();
    for (index, concept) in reader.array(resource, "", "type").iter().enumerate() {
        let path = format!("type[{index}]");
        let codes = reader.codes(concept, &path, Some(CS_X12_SERVICE_TYPE));
        for code in codes {
            if code.is_empty() || code.len() > 3 || !code.bytes().all(|byte| byte.is_ascii_alphanumeric()) {
                reader.problem(&path, format!("\"{code}\" is not an X12 service type code"));
            } else if !service_types.contains(&code) {
                service_types.push(code);
            }
        }
    }
    let characteristics = reader.array(resource, "", "characteristic");
    let mut care_settings: Option<Vec<String>> = None;
    for (index, concept) in characteristics.iter().enumerate() {
        let path = format!("characteristic[{index}]");
        for code in reader.codes(concept, &path, Some(CS_CARE_SETTING)) {
            if !CARE_SETTINGS.contains(&code.as_str()) {
                reader.problem(
                    &path,
                    format!("\"{code}\" is not a care setting ({})", CARE_SETTINGS.join(", ")),
                );
            }
            care_settings.get_or_insert_with(Vec::new).push(code);
        }
    }
    let logo = resource
        .get("photo")
        .and_then(|photo| photo.get("url"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let coverage = reader.array(resource, "", "coverageArea").to_vec();
    let coverage = reader.areas(&coverage, "coverageArea");
    let communication = reader.array(resource, "", "communication");
    let languages = reader.languages(communication, "communication");
    let telehealth = reader
        .telehealth(extensions, "extension")
        .or(delivery_named.then_some(virtual_delivery));
    // Without a readable location the problems are recorded: the record is never used.
    let location = location.unwrap_or(Ref {
        kind: "Location",
        id: String::new(),
    });
    Body::Service(ServiceRecord {
        location,
        name,
        accepting,
        service_types,
        care_settings,
        physical,
        virtual_modalities,
        pediatric_ages,
        logo,
        coverage,
        languages,
        telehealth,
    })
}

fn read_practitioner(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> PractitionerRecord {
    let mut npi = None;
    for (index, identifier) in reader.array(resource, "", "identifier").iter().enumerate() {
        let path = format!("identifier[{index}]");
        let Some(identifier) = reader.object(identifier, &path) else {
            continue;
        };
        if reader.string(identifier, &path, "system") == Some(NPI_SYSTEM) {
            let value = reader
                .string(identifier, &path, "value")
                .unwrap_or_default()
                .trim()
                .to_owned();
            if domain::npi::is_valid(&value) {
                npi = Some(value);
            } else {
                reader.problem(
                    &format!("{path}.value"),
                    format!("\"{value}\" is not an NPI (10 digits with a valid check digit)"),
                );
                npi = Some(String::new());
            }
            break;
        }
    }
    if npi.is_none() {
        reader.problem(
            "identifier",
            format!("needs the NPI (system {NPI_SYSTEM}): practitioners are identified by it"),
        );
    }
    let names = reader.array(resource, "", "name");
    let (mut first_name, mut last_name, mut name_text) = (String::new(), String::new(), None);
    match names.first() {
        None => reader.problem("name", "is required"),
        Some(name) => {
            if let Some(name) = reader.object(name, "name[0]") {
                last_name = reader.required(name, "name[0]", "family");
                let given = reader.array(name, "name[0]", "given");
                match given.first().and_then(Value::as_str).map(str::trim) {
                    Some(given) if !given.is_empty() => first_name = given.to_owned(),
                    _ => reader.problem("name[0].given", "is required"),
                }
                name_text = reader.string(name, "name[0]", "text").map(str::to_owned);
            }
        }
    }
    let gender = match reader.string(resource, "", "gender") {
        Some("female") => domain::Gender::F,
        Some("male") => domain::Gender::M,
        Some(other) => {
            reader.problem(
                "gender",
                format!("\"{other}\" is not listed in the marketplace (female or male)"),
            );
            domain::Gender::F
        }
        None => {
            reader.problem("gender", "is required (female or male: the marketplace filters by it)");
            domain::Gender::F
        }
    };
    // The credential: the first qualification's text or code, else what follows the comma
    // in the name's text ("Jane Doe, MD").
    let mut credentials = String::new();
    if let Some(qualification) = reader.array(resource, "", "qualification").first()
        && let Some(code) = qualification.get("code")
    {
        credentials = reader
            .concept_text(code, "qualification[0].code")
            .filter(|text| !text.is_empty())
            .or_else(|| reader.codes(code, "qualification[0].code", None).into_iter().next())
            .unwrap_or_default();
    }
    if credentials.is_empty()
        && let Some((_, after)) = name_text.as_deref().and_then(|text| text.rsplit_once(','))
    {
        credentials = after.trim().to_owned();
    }
    let logo = reader
        .array(resource, "", "photo")
        .first()
        .and_then(|photo| photo.get("url"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let extensions = reader.array(resource, "", "extension");
    let last_verified = reader.last_verified(extensions, "extension");
    let telehealth = reader.telehealth(extensions, "extension");
    let communication = reader.array(resource, "", "communication");
    let languages = reader.languages(communication, "communication");
    PractitionerRecord {
        npi: npi.unwrap_or_default(),
        first_name,
        last_name,
        credentials,
        gender,
        logo,
        last_verified,
        languages,
        telehealth,
    }
}

fn read_role(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> Body {
    let practitioner = match resource.get("practitioner") {
        Some(value) => reader.reference(value, "practitioner", &[ResourceType::Practitioner]),
        None => {
            reader.problem(
                "practitioner",
                "is required (the directory lists clinicians at locations)",
            );
            None
        }
    };
    let mut locations = Vec::new();
    let location_values = reader.array(resource, "", "location");
    if location_values.is_empty() {
        reader.problem("location", "is required (where the clinician sees patients)");
    }
    for (index, value) in location_values.iter().enumerate() {
        if let Some(location) = reader.reference(value, &format!("location[{index}]"), &[ResourceType::Location]) {
            locations.push(location);
        }
    }
    let organisation = resource
        .get("organization")
        .and_then(|value| reader.reference(value, "organization", &[ResourceType::Organization]));
    let extensions = reader.array(resource, "", "extension");
    let accepting = reader.accepting(extensions, "extension");
    let mut network = None;
    for (index, extension) in extensions.iter().enumerate() {
        if extension.get("url").and_then(Value::as_str) == Some(EXT_NETWORK_REFERENCE) {
            let path = format!("extension[{index}].valueReference");
            match extension.get("valueReference") {
                Some(value) => network = reader.reference(value, &path, &[ResourceType::Organization]),
                None => reader.problem(&path, "is required"),
            }
        }
    }
    let mut category = String::new();
    if let Some(code) = reader.array(resource, "", "code").first() {
        category = reader.concept_text(code, "code[0]").unwrap_or_default();
        if category.is_empty()
            && let Some(found) = reader
                .codes(code, "code[0]", Some(CS_PROVIDER_ROLE))
                .iter()
                .find_map(|code| category_for_code(code))
        {
            category = found.to_owned();
        }
    }
    let mut speciality = String::new();
    if let Some(concept) = reader.array(resource, "", "specialty").first() {
        speciality = reader.concept_text(concept, "specialty[0]").unwrap_or_default();
        if speciality.is_empty()
            && let Some(found) = reader
                .codes(concept, "specialty[0]", Some(CS_NUCC))
                .iter()
                .find_map(|code| speciality_for_code(code))
        {
            speciality = found.to_owned();
        }
    }
    Body::Role(RoleRecord {
        practitioner: practitioner.unwrap_or(Ref {
            kind: "Practitioner",
            id: String::new(),
        }),
        locations,
        organisation,
        network,
        accepting,
        category,
        speciality,
    })
}

fn read_plan(reader: &mut Reader<'_>, resource: &Map<String, Value>) -> PlanRecord {
    let name = reader.required(resource, "", "name");
    let mut product_type = String::new();
    let types = reader.array(resource, "", "type");
    match types.first() {
        None => reader.problem("type", "is required (the product type, InsuranceProductTypeCS)"),
        Some(concept) => match reader
            .codes(concept, "type[0]", Some(CS_INSURANCE_PRODUCT_TYPE))
            .first()
        {
            Some(code) if product_type_display(code).is_some() => product_type = code.clone(),
            Some(code) => reader.problem("type[0]", format!("\"{code}\" is not an InsuranceProductTypeCS code")),
            None => reader.problem("type[0]", "has no InsuranceProductTypeCS code"),
        },
    }
    let owned_by = resource
        .get("ownedBy")
        .and_then(|value| reader.reference(value, "ownedBy", &[ResourceType::Organization]));
    let administered_by = resource
        .get("administeredBy")
        .and_then(|value| reader.reference(value, "administeredBy", &[ResourceType::Organization]));
    let mut networks = Vec::new();
    for (index, value) in reader.array(resource, "", "network").iter().enumerate() {
        if let Some(network) = reader.reference(value, &format!("network[{index}]"), &[ResourceType::Organization]) {
            networks.push(network);
        }
    }
    let coverage = reader.array(resource, "", "coverageArea").to_vec();
    let coverage = reader.areas(&coverage, "coverageArea");
    PlanRecord {
        name,
        product_type,
        owned_by,
        administered_by,
        networks,
        coverage,
    }
}
