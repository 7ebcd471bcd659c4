//! The JSON the member screens share: where the marketplace opens for a member, the member
//! record the SPA keeps, and a clinic location as member info shows it.

use axum::response::Response;
use serde_json::{Value, json};
use store::enrolment::Clinic;
use store::members::Member;

use crate::access::please_log_in;
use crate::error::{ApiError, ApiResult};
use crate::services::eligibility_check::{Confirmation, NotConfirmed, outcome_json};
use crate::state::AppState;

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

/// The member record the SPA keeps (`GET /member/app/member/info`, and the answer of
/// `PUT /member/app/personal/info`), as PostgreSQL writes it.
pub async fn member_view(state: &AppState, member_id: i64) -> ApiResult<Response> {
    let document = store::members::member_info_json(&state.pool, member_id)
        .await?
        .ok_or_else(please_log_in)?;
    Ok(crate::respond::json_text(document))
}

/// The member record (as member/info) with `eligibilityCheck`: the outcome of the check a save
/// made (`eligibility_check::outcome_json`), null when it made none.
pub async fn member_view_with_check(
    state: &AppState,
    member_id: i64,
    checked: Option<&Result<Confirmation, NotConfirmed>>,
) -> ApiResult<Value> {
    let document = store::members::member_info_json(&state.pool, member_id)
        .await?
        .ok_or_else(please_log_in)?;
    let mut record: Value = serde_json::from_str(&document).map_err(|error| ApiError::Internal(error.into()))?;
    record["eligibilityCheck"] = checked.map_or(Value::Null, outcome_json);
    Ok(record)
}

/// A location as member/info shows it.
pub fn location_json(clinic: &Clinic) -> Value {
    json!({
        "id": clinic.id,
        "providerId": clinic.organisation_id,
        "name": clinic.organisation_name,
        "companyName": clinic.organisation_name,
        "locationName": clinic.location_name,
        "logo": clinic.logo,
        "address1": clinic.address1,
        "city": clinic.city,
        "state": clinic.state,
        "zip": clinic.zip,
        "zipCode": clinic.zip,
        "phone": domain::accounts::displayed_phone(&clinic.phone),
    })
}
