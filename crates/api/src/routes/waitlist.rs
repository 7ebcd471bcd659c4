//! Joining a clinic's waitlist, or asking to be told about a searched area (notify-me). The
//! email that a clinic has opened is written by the database when it opens (see
//! `migrations/20261121000004_waitlist_favourites.sql`).

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use domain::accounts::Email;
use serde::Deserialize;
use serde_json::{Value, json};
use store::waitlist::{Joined, NewEntry};

use crate::access::ClientIp;
use crate::access::{MaybeCaller, please_log_in};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Json;
use crate::limits::Bucket;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/member/app/join/wait/list", post(join_waitlist))
}

pub const ADDED_TO_WAITLIST: &str = "You've been added to the waitlist";
/// A signed-in member whose address was already waiting (for the clinic, or the same area).
pub const ALREADY_ON_WAITLIST: &str = "You're already on this waitlist";
/// A visitor's answer whether or not the address was already waiting: true either way, and it
/// tells nobody typing someone else's email whether that address waits for the clinic.
pub const ON_THE_WAITLIST: &str = "You're on the waitlist";
/// The longest searched address kept.
const MAX_ADDRESS_LENGTH: usize = 500;

/// The has-no-email dialog's text for a member without any address.
pub fn no_email_message(first_name: &str, last_name: &str) -> String {
    let name = format!("{} {}", first_name.trim(), last_name.trim());
    let name = name.trim();
    let name = if name.is_empty() { "This member" } else { name };
    format!("{name} has no email")
}

/// The body; `member` (sent by the SPA) is ignored: a signed-in member is the token's.
#[derive(Debug, Default, Deserialize)]
pub struct WaitlistBody {
    email: Option<String>,
    /// A location id: that clinic's waitlist. Absent: a notify-me for the searched area.
    #[serde(default, deserialize_with = "crate::extract::lenient_id")]
    location: Option<i64>,
    consent: Option<bool>,
    #[serde(default)]
    search: WaitlistSearch,
}

#[derive(Debug, Default, Deserialize)]
pub struct WaitlistSearch {
    location: Option<Position>,
    address: Option<String>,
    filters: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct Position {
    lat: f64,
    lng: f64,
}

/// Adds the caller to a clinic's waitlist or an area's notify-me (201), or answers 200
/// `alreadyListed` ("You're already on this waitlist") when their address already waits for it
/// (an area within a mile is the same area). Signed out, the email and the consent box are
/// required, and the answer is 201 "You're on the waitlist" without an id whether or not the
/// address was already waiting.
async fn join_waitlist(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    ClientIp(client): ClientIp,
    Json(body): Json<WaitlistBody>,
) -> ApiResult<(StatusCode, axum::Json<Value>)> {
    let (member_id, email) = match caller {
        Some(caller) => {
            let contact = store::waitlist::member_contact(&state.pool, caller.member_id)
                .await?
                .ok_or_else(please_log_in)?;
            let Some(email) = contact.email else {
                return Err(ApiError::with_message(
                    codes::NO_EMAIL,
                    no_email_message(&contact.first_name, &contact.last_name),
                ));
            };
            (Some(caller.member_id), email)
        }
        None => {
            let email = Email::parse(body.email.as_deref().unwrap_or_default())
                .map_err(|error| ApiError::invalid_field("email", error))?;
            if body.consent != Some(true) {
                return Err(ApiError::known(codes::CONSENT_REQUIRED).with_details(json!({ "field": "consent" })));
            }
            (None, email.into_string())
        }
    };
    let position = match &body.search.location {
        Some(position) => Some(domain::LatLng::new(position.lat, position.lng).ok_or_else(|| {
            ApiError::with_message(
                codes::INVALID_PARAMETER,
                "search.location: lat must be within -90 and 90, lng within -180 and 180",
            )
        })?),
        None => None,
    };
    if body.location.is_none() && position.is_none() {
        return Err(ApiError::known(codes::LOCATION_REQUIRED).with_details(json!({ "field": "search.location" })));
    }
    let address = body.search.address.as_deref().map(str::trim).unwrap_or_default();
    if address.chars().count() > MAX_ADDRESS_LENGTH {
        return Err(ApiError::invalid_field(
            "search.address",
            domain::accounts::ValidationError::TooLong(MAX_ADDRESS_LENGTH),
        ));
    }
    let search = json!({
        "location": position.map(|position| json!({ "lat": position.lat, "lng": position.lng })),
        "address": address,
        "filters": body.search.filters.unwrap_or(Value::Null),
    });
    if member_id.is_none() {
        // A visitor can put any address on a list that later writes to it.
        state.limits.hit(&state.pool, Bucket::Client(&client)).await?;
    }
    let entry = NewEntry {
        location_id: body.location,
        member_id,
        email: &email,
        // Signed in, asking to be told is the consent (the SPA shows no box then).
        consent: member_id.is_some() || body.consent == Some(true),
        search: &search,
    };
    let (status, id, already_listed) = match store::waitlist::join(&state.pool, &entry).await? {
        Joined::Added(id) => (StatusCode::CREATED, id, false),
        Joined::AlreadyListed(id) => (StatusCode::OK, id, true),
        Joined::UnknownLocation => return Err(ApiError::known(codes::PROVIDER_NOT_FOUND)),
    };
    if status == StatusCode::CREATED {
        // A clinic that was already open has told the new entry at once.
        state.mailer.wake();
        tracing::info!(
            entry = id,
            location = body.location,
            member = member_id,
            "waitlist joined"
        );
    }
    if member_id.is_none() {
        // Signed out, anyone may type anyone's email: the answer must not tell whether that
        // address was already waiting, so it is the same either way (201, no entry id).
        return Ok((
            StatusCode::CREATED,
            axum::Json(json!({ "message": ON_THE_WAITLIST, "alreadyListed": false })),
        ));
    }
    Ok((
        status,
        axum::Json(json!({
            "id": id,
            "message": if already_listed { ALREADY_ON_WAITLIST } else { ADDED_TO_WAITLIST },
            "alreadyListed": already_listed,
        })),
    ))
}
