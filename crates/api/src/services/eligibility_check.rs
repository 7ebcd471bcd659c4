//! Confirming eligibility: one implementation for a member checking themselves and for a
//! subscriber checking a family member. The details are checked against the coverage lookup;
//! a confirmed member is activated, sponsored by their employer (or the subscriber's) and
//! moved on to choosing a provider or enrolled. Each route writes its own answer.

use std::time::Duration;

use axum::http::StatusCode;
use chrono::{NaiveDate, Utc};
use domain::Relation;
use domain::membership::{EligibilityStatus, Enrolment, Membership, MembershipStatus};
use serde_json::{Value, json};
use store::StoreError;
use store::members::{ConfirmedEligibility, EmployerSummary, Identity, Member, PersonalInfo};

use crate::coverage::{Coverage, EligibilityOutcome, EligibilityQuery, Person};
use crate::error::ApiResult;
use crate::error_codes::{self as codes, ErrorCode};
use crate::limits::Bucket;
use crate::state::AppState;

/// Whose eligibility is checked.
pub enum Applicant<'a> {
    /// The signed-in member, from their stored details. `subscriber`: the subscriber's own
    /// details, sent after a first attempt failed, to find the member among their family.
    Myself {
        member: &'a Member,
        subscriber: Option<Person>,
    },
    /// A family member, checked under the subscriber's member id and payer.
    FamilyMember {
        subscriber: &'a Member,
        relative: Applied<'a>,
    },
}

/// What the check reads of the member checked.
#[derive(Clone)]
pub struct Applied<'a> {
    pub id: i64,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub dob: Option<NaiveDate>,
    pub member_id: Option<&'a str>,
    pub plan_id: Option<&'a str>,
    pub relation: Relation,
    pub location_id: Option<i64>,
    pub subscription: Option<(MembershipStatus, NaiveDate)>,
}

/// A confirmed eligibility: the member as saved, the coverage found, and the employer that
/// sponsors them when the check found one.
pub struct Confirmation {
    pub member: Member,
    pub coverage: Coverage,
    pub employer: Option<EmployerSummary>,
    /// The clinic chosen before sign-up that stopped accepting new patients before the
    /// confirmation (its panel filled up, or the clinic closed it): the member was not enrolled
    /// there and chooses again, its waitlist offered.
    pub not_enrolled_at: Option<store::enrolment::Clinic>,
}

/// Why a check did not confirm the member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotConfirmed {
    /// Nobody with these details is covered (or the details are incomplete).
    WrongData,
    /// Covered, but under another plan.
    NotOnPlan,
    /// The check could not run; eligibility is now pending.
    Unavailable,
    /// Another account already holds this insured person.
    MemberExists,
}

impl NotConfirmed {
    /// The status of the answer: the member's own check answers it, a family member's check
    /// reports it in a 200.
    pub fn status(self) -> StatusCode {
        self.entry().status
    }

    pub fn code(self) -> &'static str {
        self.entry().code
    }

    pub fn message(self) -> &'static str {
        self.entry().text()
    }

    /// The error table's entry for this refusal.
    pub fn entry(self) -> ErrorCode {
        match self {
            Self::WrongData => codes::ELIGIBILITY_NOT_VERIFIED,
            Self::NotOnPlan => codes::NOT_ELIGIBLE_ON_PLAN,
            Self::Unavailable => codes::ELIGIBILITY_UNAVAILABLE,
            Self::MemberExists => codes::MEMBER_EXISTS,
        }
    }

    /// Whether the check could not reach the eligibility service (the SPA's `chcDown`).
    pub fn chc_down(self) -> bool {
        self == Self::Unavailable
    }
}

/// The background retry of a check that could not run (the roster unreadable).
pub const RETRY_JOB: &str = "eligibility_retry";

