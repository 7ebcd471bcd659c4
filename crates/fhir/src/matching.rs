//! Whether an item satisfies a filter: the values each search parameter compares, read from
//! the snapshot's rows as they are now (patches included).

use crate::codes::*;
use crate::directory::{Directory, Item, NO_NETWORK};
use crate::params::{Filter, StringMatch, Target, Token};
use crate::resources::network_resource_id;

/// Lower case without accents, for FHIR's default string matching.
pub fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|character| match character {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => 'a',
            'ç' | 'č' => 'c',
            'è' | 'é' | 'ê' | 'ë' | 'ē' => 'e',
            'ì' | 'í' | 'î' | 'ï' | 'ī' => 'i',
            'ñ' | 'ń' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' => 'o',
            'ù' | 'ú' | 'û' | 'ü' | 'ū' => 'u',
            'ý' | 'ÿ' => 'y',
            'š' => 's',
            'ž' => 'z',
            other => other,
        })
        .collect()
}

fn string_matches(how: StringMatch, value: &str, wanted: &str) -> bool {
    match how {
        StringMatch::Exact => value == wanted,
        StringMatch::Prefix => fold(value).starts_with(&fold(wanted)),
        StringMatch::Contains => fold(value).contains(&fold(wanted)),
    }
}

/// A coded value: its system, code and the concept's text.
struct Coded<'a> {
    system: &'a str,
    code: &'a str,
    text: &'a str,
}

fn token_matches(coded: &Coded<'_>, token: &Token, text: bool) -> bool {
    if text {
        return fold(coded.text).starts_with(&fold(&token.code));
    }
    if coded.code.is_empty() || coded.code != token.code {
        return false;
    }
    match &token.system {
        None => true,
        Some(system) if system.is_empty() => false,
        Some(system) => system == coded.system,
    }
}

/// A reference an item holds: the target's type and id.
struct Points<'a> {
    kind: &'a str,
    id: String,
}

fn reference_matches(points: &Points<'_>, target: &Target) -> bool {
    target.kind.is_none_or(|kind| kind.name() == points.kind) && target.id == points.id
}

