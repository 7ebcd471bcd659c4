//! Eligibility confirmation and personal info: the member's details are saved, checked against
//! the payer's roster, and a confirmed member moves on to choosing a provider or is enrolled.
//!
//! Answers of a check: 200 confirmed; 400 wrong data or 'Member already exists'; 401 covered
//! under another plan; 500 with `eligibility.err.chcDown` when the check could not run.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{post, put};
use chrono::Utc;
use domain::Relation;
use domain::accounts::{
    Email, Enrolment, MembershipStatus, Phone, ValidationError, member_gender, parse_date_of_birth, parse_gender,
    parse_identifier, parse_name, parse_relation, parse_zip_code,
};
use serde::Deserialize;
use serde_json::{Value, json};
use store::StoreError;
use store::members::{ConfirmedEligibility, Member, PersonalInfo};

use crate::app::AppState;
use crate::auth::Caller;
use crate::eligibility::{EligibilityOutcome, EligibilityQuery, Person};
use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::limits::Bucket;
use crate::routes::members::{filter_market, member_view, signed_in_member};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/confirm/info", post(confirm_info))
        .route("/member/app/personal/info", put(personal_info))
        .route("/member/app/eligibility", post(eligibility))
}

pub const WRONG_DATA: &str = "We were unable to verify eligibility. Please enter subscriber information and resubmit.";
pub const MEMBER_EXISTS: &str = "Member already exists";
pub const NOT_ON_PLAN: &str = "Oops! It seems that you are not eligible on this plan.";
pub const CHECK_DOWN: &str =
    "We could not reach the eligibility service. Your information is saved; please try again later.";

/// Form values may arrive as text or numbers (member ids, ZIP codes); anything else is refused.
pub(crate) fn text(field: &str, value: &Option<Value>) -> ApiResult<Option<String>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.trim().to_owned()).filter(|text| !text.is_empty())),
        Some(Value::Number(number)) => Ok(Some(number.to_string())),
        Some(_) => Err(ApiError::detailed(
            StatusCode::BAD_REQUEST,
            "invalid_field",
            "Must be text",
            json!({ "field": field }),
        )),
    }
}

pub(crate) fn required(field: &str, value: &Option<Value>) -> ApiResult<String> {
    text(field, value)?.ok_or_else(|| ApiError::invalid_field(field, ValidationError::Required))
}

pub(crate) fn check<T>(field: &str, result: Result<T, ValidationError>) -> ApiResult<T> {
    result.map_err(|error| ApiError::invalid_field(field, error))
}

fn optional<T>(
    field: &str,
    value: &Option<Value>,
    parse: impl FnOnce(&str) -> Result<T, ValidationError>,
) -> ApiResult<Option<T>> {
    text(field, value)?.map(|text| check(field, parse(&text))).transpose()
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriberBody {
    first_name: Option<Value>,
    last_name: Option<Value>,
    dob: Option<Value>,
    gender: Option<Value>,
    member_id: Option<Value>,
}

/// The eligibility form and the personal info form share their field names.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberForm {
    first_name: Option<Value>,
    last_name: Option<Value>,
    dob: Option<Value>,
    gender: Option<Value>,
    email: Option<Value>,
    phone: Option<Value>,
    zip_code: Option<Value>,
    member_id: Option<Value>,
    plan_id: Option<Value>,
    payer_id: Option<Value>,
    group_id: Option<Value>,
    subscriber_relation: Option<Value>,
    subscriber_member_id: Option<Value>,
    employer_id: Option<Value>,
    subscriber: Option<SubscriberBody>,
}

/// Which fields a form must carry.
struct Requirements {
    plan: bool,
    payer_and_group: bool,
    phone: bool,
    email: bool,
}

