//! The operators' CSV (docs/fhir-contract.md, "CSV for operators"): each row a clinic location,
//! or a clinician at one, read into the same records a Plan-Net file gives, so identity and
//! validation are the same.

use std::collections::HashMap;
use std::io::Read;

use domain::listing::{Accessibility, AccessibilitySet, Language, LanguageSet};
use domain::{Gender, OrganisationKind, ZipCode};
use gazetteer::Gazetteer;

use crate::codes::{CARE_SETTINGS, state_name};
use crate::import::*;
use crate::params::{ResourceType, is_fhir_id};

/// Every column, the required ones first.
const REQUIRED: &[&str] = &[
    "organization_id",
    "organization_name",
    "location_id",
    "location_name",
    "address",
    "city",
    "state",
    "zip",
    "accepting_new_patients",
];
const OPTIONAL: &[&str] = &[
    "clinic_name",
    "latitude",
    "longitude",
    "phone",
    "website",
    "virtual",
    "virtual_states",
    "services",
    "care_settings",
    "pediatric_min_age",
    "pediatric_max_age",
    "languages",
    "accessibility",
    "telehealth",
    "npi",
    "first_name",
    "last_name",
    "gender",
    "credentials",
    "category",
    "specialty",
    "clinician_accepting_new_patients",
    "clinician_languages",
    "clinician_telehealth",
];
/// The columns that describe a location: rows repeating a location must agree on them.
const LOCATION_COLUMNS: &[&str] = &[
    "organization_id",
    "location_name",
    "clinic_name",
    "address",
    "city",
    "state",
    "zip",
    "latitude",
    "longitude",
    "phone",
    "website",
    "accepting_new_patients",
    "virtual",
    "virtual_states",
    "services",
    "care_settings",
    "pediatric_min_age",
    "pediatric_max_age",
    "languages",
    "accessibility",
    "telehealth",
];
const PRACTITIONER_COLUMNS: &[&str] = &[
    "first_name",
    "last_name",
    "gender",
    "credentials",
    "category",
    "specialty",
    "clinician_languages",
    "clinician_telehealth",
];

/// What a CSV file gives: its records (each with the line of the row that first named it) and
/// the problems found.
pub struct CsvRead {
    pub records: Vec<Record>,
    pub problems: Vec<Problem>,
    /// Rows read (header excluded).
    pub rows: usize,
}

struct Row<'r> {
    columns: &'r HashMap<String, usize>,
    record: &'r csv::StringRecord,
}

impl Row<'_> {
    fn get(&self, column: &str) -> &str {
        self.columns
            .get(column)
            .and_then(|position| self.record.get(*position))
            .map_or("", str::trim)
    }
}

