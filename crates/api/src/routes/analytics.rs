//! The marketplace's search metadata record, stored as a `search_metadata` analytics event.
//! The call needs no account, so what one client can write is bounded: a body of at most
//! [`METADATA_BODY_LIMIT`], the record's fields only, each of the type and size the spec's
//! record needs, and [`crate::config::Config::metadata_per_minute`] records a minute per client
//! address. Old events are expired by the job runner (counts kept by day).

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::{Map, Value, json};

use crate::access::{ClientIp, MaybeCaller};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/member/app/metadata",
        post(metadata).layer(DefaultBodyLimit::max(METADATA_BODY_LIMIT)),
    )
}

/// The largest record body: the fields at their longest fit in about 2.3 KB.
pub const METADATA_BODY_LIMIT: usize = 4 * 1024;

/// What a field of the record may hold.
#[derive(Debug, Clone, Copy)]
enum FieldKind {
    /// Text of at most this many characters, or null.
    Text(usize),
    /// True, false or null.
    Flag,
    /// A whole number from 0, or null.
    Count,
    /// The filters as the marketplace shows them: text, or an object, of at most this many
    /// characters of JSON; or null.
    Filters(usize),
    /// The fixed number.
    Number,
}

/// The record's fields (spec section 3) and what each may hold; any other field is refused.
const METADATA_FIELDS: [(&str, FieldKind); 9] = [
    ("addressSearched", FieldKind::Text(300)),
    ("filterSearch", FieldKind::Filters(1000)),
    ("resultsReturned", FieldKind::Flag),
    ("results", FieldKind::Count),
    ("employer", FieldKind::Text(200)),
    ("addedtoWaitlist", FieldKind::Flag),
    ("organizationWaitlisted", FieldKind::Text(300)),
    ("email", FieldKind::Text(254)),
    ("number", FieldKind::Number),
];
/// The record's fixed `number` (spec section 7).
const METADATA_NUMBER: i64 = 5;

/// Stores the record with the caller's member id when signed in; answers 201 `{id}`.
async fn metadata(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    MaybeCaller(caller): MaybeCaller,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<(StatusCode, axum::Json<Value>)> {
    if !state.metadata_counts.allow(&client) {
        return Err(ApiError::known(codes::TOO_MANY_REQUESTS));
    }
    if !body.contains_key("number") {
        return Err(invalid_field("number", format!("number must be {METADATA_NUMBER}")));
    }
    for (field, value) in &body {
        let Some((_, kind)) = METADATA_FIELDS.iter().find(|(name, _)| name == field) else {
            let shown: String = field.chars().take(100).collect();
            return Err(invalid_field(
                &shown,
                format!("{shown} is not a field of the search record"),
            ));
        };
        check_field(field, *kind, value)?;
    }
    let id = store::analytics::record(
        &state.pool,
        store::analytics::SEARCH_METADATA,
        caller.map(|caller| caller.member_id),
        &Value::Object(body),
    )
    .await?;
    Ok((StatusCode::CREATED, axum::Json(json!({ "id": id }))))
}

fn check_field(field: &str, kind: FieldKind, value: &Value) -> ApiResult<()> {
    let fits = match (kind, value) {
        (FieldKind::Number, value) => value.as_i64() == Some(METADATA_NUMBER),
        (_, Value::Null) => true,
        (FieldKind::Text(longest), Value::String(text)) => text.chars().count() <= longest,
        (FieldKind::Flag, Value::Bool(_)) => true,
        (FieldKind::Count, Value::Number(number)) => number.as_u64().is_some(),
        (FieldKind::Filters(longest), Value::String(text)) => text.chars().count() <= longest,
        (FieldKind::Filters(longest), Value::Object(_)) => value.to_string().chars().count() <= longest,
        _ => false,
    };
    if fits {
        return Ok(());
    }
    let expected = match kind {
        FieldKind::Number => format!("must be {METADATA_NUMBER}"),
        FieldKind::Text(longest) => format!("must be text of at most {longest} characters, or null"),
        FieldKind::Flag => "must be true, false or null".to_owned(),
        FieldKind::Count => "must be a whole number from 0, or null".to_owned(),
        FieldKind::Filters(longest) => {
            format!("must be text or an object of at most {longest} characters, or null")
        }
    };
    Err(invalid_field(field, format!("{field} {expected}")))
}

fn invalid_field(field: &str, message: String) -> ApiError {
    ApiError::with_message(codes::INVALID_FIELD, message).with_details(json!({ "field": field }))
}
