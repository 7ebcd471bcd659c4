//! The provider side of the marketplace (docs/provider-contract.md): a provider account's
//! solutions, a solution with its rates, fees, contract and the organisation's participation,
//! the rate calculation, participating, changing the rate or stopping (the facilitator's review
//! is [`super::participation_review`]).

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use domain::accounts::Email;
use domain::participation::{Cents, Transition, calculate};
use serde::Deserialize;
use serde_json::{Value, json};
use store::favourites::Entity;
use store::participations::{Actor, Participation, Rate, SolutionTerms};

use crate::access::{MaybePrincipal, Principal, ProviderCaller};
use crate::contract_pdf::{contract_pdf, contract_version};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Path, Query};
use crate::forms::{check, id_field};
use crate::services::participation_views::{
    card_status, contract_path, fees_json, participation_json, period_json, rate_json, refusal_error, solution_card,
    tpa_of,
};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/dpcproviders/me", get(me))
        .route("/member/app/solutions", get(my_solutions))
        .route("/dpcproviders/market/solution/{id}", get(solution))
        .route("/dpcproviders/market/solution/{id}/contract.pdf", get(contract))
        .route("/dpcproviders/rates", get(rates))
        .route("/dpcproviders/rate/calculate", post(rate_calculation))
        .route("/dpcproviders/solutions", post(participate))
        .route("/dpcproviders/solutions/{id}", post(change_participation))
        .route("/dpcproviders/participations", get(participations))
}

// ---- Reading -------------------------------------------------------------------------------

async fn terms_of(state: &AppState, id: i64) -> ApiResult<SolutionTerms> {
    store::participations::solution_terms(&state.pool, id)
        .await?
        .ok_or_else(|| ApiError::known(codes::SOLUTION_NOT_FOUND))
}

/// The organisation's newest participation in each solution it ever joined.
async fn latest_participations(state: &AppState, organisation_id: i64) -> ApiResult<Vec<Participation>> {
    let mut newest_first = store::participations::of_organisation(&state.pool, organisation_id).await?;
    let mut seen = std::collections::HashSet::new();
    newest_first.retain(|participation| seen.insert(participation.solution_id));
    Ok(newest_first)
}

/// Who the signed-in provider is.
async fn me(State(state): State<AppState>, provider: ProviderCaller) -> ApiResult<axum::Json<Value>> {
    let account = store::members::find(&state.pool, provider.account_id)
        .await?
        .ok_or_else(crate::access::please_log_in)?;
    let organisation = store::providers::organisation_name(&state.pool, provider.organisation_id).await?;
    Ok(axum::Json(json!({
        "id": account.id,
        "email": account.email,
        "firstName": account.first_name,
        "lastName": account.last_name,
        "organisation": { "id": provider.organisation_id, "name": organisation },
    })))
}

/// My Solutions (pending and active participations), My Favorites, and every solution.
async fn my_solutions(State(state): State<AppState>, provider: ProviderCaller) -> ApiResult<axum::Json<Value>> {
    let solutions = store::participations::all_solutions(&state.pool).await?;
    let participations = latest_participations(&state, provider.organisation_id).await?;
    let favourites = store::favourites::favourite_solution_ids(&state.pool, provider.account_id).await?;
    let participation_of = |id: i64| {
        participations
            .iter()
            .find(|participation| participation.solution_id == id)
    };
    let card = |solution: &SolutionTerms| {
        solution_card(
            solution,
            participation_of(solution.id),
            favourites.contains(&solution.id),
        )
    };
    let mine: Vec<Value> = participations
        .iter()
        .filter(|participation| participation.status.0.is_live())
        .filter_map(|participation| {
            solutions
                .iter()
                .find(|solution| solution.id == participation.solution_id)
        })
        .map(card)
        .collect();
    let favorites: Vec<Value> = solutions
        .iter()
        .filter(|solution| favourites.contains(&solution.id))
        .map(card)
        .collect();
    let marketplace: Vec<Value> = solutions.iter().map(card).collect();
    Ok(axum::Json(
        json!({ "solutions": mine, "favorites": favorites, "marketplace": marketplace }),
    ))
}

