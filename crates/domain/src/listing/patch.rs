//! The bodies of `PATCH /dpcproviders/locations/{id}` and `PATCH /dpcproviders/clinicians/{id}`:
//! only the fields that change, each checked here so that a handler sees parsed values. A field
//! of the wrong type, a field neither call takes, an unknown code or a value out of range is a
//! [`ListingError`] naming the field.

use serde_json::{Map, Value};

use super::{
    AccessibilitySet, LanguageSet, ListingError, ListingErrorKind, PANEL_CAPACITY_MAX, PEDIATRIC_MAX_AGE,
    PediatricAges, TimeZone, WeeklyHours, parse_website, service_type,
};
use crate::accounts::Phone;

/// The changes to a location's listing; `None` leaves a field as it is. For the fields that may
/// be cleared, `Some(None)` clears.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LocationPatch {
    pub accepting_new_patients: Option<bool>,
    pub panel_capacity: Option<Option<u32>>,
    pub phone: Option<String>,
    pub website: Option<String>,
    pub hours: Option<Option<WeeklyHours>>,
    pub time_zone: Option<TimeZone>,
    pub languages: Option<LanguageSet>,
    pub accessibility: Option<AccessibilitySet>,
    pub telehealth: Option<bool>,
    /// Service type codes, as the catalogue spells them (`30`, `BH`, ...), each once.
    pub services: Option<Vec<String>>,
    pub pediatric_ages: Option<Option<PediatricAges>>,
}

/// The fields [`LocationPatch`] takes, as the request names them.
pub const LOCATION_FIELDS: [&str; 11] = [
    "acceptingNewPatients",
    "panelCapacity",
    "phone",
    "website",
    "hours",
    "timeZone",
    "languages",
    "accessibility",
    "telehealth",
    "services",
    "pediatricAges",
];

/// The changes to a clinician's listing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClinicianPatch {
    pub accepting_new_patients: Option<bool>,
    pub languages: Option<LanguageSet>,
    pub telehealth: Option<bool>,
    /// The organisation's locations the clinician works at (at least one).
    pub location_ids: Option<Vec<i64>>,
}

/// The fields [`ClinicianPatch`] takes.
pub const CLINICIAN_FIELDS: [&str; 4] = ["acceptingNewPatients", "languages", "telehealth", "locationIds"];

/// Locations one clinician may be listed at.
pub const MAX_CLINICIAN_LOCATIONS: usize = 50;
/// Codes one list field may hold.
const MAX_LIST_CODES: usize = 50;

impl LocationPatch {
    /// Parses a request body; refuses a body that changes nothing.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ListingError> {
        refuse_unknown_fields(body, &LOCATION_FIELDS)?;
        let patch = Self {
            accepting_new_patients: body
                .get("acceptingNewPatients")
                .map(|value| boolean("acceptingNewPatients", value))
                .transpose()?,
            panel_capacity: body.get("panelCapacity").map(panel_capacity).transpose()?,
            phone: body.get("phone").map(phone).transpose()?,
            website: body
                .get("website")
                .map(|value| parse_website("website", text("website", value)?))
                .transpose()?,
            hours: body
                .get("hours")
                .map(|value| match value {
                    Value::Null => Ok(None),
                    other => WeeklyHours::from_json(other).map(Some),
                })
                .transpose()?,
            time_zone: body.get("timeZone").map(time_zone).transpose()?,
            languages: body
                .get("languages")
                .map(|value| LanguageSet::parse_codes("languages", codes("languages", value)?))
                .transpose()?,
            accessibility: body
                .get("accessibility")
                .map(|value| AccessibilitySet::parse_codes("accessibility", codes("accessibility", value)?))
                .transpose()?,
            telehealth: body
                .get("telehealth")
                .map(|value| boolean("telehealth", value))
                .transpose()?,
            services: body.get("services").map(services).transpose()?,
            pediatric_ages: body.get("pediatricAges").map(pediatric_ages).transpose()?,
        };
        if patch == Self::default() {
            return Err(ListingError::new("", ListingErrorKind::NothingToChange));
        }
        Ok(patch)
    }
}

impl ClinicianPatch {
    /// Parses a request body; refuses a body that changes nothing.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ListingError> {
        refuse_unknown_fields(body, &CLINICIAN_FIELDS)?;
        let patch = Self {
            accepting_new_patients: body
                .get("acceptingNewPatients")
                .map(|value| boolean("acceptingNewPatients", value))
                .transpose()?,
            languages: body
                .get("languages")
                .map(|value| LanguageSet::parse_codes("languages", codes("languages", value)?))
                .transpose()?,
            telehealth: body
                .get("telehealth")
                .map(|value| boolean("telehealth", value))
                .transpose()?,
            location_ids: body.get("locationIds").map(location_ids).transpose()?,
        };
        if patch == Self::default() {
            return Err(ListingError::new("", ListingErrorKind::NothingToChange));
        }
        Ok(patch)
    }
}

fn refuse_unknown_fields(body: &Map<String, Value>, known: &[&str]) -> Result<(), ListingError> {
    match body.keys().find(|key| !known.contains(&key.as_str())) {
        Some(unknown) => Err(ListingError::new(unknown.as_str(), ListingErrorKind::UnknownField)),
        None => Ok(()),
    }
}

fn boolean(field: &str, value: &Value) -> Result<bool, ListingError> {
    value
        .as_bool()
        .ok_or_else(|| ListingError::wrong_type(field, "true or false"))
}