impl Directory<'_> {
    /// Whether `item` satisfies every filter.
    pub fn matches_all(&self, item: Item, filters: &[Filter]) -> bool {
        filters.iter().all(|filter| self.matches(item, filter))
    }

    fn matches(&self, item: Item, filter: &Filter) -> bool {
        match filter {
            Filter::String { name, how, values } => {
                let fields = self.strings(item, name);
                values
                    .iter()
                    .any(|wanted| fields.iter().any(|field| string_matches(*how, field, wanted)))
            }
            Filter::Token { name, text, values } => {
                if *name == "_id" {
                    let id = self.id(item);
                    return values.iter().any(|token| token.code == id);
                }
                let codes = self.codes(item, name);
                values
                    .iter()
                    .any(|token| codes.iter().any(|coded| token_matches(coded, token, *text)))
            }
            Filter::Reference { name, values } => {
                let points = self.references(item, name);
                values
                    .iter()
                    .any(|target| points.iter().any(|point| reference_matches(point, target)))
            }
            Filter::Date { values, .. } => {
                let updated = self.updated_at(item);
                values.iter().any(|range| range.holds(updated))
            }
        }
    }

    /// The strings a string parameter compares.
    fn strings(&self, item: Item, name: &str) -> Vec<String> {
        let snapshot = self.snapshot;
        let address = |ordinal: u32| {
            let location = self.location_row(ordinal);
            vec![
                location.address1.clone(),
                location.city.clone(),
                location.state.clone(),
                location.zip.clone(),
                "US".to_owned(),
            ]
        };
        match (item, name) {
            (Item::Organisation(position), "name") => vec![snapshot.organisations()[position as usize].name.clone()],
            (Item::Network(position), "name") => vec![snapshot.networks()[position as usize].name.clone()],
            (Item::Organisation(position), "address") => {
                let id = snapshot.organisations()[position as usize].id;
                snapshot
                    .organisation_locations(id)
                    .iter()
                    .min_by_key(|ordinal| self.location_row(**ordinal).id)
                    .map(|ordinal| address(*ordinal))
                    .unwrap_or_default()
            }
            (Item::Location(ordinal), "address") => address(ordinal),
            (Item::Location(ordinal), "address-city") => vec![self.location_row(ordinal).city.clone()],
            (Item::Location(ordinal), "address-state") => vec![self.location_row(ordinal).state.clone()],
            (Item::Location(ordinal), "address-postalcode") => vec![self.location_row(ordinal).zip.clone()],
            (Item::State(position), "address" | "address-state") => {
                vec![STATES[position as usize].0.to_owned(), "US".to_owned()]
            }
            (Item::Service(ordinal), "name") => vec![self.location_row(ordinal).name.clone()],
            (Item::Practitioner(ordinal), "name" | "family" | "given") => {
                let clinician = snapshot.clinician(ordinal as usize);
                match name {
                    "family" => vec![clinician.last_name.clone()],
                    "given" => vec![clinician.first_name.clone()],
                    _ => vec![
                        clinician.first_name.clone(),
                        clinician.last_name.clone(),
                        clinician.display_name(),
                    ],
                }
            }
            (Item::Plan(position), "name") => vec![snapshot.insurance_plans()[position as usize].name.clone()],
            _ => Vec::new(),
        }
    }

    /// The codes a token parameter compares.
    fn codes(&self, item: Item, name: &str) -> Vec<Coded<'_>> {
        let snapshot = self.snapshot;
        match (item, name) {
            (Item::Organisation(position), "type") => {
                let (code, display) = organisation_type(snapshot.organisations()[position as usize].kind);
                vec![Coded {
                    system: CS_ORG_TYPE,
                    code,
                    text: display,
                }]
            }
            (Item::Network(_), "type") => vec![Coded {
                system: CS_ORG_TYPE,
                code: "ntwk",
                text: "Network",
            }],
            (Item::Location(_), "type") => vec![Coded {
                system: CS_ROLE_CODE,
                code: CLINIC_LOCATION_TYPE.0,
                text: CLINIC_LOCATION_TYPE.1,
            }],
            (Item::Location(ordinal), "accessibility") => self
                .location_row(ordinal)
                .accessibility
                .iter()
                .map(|code| Coded {
                    system: CS_ACCESSIBILITY,
                    code: code.code(),
                    text: accessibility_display(code),
                })
                .collect(),
            // The clinic's languages (its HealthcareService's communication).
            (Item::Location(ordinal), "language") => self
                .location_row(ordinal)
                .languages
                .iter()
                .map(|language| Coded {
                    system: CS_LANGUAGE,
                    code: language.code(),
                    text: language.name(),
                })
                .collect(),
            (Item::Service(_), "service-category") => vec![Coded {
                system: CS_SERVICE_CATEGORY,
                code: CLINIC_SERVICE_CATEGORY.0,
                text: CLINIC_SERVICE_CATEGORY.1,
            }],
            (Item::Service(ordinal), "service-type") => self
                .location_row(ordinal)
                .service_type_codes
                .iter()
                .map(|code| Coded {
                    system: CS_X12_SERVICE_TYPE,
                    code,
                    text: code,
                })
                .collect(),
            (Item::Role { clinician, .. }, "specialty") => {
                let speciality = &snapshot.clinician(clinician as usize).speciality;
                vec![Coded {
                    system: CS_NUCC,
                    code: speciality_code(speciality).map_or("", |(code, _)| code),
                    text: speciality,
                }]
            }
            (Item::Role { clinician, .. }, "role") => {
                let category = &snapshot.clinician(clinician as usize).category;
                vec![Coded {
                    system: CS_PROVIDER_ROLE,
                    code: category_code(category).map_or("", |(code, _)| code),
                    text: category,
                }]
            }
            (Item::Plan(position), "type") => {
                let plan = &snapshot.insurance_plans()[position as usize];
                vec![Coded {
                    system: CS_INSURANCE_PRODUCT_TYPE,
                    code: &plan.product_type,
                    text: product_type_display(&plan.product_type).unwrap_or(&plan.product_type),
                }]
            }
            _ => Vec::new(),
        }
    }

    /// The references a reference parameter compares.
    fn references(&self, item: Item, name: &str) -> Vec<Points<'static>> {
        let snapshot = self.snapshot;
        let organisation = |id: i64| Points {
            kind: "Organization",
            id: id.to_string(),
        };
        let states = |states: &[String]| -> Vec<Points<'static>> {
            states
                .iter()
                .map(|state| Points {
                    kind: "Location",
                    id: state_location_id(state),
                })
                .collect()
        };
        match (item, name) {
            (Item::Network(position), "partof") => snapshot.networks()[position as usize]
                .owner_organisation_id
                .map(organisation)
                .into_iter()
                .collect(),
            (Item::Network(position), "coverage-area") => {
                states(&snapshot.networks()[position as usize].coverage_states)
            }
            (Item::Location(ordinal) | Item::Service(ordinal), "organization") => {
                vec![organisation(snapshot.organisation_of(ordinal as usize).id)]
            }
            (Item::Service(ordinal), "location") => vec![Points {
                kind: "Location",
                id: self.location_row(ordinal).id.to_string(),
            }],
            (Item::Service(ordinal), "coverage-area") => {
                let location = self.location_row(ordinal);
                if location.is_virtual {
                    states(&location.virtual_states)
                } else {
                    Vec::new()
                }
            }
            (
                Item::Role {
                    clinician,
                    location,
                    network,
                },
                _,
            ) => match name {
                "practitioner" => vec![Points {
                    kind: "Practitioner",
                    id: snapshot.clinician(clinician as usize).id.to_string(),
                }],
                "location" => vec![Points {
                    kind: "Location",
                    id: self.location_row(location).id.to_string(),
                }],
                "service" => vec![Points {
                    kind: "HealthcareService",
                    id: self.location_row(location).id.to_string(),
                }],
                "organization" => vec![organisation(snapshot.organisation_of(location as usize).id)],
                "network" if network != NO_NETWORK => vec![Points {
                    kind: "Organization",
                    id: network_resource_id(snapshot.networks()[network as usize].id),
                }],
                _ => Vec::new(),
            },
            (Item::Plan(position), _) => {
                let plan = &snapshot.insurance_plans()[position as usize];
                match name {
                    "owned-by" => plan.owned_by_organisation_id.map(organisation).into_iter().collect(),
                    "administered-by" => plan
                        .administered_by_organisation_id
                        .map(organisation)
                        .into_iter()
                        .collect(),
                    "coverage-area" => states(&plan.coverage_states),
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_case_and_accents() {
        assert_eq!(fold("José Ñúñez"), "jose nunez");
        assert!(string_matches(StringMatch::Prefix, "Denver", "den"));
        assert!(!string_matches(StringMatch::Prefix, "Denver", "ver"));
        assert!(string_matches(StringMatch::Contains, "Denver", "VER"));
        assert!(!string_matches(StringMatch::Exact, "Denver", "denver"));
    }

    #[test]
    fn tokens_match_with_and_without_systems() {
        let coded = Coded {
            system: CS_ORG_TYPE,
            code: "prvgrp",
            text: "Provider Group",
        };
        let token = |system: Option<&str>, code: &str| Token {
            system: system.map(str::to_owned),
            code: code.to_owned(),
        };
        assert!(token_matches(&coded, &token(None, "prvgrp"), false));
        assert!(token_matches(&coded, &token(Some(CS_ORG_TYPE), "prvgrp"), false));
        assert!(!token_matches(&coded, &token(Some(""), "prvgrp"), false));
        assert!(!token_matches(&coded, &token(Some("http://other"), "prvgrp"), false));
        assert!(token_matches(&coded, &token(None, "provider"), true));
    }
}
