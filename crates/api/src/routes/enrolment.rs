//! Choosing a provider (for oneself, or for a family member) and what follows enrolment. The
//! rules are `domain::enrolment::decide`; `store::enrolment::choose_provider` applies them on
//! the locked member row. Contract: `docs/enrolment-contract.md`, "Enrolment (set provider)".

use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use chrono::Utc;
use domain::enrolment::Refusal;
use serde::Deserialize;
use serde_json::{Value, json};
use store::benefit_requests::{NewBenefitRequest, Source};
use store::enrolment::{ChoiceOutcome, ProviderChoice};

use crate::access::{Caller, FamilyMemberOfCaller, SignedInMember, please_log_in};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Path, Query};
use crate::forms::id_field;
use crate::services::member_views::location_json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/set/provider", post(set_provider))
        .route(
            "/member/app/family/member/{dependent_id}/set/provider",
            post(set_dependent_provider),
        )
        .route("/member/app/provider/{id}/postenrollment", get(post_enrolment))
}

/// The set-provider body. Ids may arrive as numbers or as digit strings.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderChoiceBody {
    provider_id: Option<Value>,
    location_id: Option<Value>,
    change: Option<bool>,
}

impl ProviderChoiceBody {
    fn into_choice(self, member_id: i64, acted_by: i64) -> ApiResult<ProviderChoice> {
        let provider_id = id_field("providerId", &self.provider_id)?
            .ok_or_else(|| ApiError::invalid_field("providerId", domain::accounts::ValidationError::Required))?;
        Ok(ProviderChoice {
            member_id,
            acted_by,
            provider_id,
            location_id: id_field("locationId", &self.location_id)?,
            change_confirmed: self.change.unwrap_or(false),
            today: Utc::now().date_naive(),
        })
    }
}

fn refusal_error(state: &AppState, refusal: &Refusal) -> ApiError {
    let entry = match refusal {
        Refusal::EmployerInactive => codes::EMPLOYER_INACTIVE,
        Refusal::ActiveMembership { .. } => codes::ACTIVE_MEMBERSHIP,
        Refusal::NotALocation => codes::NOT_A_LOCATION,
        Refusal::ProviderNotFound => codes::PROVIDER_NOT_FOUND,
        Refusal::ChangeNeedsConfirmation { .. } => codes::CHANGE_NEEDS_CONFIRMATION,
        Refusal::AlreadyEnrolled => codes::ALREADY_ENROLLED,
        Refusal::NotAccepting => codes::NOT_ACCEPTING,
        Refusal::PediatricNotOffered => codes::PEDIATRIC_NOT_OFFERED,
        Refusal::PediatricAge => codes::PEDIATRIC_AGE,
    };
    let details = match refusal {
        Refusal::ActiveMembership { clinic } => json!({ "clinic": clinic, "supportEmail": state.config.support_email }),
        Refusal::ChangeNeedsConfirmation { clinic } => json!({ "clinic": clinic }),
        _ => json!({}),
    };
    ApiError::with_message(entry, refusal.to_string()).with_details(details)
}

/// The inactive-employer dialog says a representative will contact the company: the member's
/// request is recorded and emailed to sales (once per member and company; no consent to be
/// emailed is assumed). A member who named no company has nothing to ask for.
async fn tell_sales_the_employer_was_asked_for(state: &AppState, choice: &ProviderChoice) -> ApiResult<()> {
    let Some(member) = store::members::find(&state.pool, choice.member_id).await? else {
        return Ok(());
    };
    let Some(company_name) = member.employer_name.clone().or(member.company_name.clone()) else {
        return Ok(());
    };
    // A family member without a login asks through the subscriber acting for them.
    let email = match member.email.clone() {
        Some(email) => Some(email),
        None => store::members::find(&state.pool, choice.acted_by)
            .await?
            .and_then(|acting| acting.email),
    };
    let Some(email) = email else {
        return Ok(());
    };
    let request = NewBenefitRequest {
        employer_id: member.employer_name.is_some().then_some(member.employer_id).flatten(),
        company_name: &company_name,
        email: &email,
        member_id: Some(member.id),
        consent: false,
        source: Source::Enrolment,
    };
    let mut transaction = state.pool.begin().await?;
    store::benefit_requests::record(&mut transaction, &request, &state.config.sales_email).await?;
    transaction.commit().await?;
    state.mailer.wake();
    Ok(())
}

/// Applies a choice and answers it. `gone` is the error for a member row that vanished.
async fn choose(state: &AppState, choice: &ProviderChoice, gone: ApiError) -> ApiResult<axum::Json<Value>> {
    let (decision, enrolment, clinic) = match store::enrolment::choose_provider(&state.pool, choice).await? {
        ChoiceOutcome::MemberGone => return Err(gone),
        ChoiceOutcome::Refused(refusal) => {
            tracing::info!(
                member = choice.member_id,
                code = refusal.code(),
                "provider choice refused"
            );
            if refusal == Refusal::EmployerInactive {
                tell_sales_the_employer_was_asked_for(state, choice).await?;
            }
            return Err(refusal_error(state, &refusal));
        }
        ChoiceOutcome::Decided {
            decision,
            state,
            clinic,
        } => (decision, state, clinic),
    };
    // The clinics were emailed in the choice's transaction.
    state.mailer.wake();
    tracing::info!(
        member = choice.member_id,
        acted_by = choice.acted_by,
        location = clinic.id,
        changed = decision.changed(),
        "provider chosen"
    );
    Ok(axum::Json(json!({
        "message": decision.message(&clinic.name),
        "changed": decision.changed(),
        "providerId": enrolment.provider_id,
        "locationId": enrolment.location_id,
        "nextStep": enrolment.next_step,
        "setup": enrolment.setup,
        "subscription": {
            "status": enrolment.subscription_status,
            "expire": enrolment.subscription_expire.map(|day| day.to_string()),
        },
        "location": location_json(&clinic),
    })))
}

/// Enrols the signed-in member (a family member, when the subscriber switched to them).
async fn set_provider(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<ProviderChoiceBody>,
) -> ApiResult<axum::Json<Value>> {
    let acted_by = caller.actor.unwrap_or(caller.member_id);
    let choice = body.into_choice(caller.member_id, acted_by)?;
    choose(&state, &choice, please_log_in()).await
}

/// Enrols one of the subscriber's family members.
async fn set_dependent_provider(
    State(state): State<AppState>,
    FamilyMemberOfCaller { subscriber, relative }: FamilyMemberOfCaller,
    Json(body): Json<ProviderChoiceBody>,
) -> ApiResult<axum::Json<Value>> {
    let choice = body.into_choice(relative.id, subscriber.id)?;
    choose(&state, &choice, ApiError::known(codes::NO_DEPENDENT)).await
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PostEnrolmentQuery {
    location_id: Option<i64>,
}

/// Where a new member of this provider goes next: the location's custom redirect, if any.
async fn post_enrolment(
    State(state): State<AppState>,
    SignedInMember { member, .. }: SignedInMember,
    Path(provider_id): Path<i64>,
    Query(query): Query<PostEnrolmentQuery>,
) -> ApiResult<axum::Json<Value>> {
    let redirect =
        store::enrolment::post_enrolment_redirect(&state.pool, provider_id, query.location_id, member.location_id)
            .await?
            .ok_or_else(|| ApiError::known(codes::PROVIDER_NOT_FOUND))?;
    Ok(axum::Json(json!({
        "postMemberEnrollment": redirect.map(|redirect| json!({ "redirect": redirect })),
    })))
}
