//! Family members: a subscriber adds, lists, edits, confirms and removes them, and switches to
//! their accounts. Only the Self subscriber manages a family, and only their own: contract
//! `docs/enrolment-contract.md`, "Family members".

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::Utc;
use domain::Relation;
use domain::accounts::{
    Email, Phone, member_gender, parse_date_of_birth, parse_gender, parse_identifier, parse_name, parse_relation,
    parse_zip_code,
};
use domain::enrolment::{ADULT_AGE, age_on, pediatric_fit};
use domain::membership::EligibilityStatus;
use serde::Deserialize;
use serde_json::{Value, json};
use store::family::{FamilyChanges, FamilyWrite, NewFamilyMember};
use store::members::Member;
use store::sessions::{EndReason, Ending};

use crate::access::{Caller, FamilyMemberOfCaller, family_head, family_member_of, please_log_in, signed_in_member};
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Path};
use crate::forms::{PersonFields, check, required, text, ticked};
use crate::limits::Bucket;
use crate::services::accounts::access_token;
use crate::services::eligibility_check::{self, Applicant, Applied, Confirmation, NotConfirmed, Recheck};
use crate::services::member_views::location_json;
use crate::sessions::SessionRef;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/family/member", post(add))
        .route("/member/app/family/members", get(list))
        .route(
            "/member/app/family/member/{dependent_id}",
            get(one).put(edit).delete(remove),
        )
        .route(
            "/member/app/family/member/{dependent_id}/confirm/info",
            post(confirm_info),
        )
        .route("/member/app/token/dependent/{id}", get(dependent_token))
}

/// The add-family-member form (also the body of a family member's confirm/info). `payerId`,
/// `groupId` and `companyName` may be sent but are always the subscriber's.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FamilyForm {
    #[serde(flatten)]
    person: PersonFields,
    subscriber_relation: Option<Value>,
    use_my_contact: Option<Value>,
    member_id: Option<Value>,
    plan_id: Option<Value>,
}

/// A family form that passed validation.
struct FamilyDetails {
    relation: Relation,
    first_name: String,
    last_name: String,
    dob: chrono::NaiveDate,
    gender: &'static str,
    contact_email: Option<String>,
    phone: Option<String>,
    zip_code: Option<String>,
    member_id: String,
    plan_id: Option<String>,
}

impl FamilyForm {
    fn parse(&self, subscriber: &Member) -> ApiResult<FamilyDetails> {
        let today = Utc::now().date_naive();
        let relation = check(
            "subscriberRelation",
            parse_relation(&required("subscriberRelation", &self.subscriber_relation)?),
        )?;
        if relation == Relation::SelfSubscriber {
            return Err(
                ApiError::with_message(codes::INVALID_RELATION, "A family member is a Spouse or a Dependent")
                    .with_details(json!({ "field": "subscriberRelation" })),
            );
        }
        let first_name = check(
            "firstName",
            parse_name(&required("firstName", &self.person.first_name)?),
        )?;
        let last_name = check("lastName", parse_name(&required("lastName", &self.person.last_name)?))?;
        let dob = check("dob", parse_date_of_birth(&required("dob", &self.person.dob)?, today))?;
        let gender = member_gender(check(
            "gender",
            parse_gender(&required("gender", &self.person.gender)?),
        )?);
        let (contact_email, phone) = if ticked(&self.use_my_contact) {
            (subscriber.email.clone(), subscriber.phone.clone())
        } else {
            let email = text("email", &self.person.email)?.unwrap_or_default();
            let email = check("email", Email::parse(&email))?.into_string();
            let phone = check("phone", Phone::parse(&required("phone", &self.person.phone)?))?;
            (Some(email), Some(phone.as_str().to_owned()))
        };
        let zip_code = match text("zipCode", &self.person.zip_code)? {
            Some(zip) => Some(check("zipCode", parse_zip_code(&zip))?),
            None => None,
        };
        let member_id = check("memberId", parse_identifier(&required("memberId", &self.member_id)?))?;
        let plan_id = match text("planId", &self.plan_id)? {
            Some(plan) => Some(check("planId", parse_identifier(&plan))?),
            None => subscriber.plan_id.clone(),
        };
        Ok(FamilyDetails {
            relation,
            first_name,
            last_name,
            dob,
            gender,
            contact_email,
            phone,
            zip_code,
            member_id,
            plan_id,
        })
    }
}

/// The edit form: what is sent is validated and saved, what is not is kept.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FamilyEdit {
    #[serde(flatten)]
    person: PersonFields,
}

