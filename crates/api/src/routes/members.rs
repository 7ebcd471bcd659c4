//! The signed-in member: member info, Home, account details, and the plans the eligibility
//! form offers. Every call acts on the caller's own record only.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use store::members::{EmployerSummary, LocationCard, Member};
use store::roster::PlanRow;

use crate::app::AppState;
use crate::auth::{Caller, MaybeCaller};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Path, Query};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/member/info", get(member_info))
        .route("/member/app/home", get(home))
        .route("/member/app/account", get(account))
        .route("/member/app/plans", get(plans))
        .route("/member/app/plan/{plan_id}", get(plan))
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

fn date(value: Option<chrono::NaiveDate>) -> Value {
    value.map_or(Value::Null, |day| Value::String(day.format("%Y-%m-%d").to_string()))
}

fn location_json(card: &LocationCard) -> Value {
    json!({
        "id": card.id,
        "providerId": card.organisation_id,
        "name": card.organisation_name,
        "companyName": card.organisation_name,
        "locationName": card.location_name,
        "logo": card.logo,
        "address1": card.address1,
        "city": card.city,
        "state": card.state,
        "zip": card.zip,
        "zipCode": card.zip,
        "phone": card.phone,
    })
}

fn employer_json(employer: &EmployerSummary, groups: &[(String, String, String)]) -> Value {
    let groups: Vec<Value> = groups
        .iter()
        .map(|(group, payer, plan)| json!({ "groupId": group, "planId": plan, "tpa": { "payerId": payer } }))
        .collect();
    json!({
        "id": employer.id,
        "companyName": employer.company_name,
        "alias": employer.alias,
        "status": employer.status,
        "groups": groups,
    })
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

/// The payers of a plan list, each with its plans, in first-seen order.
fn payers_json(plans: &[PlanRow]) -> Vec<Value> {
    let mut payers: Vec<(String, String, Vec<Value>)> = Vec::new();
    for plan in plans {
        let entry = json!({ "planId": plan.plan_id, "name": plan.name, "groupId": plan.group_id });
        match payers.iter_mut().find(|(id, _, _)| *id == plan.payer_id) {
            Some((_, _, list)) => list.push(entry),
            None => payers.push((plan.payer_id.clone(), plan.payer_name.clone(), vec![entry])),
        }
    }
    payers
        .into_iter()
        .map(|(id, name, plans)| json!({ "payerId": id, "payerName": name, "plans": plans }))
        .collect()
}

fn statuses(member: &Member) -> (Value, Value) {
    (
        json!({ "status": member.eligibility_status }),
        json!({ "status": member.subscription_status, "expire": date(member.subscription_expire) }),
    )
}

/// A family list entry.
async fn family_entry(state: &AppState, member: &Member) -> ApiResult<Value> {
    let card = match member.location_id {
        Some(location_id) => store::members::location_card(&state.pool, location_id, member.provider_id).await?,
        None => None,
    };
    let (eligibility, subscription) = statuses(member);
    Ok(json!({
        "id": member.id,
        "firstName": member.first_name,
        "lastName": member.last_name,
        "subscriberRelation": member.subscriber_relation,
        "nextStep": member.next_step,
        "providerId": member.provider_id,
        "locationId": member.location_id,
        "provider": card.as_ref().map(|card| json!({ "id": card.organisation_id, "companyName": card.organisation_name })),
        "location": card.as_ref().map(location_json),
        "providerPortal": card.as_ref().and_then(|card| card.provider_portal_url.as_ref()).map(|link| json!({ "link": link })),
        "eligibility": eligibility,
        "subscription": subscription,
    }))
}

/// The member record the SPA keeps (`GET /member/app/member/info`, and the answer of
/// `PUT /member/app/personal/info`).
pub async fn member_view(state: &AppState, member: &Member) -> ApiResult<Value> {
    let pool = &state.pool;
    let employer_id = member.employer_id;
    let location = async {
        match member.location_id {
            Some(location_id) => store::members::location_card(pool, location_id, member.provider_id).await,
            None => Ok(None),
        }
    };
    let employer = async {
        match employer_id {
            Some(id) => store::members::employer(pool, id).await,
            None => Ok(None),
        }
    };
    let groups = async {
        match employer_id {
            Some(id) => store::roster::employer_groups(pool, id).await,
            None => Ok(Vec::new()),
        }
    };
    let (location, employer, groups, plans, family) = tokio::try_join!(
        location,
        employer,
        groups,
        store::roster::plans(pool, employer_id, None),
        store::members::family_of(pool, member.id),
    )?;
    let mut family_entries = Vec::with_capacity(family.len());
    for relative in &family {
        family_entries.push(family_entry(state, relative).await?);
    }
    let (eligibility, subscription) = statuses(member);
    let company_name = employer
        .as_ref()
        .map(|employer| employer.company_name.clone())
        .or_else(|| member.company_name.clone());
    let plan_list: Vec<Value> = plans.iter().map(plan_json).collect();
    Ok(json!({
        "id": member.id,
        "type": "dpc-member",
        "email": member.email,
        "firstName": member.first_name,
        "lastName": member.last_name,
        "dob": date(member.dob),
        "gender": member.gender,
        "phone": member.phone,
        "zipCode": member.zip_code,
        "memberId": member.member_id,
        "payerId": member.payer_id,
        "planId": member.plan_id,
        "groupId": member.group_id,
        "employerId": member.employer_id,
        "companyName": company_name,
        "subscriberRelation": member.subscriber_relation,
        "subscriberMemberId": member.subscriber_member_id,
        "subscriberId": member.subscriber_id,
        "nextStep": member.next_step,
        "setup": member.setup,
        "eligibility": eligibility,
        "subscription": subscription,
        "providerId": member.provider_id,
        "locationId": member.location_id,
        "location": location.as_ref().map(location_json),
        "providerPortal": location
            .as_ref()
            .and_then(|card| card.provider_portal_url.as_ref())
            .map(|link| json!({ "link": link })),
        "password": member.password_hash.is_some(),
        "emailVerified": member.email_verified_at.is_some(),
        "notify": member.notify,
        "hasFamily": !family.is_empty(),
        "family": family_entries,
        "associatedDependents": if member.subscriber_relation == "Self" { family_entries.clone() } else { Vec::new() },
        "employer": employer.as_ref().map(|employer| employer_json(employer, &groups)),
        "payers": payers_json(&plans),
        "plans": plan_list,
    }))
}

async fn member_info(State(state): State<AppState>, caller: Caller) -> ApiResult<axum::Json<Value>> {
    let member = signed_in_member(&state, caller).await?;
    Ok(axum::Json(member_view(&state, &member).await?))
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
async fn account(State(state): State<AppState>, caller: Caller) -> ApiResult<axum::Json<Value>> {
    let member = signed_in_member(&state, caller).await?;
    let employer = match member.employer_id {
        Some(id) => store::members::employer(&state.pool, id).await?,
        None => None,
    };
    let plan = match &member.plan_id {
        Some(plan_id) => store::roster::plan(&state.pool, plan_id, member.employer_id).await?,
        None => None,
    };
    let (eligibility, subscription) = statuses(&member);
    let company_name = employer
        .as_ref()
        .map(|employer| employer.company_name.clone())
        .or_else(|| member.company_name.clone());
    Ok(axum::Json(json!({
        "personal": {
            "id": member.id,
            "firstName": member.first_name,
            "lastName": member.last_name,
            "dob": date(member.dob),
            "gender": member.gender,
            "email": member.email,
            "phone": member.phone,
            "zipCode": member.zip_code,
            "memberId": member.member_id,
            "employerId": member.employer_id,
            "companyName": company_name,
            "planID": member.plan_id,
            "planName": plan.as_ref().map(|plan| plan.name.clone()),
            "payerID": member.payer_id,
            "payerName": plan.as_ref().map(|plan| plan.payer_name.clone()),
            "groupID": member.group_id,
        },
        "subscriberRelation": member.subscriber_relation,
        "eligibility": eligibility,
        "subscription": subscription,
        "nextStep": member.next_step,
    })))
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
