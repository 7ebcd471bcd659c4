//! Reading the listing columns (docs/listings-contract.md) into their domain types. A value the
//! API would never have written (an unknown code, hours that overlap) is
//! [`StoreError::InvalidData`] naming the column, rather than a listing shown wrong.

use domain::listing::{AccessibilitySet, LanguageSet, TimeZone, WeeklyHours};
use sqlx::Row;
use sqlx::postgres::PgRow;

use crate::{Result, StoreError};

fn invalid(column: &str, error: impl std::fmt::Display) -> StoreError {
    StoreError::InvalidData(format!("{column}: {error}"))
}

pub fn hours(row: &PgRow, column: &str) -> Result<Option<WeeklyHours>> {
    let value: Option<serde_json::Value> = row.try_get(column)?;
    value
        .map(|value| WeeklyHours::from_json(&value).map_err(|error| invalid(column, error)))
        .transpose()
}

pub fn time_zone(row: &PgRow, column: &str) -> Result<Option<TimeZone>> {
    let name: Option<String> = row.try_get(column)?;
    name.map(|name| TimeZone::parse(&name).ok_or_else(|| invalid(column, format!("unknown time zone {name:?}"))))
        .transpose()
}

pub fn languages(row: &PgRow, column: &str) -> Result<LanguageSet> {
    let codes: Vec<String> = row.try_get(column)?;
    LanguageSet::parse_codes(column, codes.iter().map(String::as_str)).map_err(|error| invalid(column, error))
}

pub fn accessibility(row: &PgRow, column: &str) -> Result<AccessibilitySet> {
    let codes: Vec<String> = row.try_get(column)?;
    AccessibilitySet::parse_codes(column, codes.iter().map(String::as_str)).map_err(|error| invalid(column, error))
}

pub fn panel_capacity(row: &PgRow, column: &str) -> Result<Option<u32>> {
    let capacity: Option<i32> = row.try_get(column)?;
    capacity
        .map(|capacity| u32::try_from(capacity).map_err(|error| invalid(column, error)))
        .transpose()
}
