//! How to reach the member: their mobile phone alone (`/account/edit-contact`), and a request to
//! be called back by a representative (`/confirm-info`), recorded and emailed to support. Each
//! call asks for what its form shows and nothing more.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{post, put};
use domain::accounts::{Phone, parse_name};
use serde::Deserialize;
use serde_json::{Value, json};
use store::contact_requests::NewContactRequest;
use store::members::PersonalInfo;

use crate::access::SignedInMember;
use crate::error::ApiResult;
use crate::extract::Json;
use crate::forms::{check, required};
use crate::limits::Bucket;
use crate::services::eligibility_check::{self, outcome_json};
use crate::services::member_views::member_view_with_check;
use crate::state::AppState;

/// What `/confirm-info`'s success dialog promises, and the answer's `message`.
pub const CONTACT_PROMISE: &str = "A representative will contact you shortly.";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/personal/contact", put(set_contact))
        .route("/member/app/contact/request", post(request_contact))
}

/// The contact form: the mobile phone only (the email is the login, changed in Settings).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContactBody {
    phone: Option<Value>,
}

/// Saves the member's mobile phone and answers the member record (as member/info).
async fn set_contact(
    State(state): State<AppState>,
    SignedInMember { member, .. }: SignedInMember,
    Json(body): Json<ContactBody>,
) -> ApiResult<axum::Json<Value>> {
    let phone = check("phone", Phone::parse(&required("phone", &body.phone)?))?;
    store::members::set_phone(&state.pool, member.id, phone.as_str()).await?;
    Ok(axum::Json(member_view_with_check(&state, member.id, None).await?))
}

/// The short last sign-up step: a name and a mobile phone to be called back on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContactRequestBody {
    first_name: Option<Value>,
    last_name: Option<Value>,
    phone: Option<Value>,
}

/// Saves the name and phone on the member (a changed name of a confirmed member is checked
/// against the roster at once, as on every form), records the request and emails it to the
/// support address in the same transaction. Answers 201 `{id, message, eligibilityCheck}`.
async fn request_contact(
    State(state): State<AppState>,
    SignedInMember { member, .. }: SignedInMember,
    Json(body): Json<ContactRequestBody>,
) -> ApiResult<(StatusCode, axum::Json<Value>)> {
    let first_name = check("firstName", parse_name(&required("firstName", &body.first_name)?))?;
    let last_name = check("lastName", parse_name(&required("lastName", &body.last_name)?))?;
    let phone = check("phone", Phone::parse(&required("phone", &body.phone)?))?;
    // Support answers each request by hand: a member cannot flood its inbox.
    state.limits.hit(&state.pool, Bucket::ContactRequest(member.id)).await?;
    let info = PersonalInfo {
        first_name: first_name.clone(),
        last_name: last_name.clone(),
        phone: Some(phone.as_str().to_owned()),
        ..PersonalInfo::from(&member)
    };
    let (saved, checked) = eligibility_check::save_details(&state, &member, &info).await?;
    let request = store::contact_requests::record(
        &state.pool,
        &NewContactRequest {
            member_id: saved.id,
            email: saved.email.as_deref(),
            first_name: &first_name,
            last_name: &last_name,
            phone: phone.as_str(),
        },
        &state.config.support_email,
    )
    .await?;
    state.mailer.wake();
    tracing::info!(member = saved.id, request = request.id, "contact request recorded");
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({
            "id": request.id,
            "message": CONTACT_PROMISE,
            "eligibilityCheck": checked.as_ref().map_or(Value::Null, outcome_json),
        })),
    ))
}