/// The spec's Solution; with a provider token, the organisation's participation and rate.
async fn solution(
    State(state): State<AppState>,
    MaybePrincipal(principal): MaybePrincipal,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<Value>> {
    let solution = terms_of(&state, id).await?;
    let rates = store::participations::rates(&state.pool, Some(id)).await?;
    let version = contract_version(&contract_pdf(&solution, &rates));
    let (viewer, organisation) = match principal {
        Some(Principal::Member(caller)) => (Some(caller.member_id), None),
        Some(Principal::Provider(provider)) => (Some(provider.account_id), Some(provider.organisation_id)),
        None => (None, None),
    };
    let favorite = crate::services::favourites::is_favourite(&state, viewer, Entity::Solution, id).await?;
    let participation = match organisation {
        Some(organisation) => latest_participations(&state, organisation)
            .await?
            .into_iter()
            .find(|participation| participation.solution_id == id),
        None => None,
    };
    let contracted = participation
        .as_ref()
        .is_some_and(|participation| participation.status.0.is_live());
    let rate = participation
        .as_ref()
        .filter(|participation| participation.status.0.is_live())
        .map(|participation| {
            let calculation = calculate(
                Cents(participation.base_rate_cents),
                tpa_of(participation.tpa_basis_points),
            );
            json!({
                "_id": participation.rate_id,
                "structure": "PMPM",
                "frequency": "monthly",
                "amount": Cents(participation.base_rate_cents).to_string(),
                "rateGroup": participation.rate_group,
                "totalNet": calculation.monthly.total.to_string(),
            })
        });
    Ok(axum::Json(json!({
        "id": solution.id,
        "name": solution.name,
        "type": solution.kind,
        "category": solution.category,
        "logo": solution.logo,
        "website": solution.website,
        "favorite": favorite,
        "contract": contract_path(solution.id),
        "contractVersion": version,
        "contracted": contracted,
        "status": card_status(participation.as_ref()),
        "details": {
            "description": solution.description,
            "definition": solution.definition,
            "website": solution.website,
        },
        "facilitator": {
            "primaryContact": {
                "firstName": solution.facilitator_first_name,
                "lastName": solution.facilitator_last_name,
                "email": solution.facilitator_email,
            },
            "address1": solution.facilitator_address1,
        },
        "participation": participation.as_ref().map(participation_json),
        "rate": rate,
        "rates": rates.iter().map(rate_json).collect::<Vec<_>>(),
        "fees": fees_json(&solution),
    })))
}

/// The contract PDF. Public, so the participation dialog can show it in a frame.
async fn contract(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Response> {
    let solution = terms_of(&state, id).await?;
    let rates = store::participations::rates(&state.pool, Some(id)).await?;
    let pdf = contract_pdf(&solution, &rates);
    let version = contract_version(&pdf);
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"contract-solution-{id}.pdf\""),
            ),
            (header::ETAG, format!("\"{version}\"")),
            (header::CACHE_CONTROL, "no-cache".to_owned()),
        ],
        pdf,
    )
        .into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RatesQuery {
    solution: Option<i64>,
}

async fn rates(
    State(state): State<AppState>,
    _provider: ProviderCaller,
    Query(query): Query<RatesQuery>,
) -> ApiResult<axum::Json<Vec<Value>>> {
    if let Some(solution) = query.solution {
        terms_of(&state, solution).await?;
    }
    let rates = store::participations::rates(&state.pool, query.solution).await?;
    Ok(axum::Json(rates.iter().map(rate_json).collect()))
}

