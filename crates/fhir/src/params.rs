//! Reading a search's query string: each parameter checked against the resource type's list
//! (an unknown or malformed one is an error naming it, never ignored), values split into
//! alternatives, modifiers and prefixes read (docs/fhir-contract.md, "/fhir/r4").

use std::fmt;

/// The resource types served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceType {
    Organization,
    Location,
    HealthcareService,
    Practitioner,
    PractitionerRole,
    InsurancePlan,
}

impl ResourceType {
    pub const ALL: [Self; 6] = [
        Self::Organization,
        Self::Location,
        Self::HealthcareService,
        Self::Practitioner,
        Self::PractitionerRole,
        Self::InsurancePlan,
    ];

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == text)
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Organization => "Organization",
            Self::Location => "Location",
            Self::HealthcareService => "HealthcareService",
            Self::Practitioner => "Practitioner",
            Self::PractitionerRole => "PractitionerRole",
            Self::InsurancePlan => "InsurancePlan",
        }
    }
}

impl fmt::Display for ResourceType {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

/// What a search parameter compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    String,
    Token,
    Reference(&'static [ResourceType]),
    Date,
    /// `near`: a position and a distance.
    Special,
}

/// A search parameter a resource type supports: its name, what it compares, and where Plan-Net
/// or FHIR defines it (for the CapabilityStatement).
#[derive(Debug, Clone, Copy)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub definition: &'static str,
}

const ORGANIZATION: &[ResourceType] = &[ResourceType::Organization];
const LOCATION: &[ResourceType] = &[ResourceType::Location];
const PRACTITIONER: &[ResourceType] = &[ResourceType::Practitioner];
const SERVICE: &[ResourceType] = &[ResourceType::HealthcareService];
/// We hold no Endpoint: the parameter is accepted and matches nothing.
const ENDPOINT: &[ResourceType] = &[];

const fn spec(name: &'static str, kind: Kind, definition: &'static str) -> ParamSpec {
    ParamSpec { name, kind, definition }
}

const ID: ParamSpec = spec("_id", Kind::Token, "http://hl7.org/fhir/SearchParameter/Resource-id");
const LAST_UPDATED: ParamSpec = spec(
    "_lastUpdated",
    Kind::Date,
    "http://hl7.org/fhir/SearchParameter/Resource-lastUpdated",
);

macro_rules! pn {
    ($name:literal, $kind:expr, $definition:literal) => {
        spec(
            $name,
            $kind,
            concat!(
                "http://hl7.org/fhir/us/davinci-pdex-plan-net/SearchParameter/",
                $definition
            ),
        )
    };
}