/// Reads a whole CSV (streaming: one row at a time).
pub fn read_csv(input: impl Read, gazetteer: &Gazetteer) -> CsvRead {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(input);
    let mut read = CsvRead {
        records: Vec::new(),
        problems: Vec::new(),
        rows: 0,
    };
    let problem = |line: usize, resource: Option<String>, path: &str, message: String| Problem {
        line,
        resource,
        path: path.to_owned(),
        message,
    };
    let headers = match reader.headers() {
        Ok(headers) => headers.clone(),
        Err(error) => {
            read.problems.push(problem(1, None, "", format!("is not CSV: {error}")));
            return read;
        }
    };
    let mut columns: HashMap<String, usize> = HashMap::new();
    for (position, header) in headers.iter().enumerate() {
        let name = header.trim().to_ascii_lowercase();
        if !REQUIRED.contains(&name.as_str()) && !OPTIONAL.contains(&name.as_str()) {
            read.problems.push(problem(
                1,
                None,
                "",
                format!("column \"{header}\" is not one of the documented columns"),
            ));
        } else if columns.insert(name.clone(), position).is_some() {
            read.problems
                .push(problem(1, None, "", format!("column \"{header}\" appears twice")));
        }
    }
    for required in REQUIRED {
        if !columns.contains_key(*required) {
            read.problems.push(problem(
                1,
                None,
                "",
                format!("the required column \"{required}\" is missing"),
            ));
        }
    }
    if !read.problems.is_empty() {
        return read;
    }
    // First row of each location, organisation and practitioner, to compare repeats with.
    let mut locations: HashMap<String, (usize, Vec<String>)> = HashMap::new();
    let mut organisations: HashMap<String, (usize, String)> = HashMap::new();
    let mut practitioners: HashMap<String, (usize, Vec<String>)> = HashMap::new();
    for result in reader.records() {
        let record = match result {
            Ok(record) => record,
            Err(error) => {
                let line = error.position().map_or(0, |position| position.line() as usize);
                read.problems
                    .push(problem(line, None, "", format!("is not a CSV row: {error}")));
                continue;
            }
        };
        read.rows += 1;
        let line = record.position().map_or(0, |position| position.line() as usize);
        let row = Row {
            columns: &columns,
            record: &record,
        };
        let mut row_problems = Vec::new();
        let mut add = |resource: String, column: &str, message: String| {
            row_problems.push(problem(line, Some(resource), column, message));
        };
        let organisation_id = row.get("organization_id").to_owned();
        let location_id = row.get("location_id").to_owned();
        for (column, id) in [("organization_id", &organisation_id), ("location_id", &location_id)] {
            if !is_fhir_id(id) {
                add(
                    format!("row {line}"),
                    column,
                    format!("\"{id}\" must be 1 to 64 of A-Z a-z 0-9 - ."),
                );
            }
        }
        let location_ref = format!("Location/{location_id}");
        // The organisation.
        let organisation_name = row.get("organization_name").to_owned();
        match organisations.get(&organisation_id) {
            Some((first_line, name)) if *name != organisation_name => add(
                format!("Organization/{organisation_id}"),
                "organization_name",
                format!("\"{organisation_name}\" differs from line {first_line}'s \"{name}\""),
            ),
            Some(_) => {}
            None => {
                if organisation_name.is_empty() {
                    add(
                        format!("Organization/{organisation_id}"),
                        "organization_name",
                        "is required".into(),
                    );
                }
                organisations.insert(organisation_id.clone(), (line, organisation_name.clone()));
                read.records.push(Record {
                    line,
                    kind: ResourceType::Organization,
                    id: organisation_id.clone(),
                    body: Body::Organisation(OrganisationRecord {
                        name: organisation_name.clone(),
                        kind: OrganisationKind::Organisation,
                    }),
                });
            }
        }
        // The location and its clinic.
        let location_values: Vec<String> = LOCATION_COLUMNS
            .iter()
            .map(|column| row.get(column).to_owned())
            .collect();
        match locations.get(&location_id) {
            Some(first) => {
                for (column, message) in repeat_differences(LOCATION_COLUMNS, first, &location_values, "location") {
                    add(location_ref.clone(), column, message);
                }
            }
            None => {
                locations.insert(location_id.clone(), (line, location_values));
                let (location, service) = location_records(&row, &organisation_id, gazetteer, &mut add);
                read.records.push(Record {
                    line,
                    kind: ResourceType::Location,
                    id: location_id.clone(),
                    body: Body::Location(location),
                });
                read.records.push(Record {
                    line,
                    kind: ResourceType::HealthcareService,
                    id: location_id.clone(),
                    body: Body::Service(service),
                });
            }
        }
        // The clinician, if the row names one.
        let npi = row.get("npi").to_owned();
        if !npi.is_empty() {
            let practitioner_ref = format!("Practitioner/{npi}");
            if !domain::npi::is_valid(&npi) {
                add(
                    practitioner_ref.clone(),
                    "npi",
                    format!("\"{npi}\" is not an NPI (10 digits with a valid check digit)"),
                );
            }
            let values: Vec<String> = PRACTITIONER_COLUMNS
                .iter()
                .map(|column| row.get(column).to_owned())
                .collect();
            match practitioners.get(&npi) {
                Some(first) => {
                    for (column, message) in repeat_differences(PRACTITIONER_COLUMNS, first, &values, "NPI") {
                        add(practitioner_ref.clone(), column, message);
                    }
                }
                None => {
                    practitioners.insert(npi.clone(), (line, values));
                    let gender = match row.get("gender") {
                        "F" | "f" => Gender::F,
                        "M" | "m" => Gender::M,
                        other => {
                            add(
                                practitioner_ref.clone(),
                                "gender",
                                format!("\"{other}\" must be F or M"),
                            );
                            Gender::F
                        }
                    };
                    for column in ["first_name", "last_name"] {
                        if row.get(column).is_empty() {
                            add(practitioner_ref.clone(), column, "is required with an npi".into());
                        }
                    }
                    read.records.push(Record {
                        line,
                        kind: ResourceType::Practitioner,
                        id: npi.clone(),
                        body: Body::Practitioner(PractitionerRecord {
                            npi: npi.clone(),
                            first_name: row.get("first_name").to_owned(),
                            last_name: row.get("last_name").to_owned(),
                            credentials: row.get("credentials").to_owned(),
                            gender,
                            logo: String::new(),
                            last_verified: None,
                            languages: languages_column(row.get("clinician_languages"), &mut |message| {
                                add(practitioner_ref.clone(), "clinician_languages", message)
                            }),
                            telehealth: optional_yes_no(row.get("clinician_telehealth"), &mut |message| {
                                add(practitioner_ref.clone(), "clinician_telehealth", message)
                            }),
                        }),
                    });
                }
            }
            let accepting = match row.get("clinician_accepting_new_patients") {
                "" => None,
                text => yes_no(text).or_else(|| {
                    add(
                        practitioner_ref.clone(),
                        "clinician_accepting_new_patients",
                        format!("\"{text}\" must be yes or no"),
                    );
                    None
                }),
            };
            read.records.push(Record {
                line,
                kind: ResourceType::PractitionerRole,
                id: format!("{npi}-{location_id}"),
                body: Body::Role(RoleRecord {
                    practitioner: Ref {
                        kind: "Practitioner",
                        id: npi.clone(),
                    },
                    locations: vec![Ref {
                        kind: "Location",
                        id: location_id.clone(),
                    }],
                    organisation: Some(Ref {
                        kind: "Organization",
                        id: organisation_id.clone(),
                    }),
                    network: None,
                    accepting: Some(accepting.unwrap_or(true)),
                    category: row.get("category").to_owned(),
                    speciality: row.get("specialty").to_owned(),
                }),
            });
        } else {
            for column in PRACTITIONER_COLUMNS.iter().chain(&["clinician_accepting_new_patients"]) {
                if !row.get(column).is_empty() {
                    add(
                        format!("row {line}"),
                        column,
                        "needs an npi (it describes a clinician)".into(),
                    );
                }
            }
        }
        read.problems.extend(row_problems);
    }
    read
}