impl FamilyEdit {
    fn parse(&self) -> ApiResult<FamilyChanges> {
        let today = Utc::now().date_naive();
        Ok(FamilyChanges {
            first_name: text("firstName", &self.person.first_name)?
                .map(|name| check("firstName", parse_name(&name)))
                .transpose()?,
            last_name: text("lastName", &self.person.last_name)?
                .map(|name| check("lastName", parse_name(&name)))
                .transpose()?,
            dob: text("dob", &self.person.dob)?
                .map(|dob| check("dob", parse_date_of_birth(&dob, today)))
                .transpose()?,
            gender: text("gender", &self.person.gender)?
                .map(|gender| check("gender", parse_gender(&gender)).map(member_gender))
                .transpose()?,
            contact_email: text("email", &self.person.email)?
                .map(|email| check("email", Email::parse(&email)).map(Email::into_string))
                .transpose()?,
            phone: text("phone", &self.person.phone)?
                .map(|phone| check("phone", Phone::parse(&phone)).map(|phone| phone.as_str().to_owned()))
                .transpose()?,
            zip_code: text("zipCode", &self.person.zip_code)?
                .map(|zip| check("zipCode", parse_zip_code(&zip)))
                .transpose()?,
            ..FamilyChanges::default()
        })
    }
}

/// A family entry as the account screens show it.
async fn entry_json(state: &AppState, relative: &Member) -> ApiResult<Value> {
    let clinic = match relative.location_id {
        Some(location_id) => store::enrolment::clinic(&state.pool, location_id)
            .await?
            .filter(|clinic| {
                relative
                    .provider_id
                    .is_none_or(|provider| provider == clinic.organisation_id)
            }),
        None => None,
    };
    Ok(json!({
        "id": relative.id,
        "firstName": relative.first_name,
        "lastName": relative.last_name,
        "dob": relative.dob.map(|day| day.to_string()),
        "gender": relative.gender,
        "email": relative.contact_email.as_ref().or(relative.email.as_ref()),
        "phone": relative.phone,
        "zipCode": relative.zip_code,
        "subscriberRelation": relative.subscriber_relation,
        "memberId": relative.member_id,
        "planId": relative.plan_id,
        "payerId": relative.payer_id,
        "groupId": relative.group_id,
        "subscriberMemberId": relative.subscriber_member_id,
        "nextStep": relative.next_step,
        "setup": relative.setup,
        "eligibility": { "status": relative.eligibility_status },
        "subscription": {
            "status": relative.subscription_status,
            "expire": relative.subscription_expire.map(|day| day.to_string()),
        },
        "providerId": relative.provider_id,
        "locationId": relative.location_id,
        "provider": clinic.as_ref().map(|clinic| json!({ "id": clinic.organisation_id, "companyName": clinic.organisation_name })),
        "location": clinic.as_ref().map(location_json),
        "providerPortal": clinic
            .as_ref()
            .and_then(|clinic| clinic.provider_portal_url.as_ref())
            .map(|link| json!({ "link": link })),
        "employer": { "companyName": relative.company() },
        "nextVisit": Value::Null,
    }))
}

/// Adds a family member; the insurance and employer fields are the subscriber's.
async fn add(
    State(state): State<AppState>,
    caller: Caller,
    Json(form): Json<FamilyForm>,
) -> ApiResult<(StatusCode, axum::Json<Value>)> {
    let subscriber = family_head(&state, caller).await?;
    let details = form.parse(&subscriber)?;
    let new = NewFamilyMember {
        subscriber_id: subscriber.id,
        relation: details.relation.as_str(),
        first_name: details.first_name,
        last_name: details.last_name,
        dob: details.dob,
        gender: details.gender,
        contact_email: details.contact_email,
        phone: details.phone,
        member_id: details.member_id,
        plan_id: details.plan_id,
        payer_id: subscriber.payer_id.clone(),
        group_id: subscriber.group_id.clone(),
        subscriber_member_id: subscriber.member_id.clone(),
        employer_id: subscriber.employer_id,
        company_name: subscriber.company_name.clone(),
    };
    match store::family::add(&state.pool, &new).await? {
        FamilyWrite::Saved(id) => {
            tracing::info!(subscriber = subscriber.id, member = id, "family member added");
            Ok((StatusCode::CREATED, axum::Json(json!({ "id": id }))))
        }
        FamilyWrite::AlreadyInFamily => Err(ApiError::known(codes::ALREADY_IN_FAMILY)),
        FamilyWrite::NotInFamily => Err(please_log_in()),
    }
}

async fn list(State(state): State<AppState>, caller: Caller) -> ApiResult<axum::Json<Vec<Value>>> {
    let subscriber = family_head(&state, caller).await?;
    let family = store::family::list(&state.pool, subscriber.id).await?;
    let mut entries = Vec::with_capacity(family.len());
    for relative in &family {
        entries.push(entry_json(&state, relative).await?);
    }
    Ok(axum::Json(entries))
}

