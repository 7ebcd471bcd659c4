//! From the records of a file to the catalogue's rows: duplicate ids, references resolved in
//! the file or against the source's earlier imports, rejected records (and what depends on
//! them), positions geocoded, each resource compared with its row, and the changes to write
//! (docs/fhir-contract.md, "indexer import").

use std::collections::{BTreeSet, HashMap, HashSet};

use domain::{CareModalities, Clinician, InsurancePlan, Location, Network, Organisation};
use fhir::ResourceType;
use fhir::import::{Area, Body, LocationRecord, Problem, Record, Ref, ServiceRecord};
use gazetteer::Gazetteer;
use store::directory::{DirectoryChanges, Entity, EntityTarget, RoleLink, Target};

/// Above this many changed rows an import is published by a rebuild, not a patch.
pub const PATCH_LIMIT: usize = 1_000;

/// What the catalogue holds that the file may touch.
#[derive(Default)]
pub struct Current {
    pub identities: HashMap<(String, String), Entity>,
    pub clinicians_by_npi: HashMap<String, Clinician>,
    pub organisations: HashMap<i64, Organisation>,
    pub locations: HashMap<i64, Location>,
    pub networks: HashMap<i64, Network>,
    pub plans: HashMap<i64, InsurancePlan>,
    /// The source's links, by role.
    pub links: Vec<RoleLink>,
    /// Organisation ids that would keep a location after the import's removals, and clinician
    /// ids other sources name or that keep a link: filled by the caller for `--full`.
    pub organisations_with_other_locations: HashSet<i64>,
    pub clinicians_kept_elsewhere: HashSet<i64>,
}

/// One line of the report: what happens to a resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Add { resource: String, note: String },
    Update { resource: String, fields: Vec<String> },
    Remove { resource: String },
}

impl std::fmt::Display for Change {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Add { resource, note } if note.is_empty() => write!(formatter, "add {resource}"),
            Self::Add { resource, note } => write!(formatter, "add {resource} ({note})"),
            Self::Update { resource, fields } => write!(formatter, "change {resource}: {}", fields.join("; ")),
            Self::Remove { resource } => write!(formatter, "remove {resource}"),
        }
    }
}

/// How the import reaches running servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Publish {
    None,
    Patch,
    Rebuild,
}

impl Publish {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Patch => "patch",
            Self::Rebuild => "rebuild",
        }
    }
}

pub struct Plan {
    pub changes: DirectoryChanges,
    pub report: Vec<Change>,
    pub added: usize,
    pub changed: usize,
    pub removed: usize,
    pub unchanged: usize,
    pub publish: Publish,
    /// Whether anything would be written (new identity rows count).
    pub writes: bool,
}

/// Checks a file's records as a whole: ids unique per type (NPIs unique), references
/// resolvable in the file or to the source's earlier imports, coverage areas known. `invalid`
/// names the resources of the file that could not be read (`Type/id` → line). Returns the
/// problems; records with problems are named by their line.
pub fn check_file(
    records: &[Record],
    invalid: &HashMap<String, usize>,
    current: &Current,
    source: &str,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut seen: HashMap<(&'static str, &str), usize> = HashMap::new();
    let mut npis: HashMap<&str, (usize, &str)> = HashMap::new();
    let problem = |record: &Record, path: &str, message: String| Problem {
        line: record.line,
        resource: Some(format!("{}/{}", record.kind, record.id)),
        path: path.to_owned(),
        message,
    };
    for record in records {
        if let Some(first) = seen.insert((record.kind.name(), &record.id), record.line) {
            problems.push(problem(
                record,
                "id",
                format!("is a duplicate: {}/{} is also on line {first}", record.kind, record.id),
            ));
            continue;
        }
        if let Body::Practitioner(practitioner) = &record.body
            && let Some((first, other)) = npis.insert(&practitioner.npi, (record.line, &record.id))
        {
            problems.push(problem(
                record,
                "identifier",
                format!(
                    "NPI {} is also Practitioner/{other} on line {first}: one practitioner per NPI",
                    practitioner.npi
                ),
            ));
        }
    }
    let in_file: HashMap<(&str, &str), &Record> = records
        .iter()
        .map(|record| ((record.kind.name(), record.id.as_str()), record))
        .collect();
    for record in records {
        for reference in record.references() {
            let resolved = resolve_kind(reference, &in_file, current);
            let wanted = wanted_kind(record, reference);
            let message = match (resolved, wanted) {
                (None, _) if invalid.contains_key(&reference.to_string()) => Some(format!(
                    "refers to {reference}, which is invalid (line {})",
                    invalid[&reference.to_string()]
                )),
                (None, _) => Some(format!(
                    "refers to {reference}, which is neither in the file nor imported before from source \"{source}\""
                )),
                (Some(found), Some(wanted)) if found != wanted => {
                    Some(format!("refers to {reference}, which is a {found}, not a {wanted}"))
                }
                _ => None,
            };
            if let Some(message) = message {
                problems.push(problem(record, "", message));
            }
        }
    }
    problems.sort_by_key(|problem| problem.line);
    problems
}

/// What a reference is: an in-file or earlier-imported resource's kind of row.
fn resolve_kind(reference: &Ref, in_file: &HashMap<(&str, &str), &Record>, current: &Current) -> Option<&'static str> {
    if let Some(record) = in_file.get(&(reference.kind, reference.id.as_str())) {
        return Some(match &record.body {
            Body::Organisation(_) => "organisation",
            Body::Network(_) => "network",
            Body::Location(location) if location.area_state.is_some() => "coverage area",
            Body::Location(_) => "location",
            Body::Service(_) => "service",
            Body::Practitioner(_) => "practitioner",
            Body::Role(_) => "role",
            Body::Plan(_) => "plan",
        });
    }
    current
        .identities
        .get(&(reference.kind.to_owned(), reference.id.clone()))
        .map(|entity| match entity {
            Entity::Organisation(_) => "organisation",
            Entity::Network(_) => "network",
            Entity::Location(_) => "location",
            Entity::Clinician(_) => "practitioner",
            Entity::InsurancePlan(_) => "plan",
        })
}