/// The columns in which a row repeating a location (or an NPI) differs from the row that first
/// named it, with what to say.
fn repeat_differences<'c>(
    columns: &[&'c str],
    (first_line, first): &(usize, Vec<String>),
    values: &[String],
    what: &str,
) -> Vec<(&'c str, String)> {
    columns
        .iter()
        .zip(first.iter().zip(values))
        .filter(|(_, (before, now))| before != now)
        .map(|(column, (before, now))| {
            (
                *column,
                format!("\"{now}\" differs from line {first_line}'s \"{before}\" for the same {what}"),
            )
        })
        .collect()
}

/// An optional yes/no column: empty is `None` (the listing keeps its value).
fn optional_yes_no(text: &str, problem: &mut dyn FnMut(String)) -> Option<bool> {
    match text {
        "" => None,
        text => yes_no(text).or_else(|| {
            problem(format!("\"{text}\" must be yes or no"));
            None
        }),
    }
}

/// A `;`-separated list of ISO 639 codes; empty is `None` (the listing keeps its languages).
fn languages_column(text: &str, problem: &mut dyn FnMut(String)) -> Option<LanguageSet> {
    let codes: Vec<&str> = text.split(';').map(str::trim).filter(|code| !code.is_empty()).collect();
    if codes.is_empty() {
        return None;
    }
    let mut languages = Vec::new();
    for code in codes {
        match Language::parse(code) {
            Some(language) => languages.push(language),
            None => problem(format!("\"{code}\" is not a language code (ISO 639: en, es, zh)")),
        }
    }
    Some(LanguageSet::new(languages))
}

fn yes_no(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" => Some(true),
        "no" | "n" | "false" => Some(false),
        _ => None,
    }
}

