//! The codes a listing may hold, with the names people read (docs/listings-contract.md): the
//! filter drawer's languages (those spoken in the catalogue) and every code for the provider
//! portal's forms. Public, like the other filter lists.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use domain::listing::{Accessibility, SERVICE_TYPES, TimeZone, Weekday, languages};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiResult;
use crate::extract::Query;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/market/languages", get(spoken_languages))
        .route("/market/listing-codes", get(listing_codes))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguagesQuery {
    alias: Option<String>,
}

/// The languages spoken at some location (by the clinic or a clinician there), by name, within
/// a company alias's network when one is given.
async fn spoken_languages(
    State(state): State<AppState>,
    Query(query): Query<LanguagesQuery>,
) -> ApiResult<axum::Json<Vec<Value>>> {
    let alias = query.alias.as_deref().map(str::trim).filter(|alias| !alias.is_empty());
    let spoken = state.snapshot()?.language_list(alias)?;
    Ok(axum::Json(
        spoken
            .into_iter()
            .map(|language| json!({ "code": language.code(), "name": language.name() }))
            .collect(),
    ))
}

/// Every code a listing may hold, with its name or label.
async fn listing_codes() -> axum::Json<Value> {
    axum::Json(json!({
        "languages": languages().iter().map(|language| json!({ "code": language.code, "name": language.name })).collect::<Vec<_>>(),
        "accessibility": Accessibility::ALL.iter().map(|code| json!({ "code": code.code(), "label": code.label() })).collect::<Vec<_>>(),
        "services": SERVICE_TYPES.iter().map(|service| json!({ "code": service.code, "label": service.label })).collect::<Vec<_>>(),
        "timeZones": TimeZone::ALL.iter().map(|zone| json!({ "name": zone.as_str(), "label": zone.label() })).collect::<Vec<_>>(),
        "weekdays": Weekday::ALL.iter().map(|day| json!({ "code": day.code(), "name": day.name() })).collect::<Vec<_>>(),
    }))
}