const ORGANIZATION_PARAMS: &[ParamSpec] = &[
    ID,
    LAST_UPDATED,
    pn!("name", Kind::String, "organization-name"),
    pn!("address", Kind::String, "organization-address"),
    pn!("type", Kind::Token, "organization-type"),
    pn!("partof", Kind::Reference(ORGANIZATION), "organization-partof"),
    pn!("coverage-area", Kind::Reference(LOCATION), "organization-coverage-area"),
    pn!("endpoint", Kind::Reference(ENDPOINT), "organization-endpoint"),
];
const LOCATION_PARAMS: &[ParamSpec] = &[
    ID,
    LAST_UPDATED,
    spec(
        "near",
        Kind::Special,
        "http://hl7.org/fhir/SearchParameter/Location-near",
    ),
    pn!("address", Kind::String, "location-address"),
    pn!("address-city", Kind::String, "location-address-city"),
    pn!("address-state", Kind::String, "location-address-state"),
    pn!("address-postalcode", Kind::String, "location-address-postalcode"),
    pn!("organization", Kind::Reference(ORGANIZATION), "location-organization"),
    pn!("type", Kind::Token, "location-type"),
    // Ours (Plan-Net defines none): the listing facts members filter by.
    spec(
        "accessibility",
        Kind::Token,
        "https://nearcare.example/fhir/SearchParameter/location-accessibility",
    ),
    spec(
        "language",
        Kind::Token,
        "https://nearcare.example/fhir/SearchParameter/location-language",
    ),
    pn!("partof", Kind::Reference(LOCATION), "location-partof"),
    pn!("endpoint", Kind::Reference(ENDPOINT), "location-endpoint"),
];
const SERVICE_PARAMS: &[ParamSpec] = &[
    ID,
    LAST_UPDATED,
    pn!("name", Kind::String, "healthcareservice-name"),
    pn!("location", Kind::Reference(LOCATION), "healthcareservice-location"),
    pn!(
        "organization",
        Kind::Reference(ORGANIZATION),
        "healthcareservice-organization"
    ),
    pn!(
        "coverage-area",
        Kind::Reference(LOCATION),
        "healthcareservice-coverage-area"
    ),
    pn!("service-category", Kind::Token, "healthcareservice-service-category"),
    pn!("service-type", Kind::Token, "healthcareservice-service-type"),
    pn!("specialty", Kind::Token, "healthcareservice-specialty"),
    pn!("endpoint", Kind::Reference(ENDPOINT), "healthcareservice-endpoint"),
];
const PRACTITIONER_PARAMS: &[ParamSpec] = &[
    ID,
    LAST_UPDATED,
    pn!("name", Kind::String, "practitioner-name"),
    pn!("family", Kind::String, "practitioner-family-name"),
    pn!("given", Kind::String, "practitioner-given-name"),
];
const ROLE_PARAMS: &[ParamSpec] = &[
    ID,
    LAST_UPDATED,
    pn!(
        "practitioner",
        Kind::Reference(PRACTITIONER),
        "practitionerrole-practitioner"
    ),
    pn!("location", Kind::Reference(LOCATION), "practitionerrole-location"),
    pn!(
        "organization",
        Kind::Reference(ORGANIZATION),
        "practitionerrole-organization"
    ),
    pn!("network", Kind::Reference(ORGANIZATION), "practitionerrole-network"),
    pn!("service", Kind::Reference(SERVICE), "practitionerrole-service"),
    pn!("specialty", Kind::Token, "practitionerrole-specialty"),
    pn!("role", Kind::Token, "practitionerrole-role"),
    pn!("endpoint", Kind::Reference(ENDPOINT), "practitionerrole-endpoint"),
];
const PLAN_PARAMS: &[ParamSpec] = &[
    ID,
    LAST_UPDATED,
    pn!("name", Kind::String, "insuranceplan-name"),
    pn!("identifier", Kind::Token, "insuranceplan-identifier"),
    pn!("type", Kind::Token, "insuranceplan-type"),
    pn!("plan-type", Kind::Token, "insuranceplan-plan-type"),
    pn!("owned-by", Kind::Reference(ORGANIZATION), "insuranceplan-owned-by"),
    pn!(
        "administered-by",
        Kind::Reference(ORGANIZATION),
        "insuranceplan-administered-by"
    ),
    pn!(
        "coverage-area",
        Kind::Reference(LOCATION),
        "insuranceplan-coverage-area"
    ),
];

/// The search parameters of a resource type, `_id` and `_lastUpdated` included.
pub fn params_of(kind: ResourceType) -> &'static [ParamSpec] {
    match kind {
        ResourceType::Organization => ORGANIZATION_PARAMS,
        ResourceType::Location => LOCATION_PARAMS,
        ResourceType::HealthcareService => SERVICE_PARAMS,
        ResourceType::Practitioner => PRACTITIONER_PARAMS,
        ResourceType::PractitionerRole => ROLE_PARAMS,
        ResourceType::InsurancePlan => PLAN_PARAMS,
    }
}

/// The `_include` values a type's search takes, and the `_revinclude` values.
pub fn includes_of(kind: ResourceType) -> &'static [&'static str] {
    match kind {
        ResourceType::PractitionerRole => &[
            "PractitionerRole:practitioner",
            "PractitionerRole:location",
            "PractitionerRole:organization",
            "PractitionerRole:network",
            "PractitionerRole:service",
        ],
        _ => &[],
    }
}

pub fn revincludes_of(kind: ResourceType) -> &'static [&'static str] {
    match kind {
        ResourceType::Practitioner => &["PractitionerRole:practitioner"],
        ResourceType::Location => &["PractitionerRole:location"],
        ResourceType::Organization => &["PractitionerRole:organization"],
        _ => &[],
    }
}

/// A refused query: the parameter it names and why (an OperationOutcome's expression and
/// diagnostics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    pub parameter: String,
    pub message: String,
}

impl ParamError {
    pub fn new(parameter: &str, message: impl Into<String>) -> Self {
        Self {
            parameter: parameter.to_owned(),
            message: message.into(),
        }
    }
}

