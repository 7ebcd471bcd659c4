//! The provider side's JSON: rates, a period's figures, fees, participations and solution
//! cards (docs/provider-contract.md), and the error a refused transition answers.

use domain::participation::{Cents, Period, calculate, fee_schedule};
use serde_json::{Value, json};
use store::participations::{Participation, Rate, Refusal, SolutionTerms};

use crate::error::ApiError;
use crate::error_codes as codes;

pub fn rate_json(rate: &Rate) -> Value {
    json!({
        "_id": rate.id,
        "group": rate.rate_group,
        "baseRate": Cents(rate.base_rate_cents).to_string(),
        "solution": rate.solution_id,
    })
}

pub fn period_json(period: &Period) -> Value {
    let breakdown: Vec<Value> = period
        .fees
        .iter()
        .map(|fee| {
            json!({
                "entity": fee.entity.label(),
                "type": fee.rule.kind(),
                "value": fee.rule.value(),
                "amount": fee.amount.to_string(),
            })
        })
        .collect();
    json!({
        "baseRate": period.base_rate.to_string(),
        "fees": period.fees_total.to_string(),
        "total": period.total.to_string(),
        "breakdown": breakdown,
    })
}

pub fn tpa_of(basis_points: i32) -> u32 {
    u32::try_from(basis_points).unwrap_or_default()
}

/// The solution's fee list: `{entity, type, amount}`, `amount` being the rule's figure.
pub fn fees_json(solution: &SolutionTerms) -> Vec<Value> {
    fee_schedule(tpa_of(solution.tpa_basis_points))
        .into_iter()
        .map(|(entity, rule)| json!({ "entity": entity.label(), "type": rule.kind(), "amount": rule.value() }))
        .collect()
}

pub fn participation_json(participation: &Participation) -> Value {
    let calculation = calculate(
        Cents(participation.base_rate_cents),
        tpa_of(participation.tpa_basis_points),
    );
    json!({
        "id": participation.id,
        "status": participation.status.0.as_str(),
        "date": participation.decided_at.unwrap_or(participation.agreed_at),
        "provider": participation.organisation_name,
        "employer": null,
        "solution": { "id": participation.solution_id, "name": participation.solution_name },
        "rate": {
            "_id": participation.rate_id,
            "group": participation.rate_group,
            "baseRate": Cents(participation.base_rate_cents).to_string(),
        },
        // An active participation's change of rate waiting for the facilitator; `rate` stays in force.
        "requestedRate": match (participation.requested_rate_id, &participation.requested_rate_group, participation.requested_base_rate_cents) {
            (Some(id), Some(group), Some(cents)) => json!({ "_id": id, "group": group, "baseRate": Cents(cents).to_string() }),
            _ => Value::Null,
        },
        "monthly": period_json(&calculation.monthly),
        "yearly": period_json(&calculation.yearly),
        "contractVersion": participation.contract_sha256,
        "contactEmail": participation.contact_email,
        "requestedAt": participation.agreed_at,
        "decidedAt": participation.decided_at,
        "stoppedAt": participation.stopped_at,
    })
}

/// What a provider's card says of a solution: `notContracted` without a participation.
pub fn card_status(participation: Option<&Participation>) -> &'static str {
    participation.map_or("notContracted", |participation| participation.status.0.card_status())
}

pub fn solution_card(solution: &SolutionTerms, participation: Option<&Participation>, favourite: bool) -> Value {
    json!({
        "id": solution.id,
        "name": solution.name,
        "type": solution.kind,
        "category": solution.category,
        "logo": solution.logo,
        "description": solution.description,
        "favorite": favourite,
        "contracted": participation.is_some_and(|participation| participation.status.0.is_live()),
        "status": card_status(participation),
    })
}

pub fn contract_path(solution_id: i64) -> String {
    format!("/dpcproviders/market/solution/{solution_id}/contract.pdf")
}

/// The answer to a transition the participation cannot make.
pub fn refusal_error(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::NotFound => ApiError::known(codes::NOT_PARTICIPATING),
        Refusal::NotAllowed(status) => ApiError::with_message(
            codes::PARTICIPATION_STATE,
            format!("A {} participation cannot be changed that way.", status.as_str()),
        ),
    }
}
