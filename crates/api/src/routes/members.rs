//! The signed-in member: member info, Home, account details, and the plans the eligibility
//! form offers. Every call acts on the caller's own record only.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, put};
use serde::Deserialize;
use serde_json::{Value, json};
use store::members::Member;
use store::roster::PlanRow;

use crate::app::AppState;
use crate::auth::{Caller, MaybeCaller};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Json, Path, Query};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/member/info", get(member_info))
        .route("/member/app/home", get(home))
        .route("/member/app/account", get(account))
        .route("/member/app/plans", get(plans))
        .route("/member/app/plan/{plan_id}", get(plan))
        .route("/member/app/notifications", put(notifications))
}

/// The member the access token names; 401 when the account no longer exists.
pub async fn signed_in_member(state: &AppState, caller: Caller) -> ApiResult<Member> {
    store::members::find(&state.pool, caller.member_id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Please log in to continue".into()))
}

/// Where the marketplace opens for this member: their employer's alias and home ZIP.
pub async fn filter_market(state: &AppState, member: &Member) -> ApiResult<Value> {
    let alias = match member.employer_id {
        Some(id) => store::members::employer(&state.pool, id)
            .await?
            .and_then(|employer| employer.alias),
        None => None,
    };
    Ok(json!({ "company": alias, "location": member.zip_code }))
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

/// The member record the SPA keeps (`GET /member/app/member/info`, and the answer of
/// `PUT /member/app/personal/info`), as PostgreSQL writes it.
pub async fn member_view(state: &AppState, member_id: i64) -> ApiResult<Response> {
    let document = store::members::member_info_json(&state.pool, member_id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Please log in to continue".into()))?;
    Ok(json_text(document))
}

fn json_text(document: String) -> Response {
    crate::respond::json_bytes(document.into_bytes())
}

async fn member_info(State(state): State<AppState>, caller: Caller) -> ApiResult<Response> {
    member_view(&state, caller.member_id).await
}

/// Home: what the dashboard needs to choose its buttons.
async fn home(State(state): State<AppState>, caller: Caller) -> ApiResult<axum::Json<Value>> {
    let member = signed_in_member(&state, caller).await?;
    Ok(axum::Json(json!({
        "providerId": member.provider_id,
        "locationId": member.location_id,
        "setup": member.setup,
        "planID": member.plan_id,
        "nextStep": member.next_step,
    })))
}

/// Account details: personal, contact and insurance information.
async fn account(State(state): State<AppState>, caller: Caller) -> ApiResult<Response> {
    let document = store::members::account_json(&state.pool, caller.member_id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("Please log in to continue".into()))?;
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
        .ok_or_else(|| ApiError::Unauthorized("Please log in to continue".into()))?;
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
    let not_found = || {
        let text = "We could not find a plan with this ID";
        ApiError::detailed(StatusCode::NOT_FOUND, "plan_not_found", text, json!({ "err": text }))
    };
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
