//! The clinic panel (docs/clinic-panel-contract.md): an organisation's members by tab, one
//! member's detail, the decisions (activate on the first visit, decline, end) and the monthly
//! roster as CSV. Every call needs a provider account's token and sees only its organisation;
//! the transitions are `store::memberships`'.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::{NaiveDate, Utc};
use domain::accounts::ValidationError;
use domain::clinic_panel::{DecisionRefusal, Month, PanelDecision, PanelTab, Reason, csv_record, days_active};
use serde::Deserialize;
use serde_json::{Value, json};
use store::memberships::{Actor, DecisionOutcome, HistoryEvent, Membership, PanelMember, PanelQuery, PanelRow};

use crate::access::ProviderCaller;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

/// Rows on one page of a tab.
pub const PAGE_SIZE: i64 = 20;
/// The last page a tab may be asked for (200,000 memberships).
pub const MAX_PAGE: i64 = 10_000;
/// The longest search text, and the most words in it.
const MAX_QUERY_CHARS: usize = 100;
const MAX_QUERY_WORDS: usize = 8;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/dpcproviders/members", get(list))
        .route("/dpcproviders/members/{member_id}", get(detail))
        .route("/dpcproviders/members/{member_id}/activate", post(activate))
        .route("/dpcproviders/members/{member_id}/decline", post(decline))
        .route("/dpcproviders/members/{member_id}/end", post(end))
        .route("/dpcproviders/roster.csv", get(roster))
}

/// A 400 naming the query parameter at fault.
fn bad_parameter(field: &str, message: impl Into<String>) -> ApiError {
    ApiError::with_message(codes::INVALID_PARAMETER, message).with_details(json!({ "field": field }))
}

fn not_enrolled_here() -> ApiError {
    ApiError::known(codes::PANEL_MEMBER_NOT_FOUND)
}

// ---- Reading -------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    status: Option<String>,
    location: Option<String>,
    q: Option<String>,
    page: Option<String>,
}

/// One tab of the organisation's memberships, newest first.
async fn list(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Query(query): Query<ListQuery>,
) -> ApiResult<axum::Json<Value>> {
    let tab = match query.status.as_deref().map(str::trim) {
        None | Some("") => PanelTab::New,
        Some(text) => text
            .parse::<PanelTab>()
            .map_err(|_| bad_parameter("status", "status must be pending, active or past"))?,
    };
    let page = match query.page.as_deref().map(str::trim) {
        None | Some("") => 1,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|page| (1..=MAX_PAGE).contains(page))
            .ok_or_else(|| bad_parameter("page", format!("page must be a whole number from 1 to {MAX_PAGE}")))?,
    };
    let locations = store::memberships::locations(&state.pool, provider.organisation_id).await?;
    let location_id = match query.location.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let id = text
                .parse::<i64>()
                .ok()
                .filter(|id| locations.iter().any(|location| location.id == *id))
                .ok_or_else(|| {
                    bad_parameter(
                        "location",
                        format!("location {text} is not one of your organisation's locations"),
                    )
                })?;
            Some(id)
        }
    };
    let text = query.q.as_deref().unwrap_or_default().trim();
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(bad_parameter("q", format!("q is at most {MAX_QUERY_CHARS} characters")));
    }
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    if words.len() > MAX_QUERY_WORDS {
        return Err(bad_parameter("q", format!("q is at most {MAX_QUERY_WORDS} words")));
    }
    let panel_query = PanelQuery {
        organisation_id: provider.organisation_id,
        tab,
        location_id,
        words,
    };
    let found = store::memberships::panel_page(&state.pool, &panel_query, page, PAGE_SIZE).await?;
    Ok(axum::Json(json!({
        "status": tab,
        "page": page,
        "pageSize": PAGE_SIZE,
        "total": found.total,
        "counts": { "pending": found.counts.pending, "active": found.counts.active, "past": found.counts.past },
        "locations": locations.iter().map(|location| json!({ "id": location.id, "name": location.name })).collect::<Vec<_>>(),
        "members": found.rows.iter().map(row_json).collect::<Vec<_>>(),
    })))
}

/// The member's facts as the panel shows them (the store's facts object, less internal keys).
fn member_json(facts: &Value) -> Value {
    let field = |key: &str| facts.get(key).cloned().unwrap_or(Value::Null);
    json!({
        "id": field("id"),
        "firstName": field("firstName"),
        "lastName": field("lastName"),
        "dob": field("dob"),
        "gender": field("gender"),
        "phone": field("phone"),
        "email": field("email"),
        "memberId": field("memberId"),
        "relation": field("relation"),
        "employer": field("employer"),
        "plan": field("plan"),
        "eligibility": field("eligibility"),
    })
}

fn membership_json(membership: &Membership, location: Value) -> Value {
    json!({
        "id": membership.id,
        "status": membership.status,
        "location": location,
        "enrolledAt": membership.enrolled_at,
        "activeFrom": membership.active_from,
        "activeUntil": membership.active_until,
        "closedAt": membership.closed_at,
        "reason": membership.reason,
    })
}