impl MemberForm {
    /// Validates the form into the member's new details; what the form does not carry keeps
    /// the member's current value.
    async fn parse(&self, state: &AppState, member: &Member, needs: &Requirements) -> ApiResult<PersonalInfo> {
        let today = Utc::now().date_naive();
        let first_name = check("firstName", parse_name(&required("firstName", &self.first_name)?))?;
        let last_name = check("lastName", parse_name(&required("lastName", &self.last_name)?))?;
        let dob = optional("dob", &self.dob, |text| parse_date_of_birth(text, today))?;
        let gender = check("gender", parse_gender(&required("gender", &self.gender)?))?;
        let member_id = check("memberId", parse_identifier(&required("memberId", &self.member_id)?))?;
        let identifier = |field: &str, value: &Option<Value>, needed: bool| -> ApiResult<Option<String>> {
            match text(field, value)? {
                Some(text) => check(field, parse_identifier(&text)).map(Some),
                None if needed => Err(ApiError::invalid_field(field, ValidationError::Required)),
                None => Ok(None),
            }
        };
        let plan_id = identifier("planId", &self.plan_id, needs.plan)?;
        let payer_id = identifier("payerId", &self.payer_id, needs.payer_and_group)?;
        let group_id = identifier("groupId", &self.group_id, needs.payer_and_group)?;
        let phone = match text("phone", &self.phone)? {
            Some(phone) => Some(check("phone", Phone::parse(&phone))?.as_str().to_owned()),
            None if needs.phone => return Err(ApiError::invalid_field("phone", ValidationError::Required)),
            None => member.phone.clone(),
        };
        let zip_code = match text("zipCode", &self.zip_code)? {
            Some(zip) => Some(check("zipCode", parse_zip_code(&zip))?),
            None => member.zip_code.clone(),
        };
        if needs.email {
            let email = check("email", Email::parse(&text("email", &self.email)?.unwrap_or_default()))?;
            if member.email.as_deref() != Some(email.as_str()) {
                return Err(ApiError::detailed(
                    StatusCode::BAD_REQUEST,
                    "email_change_needs_verification",
                    "To change your login e-mail, use Settings: we send a link to confirm the new address.",
                    json!({ "field": "email" }),
                ));
            }
        }
        let relation = match text("subscriberRelation", &self.subscriber_relation)? {
            Some(relation) => check("subscriberRelation", parse_relation(&relation))?,
            None => Relation::parse(&member.subscriber_relation).unwrap_or(Relation::SelfSubscriber),
        };
        let subscriber_member_id = match relation {
            Relation::SelfSubscriber => None,
            Relation::Spouse | Relation::Dependent => Some(check(
                "subscriberMemberId",
                parse_identifier(&required("subscriberMemberId", &self.subscriber_member_id)?),
            )?),
        };
        let employer = match &self.employer_id {
            None | Some(Value::Null) => None,
            Some(value) => {
                let id = value
                    .as_i64()
                    .or_else(|| value.as_str().and_then(|text| text.trim().parse().ok()));
                let employer = match id {
                    Some(id) => store::members::employer(&state.pool, id).await?,
                    None => None,
                };
                Some(employer.ok_or_else(|| {
                    ApiError::detailed(
                        StatusCode::BAD_REQUEST,
                        "unknown_employer",
                        "Unknown employer",
                        json!({ "field": "employerId" }),
                    )
                })?)
            }
        };
        Ok(PersonalInfo {
            first_name,
            last_name,
            dob: dob.or(member.dob),
            gender: Some(member_gender(gender).to_owned()),
            phone,
            zip_code,
            member_id: Some(member_id),
            payer_id: payer_id.or_else(|| member.payer_id.clone()),
            plan_id: plan_id.or_else(|| member.plan_id.clone()),
            group_id: group_id.or_else(|| member.group_id.clone()),
            subscriber_relation: relation.as_str().to_owned(),
            subscriber_member_id,
            employer_id: employer.as_ref().map(|employer| employer.id),
            company_name: employer.map(|employer| employer.company_name),
        })
    }