/// String matching: FHIR's default (starts with, ignoring case and accents), `:exact`,
/// `:contains`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringMatch {
    Prefix,
    Exact,
    Contains,
}

/// One alternative of a token parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// `None`: any system; `Some("")`: no system (`|code`).
    pub system: Option<String>,
    pub code: String,
}

/// A reference parameter's target: a type (when the value or modifier names one) and an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: Option<ResourceType>,
    pub id: String,
}

/// A date comparison: the instant range [start, end) the value covers, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateRange {
    pub prefix: DatePrefix,
    pub start: i64,
    pub end: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatePrefix {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Sa,
    Eb,
}

impl DateRange {
    /// Whether an instant satisfies the comparison (FHIR's rules for a value with no range).
    pub fn holds(&self, micros: i64) -> bool {
        match self.prefix {
            DatePrefix::Eq => (self.start..self.end).contains(&micros),
            DatePrefix::Ne => !(self.start..self.end).contains(&micros),
            DatePrefix::Lt | DatePrefix::Eb => micros < self.start,
            DatePrefix::Le => micros < self.end,
            DatePrefix::Gt | DatePrefix::Sa => micros >= self.end,
            DatePrefix::Ge => micros >= self.start,
        }
    }
}

/// A parsed filter: one occurrence of a parameter, its alternatives (any may hold).
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    String {
        name: &'static str,
        how: StringMatch,
        values: Vec<String>,
    },
    Token {
        name: &'static str,
        /// `:text`: the concept's text starts with the value.
        text: bool,
        values: Vec<Token>,
    },
    Reference {
        name: &'static str,
        values: Vec<Target>,
    },
    Date {
        name: &'static str,
        values: Vec<DateRange>,
    },
}

/// `near`: where, and how far (in miles), and the unit the answer's distances are written in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Near {
    pub lat: f64,
    pub lng: f64,
    pub radius_miles: f64,
    pub unit: DistanceUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DistanceUnit {
    Kilometres,
    Metres,
    Miles,
}

impl DistanceUnit {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "km" => Some(Self::Kilometres),
            "m" => Some(Self::Metres),
            "mi" | "[mi_i]" => Some(Self::Miles),
            _ => None,
        }
    }

    /// Miles in one of this unit.
    pub fn miles(self) -> f64 {
        match self {
            Self::Kilometres => 1.0 / 1.609_344,
            Self::Metres => 1.0 / 1_609.344,
            Self::Miles => 1.0,
        }
    }

    /// The UCUM code.
    pub fn code(self) -> &'static str {
        match self {
            Self::Kilometres => "km",
            Self::Metres => "m",
            Self::Miles => "[mi_i]",
        }
    }
}

/// The default page size, and the largest.
pub const DEFAULT_COUNT: usize = 20;
pub const MAX_COUNT: usize = 100;
/// `near` without a distance: 50 km.
pub const DEFAULT_NEAR_KM: f64 = 50.0;

/// A whole search request.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    pub kind: ResourceType,
    pub filters: Vec<Filter>,
    pub near: Option<Near>,
    pub count: usize,
    pub cursor: Option<String>,
    pub includes: Vec<&'static str>,
    pub revincludes: Vec<&'static str>,
    pub summary_count: bool,
    /// The parameters as given (minus `_cursor`), for the `self` and `next` links.
    pub echo: Vec<(String, String)>,
}

/// Parameters every request may carry that are not search parameters: the answer's format.
pub const FORMAT_PARAMS: [&str; 2] = ["_format", "_pretty"];