/// Checks the applicant and, when the roster confirms them, saves the confirmation. A check
/// that cannot run leaves eligibility pending and schedules a retry (`RETRY_JOB`). `limited`:
/// the attempt counts against the member's eligibility rate limit here (the background retry,
/// and callers that counted it before writing anything, pass false).
pub async fn confirm(
    state: &AppState,
    applicant: Applicant<'_>,
    limited: bool,
) -> ApiResult<Result<Confirmation, NotConfirmed>> {
    let (applied, query) = match &applicant {
        Applicant::Myself { member, subscriber } => {
            let applied = own_details(member);
            let query = query_for(&applied, member.payer_id.clone(), member.subscriber_member_id.clone());
            if query.is_some() && limited {
                state.limits.hit(&state.pool, Bucket::Eligibility(member.id)).await?;
            }
            let query = query.map(|query| EligibilityQuery {
                subscriber: subscriber.clone(),
                ..query
            });
            (applied, query)
        }
        Applicant::FamilyMember { subscriber, relative } => {
            // Every attempt counts against the subscriber, also one that cannot be checked yet:
            // a subscriber who has not confirmed their own membership has no member id to check
            // family members under.
            if limited {
                state
                    .limits
                    .hit(&state.pool, Bucket::Eligibility(subscriber.id))
                    .await?;
            }
            let query = subscriber.member_id.clone().and_then(|subscriber_member_id| {
                query_for(relative, subscriber.payer_id.clone(), Some(subscriber_member_id))
            });
            (relative.clone(), query)
        }
    };
    let Some(query) = query else {
        return Ok(Err(NotConfirmed::WrongData));
    };
    let coverage = match state.eligibility.check(&query).await {
        EligibilityOutcome::Confirmed(coverage) => coverage,
        EligibilityOutcome::WrongData => return Ok(Err(NotConfirmed::WrongData)),
        EligibilityOutcome::NotOnPlan => return Ok(Err(NotConfirmed::NotOnPlan)),
        EligibilityOutcome::Unavailable => {
            store::members::mark_eligibility_pending(&state.pool, applied.id).await?;
            let subscriber_id = match &applicant {
                Applicant::Myself { .. } => None,
                Applicant::FamilyMember { subscriber, .. } => Some(subscriber.id),
            };
            store::jobs::enqueue(
                &state.pool,
                RETRY_JOB,
                &serde_json::json!({ "memberId": applied.id, "subscriberId": subscriber_id }),
                &format!("{RETRY_JOB}:{}", applied.id),
                Duration::from_millis(state.config.eligibility_retry_base_ms),
                Duration::from_secs(state.config.eligibility_retry_hours.saturating_mul(3600)),
            )
            .await?;
            return Ok(Err(NotConfirmed::Unavailable));
        }
    };
    if store::members::insured_person_taken(&state.pool, &coverage.payer_id, &coverage.member_id, applied.id).await? {
        return Ok(Err(NotConfirmed::MemberExists));
    }
    let sponsor = match &applicant {
        Applicant::Myself { member, .. } => own_sponsor(state, member, &coverage).await?,
        Applicant::FamilyMember { subscriber, .. } => Sponsor {
            employer_id: subscriber.employer_id,
            company_name: subscriber.company_name.clone(),
            subscriber_id: Some(subscriber.id),
            employer: None,
        },
    };
    let actor = match &applicant {
        Applicant::Myself { member, .. } => store::memberships::Actor::Member(member.id),
        Applicant::FamilyMember { subscriber, .. } => store::memberships::Actor::Member(subscriber.id),
    };
    let today = Utc::now().date_naive();
    // The member row is locked and read again: the confirmation may complete an enrolment
    // begun at sign-up, which must not race the member's own choice of clinic.
    let mut transaction = state.pool.begin().await?;
    let locked = store::memberships::lock_member(&mut transaction, applied.id)
        .await?
        .ok_or_else(|| StoreError::InvalidData(format!("member {} vanished", applied.id)))?;
    let current = locked.subscription_status.zip(locked.subscription_expire);
    // A clinic chosen before sign-up, with no membership yet: the confirmation enrols there,
    // unless the location has left the catalogue or stopped accepting new patients meanwhile
    // (then the member chooses again). Its panel is counted with the location locked, after the
    // member row, as every enrolment does: the last place is taken once.
    let chosen_clinic = match (locked.location_id, current) {
        (Some(location_id), None) => store::enrolment::clinic(&mut *transaction, location_id).await?,
        _ => None,
    };
    let (clinic_to_enrol, not_enrolled_at) = match chosen_clinic {
        Some(clinic) => {
            store::capacity::lock(&mut transaction, &[clinic.id]).await?;
            let full = store::capacity::panel(&mut transaction, clinic.id)
                .await?
                .is_some_and(|panel| panel.at_capacity());
            if clinic.accepting_new_patients && !full {
                (Some(clinic), None)
            } else {
                (None, Some(clinic))
            }
        }
        None => (None, None),
    };
    let provider_chosen = locked.location_id.is_some() && (current.is_some() || clinic_to_enrol.is_some());
    let enrolment = Enrolment::after_confirmation(provider_chosen, current, today);
    let confirmed = ConfirmedEligibility {
        payer_id: coverage.payer_id.clone(),
        member_id: coverage.member_id.clone(),
        plan_id: coverage.plan_id.clone(),
        group_id: Some(coverage.group_number.clone()),
        employer_id: sponsor.employer_id,
        company_name: sponsor.company_name,
        subscriber_id: sponsor.subscriber_id,
        next_step: enrolment.next_step,
    };
    let mut member = match store::members::confirm_eligibility(&mut transaction, applied.id, &confirmed).await {
        Ok(member) => member,
        Err(StoreError::AlreadyExists(_)) => return Ok(Err(NotConfirmed::MemberExists)),
        Err(error) => return Err(error.into()),
    };
    if not_enrolled_at.is_some() {
        store::enrolment::forget_chosen_clinic(&mut transaction, applied.id).await?;
        member.provider_id = None;
        member.location_id = None;
    }
    if let (Some(clinic), None, Some((status, expire))) = (&clinic_to_enrol, current, enrolment.subscription) {
        let (enrolled, _change) = store::memberships::enrol(
            &mut transaction,
            &store::memberships::Enrol {
                member_id: applied.id,
                actor,
                clinic,
                chosen: Membership {
                    location_id: clinic.id,
                    next_step: enrolment.next_step,
                    subscription: status,
                    expire,
                },
            },
        )
        .await?;
        member.provider_id = enrolled.provider_id;
        member.location_id = enrolled.location_id;
        member.subscription_status = enrolled.subscription_status;
        member.subscription_expire = enrolled.subscription_expire;
    }
    transaction.commit().await?;
    state.mailer.wake();
    Ok(Ok(Confirmation {
        member,
        coverage,
        employer: sponsor.employer,
        not_enrolled_at,
    }))
}