    fn subscriber(&self) -> ApiResult<Option<Person>> {
        let Some(subscriber) = &self.subscriber else {
            return Ok(None);
        };
        let today = Utc::now().date_naive();
        let dob = check(
            "subscriber.dob",
            parse_date_of_birth(&required("subscriber.dob", &subscriber.dob)?, today),
        )?;
        if let Some(gender) = text("subscriber.gender", &subscriber.gender)? {
            check("subscriber.gender", parse_gender(&gender))?;
        }
        Ok(Some(Person {
            first_name: check(
                "subscriber.firstName",
                parse_name(&required("subscriber.firstName", &subscriber.first_name)?),
            )?,
            last_name: check(
                "subscriber.lastName",
                parse_name(&required("subscriber.lastName", &subscriber.last_name)?),
            )?,
            dob,
            member_id: check(
                "subscriber.memberId",
                parse_identifier(&required("subscriber.memberId", &subscriber.member_id)?),
            )?,
        }))
    }
}

fn eligibility_error(status: StatusCode, code: &'static str, message: &str, chc_down: bool) -> ApiError {
    ApiError::detailed(
        status,
        code,
        message,
        json!({
            "eligible": false,
            "eligibility": { "code": status.as_u16(), "err": { "chcDown": chc_down } },
        }),
    )
}

/// Checks the member's stored details and, when the roster confirms them, activates
/// eligibility and moves the member on. Answers the body of a 200.
/// `actor`: the subscriber who switched to this member's account; the new token keeps naming
/// them so they can switch back.
async fn check_and_apply(
    state: &AppState,
    member: &Member,
    subscriber: Option<Person>,
    actor: Option<i64>,
) -> ApiResult<Value> {
    let wrong_data = || eligibility_error(StatusCode::BAD_REQUEST, "eligibility_not_verified", WRONG_DATA, false);
    let (Some(dob), Some(member_id)) = (member.dob, member.member_id.clone()) else {
        return Err(wrong_data());
    };
    if member.first_name.is_empty() || member.last_name.is_empty() {
        return Err(wrong_data());
    }
    let relation = Relation::parse(&member.subscriber_relation).unwrap_or(Relation::SelfSubscriber);
    let query = EligibilityQuery {
        person: Person {
            first_name: member.first_name.clone(),
            last_name: member.last_name.clone(),
            dob,
            member_id,
        },
        payer_id: member.payer_id.clone(),
        plan_id: member.plan_id.clone(),
        relation,
        subscriber_member_id: member.subscriber_member_id.clone(),
        subscriber,
    };
    state.limits.hit(state, Bucket::Eligibility(member.id)).await?;
    let coverage = match state.eligibility.check(&query).await {
        EligibilityOutcome::Confirmed(coverage) => coverage,
        EligibilityOutcome::WrongData => return Err(wrong_data()),
        EligibilityOutcome::NotOnPlan => {
            return Err(eligibility_error(
                StatusCode::UNAUTHORIZED,
                "not_eligible_on_plan",
                NOT_ON_PLAN,
                false,
            ));
        }
        EligibilityOutcome::Unavailable => {
            store::members::mark_eligibility_pending(&state.pool, member.id).await?;
            return Err(eligibility_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "eligibility_unavailable",
                CHECK_DOWN,
                true,
            ));
        }
    };
    let member_exists = || eligibility_error(StatusCode::BAD_REQUEST, "member_exists", MEMBER_EXISTS, false);
    if store::members::insured_person_taken(&state.pool, &coverage.payer_id, &coverage.member_id, member.id).await? {
        return Err(member_exists());
    }
    let employer_id = match member.employer_id {
        Some(id) => Some(id),
        None => store::roster::employer_of_group(&state.pool, &coverage.payer_id, &coverage.group_number).await?,
    };
    let employer = match employer_id {
        Some(id) => store::members::employer(&state.pool, id).await?,
        None => None,
    };
    let subscriber_id = match coverage.relation {
        Relation::SelfSubscriber => None,
        Relation::Spouse | Relation::Dependent => {
            store::members::find_confirmed_subscriber(&state.pool, &coverage.payer_id, &coverage.subscriber_member_id)
                .await?
                .filter(|id| *id != member.id)
        }
    };
    let current_subscription = match (member.subscription_status.as_deref(), member.subscription_expire) {
        (Some(status), Some(expire)) => MembershipStatus::parse(status).map(|status| (status, expire)),
        _ => None,
    };
    let enrolment = Enrolment::after_confirmation(
        member.location_id.is_some(),
        current_subscription,
        Utc::now().date_naive(),
    );
    let confirmed = ConfirmedEligibility {
        payer_id: coverage.payer_id.clone(),
        member_id: coverage.member_id.clone(),
        plan_id: coverage.plan_id.clone(),
        group_id: Some(coverage.group_number.clone()),
        employer_id: employer.as_ref().map(|employer| employer.id),
        company_name: employer.as_ref().map(|employer| employer.company_name.clone()),
        subscriber_id,
        next_step: enrolment.next_step.as_str(),
        subscription_status: enrolment.subscription.map(|(status, _)| status.as_str()),
        subscription_expire: enrolment.subscription.map(|(_, expire)| expire),
    };
    let mut connection = state.pool.acquire().await?;
    let updated = match store::members::confirm_eligibility(&mut connection, member.id, &confirmed).await {
        Ok(updated) => updated,
        Err(StoreError::AlreadyExists(_)) => return Err(member_exists()),
        Err(error) => return Err(error.into()),
    };
    drop(connection);
    tracing::info!(member = member.id, next_step = %updated.next_step, "eligibility confirmed");
    Ok(json!({
        "eligible": true,
        "eligibility": { "code": 200, "status": updated.eligibility_status, "err": { "chcDown": false } },
        "newAccessToken": match actor {
            Some(subscriber_id) => state.tokens.issue_on_behalf(updated.id, subscriber_id)?,
            None => state.tokens.issue(updated.id)?,
        },
        "nextStep": updated.next_step,
        "setup": updated.setup,
        "hasFamily": coverage.family_size > 0,
        "providerId": updated.provider_id,
        "locationId": updated.location_id,
        "filterMarket": filter_market(state, &updated).await?,
        "pediatric": { "covered": coverage.pediatric_covered },
        "subscription": { "status": updated.subscription_status, "expire": updated.subscription_expire.map(|day| day.to_string()) },
        "employer": employer.as_ref().map(|employer| json!({
            "id": employer.id,
            "companyName": employer.company_name,
            "status": employer.status,
            "alias": employer.alias,
        })),
    }))
}

