//! Eligibility confirmation and personal info: the member's details are saved, checked against
//! the payer's roster, and a confirmed member moves on to choosing a provider or is enrolled.
//!
//! Answers of a check: 200 confirmed; 400 wrong data or 'Member already exists'; 401 covered
//! under another plan; 500 with `eligibility.err.chcDown` when the check could not run.

use axum::Router;
use axum::extract::State;
use axum::routing::{post, put};
use chrono::Utc;
use domain::Relation;
use domain::accounts::{
    Email, Phone, ValidationError, member_gender, parse_date_of_birth, parse_gender, parse_identifier, parse_name,
    parse_relation, parse_zip_code,
};
use serde::Deserialize;
use serde_json::{Value, json};
use store::members::{Member, PersonalInfo};

use crate::access::{Caller, SignedInMember};
use crate::coverage::Person;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Json;
use crate::forms::{PersonFields, check, optional, required, text};
use crate::limits::Bucket;
use crate::services::accounts::access_token;
use crate::services::eligibility_check::{self, Applicant, Confirmation, NotConfirmed};
use crate::services::member_views::{filter_market, location_json, member_view_with_check};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/confirm/info", post(confirm_info))
        .route("/member/app/personal/info", put(personal_info))
        .route("/member/app/eligibility", post(eligibility))
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
    #[serde(flatten)]
    person: PersonFields,
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
        let first_name = check(
            "firstName",
            parse_name(&required("firstName", &self.person.first_name)?),
        )?;
        let last_name = check("lastName", parse_name(&required("lastName", &self.person.last_name)?))?;
        let dob = optional("dob", &self.person.dob, |text| parse_date_of_birth(text, today))?;
        let gender = check("gender", parse_gender(&required("gender", &self.person.gender)?))?;
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
        let phone = match text("phone", &self.person.phone)? {
            Some(phone) => Some(check("phone", Phone::parse(&phone))?.as_str().to_owned()),
            None if needs.phone => return Err(ApiError::invalid_field("phone", ValidationError::Required)),
            None => member.phone.clone(),
        };
        let zip_code = match text("zipCode", &self.person.zip_code)? {
            Some(zip) => Some(check("zipCode", parse_zip_code(&zip))?),
            None => member.zip_code.clone(),
        };
        if needs.email {
            let email = check(
                "email",
                Email::parse(&text("email", &self.person.email)?.unwrap_or_default()),
            )?;
            if member.email.as_deref() != Some(email.as_str()) {
                return Err(
                    ApiError::known(codes::EMAIL_CHANGE_NEEDS_VERIFICATION).with_details(json!({ "field": "email" }))
                );
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
                    ApiError::known(codes::UNKNOWN_EMPLOYER).with_details(json!({ "field": "employerId" }))
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

fn eligibility_error(refusal: NotConfirmed) -> ApiError {
    ApiError::known(refusal.entry()).with_details(json!({
        "eligible": false,
        "eligibility": { "code": refusal.status().as_u16(), "err": { "chcDown": refusal.chc_down() } },
    }))
}

/// Checks the member's stored details and, when the roster confirms them, activates
/// eligibility and moves the member on. Answers the body of a 200.
/// `caller`: whose token asked; the new token is for the same session and keeps naming the
/// subscriber who switched to this member's account, so they can switch back. `limited`: the
/// check counts against the member's eligibility limit here (the caller has not counted it
/// already).
async fn check_and_apply(
    state: &AppState,
    member: &Member,
    subscriber: Option<Person>,
    caller: Caller,
    limited: bool,
) -> ApiResult<Value> {
    let Confirmation {
        member: updated,
        coverage,
        employer,
        not_enrolled_at,
    } = eligibility_check::confirm(state, Applicant::Myself { member, subscriber }, limited)
        .await?
        .map_err(eligibility_error)?;
    tracing::info!(member = member.id, next_step = %updated.next_step, "eligibility confirmed");
    Ok(json!({
        "eligible": true,
        "eligibility": { "code": 200, "status": updated.eligibility_status, "err": { "chcDown": false } },
        "newAccessToken": access_token(state, updated.id, caller.actor, None, caller.session)?,
        "nextStep": updated.next_step,
        "setup": updated.setup,
        "hasFamily": coverage.family_size > 0,
        "providerId": updated.provider_id,
        "locationId": updated.location_id,
        "filterMarket": filter_market(state, &updated).await?,
        "pediatric": { "covered": coverage.pediatric_covered },
        "subscription": { "status": updated.subscription_status, "expire": updated.subscription_expire.map(|day| day.to_string()) },
        "notEnrolled": not_enrolled_at.as_ref().map(|clinic| json!({
            "code": codes::NOT_ACCEPTING.code,
            "message": format!(
                "{} stopped accepting new patients, so you were not enrolled there. Your eligibility is confirmed: \
                 choose another provider, or join its waitlist to be emailed when it accepts new patients again.",
                clinic.name
            ),
            "location": location_json(clinic),
        })),
        "employer": employer.as_ref().map(|employer| json!({
            "id": employer.id,
            "companyName": employer.company_name,
            "status": employer.status,
            "alias": employer.alias,
        })),
    }))
}

/// The eligibility form: saves the details, then checks them. The check is counted against the
/// member's limit before anything is written.
async fn confirm_info(
    State(state): State<AppState>,
    SignedInMember { caller, member }: SignedInMember,
    Json(form): Json<MemberForm>,
) -> ApiResult<axum::Json<Value>> {
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
    state.limits.hit(&state.pool, Bucket::Eligibility(member.id)).await?;
    let mut connection = state.pool.acquire().await?;
    let unconfirm = eligibility_check::recheck(&member, &info.identity()).unconfirm;
    let saved = store::members::update_personal_info(&mut connection, member.id, &info, unconfirm).await?;
    drop(connection);
    Ok(axum::Json(
        check_and_apply(&state, &saved, subscriber, caller, false).await?,
    ))
}

/// The personal info form: saves the details and answers the whole member record, with
/// `eligibilityCheck`: the outcome of the check a change of identity made (see
/// [`eligibility_check::save_details`]), null when the save needed none.
async fn personal_info(
    State(state): State<AppState>,
    SignedInMember { member, .. }: SignedInMember,
    Json(form): Json<MemberForm>,
) -> ApiResult<axum::Json<Value>> {
    let needs = Requirements {
        plan: true,
        payer_and_group: true,
        phone: true,
        email: true,
    };
    let info = form.parse(&state, &member, &needs).await?;
    let (saved, checked) = eligibility_check::save_details(&state, &member, &info).await?;
    Ok(axum::Json(
        member_view_with_check(&state, saved.id, checked.as_ref()).await?,
    ))
}

/// Checks the stored details (after a personal info save); the answer carries the employer.
/// The SPA sends the member it just saved as the body; the stored record is what is checked.
async fn eligibility(
    State(state): State<AppState>,
    SignedInMember { caller, member }: SignedInMember,
) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(check_and_apply(&state, &member, None, caller, true).await?))
}