/// Reads a search's parameters (already percent-decoded pairs, in order).
pub fn parse_query(kind: ResourceType, pairs: &[(String, String)]) -> Result<Query, ParamError> {
    let mut query = Query {
        kind,
        filters: Vec::new(),
        near: None,
        count: DEFAULT_COUNT,
        cursor: None,
        includes: Vec::new(),
        revincludes: Vec::new(),
        summary_count: false,
        echo: Vec::new(),
    };
    let mut seen_control = std::collections::HashSet::new();
    for (key, value) in pairs {
        if key != "_cursor" {
            query.echo.push((key.clone(), value.clone()));
        }
        let (name, modifier) = match key.split_once(':') {
            Some((name, modifier)) => (name, Some(modifier)),
            None => (key.as_str(), None),
        };
        let control = matches!(name, "_count" | "_cursor" | "_summary" | "_format" | "_pretty");
        if control {
            if modifier.is_some() {
                return Err(ParamError::new(key, format!("{name} takes no modifier")));
            }
            if !seen_control.insert(name.to_owned()) {
                return Err(ParamError::new(key, format!("{name} is given more than once")));
            }
        }
        match name {
            "_count" => query.count = parse_count(value)?,
            "_cursor" => query.cursor = Some(value.clone()),
            "_summary" => {
                query.summary_count = match value.as_str() {
                    "count" => true,
                    "false" => false,
                    _ => {
                        return Err(ParamError::new(
                            key,
                            format!("_summary \"{value}\" is not supported: use count or false"),
                        ));
                    }
                }
            }
            "_format" | "_pretty" => {}
            "_include" | "_revinclude" => {
                if modifier.is_some() {
                    return Err(ParamError::new(
                        key,
                        format!("{name}:{} is not supported", modifier.unwrap_or("")),
                    ));
                }
                let allowed = if name == "_include" {
                    includes_of(kind)
                } else {
                    revincludes_of(kind)
                };
                for part in value.split(',') {
                    let Some(found) = allowed.iter().find(|candidate| **candidate == part) else {
                        let list = if allowed.is_empty() {
                            format!("{kind} takes no {name}")
                        } else {
                            format!("{kind} takes {}", allowed.join(", "))
                        };
                        return Err(ParamError::new(
                            key,
                            format!("{name} \"{part}\" is not supported: {list}"),
                        ));
                    };
                    let list = if name == "_include" {
                        &mut query.includes
                    } else {
                        &mut query.revincludes
                    };
                    if !list.contains(found) {
                        list.push(found);
                    }
                }
            }
            "near" if kind == ResourceType::Location => {
                if modifier.is_some() {
                    return Err(ParamError::new(key, "near takes no modifier"));
                }
                if query.near.is_some() {
                    return Err(ParamError::new(key, "near is given more than once"));
                }
                query.near = Some(parse_near(value)?);
            }
            _ => {
                let Some(spec) = params_of(kind).iter().find(|spec| spec.name == name) else {
                    return Err(ParamError::new(
                        key,
                        format!("Unknown search parameter \"{name}\" for {kind}"),
                    ));
                };
                query.filters.push(parse_filter(spec, key, modifier, value)?);
            }
        }
    }
    Ok(query)
}

fn parse_count(value: &str) -> Result<usize, ParamError> {
    match value.parse::<usize>() {
        Ok(count) if count <= MAX_COUNT && !value.starts_with('+') => Ok(count),
        _ => Err(ParamError::new(
            "_count",
            format!("_count \"{value}\" must be a whole number from 0 to {MAX_COUNT}"),
        )),
    }
}

/// `LAT|LNG|DIST|UNIT`; DIST and UNIT may be left out.
fn parse_near(value: &str) -> Result<Near, ParamError> {
    let malformed = || {
        ParamError::new(
            "near",
            format!("near \"{value}\" must be latitude|longitude|distance|unit (unit km, m, mi or [mi_i])"),
        )
    };
    let parts: Vec<&str> = value.split('|').collect();
    if !(2..=4).contains(&parts.len()) {
        return Err(malformed());
    }
    let number = |text: &str| text.trim().parse::<f64>().ok().filter(|number| number.is_finite());
    let lat = number(parts[0]).filter(|lat| (-90.0..=90.0).contains(lat));
    let lng = number(parts[1]).filter(|lng| (-180.0..=180.0).contains(lng));
    let (Some(lat), Some(lng)) = (lat, lng) else {
        return Err(malformed());
    };
    let unit = match parts.get(3) {
        None | Some(&"") => DistanceUnit::Kilometres,
        Some(unit) => DistanceUnit::parse(unit).ok_or_else(malformed)?,
    };
    let radius_miles = match parts.get(2) {
        None | Some(&"") => DEFAULT_NEAR_KM * DistanceUnit::Kilometres.miles(),
        Some(text) => number(text).filter(|distance| *distance >= 0.0).ok_or_else(malformed)? * unit.miles(),
    };
    Ok(Near {
        lat,
        lng,
        radius_miles,
        unit,
    })
}