/// The kind of row a reference must reach, where it matters.
fn wanted_kind(record: &Record, reference: &Ref) -> Option<&'static str> {
    match &record.body {
        Body::Network(network) if network.owner.as_ref() == Some(reference) => Some("organisation"),
        Body::Network(_) | Body::Service(_) if reference.kind == "Location" => match &record.body {
            Body::Service(service) if &service.location == reference => Some("location"),
            _ => Some("coverage area"),
        },
        Body::Location(_) => Some("organisation"),
        Body::Role(role) if role.network.as_ref() == Some(reference) => Some("network"),
        Body::Role(role) if role.organisation.as_ref() == Some(reference) => Some("organisation"),
        Body::Role(_) if reference.kind == "Location" => Some("location"),
        Body::Plan(plan) if plan.networks.contains(reference) => Some("network"),
        Body::Plan(_) if reference.kind == "Location" => Some("coverage area"),
        Body::Plan(_) => Some("organisation"),
        _ => None,
    }
}

/// The records that depend, through references inside the file, on a rejected one.
pub fn dependents_of(records: &[Record], rejected_lines: &HashSet<usize>) -> HashSet<usize> {
    let mut rejected: HashSet<(&str, &str)> = records
        .iter()
        .filter(|record| rejected_lines.contains(&record.line))
        .map(|record| (record.kind.name(), record.id.as_str()))
        .collect();
    let mut lines = rejected_lines.clone();
    loop {
        let before = lines.len();
        for record in records {
            if lines.contains(&record.line) {
                continue;
            }
            if record
                .references()
                .iter()
                .any(|reference| rejected.contains(&(reference.kind, reference.id.as_str())))
            {
                lines.insert(record.line);
                rejected.insert((record.kind.name(), record.id.as_str()));
            }
        }
        if lines.len() == before {
            return lines;
        }
    }
}

/// Where an in-file or earlier row is, as a target.
struct Targets {
    organisations: HashMap<String, Target>,
    networks: HashMap<String, Target>,
    locations: HashMap<String, Target>,
    clinicians: HashMap<String, Target>,
    plans: HashMap<String, Target>,
}

impl Targets {
    fn get(&self, reference: &Ref, current: &Current) -> Option<Target> {
        let table = match reference.kind {
            "Organization" => self
                .organisations
                .get(&reference.id)
                .or_else(|| self.networks.get(&reference.id)),
            "Location" => self.locations.get(&reference.id),
            "Practitioner" => self.clinicians.get(&reference.id),
            "InsurancePlan" => self.plans.get(&reference.id),
            _ => None,
        };
        table.cloned().or_else(|| {
            current
                .identities
                .get(&(reference.kind.to_owned(), reference.id.clone()))
                .map(|entity| match *entity {
                    Entity::Organisation(id)
                    | Entity::Network(id)
                    | Entity::Location(id)
                    | Entity::Clinician(id)
                    | Entity::InsurancePlan(id) => Target::Existing(id),
                })
        })
    }
}

fn existing(current: &Current, kind: ResourceType, id: &str) -> Option<Entity> {
    current
        .identities
        .get(&(kind.name().to_owned(), id.to_owned()))
        .copied()
}

