//! The marketplace's search metadata record, stored as a `search_metadata` analytics event.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::{Map, Value, json};

use crate::access::MaybeCaller;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/member/app/metadata", post(metadata))
}

/// The record's fields (spec section 3); anything else in the body is not kept.
const METADATA_FIELDS: [&str; 9] = [
    "addressSearched",
    "filterSearch",
    "resultsReturned",
    "results",
    "employer",
    "addedtoWaitlist",
    "organizationWaitlisted",
    "email",
    "number",
];
/// The record's fixed `number` (spec section 7).
const METADATA_NUMBER: i64 = 5;

/// Stores the record with the caller's member id when signed in; answers 201 `{id}`.
async fn metadata(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<(StatusCode, axum::Json<Value>)> {
    if body.get("number").and_then(Value::as_i64) != Some(METADATA_NUMBER) {
        return Err(
            ApiError::with_message(codes::INVALID_FIELD, format!("number must be {METADATA_NUMBER}"))
                .with_details(json!({ "field": "number" })),
        );
    }
    let properties: Map<String, Value> = METADATA_FIELDS
        .iter()
        .filter_map(|field| body.get(*field).map(|value| ((*field).to_owned(), value.clone())))
        .collect();
    let id = store::analytics::record(
        &state.pool,
        store::analytics::SEARCH_METADATA,
        caller.map(|caller| caller.member_id),
        &Value::Object(properties),
    )
    .await?;
    Ok((StatusCode::CREATED, axum::Json(json!({ "id": id }))))
}