fn parse_filter(spec: &ParamSpec, key: &str, modifier: Option<&str>, value: &str) -> Result<Filter, ParamError> {
    if value.is_empty() {
        return Err(ParamError::new(key, format!("{key} has no value")));
    }
    let alternatives: Vec<&str> = split_alternatives(value);
    if alternatives.iter().any(|part| part.is_empty()) {
        return Err(ParamError::new(
            key,
            format!("{key} \"{value}\" has an empty alternative"),
        ));
    }
    let unsupported = |modifier: &str| {
        ParamError::new(
            key,
            format!("The modifier :{modifier} is not supported for {}", spec.name),
        )
    };
    match spec.kind {
        Kind::String => {
            let how = match modifier {
                None => StringMatch::Prefix,
                Some("exact") => StringMatch::Exact,
                Some("contains") => StringMatch::Contains,
                Some(other) => return Err(unsupported(other)),
            };
            Ok(Filter::String {
                name: spec.name,
                how,
                values: alternatives.into_iter().map(unescape).collect(),
            })
        }
        Kind::Token => {
            let text = match modifier {
                None => false,
                Some("text") if spec.name != "_id" => true,
                Some(other) => return Err(unsupported(other)),
            };
            let values = alternatives
                .into_iter()
                .map(|part| {
                    if text || spec.name == "_id" {
                        return Token {
                            system: None,
                            code: unescape(part),
                        };
                    }
                    match part.split_once('|') {
                        Some((system, code)) => Token {
                            system: Some(unescape(system)),
                            code: unescape(code),
                        },
                        None => Token {
                            system: None,
                            code: unescape(part),
                        },
                    }
                })
                .collect();
            Ok(Filter::Token {
                name: spec.name,
                text,
                values,
            })
        }
        Kind::Reference(targets) => {
            let modifier_type = match modifier {
                None => None,
                Some(name) => match ResourceType::parse(name) {
                    Some(kind) if targets.contains(&kind) => Some(kind),
                    _ => return Err(unsupported(name)),
                },
            };
            let values = alternatives
                .into_iter()
                .map(|part| parse_target(key, part, modifier_type, targets))
                .collect::<Result<_, _>>()?;
            Ok(Filter::Reference {
                name: spec.name,
                values,
            })
        }
        Kind::Date => {
            if let Some(other) = modifier {
                return Err(unsupported(other));
            }
            let values = alternatives
                .into_iter()
                .map(|part| {
                    parse_date(part).ok_or_else(|| {
                        ParamError::new(
                            key,
                            format!("{key} \"{part}\" is not a date (YYYY, YYYY-MM, YYYY-MM-DD or an instant, after an optional eq, ne, lt, le, gt, ge, sa or eb)"),
                        )
                    })
                })
                .collect::<Result<_, _>>()?;
            Ok(Filter::Date {
                name: spec.name,
                values,
            })
        }
        Kind::Special => Err(ParamError::new(key, format!("{key} is not supported here"))),
    }
}

/// Splits on commas that are not escaped (`\,`).
fn split_alternatives(value: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let bytes = value.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 2,
            b',' => {
                parts.push(&value[start..index]);
                start = index + 1;
                index += 1;
            }
            _ => index += 1,
        }
    }
    parts.push(&value[start.min(value.len())..]);
    parts
}

/// Removes FHIR's escapes (`\,`, `\|`, `\$`, `\\`).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(character) = chars.next() {
        if character == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(character);
        }
    }
    out
}

fn parse_target(
    key: &str,
    value: &str,
    modifier_type: Option<ResourceType>,
    targets: &[ResourceType],
) -> Result<Target, ParamError> {
    // An absolute URL of this (or any) FHIR server: its last two segments.
    let relative = match value.find("://") {
        Some(_) => {
            let mut segments = value.rsplitn(3, '/');
            let id = segments.next().unwrap_or_default();
            let kind = segments.next().unwrap_or_default();
            return finish_target(key, value, Some(kind), id, modifier_type, targets);
        }
        None => value,
    };
    match relative.split_once('/') {
        Some((kind, id)) => finish_target(key, value, Some(kind), id, modifier_type, targets),
        None => finish_target(key, value, None, relative, modifier_type, targets),
    }
}