fn text<'a>(field: &str, value: &'a Value) -> Result<&'a str, ListingError> {
    value.as_str().ok_or_else(|| ListingError::wrong_type(field, "text"))
}

fn codes<'a>(field: &str, value: &'a Value) -> Result<Vec<&'a str>, ListingError> {
    let list = value
        .as_array()
        .ok_or_else(|| ListingError::wrong_type(field, "a list of codes"))?;
    if list.len() > MAX_LIST_CODES {
        return Err(ListingError::out_of_range(
            field,
            format!("holds more than {MAX_LIST_CODES} codes"),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(index, code)| {
            code.as_str()
                .ok_or_else(|| ListingError::wrong_type(format!("{field}[{index}]"), "a code (text)"))
        })
        .collect()
}

fn panel_capacity(value: &Value) -> Result<Option<u32>, ListingError> {
    const FIELD: &str = "panelCapacity";
    if value.is_null() {
        return Ok(None);
    }
    let number = value
        .as_i64()
        .or_else(|| {
            value
                .as_f64()
                .filter(|n| n.fract() == 0.0 && n.abs() < 1e15)
                .map(|n| n as i64)
        })
        .ok_or_else(|| ListingError::wrong_type(FIELD, "a whole number of members, or null for no limit"))?;
    if !(1..=i64::from(PANEL_CAPACITY_MAX)).contains(&number) {
        return Err(ListingError::out_of_range(
            FIELD,
            format!("must be from 1 to {PANEL_CAPACITY_MAX} members (null: no limit), not {number}"),
        ));
    }
    Ok(Some(number as u32))
}

fn phone(value: &Value) -> Result<String, ListingError> {
    let text = text("phone", value)?;
    if text.trim().is_empty() {
        return Ok(String::new());
    }
    let phone = Phone::parse(text).map_err(|error| ListingError::invalid("phone", format!("is not valid: {error}")))?;
    // A listing's phone is kept as the spec writes it (`XXX XXX XXXX`), not as E.164.
    Ok(phone.displayed())
}

fn time_zone(value: &Value) -> Result<TimeZone, ListingError> {
    let name = text("timeZone", value)?;
    TimeZone::parse(name).ok_or_else(|| ListingError::new("timeZone", ListingErrorKind::UnknownCode(name.to_owned())))
}

fn services(value: &Value) -> Result<Vec<String>, ListingError> {
    let mut known: Vec<String> = Vec::new();
    for (index, code) in codes("services", value)?.into_iter().enumerate() {
        let service = service_type(code).ok_or_else(|| {
            ListingError::new(
                format!("services[{index}]"),
                ListingErrorKind::UnknownCode(code.to_owned()),
            )
        })?;
        if !known.iter().any(|seen| seen == service.code) {
            known.push(service.code.to_owned());
        }
    }
    Ok(known)
}

fn pediatric_ages(value: &Value) -> Result<Option<PediatricAges>, ListingError> {
    const FIELD: &str = "pediatricAges";
    if value.is_null() {
        return Ok(None);
    }
    let object = value
        .as_object()
        .ok_or_else(|| ListingError::wrong_type(FIELD, "an object {min, max} of ages in years, or null"))?;
    if let Some(extra) = object.keys().find(|key| *key != "min" && *key != "max") {
        return Err(ListingError::new(
            format!("{FIELD}.{extra}"),
            ListingErrorKind::UnknownField,
        ));
    }
    let age = |name: &str| -> Result<i16, ListingError> {
        let field = format!("{FIELD}.{name}");
        let number = object
            .get(name)
            .ok_or_else(|| ListingError::invalid(&field, "is required"))?
            .as_i64()
            .ok_or_else(|| ListingError::wrong_type(&field, "a whole number of years"))?;
        if !(0..=i64::from(PEDIATRIC_MAX_AGE)).contains(&number) {
            return Err(ListingError::out_of_range(
                &field,
                format!("must be from 0 to {PEDIATRIC_MAX_AGE} years, not {number}"),
            ));
        }
        Ok(number as i16)
    };
    let ages = PediatricAges {
        min: age("min")?,
        max: age("max")?,
    };
    if ages.min > ages.max {
        return Err(ListingError::invalid(
            FIELD,
            format!("min ({}) must not be above max ({})", ages.min, ages.max),
        ));
    }
    Ok(Some(ages))
}

fn location_ids(value: &Value) -> Result<Vec<i64>, ListingError> {
    const FIELD: &str = "locationIds";
    let list = value
        .as_array()
        .ok_or_else(|| ListingError::wrong_type(FIELD, "a list of location ids"))?;
    if list.is_empty() {
        return Err(ListingError::invalid(
            FIELD,
            "must name at least one of your locations (a clinician works somewhere)",
        ));
    }
    if list.len() > MAX_CLINICIAN_LOCATIONS {
        return Err(ListingError::out_of_range(
            FIELD,
            format!("holds more than {MAX_CLINICIAN_LOCATIONS} locations"),
        ));
    }
    let mut ids = Vec::with_capacity(list.len());
    for (index, id) in list.iter().enumerate() {
        let id = id
            .as_i64()
            .filter(|id| *id > 0)
            .ok_or_else(|| ListingError::wrong_type(format!("{FIELD}[{index}]"), "a location id (a whole number)"))?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(ids)
}
