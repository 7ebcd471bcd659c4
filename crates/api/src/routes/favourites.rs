//! Marking marketplace items as favourites: clinics, clinicians, vendors and solutions for
//! members, vendors and solutions on the provider side. The flags show on profiles (here) and
//! on search cards (through [`store::favourites::favourite_ids`]).

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde_json::{Map, Value, json};
use store::favourites::Entity;

use crate::access::{Caller, ProviderCaller};
use crate::error::{ApiError, ApiResult};
use crate::error_codes::{self as codes, ErrorCode};
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/market/favorite", post(member_favourite))
        .route("/dpcproviders/market/favorite", post(provider_favourite))
}

/// A favourite request after parsing: `{entity, <entity>: id, favorite}`.
struct Toggle {
    entity: Entity,
    id: i64,
    favourite: bool,
}

fn field_error(field: &str, entry: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::with_message(entry, message).with_details(json!({ "field": field }))
}

/// Reads the body by hand: the id's field is named after the entity. Ids may come as numbers
/// or digit strings; `favorite` as a boolean.
fn parse_toggle(body: &Map<String, Value>, allowed: &[Entity]) -> ApiResult<Toggle> {
    let allowed_names: Vec<&str> = allowed.iter().map(|entity| entity.as_str()).collect();
    let entity = match body.get("entity") {
        None | Some(Value::Null) => {
            return Err(ApiError::invalid_field(
                "entity",
                domain::accounts::ValidationError::Required,
            ));
        }
        Some(value) => value
            .as_str()
            .and_then(|text| Entity::parse(text.trim()))
            .filter(|entity| allowed.contains(entity))
            .ok_or_else(|| {
                field_error(
                    "entity",
                    codes::INVALID_ENTITY,
                    format!("entity must be one of {}", allowed_names.join(", ")),
                )
            })?,
    };
    let field = entity.as_str();
    let id = match body.get(field) {
        None | Some(Value::Null) => {
            return Err(ApiError::invalid_field(
                field,
                domain::accounts::ValidationError::Required,
            ));
        }
        Some(Value::Number(number)) => number.as_i64(),
        Some(Value::String(text)) => text.trim().parse().ok(),
        Some(_) => None,
    }
    .ok_or_else(|| field_error(field, codes::INVALID_ID, format!("{field} must be a whole number")))?;
    let favourite = match body.get("favorite") {
        None | Some(Value::Null) => {
            return Err(ApiError::invalid_field(
                "favorite",
                domain::accounts::ValidationError::Required,
            ));
        }
        Some(value) => value
            .as_bool()
            .ok_or_else(|| field_error("favorite", codes::INVALID_FIELD, "favorite must be true or false"))?,
    };
    Ok(Toggle { entity, id, favourite })
}

fn not_found(entity: Entity) -> ApiError {
    ApiError::known(match entity {
        Entity::Location | Entity::Provider => codes::PROVIDER_NOT_FOUND,
        Entity::Vendor => codes::VENDOR_NOT_FOUND,
        Entity::Solution => codes::SOLUTION_NOT_FOUND,
    })
}

async fn toggle(state: &AppState, member_id: i64, body: &Map<String, Value>, allowed: &[Entity]) -> ApiResult<Value> {
    let toggle = parse_toggle(body, allowed)?;
    if !store::favourites::exists_in_catalogue(&state.pool, toggle.entity, toggle.id).await? {
        return Err(not_found(toggle.entity));
    }
    store::favourites::set(&state.pool, member_id, toggle.entity, toggle.id, toggle.favourite).await?;
    Ok(json!({ "entity": toggle.entity.as_str(), "id": toggle.id, "favorite": toggle.favourite }))
}

async fn member_favourite(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(toggle(&state, caller.member_id, &body, &Entity::ALL).await?))
}

/// The provider side's heart on vendors and solutions: a provider account's own favourites.
async fn provider_favourite(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(
        toggle(&state, provider.account_id, &body, &[Entity::Vendor, Entity::Solution]).await?,
    ))
}