fn finish_target(
    key: &str,
    value: &str,
    kind: Option<&str>,
    id: &str,
    modifier_type: Option<ResourceType>,
    targets: &[ResourceType],
) -> Result<Target, ParamError> {
    let kind = match kind {
        None => modifier_type,
        Some(name) => {
            // A type we do not serve (Endpoint) is still a well-formed reference that matches
            // nothing; a misspelt type is not.
            let parsed = ResourceType::parse(name);
            if parsed.is_none() && name != "Endpoint" {
                return Err(ParamError::new(
                    key,
                    format!("{key} \"{value}\": {name} is not a resource type"),
                ));
            }
            if let (Some(parsed), false) = (parsed, targets.is_empty())
                && (!targets.contains(&parsed) || modifier_type.is_some_and(|modifier| modifier != parsed))
            {
                return Err(ParamError::new(
                    key,
                    format!(
                        "{key} refers to {}, not {name}",
                        targets.iter().map(|t| t.name()).collect::<Vec<_>>().join(" or ")
                    ),
                ));
            }
            parsed
        }
    };
    if !is_fhir_id(id) {
        return Err(ParamError::new(
            key,
            format!("{key} \"{value}\" does not end in a resource id"),
        ));
    }
    Ok(Target {
        kind,
        id: id.to_owned(),
    })
}

/// FHIR's id: 1 to 64 of `A-Z a-z 0-9 - .`.
pub fn is_fhir_id(text: &str) -> bool {
    (1..=64).contains(&text.len())
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'.')
}

/// `[prefix]YYYY[-MM[-DD[Thh:mm[:ss[.fff]][Z|±hh:mm]]]]` as the range of instants it covers.
pub fn parse_date(text: &str) -> Option<DateRange> {
    let prefixes = [
        ("eq", DatePrefix::Eq),
        ("ne", DatePrefix::Ne),
        ("lt", DatePrefix::Lt),
        ("le", DatePrefix::Le),
        ("gt", DatePrefix::Gt),
        ("ge", DatePrefix::Ge),
        ("sa", DatePrefix::Sa),
        ("eb", DatePrefix::Eb),
    ];
    let (prefix, rest) = prefixes
        .iter()
        .find_map(|(word, prefix)| text.strip_prefix(word).map(|rest| (*prefix, rest)))
        .unwrap_or((DatePrefix::Eq, text));
    let (start, end) = date_bounds(rest)?;
    Some(DateRange { prefix, start, end })
}

