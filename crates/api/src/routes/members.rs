//! The signed-in member: member info, Home, account details, and the plans the eligibility
//! form offers. Every call acts on the caller's own record only.

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::{get, put};
use serde::Deserialize;
use serde_json::{Value, json};
use store::roster::PlanRow;

use crate::access::{Caller, MaybeCaller, SignedInMember, please_log_in, signed_in_member};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Path, Query};
use crate::respond::json_text;
use crate::services::member_views::member_view;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/member/info", get(member_info))
        .route("/member/app/home", get(home))
        .route("/member/app/account", get(account))
        .route("/member/app/plans", get(plans))
        .route("/member/app/plan/{plan_id}", get(plan))
        .route("/member/app/notifications", put(notifications))
}

pub fn plan_json(plan: &PlanRow) -> Value {
    json!({
        "planId": plan.plan_id,
        "name": plan.name,
        "groupId": plan.group_id,
        "payerId": plan.payer_id,
        "payerName": plan.payer_name,
    })
}

async fn member_info(State(state): State<AppState>, caller: Caller) -> ApiResult<Response> {
    member_view(&state, caller.member_id).await
}

/// Home: what the dashboard needs to choose its buttons.
async fn home(SignedInMember { member, .. }: SignedInMember) -> axum::Json<Value> {
    axum::Json(json!({
        "providerId": member.provider_id,
        "locationId": member.location_id,
        "setup": member.setup,
        "planID": member.plan_id,
        "nextStep": member.next_step,
    }))
}

/// Account details: personal, contact and insurance information.
async fn account(State(state): State<AppState>, caller: Caller) -> ApiResult<Response> {
    let document = store::members::account_json(&state.pool, caller.member_id)
        .await?
        .ok_or_else(please_log_in)?;
    Ok(json_text(document))
}

/// The email-notification setting; `notify` must be a JSON boolean.
#[derive(Debug, Deserialize)]
pub struct NotificationsBody {
    notify: bool,
}

/// Turns the caller's email notifications on or off (the Settings screen's switch).
async fn notifications(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<NotificationsBody>,
) -> ApiResult<axum::Json<Value>> {
    let notify = store::members::set_notify(&state.pool, caller.member_id, body.notify)
        .await?
        .ok_or_else(please_log_in)?;
    Ok(axum::Json(json!({ "notify": notify })))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlansQuery {
    employer_id: Option<i64>,
    payer_id: Option<String>,
}

/// Plans for the plan picker: the employer's (the query's, else the caller's), else all.
async fn plans(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Query(query): Query<PlansQuery>,
) -> ApiResult<axum::Json<Vec<Value>>> {
    let employer_id = match (query.employer_id, caller) {
        (Some(id), _) => Some(id),
        (None, Some(caller)) => signed_in_member(&state, caller).await?.employer_id,
        (None, None) => None,
    };
    let payer_id = match query
        .payer_id
        .as_deref()
        .map(str::trim)
        .filter(|payer| !payer.is_empty())
    {
        Some(payer) => {
            Some(domain::accounts::parse_identifier(payer).map_err(|error| ApiError::invalid_field("payerId", error))?)
        }
        None => None,
    };
    let plans = store::roster::plans(&state.pool, employer_id, payer_id.as_deref()).await?;
    Ok(axum::Json(plans.iter().map(plan_json).collect()))
}

/// One plan by id; an unknown id answers 404 with the text in `err` as well.
async fn plan(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path(plan_id): Path<String>,
) -> ApiResult<axum::Json<Value>> {
    let not_found =
        || ApiError::known(codes::PLAN_NOT_FOUND).with_details(json!({ "err": codes::PLAN_NOT_FOUND.text() }));
    let plan_id = domain::accounts::parse_identifier(&plan_id).map_err(|_| not_found())?;
    let employer_id = match caller {
        Some(caller) => signed_in_member(&state, caller).await?.employer_id,
        None => None,
    };
    let plan = store::roster::plan(&state.pool, &plan_id, employer_id)
        .await?
        .ok_or_else(not_found)?;
    Ok(axum::Json(plan_json(&plan)))
}