/// The solution named by `field` and one of its rates named by `rate`: 404 for an unknown
/// solution, 400 `invalid_rate` (field `rate`) for no rate or another solution's.
async fn solution_and_rate(
    state: &AppState,
    field: &str,
    solution: &Option<Value>,
    rate: &Option<Value>,
) -> ApiResult<(SolutionTerms, Rate)> {
    let solution_id = id_field(field, solution)?
        .ok_or_else(|| ApiError::invalid_field(field, domain::accounts::ValidationError::Required))?;
    let solution = terms_of(state, solution_id).await?;
    let rate = rate_of(state, &solution, rate).await?;
    Ok((solution, rate))
}

async fn rate_of(state: &AppState, solution: &SolutionTerms, rate: &Option<Value>) -> ApiResult<Rate> {
    let with_field = |error: ApiError| error.with_details(json!({ "field": "rate" }));
    let rate_id = id_field("rate", rate)?.ok_or_else(|| with_field(ApiError::known(codes::INVALID_RATE)))?;
    store::participations::rate_of(&state.pool, solution.id, rate_id)
        .await?
        .ok_or_else(|| {
            with_field(ApiError::with_message(
                codes::INVALID_RATE,
                format!("rate {rate_id} is not one of {}'s rates", solution.name),
            ))
        })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CalculationBody {
    solution: Option<Value>,
    rate: Option<Value>,
}

/// The monthly and yearly figures of one of a solution's rates.
async fn rate_calculation(
    State(state): State<AppState>,
    _provider: ProviderCaller,
    Json(body): Json<CalculationBody>,
) -> ApiResult<axum::Json<Value>> {
    let (solution, rate) = solution_and_rate(&state, "solution", &body.solution, &body.rate).await?;
    let calculation = calculate(Cents(rate.base_rate_cents), tpa_of(solution.tpa_basis_points));
    Ok(axum::Json(json!({
        "solution": solution.id,
        "rate": rate_json(&rate),
        "monthly": period_json(&calculation.monthly),
        "yearly": period_json(&calculation.yearly),
    })))
}

// ---- Participating -------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ParticipateBody {
    solution_id: Option<Value>,
    rate: Option<Value>,
    contracted: Option<Value>,
    contract_version: Option<String>,
    /// The provider solution form's e-mail: where the facilitator's decision goes. Left out, the
    /// signed-in account's own address.
    contact_email: Option<Value>,
}

/// `contracted` as sent: a boolean or nothing; any other type is a 400 naming it.
fn contracted_field(value: &Option<Value>) -> ApiResult<Option<bool>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(contracted)) => Ok(Some(*contracted)),
        Some(_) => Err(
            ApiError::with_message(codes::INVALID_FIELD, "contracted must be true or false")
                .with_details(json!({ "field": "contracted" })),
        ),
    }
}

async fn participate(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Json(body): Json<ParticipateBody>,
) -> ApiResult<(StatusCode, axum::Json<Value>)> {
    let (solution, rate) = solution_and_rate(&state, "solutionId", &body.solution_id, &body.rate).await?;
    if contracted_field(&body.contracted)? != Some(true) {
        return Err(ApiError::known(codes::CONTRACT_NOT_AGREED).with_details(json!({ "field": "contracted" })));
    }
    let rates = store::participations::rates(&state.pool, Some(solution.id)).await?;
    let version = contract_version(&contract_pdf(&solution, &rates));
    if body
        .contract_version
        .as_deref()
        .is_some_and(|sent| sent.trim() != version)
    {
        return Err(ApiError::known(codes::CONTRACT_CHANGED).with_details(json!({ "field": "contractVersion" })));
    }
    let contact_email = match &body.contact_email {
        None => store::members::find(&state.pool, provider.account_id)
            .await?
            .and_then(|account| account.email)
            .ok_or_else(crate::access::please_log_in)?,
        Some(Value::String(sent)) => check("contactEmail", Email::parse(sent))?.into_string(),
        Some(_) => {
            return Err(
                ApiError::with_message(codes::INVALID_FIELD, "contactEmail must be a string")
                    .with_details(json!({ "field": "contactEmail" })),
            );
        }
    };
    let mut transaction = state.pool.begin().await?;
    if store::participations::live(&mut transaction, provider.organisation_id, solution.id)
        .await?
        .is_some()
    {
        return Err(ApiError::known(codes::ALREADY_PARTICIPATING));
    }
    let request = store::participations::Request {
        organisation_id: provider.organisation_id,
        solution: &solution,
        rate: &rate,
        contract_sha256: &version,
        account_id: provider.account_id,
        contact_email: &contact_email,
    };
    let participation = match store::participations::request(&mut transaction, &request).await {
        Ok(participation) => participation,
        // Two requests at once: the unique index lets one through.
        Err(store::StoreError::AlreadyExists(_)) => return Err(ApiError::known(codes::ALREADY_PARTICIPATING)),
        Err(error) => return Err(error.into()),
    };
    transaction.commit().await?;
    state.mailer.wake();
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({
            "message": format!(
                "Your request to participate in {} was sent to the solution facilitator for approval.",
                solution.name
            ),
            "participation": participation_json(&participation),
        })),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChangeBody {
    rate: Option<Value>,
    contracted: Option<Value>,
}