fn row_json(row: &PanelRow) -> Value {
    let location = json!({ "id": row.membership.location_id, "name": row.location_name });
    let mut member = member_json(&row.member);
    member["id"] = json!(row.membership.member_id);
    member["location"] = location.clone();
    member["membership"] = membership_json(&row.membership, location);
    member
}

fn detail_json(found: &PanelMember) -> Value {
    let mut member = member_json(&found.row.member);
    member["id"] = json!(found.row.membership.member_id);
    let location = json!({
        "id": found.row.membership.location_id,
        "name": found.row.location_name,
        "address": found.location_address,
    });
    json!({
        "member": member,
        "membership": membership_json(&found.row.membership, location),
        "family": found.family.iter().map(|relative| json!({
            "id": relative.id,
            "firstName": relative.first_name,
            "lastName": relative.last_name,
            "relation": relative.relation,
            "status": relative.status,
            "location": { "id": relative.location_id, "name": relative.location_name },
        })).collect::<Vec<_>>(),
        "history": found
            .history
            .iter()
            .filter_map(|event| history_json(event, found.row.membership.organisation_id))
            .collect::<Vec<_>>(),
    })
}

/// One event as this organisation may see it: a move from or to another organisation names
/// neither it nor its location.
fn history_json(event: &HistoryEvent, organisation_id: i64) -> Option<Value> {
    let here = event.provider_id == organisation_id;
    let from_here = event.from_provider_id == Some(organisation_id);
    let kind = match event.kind.as_str() {
        "provider_changed" if here && from_here => "location_changed",
        "provider_changed" if here => "moved_in",
        "provider_changed" if from_here => "moved_away",
        "enrolled" if here => "enrolled",
        kind @ ("activated" | "declined" | "ended" | "cancelled") if here => kind,
        _ => return None,
    };
    let name = [event.actor_first_name.as_deref(), event.actor_last_name.as_deref()]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let name = match event.actor.as_str() {
        "operator" => "Nearcare operator".to_owned(),
        _ if name.is_empty() => "A member".to_owned(),
        _ => name,
    };
    let (location_id, location_name) = if kind == "moved_away" {
        (event.from_location_id, event.from_location_name.clone())
    } else {
        (Some(event.location_id), event.location_name.clone())
    };
    let mut entry = json!({
        "at": event.created_at,
        "kind": kind,
        "by": { "actor": event.actor, "name": name },
        "location": { "id": location_id, "name": location_name },
        "date": event.effective_on,
        "reason": event.reason,
    });
    if kind == "location_changed" {
        entry["fromLocation"] = json!({ "id": event.from_location_id, "name": event.from_location_name });
    }
    Some(entry)
}

async fn panel_member(state: &AppState, provider: ProviderCaller, member_id: i64) -> ApiResult<PanelMember> {
    store::memberships::panel_member(&state.pool, provider.organisation_id, member_id)
        .await?
        .ok_or_else(not_enrolled_here)
}

/// One member as the organisation sees them.
async fn detail(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(member_id): Path<i64>,
) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(detail_json(
        &panel_member(&state, provider, member_id).await?,
    )))
}

// ---- Deciding ------------------------------------------------------------------------------

/// A body field that must be JSON text when present (`null` counts as absent).
fn text_field(field: &str, value: &Option<Value>) -> ApiResult<Option<String>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(
            ApiError::with_message(codes::INVALID_FIELD, format!("{field} must be text"))
                .with_details(json!({ "field": field })),
        ),
    }
}

fn reason_field(value: &Option<Value>) -> ApiResult<Reason> {
    let text = text_field("reason", value)?.unwrap_or_default();
    Reason::parse(&text).map_err(|error| ApiError::invalid_field("reason", error))
}