/// The eligibility form: saves the details, then checks them.
async fn confirm_info(
    State(state): State<AppState>,
    caller: Caller,
    Json(form): Json<MemberForm>,
) -> ApiResult<axum::Json<Value>> {
    let member = signed_in_member(&state, caller).await?;
    let needs = Requirements {
        plan: true,
        payer_and_group: false,
        phone: false,
        email: false,
    };
    let info = form.parse(&state, &member, &needs).await?;
    if info.dob.is_none() {
        return Err(ApiError::invalid_field("dob", ValidationError::Required));
    }
    let subscriber = form.subscriber()?;
    let mut connection = state.pool.acquire().await?;
    let saved = store::members::update_personal_info(&mut connection, member.id, &info).await?;
    drop(connection);
    Ok(axum::Json(
        check_and_apply(&state, &saved, subscriber, caller.actor).await?,
    ))
}

/// The personal info form: saves the details and answers the whole member record. Eligibility
/// is checked separately (`POST /member/app/eligibility`).
async fn personal_info(
    State(state): State<AppState>,
    caller: Caller,
    Json(form): Json<MemberForm>,
) -> ApiResult<axum::response::Response> {
    let member = signed_in_member(&state, caller).await?;
    let needs = Requirements {
        plan: true,
        payer_and_group: true,
        phone: true,
        email: true,
    };
    let info = form.parse(&state, &member, &needs).await?;
    let mut connection = state.pool.acquire().await?;
    let saved = store::members::update_personal_info(&mut connection, member.id, &info).await?;
    drop(connection);
    member_view(&state, saved.id).await
}

/// Checks the stored details (after a personal info save); the answer carries the employer.
/// The SPA sends the member it just saved as the body; the stored record is what is checked.
async fn eligibility(State(state): State<AppState>, caller: Caller) -> ApiResult<axum::Json<Value>> {
    let member = signed_in_member(&state, caller).await?;
    Ok(axum::Json(check_and_apply(&state, &member, None, caller.actor).await?))
}