fn date_bounds(text: &str) -> Option<(i64, i64)> {
    use chrono::{DateTime, Months, NaiveDate, TimeDelta};
    let micros = |date: NaiveDate| date.and_hms_opt(0, 0, 0).map(|at| at.and_utc().timestamp_micros());
    let digits = |part: &str, width: usize| part.len() == width && part.bytes().all(|byte| byte.is_ascii_digit());
    match text.len() {
        4 if digits(text, 4) => {
            let start = NaiveDate::from_ymd_opt(text.parse().ok()?, 1, 1)?;
            Some((micros(start)?, micros(start.checked_add_months(Months::new(12))?)?))
        }
        7 if digits(&text[..4], 4) && &text[4..5] == "-" && digits(&text[5..], 2) => {
            let start = NaiveDate::from_ymd_opt(text[..4].parse().ok()?, text[5..].parse().ok()?, 1)?;
            Some((micros(start)?, micros(start.checked_add_months(Months::new(1))?)?))
        }
        10 => {
            let start = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
            Some((micros(start)?, micros(start.checked_add_days(chrono::Days::new(1))?)?))
        }
        _ => {
            // An instant with a zone; its precision is the last part of the clock it gives.
            let at = DateTime::parse_from_rfc3339(text)
                .ok()
                .or_else(|| DateTime::parse_from_str(&text.replace('Z', "+00:00"), "%Y-%m-%dT%H:%M%:z").ok())?;
            let start = at.timestamp_micros();
            let time = text.split_once('T')?.1;
            let clock = time.split(['Z', '+', '-']).next().unwrap_or_default();
            let step = match clock.split_once('.') {
                Some((_, fraction)) => 10_i64.pow(6 - fraction.len().clamp(1, 6) as u32),
                None if clock.matches(':').count() >= 2 => TimeDelta::seconds(1).num_microseconds()?,
                None => TimeDelta::minutes(1).num_microseconds()?,
            };
            Some((start, start + step))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(query: &str) -> Vec<(String, String)> {
        form_urlencoded::parse(query.as_bytes())
            .map(|(key, value)| (key.into_owned(), value.into_owned()))
            .collect()
    }

    fn parse(kind: ResourceType, query: &str) -> Result<Query, ParamError> {
        parse_query(kind, &pairs(query))
    }

    #[test]
    fn an_unknown_parameter_is_named() {
        let error = parse(ResourceType::Location, "adress=Main").unwrap_err();
        assert_eq!(error.parameter, "adress");
        assert!(
            error
                .message
                .contains("Unknown search parameter \"adress\" for Location")
        );
        assert_eq!(
            parse(ResourceType::Practitioner, "near=1|2").unwrap_err().parameter,
            "near"
        );
        assert_eq!(
            parse(ResourceType::Location, "name:foo=x").unwrap_err().parameter,
            "name:foo"
        );
        assert_eq!(
            parse(ResourceType::Location, "address:fuzzy=x").unwrap_err().parameter,
            "address:fuzzy"
        );
    }

    #[test]
    fn near_reads_units_and_defaults() {
        let query = parse(ResourceType::Location, "near=39.74|-104.99|10|mi").unwrap();
        let near = query.near.unwrap();
        assert_eq!(
            (near.lat, near.lng, near.radius_miles, near.unit),
            (39.74, -104.99, 10.0, DistanceUnit::Miles)
        );
        let near = parse(ResourceType::Location, "near=39.74|-104.99")
            .unwrap()
            .near
            .unwrap();
        assert!((near.radius_miles - 50.0 / 1.609_344).abs() < 1e-9);
        assert_eq!(near.unit, DistanceUnit::Kilometres);
        for bad in [
            "near=91|0|1|km",
            "near=1",
            "near=1|2|3|furlong",
            "near=a|b",
            "near=1|2|-3|km",
        ] {
            assert_eq!(
                parse(ResourceType::Location, bad).unwrap_err().parameter,
                "near",
                "{bad}"
            );
        }
    }

    #[test]
    fn count_is_bounded() {
        assert_eq!(parse(ResourceType::Location, "").unwrap().count, DEFAULT_COUNT);
        assert_eq!(parse(ResourceType::Location, "_count=100").unwrap().count, 100);
        for bad in ["_count=101", "_count=-1", "_count=x", "_count=1&_count=2"] {
            assert_eq!(
                parse(ResourceType::Location, bad).unwrap_err().parameter,
                "_count",
                "{bad}"
            );
        }
    }

    #[test]
    fn references_take_the_three_forms() {
        let query = parse(
            ResourceType::PractitionerRole,
            "location=Location/5,6,http://example.org/fhir/r4/Location/7",
        )
        .unwrap();
        let Filter::Reference { values, .. } = &query.filters[0] else {
            panic!()
        };
        let ids: Vec<&str> = values.iter().map(|target| target.id.as_str()).collect();
        assert_eq!(ids, ["5", "6", "7"]);
        assert_eq!(
            parse(ResourceType::PractitionerRole, "location=Practitioner/5")
                .unwrap_err()
                .parameter,
            "location"
        );
        assert_eq!(
            parse(ResourceType::PractitionerRole, "location=Locaton/5")
                .unwrap_err()
                .parameter,
            "location"
        );
    }

    #[test]
    fn dates_cover_their_precision() {
        let day = parse_date("2026-11-26").unwrap();
        assert_eq!(day.end - day.start, 86_400_000_000);
        let month = parse_date("ge2026-02").unwrap();
        assert_eq!(month.prefix, DatePrefix::Ge);
        assert_eq!(month.end - month.start, 28 * 86_400_000_000);
        let instant = parse_date("lt2026-11-26T10:00:00Z").unwrap();
        assert_eq!(instant.end - instant.start, 1_000_000);
        let zoned = parse_date("2026-11-26T10:00:00.5+01:00").unwrap();
        assert_eq!(zoned.end - zoned.start, 100_000);
        assert!(parse_date("2026-13-01").is_none());
        assert!(parse_date("yesterday").is_none());
    }

    #[test]
    fn include_values_are_checked() {
        let query = parse(
            ResourceType::PractitionerRole,
            "_include=PractitionerRole:practitioner,PractitionerRole:location",
        )
        .unwrap();
        assert_eq!(query.includes.len(), 2);
        assert_eq!(
            parse(ResourceType::Location, "_include=PractitionerRole:location")
                .unwrap_err()
                .parameter,
            "_include"
        );
        assert_eq!(
            parse(ResourceType::Location, "_revinclude=PractitionerRole:location")
                .unwrap()
                .revincludes,
            ["PractitionerRole:location"]
        );
    }
}