/// Stops the organisation's participation in solution `id` (`contracted: false`) or changes its
/// rate.
async fn change_participation(
    State(state): State<AppState>,
    provider: ProviderCaller,
    Path(id): Path<i64>,
    Json(body): Json<ChangeBody>,
) -> ApiResult<axum::Json<Value>> {
    let contracted = contracted_field(&body.contracted)?;
    let rate_sent = id_field("rate", &body.rate)?.is_some();
    if contracted == Some(false) && rate_sent {
        return Err(ApiError::with_message(
            codes::INVALID_FIELD,
            "Send either a new rate or contracted false, not both",
        )
        .with_details(json!({ "field": "rate" })));
    }
    if contracted != Some(false) && !rate_sent {
        return Err(ApiError::known(codes::NOTHING_TO_CHANGE));
    }
    let mut transaction = state.pool.begin().await?;
    let current = store::participations::live(&mut transaction, provider.organisation_id, id)
        .await?
        .ok_or_else(|| ApiError::known(codes::NOT_PARTICIPATING))?;
    let actor = Actor::Provider(provider.account_id);
    let (changed, message) = if contracted == Some(false) {
        let changed = store::participations::apply(&mut transaction, current.id, Transition::Stop, &actor, None)
            .await?
            .map_err(refusal_error)?;
        let message = format!(
            "You stopped participating in {}.",
            changed.solution_name.as_deref().unwrap_or("the solution")
        );
        (changed, message)
    } else {
        let solution = terms_of(&state, id).await?;
        let rate = rate_of(&state, &solution, &body.rate).await?;
        if rate.id == current.rate_id || Some(rate.id) == current.requested_rate_id {
            return Err(ApiError::known(codes::NOTHING_TO_CHANGE));
        }
        let changed = store::participations::apply(
            &mut transaction,
            current.id,
            Transition::ChangeRate,
            &actor,
            Some(&rate),
        )
        .await?
        .map_err(refusal_error)?;
        let message = if changed.requested_rate_id.is_some() {
            format!(
                "Your change of rate to {} was sent to the solution facilitator for approval. Until they approve it, your rate stays {}.",
                rate.rate_group, changed.rate_group
            )
        } else {
            format!(
                "Your new rate ({}) was sent to the solution facilitator for approval.",
                rate.rate_group
            )
        };
        (changed, message)
    };
    transaction.commit().await?;
    state.mailer.wake();
    Ok(axum::Json(
        json!({ "message": message, "participation": participation_json(&changed) }),
    ))
}

/// The organisation's participations, newest first, with their figures.
async fn participations(State(state): State<AppState>, provider: ProviderCaller) -> ApiResult<axum::Json<Vec<Value>>> {
    let participations = store::participations::of_organisation(&state.pool, provider.organisation_id).await?;
    Ok(axum::Json(participations.iter().map(participation_json).collect()))
}