async fn one(State(state): State<AppState>, family: FamilyMemberOfCaller) -> ApiResult<axum::Json<Value>> {
    Ok(axum::Json(entry_json(&state, &family.relative).await?))
}

/// Saves changes the subscriber made and answers the updated entry. `unconfirm`: the changes
/// name another insured person than the member's confirmed eligibility was for (see
/// [`eligibility_check::recheck`]).
async fn save(
    state: &AppState,
    subscriber: &Member,
    member_id: i64,
    changes: &FamilyChanges,
    unconfirm: bool,
) -> ApiResult<Member> {
    match store::family::update(&state.pool, subscriber.id, member_id, changes, unconfirm).await? {
        FamilyWrite::Saved(_) => {}
        FamilyWrite::AlreadyInFamily => return Err(ApiError::known(codes::ALREADY_IN_FAMILY)),
        FamilyWrite::NotInFamily => return Err(ApiError::known(codes::NO_DEPENDENT)),
    }
    store::members::find(&state.pool, member_id)
        .await?
        .ok_or_else(|| ApiError::known(codes::NO_DEPENDENT))
}

async fn edit(
    State(state): State<AppState>,
    FamilyMemberOfCaller { subscriber, relative }: FamilyMemberOfCaller,
    Json(form): Json<FamilyEdit>,
) -> ApiResult<axum::Json<Value>> {
    let changes = form.parse()?;
    let Recheck { unconfirm, check } = eligibility_check::recheck(&relative, &changes.identity_over(&relative));
    if check {
        // Counted before anything is written: a refused check saves nothing.
        state
            .limits
            .hit(&state.pool, Bucket::Eligibility(subscriber.id))
            .await?;
    }
    let saved = save(&state, &subscriber, relative.id, &changes, unconfirm).await?;
    let checked = if check {
        let applicant = Applicant::FamilyMember {
            subscriber: &subscriber,
            relative: eligibility_check::own_details(&saved),
        };
        Some(eligibility_check::confirm(&state, applicant, false).await?)
    } else {
        None
    };
    let saved = match &checked {
        Some(Ok(confirmation)) => confirmation.member.clone(),
        _ => store::members::find(&state.pool, saved.id).await?.unwrap_or(saved),
    };
    let mut entry = entry_json(&state, &saved).await?;
    entry["eligibilityCheck"] = checked.as_ref().map_or(Value::Null, eligibility_check::outcome_json);
    Ok(axum::Json(entry))
}

async fn remove(
    State(state): State<AppState>,
    FamilyMemberOfCaller { subscriber, relative }: FamilyMemberOfCaller,
) -> ApiResult<axum::Json<Value>> {
    let member_id = relative.id;
    let (first_name, last_name) = store::family::remove(&state.pool, subscriber.id, member_id)
        .await?
        .ok_or_else(|| ApiError::known(codes::NO_DEPENDENT))?;
    // A removed member's clinic is told (store::memberships::cancel_for_removal).
    state.mailer.wake();
    // The removal ended the sessions switched into the member (a trigger; NOTIFY tells the
    // other servers): this one applies it before answering.
    state.sessions.resync().await;
    tracing::info!(subscriber = subscriber.id, member = member_id, "family member removed");
    Ok(axum::Json(json!({
        "message": format!("{first_name} {last_name} has been removed from your account."),
    })))
}

/// The answer of a family member's eligibility check that did not confirm them. Always a 200:
/// the add-family flow reads `eligible` and keeps the new member for a retry.
fn not_confirmed(relative: Member, refusal: NotConfirmed) -> Value {
    // A check that could not run leaves eligibility pending (unless it already had a status).
    let eligibility_status = match refusal {
        NotConfirmed::Unavailable => relative.eligibility_status.or(Some(EligibilityStatus::Pending)),
        _ => relative.eligibility_status,
    };
    json!({
        "id": relative.id,
        "eligible": false,
        "code": refusal.code(),
        "message": refusal.message(),
        "eligibility": {
            "code": refusal.status().as_u16(),
            "status": eligibility_status,
            "err": { "chcDown": refusal.chc_down() },
        },
        "pediatric": { "covered": false },
    })
}

/// Whether the family member could enrol at the subscriber's clinic: adults whenever the
/// subscriber has one, minors only with pediatric coverage on the roster and a clinic whose
/// pediatric service takes their age.
async fn covered_at_subscribers_clinic(
    state: &AppState,
    subscriber: &Member,
    relative: &Member,
    roster_pediatric_covered: bool,
) -> ApiResult<bool> {
    let Some(location_id) = subscriber.location_id else {
        return Ok(false);
    };
    let clinic = store::enrolment::clinic(&state.pool, location_id)
        .await?
        .filter(|clinic| {
            subscriber
                .provider_id
                .is_none_or(|provider| provider == clinic.organisation_id)
        });
    let Some(clinic) = clinic else {
        return Ok(false);
    };
    let today = Utc::now().date_naive();
    let minor = relative.dob.is_some_and(|dob| age_on(dob, today) < ADULT_AGE);
    Ok(pediatric_fit(relative.dob, &clinic.facts(), today) && (!minor || roster_pediatric_covered))
}