/// Who a confirmed member is recorded under.
struct Sponsor {
    employer_id: Option<i64>,
    company_name: Option<String>,
    subscriber_id: Option<i64>,
    /// The employer, when the member checked themselves.
    employer: Option<EmployerSummary>,
}

/// A member checking themselves: their employer, else the employer of the roster's group; a
/// spouse or dependent is linked to their subscriber's account when it is confirmed.
async fn own_sponsor(state: &AppState, member: &Member, coverage: &Coverage) -> ApiResult<Sponsor> {
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
    Ok(Sponsor {
        employer_id: employer.as_ref().map(|employer| employer.id),
        company_name: employer.as_ref().map(|employer| employer.company_name.clone()),
        subscriber_id,
        employer,
    })
}

/// What saving details over a member's asks of their eligibility.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recheck {
    /// The details name another insured person than a confirmed (or pending) eligibility was
    /// for: the save withdraws it in the same statement, so the member is never left confirmed
    /// for someone else.
    pub unconfirm: bool,
    /// The details are to be checked against the roster at once, through [`confirm`]: they name
    /// another insured person and are complete enough to check (or a confirmation was
    /// withdrawn, whose outcome the member must learn there and then).
    pub check: bool,
}

/// What saving details that name `identity` over `member`'s asks: nothing when the roster
/// would see the same person (a capital letter, a new phone), else a check at once.
pub fn recheck(member: &Member, identity: &Identity<'_>) -> Recheck {
    let changed = !identity.same_person_as(&Identity::of(member));
    let confirmed = matches!(
        member.eligibility_status,
        Some(EligibilityStatus::Active | EligibilityStatus::Pending)
    );
    Recheck {
        unconfirm: changed && confirmed,
        check: changed && (confirmed || identity.checkable()),
    }
}