/// A `YYYY-MM-DD` day, `today` when absent.
fn day_field(field: &str, value: &Option<Value>, today: NaiveDate) -> ApiResult<NaiveDate> {
    match text_field(field, value)? {
        None => Ok(today),
        Some(text) if text.trim().is_empty() => Ok(today),
        Some(text) => {
            let text = text.trim();
            let strict = text.len() == 10;
            domain::accounts::parse_date(text)
                .ok()
                .filter(|_| strict)
                .ok_or_else(|| ApiError::invalid_field(field, ValidationError::DateInvalid))
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ActivateBody {
    first_visit: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeclineBody {
    reason: Option<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EndBody {
    reason: Option<Value>,
    end_date: Option<Value>,
}

async fn activate(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(member_id): Path<i64>,
    Json(body): Json<ActivateBody>,
) -> ApiResult<axum::Json<Value>> {
    let today = Utc::now().date_naive();
    let first_visit = day_field("firstVisit", &body.first_visit, today)?;
    apply(
        &state,
        provider,
        member_id,
        PanelDecision::Activate { first_visit },
        today,
    )
    .await
}

async fn decline(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(member_id): Path<i64>,
    Json(body): Json<DeclineBody>,
) -> ApiResult<axum::Json<Value>> {
    let reason = reason_field(&body.reason)?;
    apply(
        &state,
        provider,
        member_id,
        PanelDecision::Decline { reason },
        Utc::now().date_naive(),
    )
    .await
}

async fn end(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(member_id): Path<i64>,
    Json(body): Json<EndBody>,
) -> ApiResult<axum::Json<Value>> {
    let today = Utc::now().date_naive();
    let reason = reason_field(&body.reason)?;
    let end_date = day_field("endDate", &body.end_date, today)?;
    apply(
        &state,
        provider,
        member_id,
        PanelDecision::End { reason, end_date },
        today,
    )
    .await
}

/// Applies a decision in one transaction and answers the membership as the detail shows it.
async fn apply(
    state: &AppState,
    provider: ProviderCaller,
    member_id: i64,
    decision: PanelDecision,
    today: NaiveDate,
) -> ApiResult<axum::Json<Value>> {
    let mut transaction = state.pool.begin().await?;
    let outcome = store::memberships::decide(
        &mut transaction,
        provider.organisation_id,
        member_id,
        &decision,
        Actor::Provider(provider.account_id),
        today,
    )
    .await?;
    let name = match outcome {
        DecisionOutcome::NotFound => return Err(not_enrolled_here()),
        DecisionOutcome::Refused { name, refusal } => return Err(refusal_error(&name, &refusal)),
        DecisionOutcome::Decided { name, .. } => name,
    };
    transaction.commit().await?;
    state.mailer.wake();
    tracing::info!(
        organisation = provider.organisation_id,
        account = provider.account_id,
        member = member_id,
        decision = decision.target().as_str(),
        "membership decided"
    );
    let found = panel_member(state, provider, member_id).await?;
    let long = |day: Option<NaiveDate>| day.map(domain::clinic_panel::long_date).unwrap_or_default();
    let message = match &decision {
        PanelDecision::Activate { first_visit } => format!(
            "{name} is now an active member (first visit {}).",
            long(Some(*first_visit))
        ),
        PanelDecision::Decline { .. } => format!("You declined {name}'s enrolment. We emailed them your reason."),
        PanelDecision::End { end_date, .. } => {
            format!(
                "{name}'s membership ended on {}. We emailed them.",
                long(Some(*end_date))
            )
        }
    };
    let detail = detail_json(&found);
    Ok(axum::Json(
        json!({ "message": message, "membership": detail["membership"] }),
    ))
}

fn refusal_error(name: &str, refusal: &DecisionRefusal) -> ApiError {
    let message = refusal.message(name);
    match refusal.field() {
        Some(field) => ApiError::with_message(codes::INVALID_DATE, message).with_details(json!({ "field": field })),
        None => ApiError::with_message(codes::MEMBERSHIP_STATE, message),
    }
}

// ---- The roster ----------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterQuery {
    month: Option<String>,
}

/// The CSV's header row.
pub const ROSTER_COLUMNS: [&str; 10] = [
    "Member ID",
    "Name",
    "Date of birth",
    "Subscriber or dependent",
    "Employer",
    "Plan",
    "Location",
    "Active from",
    "Active until",
    "Days active in month",
];

/// The organisation's members active on any day of a month, as RFC 4180 CSV.
async fn roster(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Query(query): Query<RosterQuery>,
) -> ApiResult<Response> {
    let today = Utc::now().date_naive();
    let month_text = query.month.as_deref().map(str::trim).unwrap_or_default();
    if month_text.is_empty() {
        return Err(bad_parameter("month", "month is required, as YYYY-MM"));
    }
    let month = Month::parse(month_text).ok_or_else(|| bad_parameter("month", "month must be a month as YYYY-MM"))?;
    if month.first_day() > today {
        return Err(bad_parameter("month", "month cannot be after the current month"));
    }
    let rows = store::memberships::roster(
        &state.pool,
        provider.organisation_id,
        month.first_day(),
        month.last_day(),
    )
    .await?;
    let mut csv = String::with_capacity(128 * (rows.len() + 1));
    csv.push_str(&csv_record(ROSTER_COLUMNS));
    for row in &rows {
        let fact = |key: &str| {
            row.member
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let name = store::memberships::full_name(&row.member);
        let relation = match fact("relation").as_str() {
            "" | "Self" => "Subscriber".to_owned(),
            other => other.to_owned(),
        };
        let days = days_active(month, row.active_from, row.active_until, today).to_string();
        let active_from = row.active_from.to_string();
        let active_until = row.active_until.map(|day| day.to_string()).unwrap_or_default();
        let location = row.location_name.clone().unwrap_or_default();
        let fields = [
            fact("memberId"),
            name,
            fact("dob"),
            relation,
            fact("employer"),
            fact("plan"),
            location,
            active_from,
            active_until,
            days,
        ];
        csv.push_str(&csv_record(fields.iter().map(String::as_str)));
    }
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"roster-{}-{month}.csv\"",
                    provider.organisation_id
                ),
            ),
        ],
        csv,
    )
        .into_response())
}