/// Saves the family form (revise mode), then checks the family member against the roster
/// under the subscriber's member id.
async fn confirm_info(
    State(state): State<AppState>,
    FamilyMemberOfCaller { subscriber, relative }: FamilyMemberOfCaller,
    Json(form): Json<FamilyForm>,
) -> ApiResult<axum::Json<Value>> {
    let member_id = relative.id;
    let details = form.parse(&subscriber)?;
    let changes = FamilyChanges {
        relation: Some(details.relation.as_str()),
        first_name: Some(details.first_name.clone()),
        last_name: Some(details.last_name.clone()),
        dob: Some(details.dob),
        gender: Some(details.gender),
        contact_email: details.contact_email,
        phone: details.phone,
        zip_code: details.zip_code,
        member_id: Some(details.member_id.clone()),
        plan_id: details.plan_id.clone(),
        subscriber_member_id: subscriber.member_id.clone(),
    };
    // Counted before anything is written: a refused check saves nothing.
    state
        .limits
        .hit(&state.pool, Bucket::Eligibility(subscriber.id))
        .await?;
    let unconfirm = eligibility_check::recheck(&relative, &changes.identity_over(&relative)).unconfirm;
    let relative = save(&state, &subscriber, member_id, &changes, unconfirm).await?;
    let applied = Applied {
        id: relative.id,
        first_name: &details.first_name,
        last_name: &details.last_name,
        dob: Some(details.dob),
        member_id: Some(&details.member_id),
        plan_id: details.plan_id.as_deref(),
        relation: details.relation,
        location_id: relative.location_id,
        subscription: relative.subscription(),
    };
    let checked = eligibility_check::confirm(
        &state,
        Applicant::FamilyMember {
            subscriber: &subscriber,
            relative: applied,
        },
        false,
    )
    .await?;
    let Confirmation {
        member: updated,
        coverage,
        ..
    } = match checked {
        Ok(confirmation) => confirmation,
        Err(refusal) => return Ok(axum::Json(not_confirmed(relative, refusal))),
    };
    let covered = covered_at_subscribers_clinic(&state, &subscriber, &relative, coverage.pediatric_covered).await?;
    tracing::info!(
        subscriber = subscriber.id,
        member = relative.id,
        "family member eligibility confirmed"
    );
    Ok(axum::Json(json!({
        "id": updated.id,
        "eligible": true,
        "eligibility": { "code": 200, "status": updated.eligibility_status, "err": { "chcDown": false } },
        "pediatric": { "covered": covered },
        "nextStep": updated.next_step,
        "setup": updated.setup,
        "providerId": updated.provider_id,
        "locationId": updated.location_id,
    })))
}

/// A token for one of the subscriber's family members, naming the subscriber as its actor, in
/// a session switched from the subscriber's (it ends with it); asked for the subscriber's own
/// id, a plain token for the subscriber's session again (switching back, which closes the
/// switched session). A switched token switches back only: another family member is 403.
async fn dependent_token(
    State(state): State<AppState>,
    caller: Caller,
    Path(member_id): Path<i64>,
) -> ApiResult<axum::Json<Value>> {
    let subscriber_id = caller.actor.unwrap_or(caller.member_id);
    let sign_in = SessionRef {
        id: caller.session.sign_in,
        ..caller.session
    };
    let subscriber = Caller {
        member_id: subscriber_id,
        actor: None,
        session: sign_in,
    };
    let access_token = if member_id == subscriber_id {
        signed_in_member(&state, subscriber).await?;
        if caller.actor.is_some() {
            state
                .sessions
                .end(Ending::One(caller.session.id), EndReason::SwitchedBack)
                .await?;
        }
        access_token(&state, subscriber_id, None, None, sign_in)?
    } else {
        if caller.actor.is_some() {
            return Err(ApiError::known(codes::SWITCH_BACK_FIRST));
        }
        family_member_of(&state, subscriber, member_id).await?;
        let switched = state.sessions.start_switched(sign_in, member_id, subscriber_id).await?;
        access_token(&state, member_id, Some(subscriber_id), None, switched)?
    };
    Ok(axum::Json(json!({
        "accessToken": access_token,
        "type": "dpc-member",
        "id": member_id,
    })))
}