/// Saves the member's details; details that name another insured person are checked at once
/// (see [`recheck`]) and the outcome is returned with the saved member. The check is counted
/// against the member's limit before anything is written, so a refused check saves nothing.
pub async fn save_details(
    state: &AppState,
    member: &Member,
    info: &PersonalInfo,
) -> ApiResult<(Member, Option<Result<Confirmation, NotConfirmed>>)> {
    let Recheck { unconfirm, check } = recheck(member, &info.identity());
    if check {
        state.limits.hit(&state.pool, Bucket::Eligibility(member.id)).await?;
    }
    let mut connection = state.pool.acquire().await?;
    let saved = store::members::update_personal_info(&mut connection, member.id, info, unconfirm).await?;
    drop(connection);
    if !check {
        return Ok((saved, None));
    }
    tracing::info!(
        member = member.id,
        unconfirm,
        "identity changed: eligibility checked at once"
    );
    let applicant = Applicant::Myself {
        member: &saved,
        subscriber: None,
    };
    let checked = confirm(state, applicant, false).await?;
    Ok((saved, Some(checked)))
}

/// A check's outcome as the answer of a save reports it (`eligibilityCheck`), shaped as the
/// eligibility answers are: `eligible`, the refusal's `code` and `message`, and `eligibility`
/// with the check's status code, the member's eligibility status now and `err.chcDown`.
pub fn outcome_json(checked: &Result<Confirmation, NotConfirmed>) -> Value {
    match checked {
        Ok(confirmation) => json!({
            "eligible": true,
            "code": null,
            "message": null,
            "eligibility": {
                "code": 200,
                "status": confirmation.member.eligibility_status,
                "err": { "chcDown": false },
            },
        }),
        Err(refusal) => json!({
            "eligible": false,
            "code": refusal.code(),
            "message": refusal.message(),
            "eligibility": {
                "code": refusal.status().as_u16(),
                "status": refusal.chc_down().then_some(EligibilityStatus::Pending),
                "err": { "chcDown": refusal.chc_down() },
            },
        }),
    }
}

/// What the check reads of a stored member (oneself, or a family member checked under their
/// subscriber).
pub fn own_details(member: &Member) -> Applied<'_> {
    Applied {
        id: member.id,
        first_name: &member.first_name,
        last_name: &member.last_name,
        dob: member.dob,
        member_id: member.member_id.as_deref(),
        plan_id: member.plan_id.as_deref(),
        relation: Relation::parse(&member.subscriber_relation).unwrap_or(Relation::SelfSubscriber),
        location_id: member.location_id,
        subscription: member.subscription(),
    }
}

/// The lookup for these details; `None` when they are too incomplete to check.
fn query_for(
    applied: &Applied<'_>,
    payer_id: Option<String>,
    subscriber_member_id: Option<String>,
) -> Option<EligibilityQuery> {
    let (Some(dob), Some(member_id)) = (applied.dob, applied.member_id) else {
        return None;
    };
    if applied.first_name.is_empty() || applied.last_name.is_empty() {
        return None;
    }
    Some(EligibilityQuery {
        person: Person {
            first_name: applied.first_name.to_owned(),
            last_name: applied.last_name.to_owned(),
            dob,
            member_id: member_id.to_owned(),
        },
        payer_id,
        plan_id: applied.plan_id.map(str::to_owned),
        relation: applied.relation,
        subscriber_member_id,
        subscriber: None,
    })
}