/// Plans the writes of the accepted records. `full` also retires the source's entries missing
/// from the file.
/// `now` is when the import runs: a new listing without a `last-verified` date was verified then.
pub fn plan(
    records: &[Record],
    current: &Current,
    gazetteer: &Gazetteer,
    full: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> Plan {
    let mut changes = DirectoryChanges::default();
    let mut report = Vec::new();
    let mut targets = Targets {
        organisations: HashMap::new(),
        networks: HashMap::new(),
        locations: HashMap::new(),
        clinicians: HashMap::new(),
        plans: HashMap::new(),
    };
    let mut unchanged = 0;
    let mut changed_rows = 0;
    let mut structural = false;
    let in_file: HashMap<(&str, &str), &Record> = records
        .iter()
        .map(|record| ((record.kind.name(), record.id.as_str()), record))
        .collect();

    // Targets first (a reference may point forward in the file).
    for record in records {
        let slot = match &record.body {
            Body::Organisation(_) => Some((
                &mut targets.organisations,
                existing(current, record.kind, &record.id),
                0,
            )),
            Body::Network(_) => Some((&mut targets.networks, existing(current, record.kind, &record.id), 1)),
            Body::Location(location) if location.area_state.is_none() => {
                Some((&mut targets.locations, existing(current, record.kind, &record.id), 2))
            }
            Body::Plan(_) => Some((&mut targets.plans, existing(current, record.kind, &record.id), 4)),
            _ => None,
        };
        let Some((map, entity, table)) = slot else { continue };
        let target = match entity {
            Some(Entity::Organisation(id)) if table == 0 => Target::Existing(id),
            Some(Entity::Network(id)) if table == 1 => Target::Existing(id),
            Some(Entity::Location(id)) if table == 2 => Target::Existing(id),
            Some(Entity::InsurancePlan(id)) if table == 4 => Target::Existing(id),
            _ => {
                let count = map.values().filter(|target| matches!(target, Target::New(_))).count();
                Target::New(count)
            }
        };
        map.insert(record.id.clone(), target);
    }
    // Practitioners by NPI: an existing clinician of that NPI, whatever source listed it.
    let mut new_clinician_count = 0;
    for record in records {
        if let Body::Practitioner(practitioner) = &record.body {
            let target = match current.clinicians_by_npi.get(&practitioner.npi) {
                Some(clinician) => Target::Existing(clinician.id),
                None => {
                    new_clinician_count += 1;
                    Target::New(new_clinician_count - 1)
                }
            };
            targets.clinicians.insert(record.id.clone(), target);
        }
    }
    let organisation_name = |reference: &Ref| -> String {
        match in_file
            .get(&("Organization", reference.id.as_str()))
            .map(|record| &record.body)
        {
            Some(Body::Organisation(organisation)) => organisation.name.clone(),
            _ => match targets.get(reference, current) {
                Some(Target::Existing(id)) => current
                    .organisations
                    .get(&id)
                    .map(|organisation| organisation.name.clone())
                    .unwrap_or_default(),
                _ => String::new(),
            },
        }
    };
    let area_state = |area: &Area| -> Option<String> {
        match area {
            Area::State(state) => Some(state.clone()),
            Area::Location(reference) => match in_file.get(&("Location", reference.id.as_str())).map(|r| &r.body) {
                Some(Body::Location(location)) => location.area_state.clone(),
                _ => None,
            },
        }
    };
    let states_of = |areas: &[Area]| -> Vec<String> {
        let set: BTreeSet<String> = areas.iter().filter_map(area_state).collect();
        set.into_iter().collect()
    };

    // Organisations.
    for record in records {
        let Body::Organisation(organisation) = &record.body else {
            continue;
        };
        let resource = format!("Organization/{}", record.id);
        let row = Organisation {
            id: 0,
            name: organisation.name.clone(),
            kind: organisation.kind,
            updated_at_micros: 0,
        };
        let target = targets.organisations[&record.id].clone();
        match &target {
            Target::Existing(id) => {
                let before = current.organisations.get(id);
                let mut fields = Vec::new();
                if let Some(before) = before {
                    diff(&mut fields, "name", &before.name, &row.name);
                    diff(&mut fields, "kind", before.kind.as_str(), row.kind.as_str());
                }
                if fields.is_empty() {
                    unchanged += 1;
                } else {
                    structural = true;
                    report.push(Change::Update { resource, fields });
                    changes.updated_organisations.push(Organisation { id: *id, ..row });
                }
            }
            Target::New(_) => {
                structural = true;
                report.push(Change::Add {
                    resource,
                    note: format!("\"{}\"", organisation.name),
                });
                changes.new_organisations.push(row);
            }
        }
        changes.identities.push((
            "Organization".into(),
            record.id.clone(),
            EntityTarget::Organisation(target),
        ));
    }

    // Networks.
    for record in records {
        let Body::Network(network) = &record.body else { continue };
        let resource = format!("Organization/{}", record.id);
        let owner = network.owner.as_ref().and_then(|owner| targets.get(owner, current));
        let row = Network {
            id: 0,
            name: network.name.clone(),
            owner_organisation_id: None,
            coverage_states: states_of(&network.coverage),
            organisation_ids: Vec::new(),
            updated_at_micros: 0,
        };
        let target = targets.networks[&record.id].clone();
        match &target {
            Target::Existing(id) => {
                let mut fields = Vec::new();
                if let Some(before) = current.networks.get(id) {
                    diff(&mut fields, "name", &before.name, &row.name);
                    diff(&mut fields, "coverage", &before.coverage_states, &row.coverage_states);
                    let owner_now = owner.as_ref().map(|owner| match owner {
                        Target::Existing(id) => *id,
                        Target::New(_) => -1,
                    });
                    diff(&mut fields, "owner", &before.owner_organisation_id, &owner_now);
                }
                if fields.is_empty() {
                    unchanged += 1;
                } else {
                    structural = true;
                    report.push(Change::Update { resource, fields });
                    changes.updated_networks.push((Network { id: *id, ..row }, owner));
                }
            }
            Target::New(_) => {
                structural = true;
                report.push(Change::Add {
                    resource,
                    note: format!("network \"{}\"", network.name),
                });
                changes.new_networks.push((row, owner));
            }
        }
        changes
            .identities
            .push(("Organization".into(), record.id.clone(), EntityTarget::Network(target)));
    }

    // Locations with their clinics (HealthcareServices naming them).
    let mut services_at: HashMap<&str, Vec<&Record>> = HashMap::new();
    for record in records {
        if let Body::Service(service) = &record.body {
            services_at
                .entry(service.location.id.as_str())
                .or_default()
                .push(record);
        }
    }
    let mut accepting_at: HashMap<Target, bool> = HashMap::new();
    for record in records {
        let Body::Location(location) = &record.body else {
            continue;
        };
        if location.area_state.is_some() {
            continue;
        }
        let services: Vec<&ServiceRecord> = services_at
            .get(record.id.as_str())
            .into_iter()
            .flatten()
            .filter_map(|record| match &record.body {
                Body::Service(service) => Some(service),
                _ => None,
            })
            .collect();
        let target = targets.locations[&record.id].clone();
        let organisation = location
            .organisation
            .as_ref()
            .and_then(|reference| targets.get(reference, current))
            .expect("checked: a location's organisation resolves");
        let before = match &target {
            Target::Existing(id) => current.locations.get(id),
            Target::New(_) => None,
        };
        let clinic_name = location
            .organisation
            .as_ref()
            .map(organisation_name)
            .unwrap_or_default();
        let (row, approximate) = location_row(location, &services, before, &clinic_name, &states_of, gazetteer, now);
        accepting_at.insert(target.clone(), row.accepting_new_patients);
        let resource = format!("Location/{}", record.id);
        match &target {
            Target::Existing(id) => {
                let mut fields = Vec::new();
                let organisation_changed = match (&organisation, before) {
                    (Target::Existing(organisation_id), Some(before)) => *organisation_id != before.organisation_id,
                    _ => true,
                };
                if organisation_changed {
                    fields.push("managingOrganization".to_owned());
                }
                if let Some(before) = before {
                    location_diff(&mut fields, before, &row);
                    if before.name != row.name
                        || before.location_name != row.location_name
                        || before.lat != row.lat
                        || before.lng != row.lng
                        || before.is_virtual != row.is_virtual
                        || before.virtual_states != row.virtual_states
                    {
                        structural = true;
                    }
                }
                if organisation_changed {
                    structural = true;
                }
                if fields.is_empty() {
                    unchanged += 1;
                } else {
                    changed_rows += 1;
                    report.push(Change::Update { resource, fields });
                    changes
                        .updated_locations
                        .push((Location { id: *id, ..row }, organisation));
                }
            }
            Target::New(_) => {
                structural = true;
                let note = if approximate {
                    format!(
                        "\"{}\", approximate position: the centre of ZIP {}",
                        row.location_name, row.zip
                    )
                } else {
                    format!("\"{}\"", row.location_name)
                };
                report.push(Change::Add { resource, note });
                changes.new_locations.push((row, organisation));
            }
        }
        changes
            .identities
            .push(("Location".into(), record.id.clone(), EntityTarget::Location(target)));
    }
    // Services naming a location of an earlier import of the source: their facts on that row.
    for record in records {
        let Body::Service(service) = &record.body else { continue };
        let target = targets
            .get(&service.location, current)
            .expect("checked: a service's location resolves");
        changes.identities.push((
            "HealthcareService".into(),
            record.id.clone(),
            EntityTarget::Location(target.clone()),
        ));
        if in_file.contains_key(&("Location", service.location.id.as_str())) {
            continue;
        }
        let Target::Existing(id) = target else { continue };
        let Some(before) = current.locations.get(&id) else {
            continue;
        };
        let services = [service];
        let location = location_record_of(before);
        let (row, _) = location_row(
            &location,
            &services,
            Some(before),
            &before.name,
            &states_of,
            gazetteer,
            now,
        );
        let mut fields = Vec::new();
        location_diff(&mut fields, before, &row);
        accepting_at.insert(Target::Existing(id), row.accepting_new_patients);
        if fields.is_empty() {
            unchanged += 1;
        } else {
            changed_rows += 1;
            if before.name != row.name || before.virtual_states != row.virtual_states {
                structural = true;
            }
            report.push(Change::Update {
                resource: format!("HealthcareService/{}", record.id),
                fields,
            });
            changes
                .updated_locations
                .push((Location { id, ..row }, Target::Existing(before.organisation_id)));
        }
    }

    // Roles: links, network memberships, and each clinician's category, speciality and new
    // patients.
    struct RoleFacts {
        category: String,
        speciality: String,
        accepting: Option<bool>,
    }
    let mut facts: HashMap<Target, RoleFacts> = HashMap::new();
    let mut wanted_links: HashSet<(String, Target, Target)> = HashSet::new();
    let mut memberships: Vec<(Target, Target)> = Vec::new();
    let roles_in_file: HashSet<&str> = records
        .iter()
        .filter(|record| record.kind == ResourceType::PractitionerRole)
        .map(|record| record.id.as_str())
        .collect();
    for record in records {
        let Body::Role(role) = &record.body else { continue };
        let clinician = targets
            .get(&role.practitioner, current)
            .expect("checked: a role's practitioner resolves");
        let entry = facts.entry(clinician.clone()).or_insert(RoleFacts {
            category: String::new(),
            speciality: String::new(),
            accepting: None,
        });
        if entry.category.is_empty() {
            entry.category = role.category.clone();
        }
        if entry.speciality.is_empty() {
            entry.speciality = role.speciality.clone();
        }
        if let Some(accepting) = role.accepting {
            entry.accepting = Some(entry.accepting.unwrap_or(false) || accepting);
        }
        for location in &role.locations {
            let location = targets
                .get(location, current)
                .expect("checked: a role's location resolves");
            wanted_links.insert((record.id.clone(), clinician.clone(), location.clone()));
            if let Some(network) = &role.network {
                let network = targets
                    .get(network, current)
                    .expect("checked: a role's network resolves");
                let organisation = match &role.organisation {
                    Some(organisation) => targets.get(organisation, current),
                    None => match &location {
                        Target::Existing(id) => current
                            .locations
                            .get(id)
                            .map(|location| Target::Existing(location.organisation_id)),
                        Target::New(position) => Some(changes.new_locations[*position].1.clone()),
                    },
                };
                if let Some(organisation) = organisation {
                    let member = match (&network, &organisation) {
                        (Target::Existing(network_id), Target::Existing(organisation_id)) => current
                            .networks
                            .get(network_id)
                            .is_some_and(|network| network.organisation_ids.contains(organisation_id)),
                        _ => false,
                    };
                    if !member && !memberships.contains(&(network.clone(), organisation.clone())) {
                        memberships.push((network, organisation));
                    }
                }
            }
        }
        changes.identities.push((
            "PractitionerRole".into(),
            record.id.clone(),
            EntityTarget::Clinician(clinician),
        ));
    }
    if !memberships.is_empty() {
        structural = true;
        report.push(Change::Add {
            resource: plural(memberships.len(), "network membership"),
            note: String::new(),
        });
    }
    changes.memberships = memberships;

    // Clinicians.
    for record in records {
        let Body::Practitioner(practitioner) = &record.body else {
            continue;
        };
        let target = targets.clinicians[&record.id].clone();
        let before = current.clinicians_by_npi.get(&practitioner.npi);
        let role = facts.get(&target);
        let row = Clinician {
            id: 0,
            npi: practitioner.npi.clone(),
            first_name: practitioner.first_name.clone(),
            last_name: practitioner.last_name.clone(),
            credentials: practitioner.credentials.clone(),
            category: role
                .map(|role| role.category.clone())
                .or_else(|| before.map(|before| before.category.clone()))
                .unwrap_or_default(),
            speciality: role
                .map(|role| role.speciality.clone())
                .or_else(|| before.map(|before| before.speciality.clone()))
                .unwrap_or_default(),
            gender: practitioner.gender,
            // Unknown: the location decides (a card shows new patients when both accept).
            accepting_new_patients: role
                .and_then(|role| role.accepting)
                .or_else(|| before.map(|before| before.accepting_new_patients))
                .unwrap_or(true),
            description: String::new(),
            logo: practitioner.logo.clone(),
            location_ids: Vec::new(),
            // The file's, else kept as the clinician's listing has them.
            languages: practitioner
                .languages
                .clone()
                .or_else(|| before.map(|before| before.languages.clone()))
                .unwrap_or_default(),
            telehealth: practitioner
                .telehealth
                .unwrap_or_else(|| before.is_some_and(|before| before.telehealth)),
            last_verified: practitioner
                .last_verified
                .or_else(|| before.map_or(Some(now), |before| before.last_verified)),
            updated_at_micros: 0,
        };
        let resource = format!("Practitioner/{}", record.id);
        match (&target, before) {
            (Target::Existing(id), Some(before)) => {
                let mut fields = Vec::new();
                diff(&mut fields, "name.given", &before.first_name, &row.first_name);
                diff(&mut fields, "name.family", &before.last_name, &row.last_name);
                diff(&mut fields, "qualification", &before.credentials, &row.credentials);
                diff(&mut fields, "role", &before.category, &row.category);
                diff(&mut fields, "specialty", &before.speciality, &row.speciality);
                diff(&mut fields, "gender", before.gender.as_str(), row.gender.as_str());
                diff(
                    &mut fields,
                    "newpatients",
                    &before.accepting_new_patients,
                    &row.accepting_new_patients,
                );
                diff(&mut fields, "photo", &before.logo, &row.logo);
                diff(
                    &mut fields,
                    "communication",
                    &before.languages.codes(),
                    &row.languages.codes(),
                );
                diff(&mut fields, "telehealth", &before.telehealth, &row.telehealth);
                diff(&mut fields, "last-verified", &before.last_verified, &row.last_verified);
                if fields.is_empty() {
                    unchanged += 1;
                } else {
                    changed_rows += 1;
                    if before.first_name != row.first_name
                        || before.last_name != row.last_name
                        || before.credentials != row.credentials
                        || before.speciality != row.speciality
                        || before.gender != row.gender
                    {
                        structural = true;
                    }
                    report.push(Change::Update { resource, fields });
                    changes.updated_clinicians.push(Clinician {
                        id: *id,
                        description: before.description.clone(),
                        ..row
                    });
                }
            }
            _ => {
                structural = true;
                report.push(Change::Add {
                    resource,
                    note: format!("NPI {}", practitioner.npi),
                });
                changes.new_clinicians.push(row);
            }
        }
        changes.identities.push((
            "Practitioner".into(),
            record.id.clone(),
            EntityTarget::Clinician(target),
        ));
    }

    // Links: the source's links of the roles in the file are replaced; with --full, those of
    // roles no longer in the file go.
    let mut current_pairs: HashSet<(String, i64, i64)> = HashSet::new();
    for (role, clinician, location) in &current.links {
        current_pairs.insert((role.clone(), *clinician, *location));
        let keep = wanted_links.contains(&(role.clone(), Target::Existing(*clinician), Target::Existing(*location)));
        let role_listed = roles_in_file.contains(role.as_str());
        if !keep && (role_listed || full) {
            structural = true;
            report.push(Change::Remove {
                resource: format!("PractitionerRole/{role}: clinician {clinician} at location {location}"),
            });
            changes.dropped_links.push((role.clone(), *clinician, *location));
        }
    }
    let mut new_links = 0;
    let mut links: Vec<(String, Target, Target)> = wanted_links.into_iter().collect();
    links.sort_by(|a, b| a.0.cmp(&b.0));
    for (role, clinician, location) in &links {
        let known = match (clinician, location) {
            (Target::Existing(c), Target::Existing(l)) => current_pairs.contains(&(role.clone(), *c, *l)),
            _ => false,
        };
        if !known {
            new_links += 1;
        }
    }
    if new_links > 0 {
        structural = true;
        report.push(Change::Add {
            resource: plural(new_links, "practitioner role link"),
            note: String::new(),
        });
    }
    changes.links = links;

    // Plans.
    for record in records {
        let Body::Plan(plan) = &record.body else { continue };
        let owner = plan.owned_by.as_ref().and_then(|owner| targets.get(owner, current));
        let administrator = plan.administered_by.as_ref().and_then(|a| targets.get(a, current));
        let networks: Vec<Target> = plan
            .networks
            .iter()
            .filter_map(|network| targets.get(network, current))
            .collect();
        let row = InsurancePlan {
            id: 0,
            name: plan.name.clone(),
            product_type: plan.product_type.clone(),
            owned_by_organisation_id: None,
            administered_by_organisation_id: None,
            coverage_states: states_of(&plan.coverage),
            network_ids: Vec::new(),
            updated_at_micros: 0,
        };
        let resource = format!("InsurancePlan/{}", record.id);
        let target = targets.plans[&record.id].clone();
        match &target {
            Target::Existing(id) => {
                let mut fields = Vec::new();
                if let Some(before) = current.plans.get(id) {
                    diff(&mut fields, "name", &before.name, &row.name);
                    diff(&mut fields, "type", &before.product_type, &row.product_type);
                    diff(
                        &mut fields,
                        "coverageArea",
                        &before.coverage_states,
                        &row.coverage_states,
                    );
                    let ids = |target: &Option<Target>| match target {
                        Some(Target::Existing(id)) => Some(*id),
                        Some(Target::New(_)) => Some(-1),
                        None => None,
                    };
                    diff(&mut fields, "ownedBy", &before.owned_by_organisation_id, &ids(&owner));
                    diff(
                        &mut fields,
                        "administeredBy",
                        &before.administered_by_organisation_id,
                        &ids(&administrator),
                    );
                    let wanted: Vec<i64> = networks
                        .iter()
                        .map(|network| ids(&Some(network.clone())).unwrap_or(-1))
                        .collect::<BTreeSet<_>>()
                        .into_iter()
                        .collect();
                    diff(&mut fields, "network", &before.network_ids, &wanted);
                }
                if fields.is_empty() {
                    unchanged += 1;
                } else {
                    structural = true;
                    report.push(Change::Update { resource, fields });
                    changes
                        .updated_plans
                        .push((InsurancePlan { id: *id, ..row }, owner, administrator, networks));
                }
            }
            Target::New(_) => {
                structural = true;
                report.push(Change::Add {
                    resource,
                    note: format!("\"{}\"", plan.name),
                });
                changes.new_plans.push((row, owner, administrator, networks));
            }
        }
        changes.identities.push((
            "InsurancePlan".into(),
            record.id.clone(),
            EntityTarget::InsurancePlan(target),
        ));
    }

    // --full: the source's entries the file no longer lists.
    let mut removed = 0;
    if full {
        let listed: HashSet<(&str, &str)> = records
            .iter()
            .map(|record| (record.kind.name(), record.id.as_str()))
            .collect();
        let mut gone: Vec<(&(String, String), &Entity)> = current
            .identities
            .iter()
            .filter(|((kind, id), _)| !listed.contains(&(kind.as_str(), id.as_str())))
            .collect();
        gone.sort_by(|a, b| a.0.cmp(b.0));
        let removals = &mut changes.removals;
        for ((kind, id), entity) in gone {
            removals.identities.push((kind.clone(), id.clone()));
            let (table, entity_id) = match *entity {
                Entity::Organisation(entity_id) => (&mut removals.organisations, entity_id),
                Entity::Network(entity_id) => (&mut removals.networks, entity_id),
                Entity::Location(entity_id) => (&mut removals.locations, entity_id),
                Entity::Clinician(entity_id) => (&mut removals.clinicians, entity_id),
                Entity::InsurancePlan(entity_id) => (&mut removals.plans, entity_id),
            };
            // A HealthcareService shares its Location's row, a PractitionerRole its clinician's:
            // only the resource that owns the row removes it.
            let owns_row = matches!(
                kind.as_str(),
                "Organization" | "Location" | "Practitioner" | "InsurancePlan"
            );
            let kept = match entity {
                Entity::Organisation(id) => current.organisations_with_other_locations.contains(id),
                Entity::Clinician(id) => current.clinicians_kept_elsewhere.contains(id),
                _ => false,
            };
            if owns_row && !kept && !table.contains(&entity_id) {
                table.push(entity_id);
                removed += 1;
                structural = true;
                report.push(Change::Remove {
                    resource: format!("{kind}/{id}"),
                });
            }
        }
    }

    let added = changes.new_organisations.len()
        + changes.new_networks.len()
        + changes.new_locations.len()
        + changes.new_clinicians.len()
        + changes.new_plans.len();
    let changed = report
        .iter()
        .filter(|change| matches!(change, Change::Update { .. }))
        .count();
    let new_identities = changes
        .identities
        .iter()
        .any(|(kind, id, _)| !current.identities.contains_key(&(kind.clone(), id.clone())));
    let writes = !report.is_empty() || new_identities || !changes.removals.identities.is_empty();
    let publish = if report.is_empty() {
        Publish::None
    } else if structural || changed_rows > PATCH_LIMIT {
        Publish::Rebuild
    } else {
        Publish::Patch
    };
    Plan {
        changes,
        report,
        added,
        changed,
        removed,
        unchanged,
        publish,
        writes,
    }
}

/// A location row's fields read back as a Location record (for a service that changes a
/// location the file does not list).
fn location_record_of(location: &Location) -> LocationRecord {
    LocationRecord {
        organisation: None,
        name: location.location_name.clone(),
        alias: Some(location.name.clone()),
        address1: location.address1.clone(),
        city: location.city.clone(),
        state: location.state.clone(),
        zip: location.zip.clone(),
        position: Some((location.lat, location.lng)),
        phone: location.phone.clone(),
        website: location.website.clone(),
        accepting: None,
        is_virtual: location.is_virtual,
        last_verified: location.last_verified,
        hours: location.hours.clone(),
        time_zone: location.time_zone,
        accessibility: Some(location.accessibility),
        area_state: None,
    }
}

/// The catalogue row of a location and the services at it; true when its position was
/// geocoded.
fn location_row(
    location: &LocationRecord,
    services: &[&ServiceRecord],
    before: Option<&Location>,
    organisation_name: &str,
    states_of: &dyn Fn(&[Area]) -> Vec<String>,
    gazetteer: &Gazetteer,
    now: chrono::DateTime<chrono::Utc>,
) -> (Location, bool) {
    let (lat, lng, approximate) = match location.position {
        Some((lat, lng)) => {
            // An unchanged position keeps the row's approximate mark (an export of a geocoded
            // location gives its position back).
            let same = before.is_some_and(|before| before.lat == lat && before.lng == lng);
            (
                lat,
                lng,
                same && before.is_some_and(|before| before.position_approximate),
            )
        }
        None => {
            let centre = domain::ZipCode::parse(&location.zip)
                .and_then(|zip| gazetteer.zip(zip))
                .map(|place| place.position)
                .expect("checked: the ZIP exists");
            (centre.lat, centre.lng, true)
        }
    };
    let first = services.first();
    let name = first
        .and_then(|service| service.name.clone())
        .or_else(|| location.alias.clone())
        .unwrap_or_else(|| organisation_name.to_owned());
    let accepting = location
        .accepting
        .or_else(|| services.iter().find_map(|service| service.accepting))
        .unwrap_or(false);
    let mut settings: Option<HashSet<&str>> = None;
    let mut physical = services.is_empty();
    let mut modalities = CareModalities::default();
    let mut service_types: Vec<String> = Vec::new();
    let mut coverage: Vec<Area> = Vec::new();
    for service in services {
        if let Some(named) = &service.care_settings {
            settings
                .get_or_insert_with(HashSet::new)
                .extend(named.iter().map(String::as_str));
        }
        physical |= service.physical || service.virtual_modalities.is_empty() && service.care_settings.is_none();
        for modality in &service.virtual_modalities {
            match modality.as_str() {
                "phone" => modalities.phone = true,
                "video" => modalities.video = true,
                "sms" | "app" | "web" => modalities.text_chat = true,
                _ => {}
            }
        }
        for code in &service.service_types {
            if !service_types.contains(code) {
                service_types.push(code.clone());
            }
        }
        coverage.extend(service.coverage.iter().cloned());
    }
    let home_care;
    match &settings {
        Some(settings) => {
            modalities.at_clinic = settings.contains("at-clinic");
            modalities.at_work = settings.contains("at-work");
            modalities.in_home = settings.contains("in-home");
            home_care = settings.contains("home-care");
        }
        None => {
            modalities.at_clinic = physical;
            home_care = false;
        }
    }
    let pediatric = first.and_then(|service| service.pediatric_ages);
    let languages = services.iter().find_map(|service| service.languages.clone());
    let telehealth = services.iter().find_map(|service| service.telehealth);
    let template = before.cloned().unwrap_or_else(|| Location {
        id: 0,
        organisation_id: 0,
        name: String::new(),
        location_name: String::new(),
        address1: String::new(),
        city: String::new(),
        state: String::new(),
        zip: String::new(),
        lat: 0.0,
        lng: 0.0,
        position_approximate: false,
        phone: String::new(),
        website: String::new(),
        logo: String::new(),
        description: String::new(),
        accepting_new_patients: false,
        is_virtual: false,
        virtual_states: Vec::new(),
        home_care: false,
        modalities: CareModalities::default(),
        service_type_codes: Vec::new(),
        pediatric_min_age: None,
        pediatric_max_age: None,
        provider_portal_url: None,
        post_enrolment_redirect: None,
        hours: None,
        time_zone: None,
        languages: Default::default(),
        accessibility: Default::default(),
        telehealth: false,
        panel_capacity: None,
        last_verified: None,
        updated_at_micros: 0,
    });
    let row = Location {
        organisation_id: before.map_or(0, |before| before.organisation_id),
        name,
        location_name: location.name.clone(),
        address1: location.address1.clone(),
        city: location.city.clone(),
        state: location.state.clone(),
        zip: location.zip.clone(),
        lat,
        lng,
        position_approximate: approximate,
        phone: location.phone.clone(),
        website: location.website.clone(),
        logo: first.map(|service| service.logo.clone()).unwrap_or_default(),
        accepting_new_patients: accepting,
        is_virtual: location.is_virtual,
        virtual_states: if location.is_virtual {
            states_of(&coverage)
        } else {
            Vec::new()
        },
        home_care,
        modalities,
        service_type_codes: service_types,
        pediatric_min_age: pediatric.map(|ages| ages.0),
        pediatric_max_age: pediatric.map(|ages| ages.1),
        // The file's date, else the catalogue's; a new listing is verified by its import.
        last_verified: location
            .last_verified
            .or_else(|| before.map_or(Some(now), |before| before.last_verified)),
        // The listing facts the file gives; those it leaves out stay as the catalogue has them.
        hours: location.hours.clone().or_else(|| template.hours.clone()),
        time_zone: location.time_zone.or(template.time_zone),
        accessibility: location.accessibility.unwrap_or(template.accessibility),
        languages: languages.unwrap_or_else(|| template.languages.clone()),
        telehealth: telehealth.unwrap_or(template.telehealth),
        ..template
    };
    (row, approximate && location.position.is_none())
}

/// Names the fields that differ, with their values.
fn location_diff(fields: &mut Vec<String>, before: &Location, after: &Location) {
    diff(fields, "clinic name", &before.name, &after.name);
    diff(fields, "name", &before.location_name, &after.location_name);
    diff(fields, "address.line", &before.address1, &after.address1);
    diff(fields, "address.city", &before.city, &after.city);
    diff(fields, "address.state", &before.state, &after.state);
    diff(fields, "address.postalCode", &before.zip, &after.zip);
    diff(fields, "position", &(before.lat, before.lng), &(after.lat, after.lng));
    diff(
        fields,
        "position approximate",
        &before.position_approximate,
        &after.position_approximate,
    );
    diff(fields, "telecom phone", &before.phone, &after.phone);
    diff(fields, "telecom url", &before.website, &after.website);
    diff(fields, "photo", &before.logo, &after.logo);
    diff(
        fields,
        "newpatients",
        &before.accepting_new_patients,
        &after.accepting_new_patients,
    );
    diff(fields, "virtual", &before.is_virtual, &after.is_virtual);
    diff(fields, "coverageArea", &before.virtual_states, &after.virtual_states);
    diff(fields, "home care", &before.home_care, &after.home_care);
    diff(fields, "care settings", &before.modalities, &after.modalities);
    diff(
        fields,
        "type (service types)",
        &before.service_type_codes,
        &after.service_type_codes,
    );
    diff(
        fields,
        "pediatric ages",
        &(before.pediatric_min_age, before.pediatric_max_age),
        &(after.pediatric_min_age, after.pediatric_max_age),
    );
    diff(
        fields,
        "hoursOfOperation",
        &hours_text(before.hours.as_ref()),
        &hours_text(after.hours.as_ref()),
    );
    diff(fields, "timezone", &before.time_zone, &after.time_zone);
    diff(
        fields,
        "communication",
        &before.languages.codes(),
        &after.languages.codes(),
    );
    diff(
        fields,
        "accessibility",
        &before.accessibility.codes(),
        &after.accessibility.codes(),
    );
    diff(fields, "telehealth", &before.telehealth, &after.telehealth);
    diff(fields, "last-verified", &before.last_verified, &after.last_verified);
}

/// A week of hours as a report line reads it: `mon 08:00-12:00 13:00-17:30; sat 00:00-24:00`.
fn hours_text(hours: Option<&domain::listing::WeeklyHours>) -> String {
    let Some(hours) = hours else {
        return "not given".to_owned();
    };
    let days: Vec<String> = domain::listing::Weekday::ALL
        .into_iter()
        .filter(|day| hours.on(*day).next().is_some())
        .map(|day| {
            let ranges: Vec<String> = hours
                .on(day)
                .map(|range| format!("{}-{}", range.opens, range.closes))
                .collect();
            format!("{} {}", day.code(), ranges.join(" "))
        })
        .collect();
    if days.is_empty() {
        "closed every day".to_owned()
    } else {
        days.join("; ")
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn diff<T: PartialEq + std::fmt::Debug + ?Sized>(fields: &mut Vec<String>, name: &str, before: &T, after: &T) {
    if before != after {
        fields.push(format!("{name} {before:?} -> {after:?}"));
    }
}