/// The location and its clinic from a row's location columns.
fn location_records(
    row: &Row<'_>,
    organisation_id: &str,
    gazetteer: &Gazetteer,
    add: &mut impl FnMut(String, &str, String),
) -> (LocationRecord, ServiceRecord) {
    let resource = format!("Location/{}", row.get("location_id"));
    let mut problem = |column: &str, message: String| add(resource.clone(), column, message);
    for column in ["location_name", "address", "city"] {
        if row.get(column).is_empty() {
            problem(column, "is required".into());
        }
    }
    let state = row.get("state").to_ascii_uppercase();
    if state_name(&state).is_none() {
        problem("state", format!("\"{}\" is not a US state code", row.get("state")));
    }
    let zip_text = row.get("zip");
    let zip = match ZipCode::parse(zip_text) {
        None => {
            problem("zip", format!("\"{zip_text}\" is not a ZIP code"));
            String::new()
        }
        Some(code) if gazetteer.zip(code).is_none() => {
            problem(
                "zip",
                format!("\"{zip_text}\" is not a ZIP code that exists (not in the gazetteer)"),
            );
            String::new()
        }
        Some(code) => code.as_str().to_owned(),
    };
    let position = match (row.get("latitude"), row.get("longitude")) {
        ("", "") => None,
        (lat, lng) => match (lat.parse::<f64>(), lng.parse::<f64>()) {
            (Ok(lat), Ok(lng)) if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng) => Some((lat, lng)),
            _ => {
                problem(
                    "latitude",
                    format!("\"{lat}\", \"{lng}\" is not a position (decimal degrees)"),
                );
                None
            }
        },
    };
    let accepting = yes_no(row.get("accepting_new_patients"));
    if accepting.is_none() {
        problem(
            "accepting_new_patients",
            format!("\"{}\" must be yes or no", row.get("accepting_new_patients")),
        );
    }
    let is_virtual = match row.get("virtual") {
        "" => false,
        text => yes_no(text).unwrap_or_else(|| {
            problem("virtual", format!("\"{text}\" must be yes or no"));
            false
        }),
    };
    let list = |column: &str| -> Vec<String> {
        row.get(column)
            .split(';')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let mut coverage = Vec::new();
    for state in list("virtual_states") {
        let state = state.to_ascii_uppercase();
        if state_name(&state).is_none() {
            problem("virtual_states", format!("\"{state}\" is not a US state code"));
        }
        coverage.push(Area::State(state));
    }
    if !coverage.is_empty() && !is_virtual {
        problem("virtual_states", "is for a virtual clinic (virtual = yes)".into());
    }
    let services = list("services");
    for code in &services {
        if code.len() > 3 || !code.bytes().all(|byte| byte.is_ascii_alphanumeric()) {
            problem("services", format!("\"{code}\" is not an X12 service type code"));
        }
    }
    let settings = list("care_settings");
    let mut care_settings = Vec::new();
    let mut virtual_modalities = Vec::new();
    for setting in settings {
        match setting.as_str() {
            "phone" => virtual_modalities.push("phone".to_owned()),
            "video" => virtual_modalities.push("video".to_owned()),
            "text" => virtual_modalities.push("sms".to_owned()),
            other if CARE_SETTINGS.contains(&other) => care_settings.push(other.to_owned()),
            other => problem(
                "care_settings",
                format!("\"{other}\" is not one of at-clinic, at-work, in-home, home-care, phone, text, video"),
            ),
        }
    }
    let care_settings = if care_settings.is_empty() && virtual_modalities.is_empty() {
        vec!["at-clinic".to_owned()]
    } else {
        care_settings
    };
    let age = |column: &str, problem: &mut dyn FnMut(&str, String)| -> Option<i16> {
        match row.get(column) {
            "" => None,
            text => match text.parse::<i16>() {
                Ok(age) if (0..=21).contains(&age) => Some(age),
                _ => {
                    problem(column, format!("\"{text}\" must be an age from 0 to 21"));
                    None
                }
            },
        }
    };
    let low = age("pediatric_min_age", &mut problem);
    let high = age("pediatric_max_age", &mut problem);
    let pediatric_ages = match (low, high) {
        (Some(low), Some(high)) if low <= high => Some((low, high)),
        (None, None) => None,
        _ => {
            problem(
                "pediatric_min_age",
                "and pediatric_max_age go together, min <= max".into(),
            );
            None
        }
    };
    let languages = languages_column(row.get("languages"), &mut |message| problem("languages", message));
    let accessibility = match list("accessibility") {
        codes if codes.is_empty() => None,
        codes => {
            let mut known = Vec::new();
            for code in codes {
                match Accessibility::parse(&code) {
                    Some(code) => known.push(code),
                    None => problem(
                        "accessibility",
                        format!(
                            "\"{code}\" is not an AccessibilityCS code (handiaccess, adacomp, mobility, cognitive, cultcomp, pubtrans, anssrvc)"
                        ),
                    ),
                }
            }
            Some(AccessibilitySet::new(known))
        }
    };
    let telehealth = optional_yes_no(row.get("telehealth"), &mut |message| problem("telehealth", message));
    let clinic_name = Some(row.get("clinic_name").to_owned()).filter(|name| !name.is_empty());
    let location = LocationRecord {
        organisation: Some(Ref {
            kind: "Organization",
            id: organisation_id.to_owned(),
        }),
        name: row.get("location_name").to_owned(),
        alias: clinic_name.clone(),
        address1: row.get("address").to_owned(),
        city: row.get("city").to_owned(),
        state,
        zip,
        position,
        phone: row.get("phone").to_owned(),
        website: row.get("website").to_owned(),
        accepting,
        is_virtual,
        last_verified: None,
        hours: None,
        time_zone: None,
        accessibility,
        area_state: None,
    };
    let physical = !care_settings.is_empty();
    let service = ServiceRecord {
        location: Ref {
            kind: "Location",
            id: row.get("location_id").to_owned(),
        },
        name: clinic_name,
        accepting,
        service_types: services,
        care_settings: Some(care_settings),
        physical,
        virtual_modalities,
        pediatric_ages,
        logo: String::new(),
        coverage,
        languages,
        telehealth,
    };
    (location, service)
}
