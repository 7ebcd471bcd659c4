//! The solution facilitator's review of a participation request, through the single-use link
//! emailed to them (no login: the token is the credential).

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use domain::participation::{Cents, ParticipationStatus, Transition, calculate};
use serde::Deserialize;
use serde_json::{Value, json};
use store::participations::Actor;

use crate::auth::LinkToken;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Query};
use crate::services::participation_views::{participation_json, period_json, refusal_error, tpa_of};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/dpcproviders/participations/review", get(review).post(decide))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewQuery {
    token: Option<String>,
}

fn review_link_expired() -> ApiError {
    ApiError::known(codes::REVIEW_LINK_EXPIRED)
}

/// The link's token: a missing or blank one is a malformed request (400), an unknown one an
/// expired link (410).
fn token_hash(token: Option<&str>, missing: ApiError) -> ApiResult<[u8; 32]> {
    let token = token.map(str::trim).filter(|token| !token.is_empty()).ok_or(missing)?;
    LinkToken::hash_of(token).ok_or_else(review_link_expired)
}

/// What the facilitator is asked to approve.
async fn review(State(state): State<AppState>, Query(query): Query<ReviewQuery>) -> ApiResult<axum::Json<Value>> {
    let missing = ApiError::with_message(codes::INVALID_QUERY, "token is required");
    let hash = token_hash(query.token.as_deref(), missing)?;
    let link = store::participations::review_link(&state.pool, &hash)
        .await?
        .ok_or_else(review_link_expired)?;
    let mut connection = state.pool.acquire().await?;
    let participation = store::participations::find(&mut connection, link.participation_id)
        .await?
        .ok_or_else(review_link_expired)?;
    let requester = store::members::find(&state.pool, participation.agreed_by).await?;
    let mut answer = participation_json(&participation);
    answer["organisation"] = json!({ "id": participation.organisation_id, "name": participation.organisation_name });
    answer["requestedBy"] = requester.map_or(Value::Null, |requester| {
        json!({ "firstName": requester.first_name, "lastName": requester.last_name, "email": requester.email })
    });
    answer["facilitator"] = json!({ "email": link.sent_to });
    // A change of rate: the figures of the rate asked for, beside those of the rate in force.
    if let Some(cents) = participation.requested_base_rate_cents {
        let calculation = calculate(Cents(cents), tpa_of(participation.tpa_basis_points));
        answer["requestedMonthly"] = period_json(&calculation.monthly);
        answer["requestedYearly"] = period_json(&calculation.yearly);
    }
    Ok(axum::Json(answer))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DecisionBody {
    token: Option<String>,
    decision: Option<Value>,
}

/// The facilitator approves or declines; the link is spent and the provider is emailed.
async fn decide(State(state): State<AppState>, Json(body): Json<DecisionBody>) -> ApiResult<axum::Json<Value>> {
    let transition = match body.decision.as_ref().and_then(Value::as_str).map(str::trim) {
        Some("approve") => Transition::Approve,
        Some("decline") => Transition::Decline,
        _ => {
            return Err(
                ApiError::with_message(codes::INVALID_FIELD, "decision must be approve or decline")
                    .with_details(json!({ "field": "decision" })),
            );
        }
    };
    let missing =
        ApiError::with_message(codes::REQUIRED, "token is required").with_details(json!({ "field": "token" }));
    let hash = token_hash(body.token.as_deref(), missing)?;
    let mut transaction = state.pool.begin().await?;
    let link = store::participations::consume_review_link(&mut transaction, &hash)
        .await?
        .ok_or_else(review_link_expired)?;
    // An active participation's link decides its change of rate, not the participation.
    let rate_change = store::participations::find(&mut transaction, link.participation_id)
        .await?
        .is_some_and(|before| before.status.0 == ParticipationStatus::Active && before.requested_rate_id.is_some());
    let decided = store::participations::apply(
        &mut transaction,
        link.participation_id,
        transition,
        &Actor::Facilitator(link.sent_to),
        None,
    )
    .await?
    .map_err(refusal_error)?;
    transaction.commit().await?;
    state.mailer.wake();
    let solution = decided.solution_name.as_deref().unwrap_or("the solution");
    let organisation = decided.organisation_name.as_deref().unwrap_or("The organisation");
    let rate = format!(
        "{} (${} per member per month)",
        decided.rate_group,
        Cents(decided.base_rate_cents)
    );
    let message = if rate_change && transition == Transition::Approve {
        format!("Approved: {organisation}'s rate in {solution} is now {rate}. We emailed them.")
    } else if rate_change {
        format!("Declined: {organisation} stays at {rate} in {solution}. We emailed them.")
    } else if decided.status.0 == ParticipationStatus::Active {
        format!("Approved: {organisation} now participates in {solution}. We emailed them.")
    } else {
        format!("Declined: {organisation} does not participate in {solution}. We emailed them.")
    };
    Ok(axum::Json(
        json!({ "status": decided.status.0.as_str(), "message": message }),
    ))
}
