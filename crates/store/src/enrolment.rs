//! Choosing a provider. One transaction locks the member row, reads the employer and the
//! location, applies `domain::enrolment::decide`, and writes the outcome through
//! [`crate::memberships::enrol`] (the membership, its audit row, the clinic's emails) with the
//! `member_clinic_selected` analytics event, so two concurrent choices for one member, or a
//! choice and a clinic's decision, are decided one after the other.

use chrono::NaiveDate;
use domain::EmployerStatus;
use domain::enrolment::{Decision, LocationFacts, MemberFacts, PediatricService, Refusal, Target};
use domain::membership::{EligibilityStatus, MembershipStatus, NextStep};
use serde_json::json;
use sqlx::{PgConnection, PgExecutor, PgPool};

use crate::{Result, StoreError};

/// A location with what a member screen shows of it and what enrolment checks.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Clinic {
    pub id: i64,
    pub organisation_id: i64,
    pub organisation_name: String,
    pub name: String,
    pub location_name: String,
    pub logo: String,
    pub address1: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    pub phone: String,
    pub provider_portal_url: Option<String>,
    pub post_enrolment_redirect: Option<String>,
    pub accepting_new_patients: bool,
    pub offers_pediatrics: bool,
    pub pediatric_min_age: Option<i16>,
    pub pediatric_max_age: Option<i16>,
}

impl Clinic {
    /// What the enrolment rules need to know about this location.
    pub fn facts(&self) -> LocationFacts {
        let age = |bound: Option<i16>| bound.and_then(|years| u32::try_from(years).ok());
        LocationFacts {
            location_id: self.id,
            accepting_new_patients: self.accepting_new_patients,
            pediatrics: self.offers_pediatrics.then(|| PediatricService {
                min_age: age(self.pediatric_min_age),
                max_age: age(self.pediatric_max_age),
            }),
        }
    }
}

const CLINIC_QUERY: &str =
    "select l.id, l.organisation_id, o.name as organisation_name, l.name, l.location_name, l.logo,
            l.address1, l.city, l.state, l.zip, l.phone, l.provider_portal_url, l.post_enrolment_redirect,
            l.accepting_new_patients, 'BH' = any(l.service_type_codes) as offers_pediatrics,
            l.pediatric_min_age, l.pediatric_max_age
     from locations l join organisations o on o.id = l.organisation_id
     where l.id = $1";

/// A location by id.
pub async fn clinic<'e>(executor: impl PgExecutor<'e>, location_id: i64) -> Result<Option<Clinic>> {
    Ok(sqlx::query_as::<_, Clinic>(CLINIC_QUERY)
        .bind(location_id)
        .fetch_optional(executor)
        .await?)
}

/// Forgets the clinic a member chose before signing up, when it can no longer enrol them (it
/// stopped accepting new patients meanwhile): the member chooses again. Run in the caller's
/// transaction, with the member row locked.
pub async fn forget_chosen_clinic(connection: &mut PgConnection, member_id: i64) -> Result<()> {
    sqlx::query(
        "update members set provider_id = null, location_id = null where id = $1 and subscription_status is null",
    )
    .bind(member_id)
    .execute(connection)
    .await?;
    Ok(())
}

/// Whether an organisation (a provider) exists.
pub async fn provider_exists<'e>(executor: impl PgExecutor<'e>, organisation_id: i64) -> Result<bool> {
    Ok(
        sqlx::query_scalar("select exists(select 1 from organisations where id = $1)")
            .bind(organisation_id)
            .fetch_one(executor)
            .await?,
    )
}

/// The post-enrolment redirect a provider's new member follows, from the location asked for
/// when it is one of the provider's, else the member's own location at that provider, else the
/// provider's first location that has one. `None` when the provider is unknown; `Some(None)`
/// when there is no redirect to follow.
pub async fn post_enrolment_redirect(
    pool: &PgPool,
    organisation_id: i64,
    location_id: Option<i64>,
    member_location_id: Option<i64>,
) -> Result<Option<Option<String>>> {
    if !provider_exists(pool, organisation_id).await? {
        return Ok(None);
    }
    for candidate in [location_id, member_location_id].into_iter().flatten() {
        let redirect: Option<Option<String>> =
            sqlx::query_scalar("select post_enrolment_redirect from locations where id = $1 and organisation_id = $2")
                .bind(candidate)
                .bind(organisation_id)
                .fetch_optional(pool)
                .await?;
        if let Some(redirect) = redirect {
            return Ok(Some(redirect));
        }
    }
    let first_redirect: Option<String> = sqlx::query_scalar(
        "select post_enrolment_redirect from locations
         where organisation_id = $1 and post_enrolment_redirect is not null
         order by id limit 1",
    )
    .bind(organisation_id)
    .fetch_optional(pool)
    .await?;
    Ok(Some(first_redirect))
}

/// A member's choice of provider.
#[derive(Debug, Clone)]
pub struct ProviderChoice {
    /// The member enrolled: the caller, or a dependent of theirs.
    pub member_id: i64,
    /// Who asked: the member, or the subscriber acting for them.
    pub acted_by: i64,
    pub provider_id: i64,
    pub location_id: Option<i64>,
    /// The member's answer to the change-provider confirmation.
    pub change_confirmed: bool,
    pub today: NaiveDate,
}

/// The enrolment columns of a member after a choice.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EnrolmentState {
    pub provider_id: Option<i64>,
    pub location_id: Option<i64>,
    pub next_step: NextStep,
    pub setup: String,
    pub subscription_status: Option<MembershipStatus>,
    pub subscription_expire: Option<NaiveDate>,
}

/// What became of a choice.
#[derive(Debug, Clone)]
pub enum ChoiceOutcome {
    /// The member row does not exist (any more).
    MemberGone,
    /// Refused by the rules; nothing was written.
    Refused(Refusal),
    /// Applied (or, for [`Decision::Unchanged`], found already in place).
    Decided {
        decision: Decision,
        state: EnrolmentState,
        clinic: Box<Clinic>,
    },
}

/// The member row as enrolment reads it, locked until the transaction ends.
#[derive(sqlx::FromRow)]
struct LockedMember {
    next_step: NextStep,
    setup: String,
    eligibility_status: Option<EligibilityStatus>,
    subscription_status: Option<MembershipStatus>,
    subscription_expire: Option<NaiveDate>,
    dob: Option<NaiveDate>,
    provider_id: Option<i64>,
    location_id: Option<i64>,
    clinic_name: Option<String>,
    employer_status: Option<String>,
}

impl LockedMember {
    fn facts(&self) -> MemberFacts {
        MemberFacts {
            next_step: self.next_step,
            eligibility: self.eligibility_status,
            subscription: self.subscription_status,
            date_of_birth: self.dob,
            location_id: self.location_id,
            clinic_name: self.clinic_name.clone(),
        }
    }

    fn state(&self) -> EnrolmentState {
        EnrolmentState {
            provider_id: self.provider_id,
            location_id: self.location_id,
            next_step: self.next_step,
            setup: self.setup.clone(),
            subscription_status: self.subscription_status,
            subscription_expire: self.subscription_expire,
        }
    }
}

/// Decides and applies a choice of provider in one transaction (see the module comment).
pub async fn choose_provider(pool: &PgPool, choice: &ProviderChoice) -> Result<ChoiceOutcome> {
    let mut transaction = pool.begin().await?;
    // A family member is covered through the subscriber's employer; `for update of m` locks
    // only the member acted on.
    let locked = sqlx::query_as::<_, LockedMember>(
        "select m.next_step, m.setup, m.eligibility_status, m.subscription_status, m.subscription_expire, m.dob,
                m.provider_id, m.location_id, current.name as clinic_name, e.status as employer_status
         from members m
         left join members s on s.id = m.subscriber_id
         left join employers e on e.id = coalesce(s.employer_id, m.employer_id)
         left join locations current on current.id = m.location_id
         where m.id = $1
         for update of m",
    )
    .bind(choice.member_id)
    .fetch_optional(&mut *transaction)
    .await?;
    let Some(locked) = locked else {
        return Ok(ChoiceOutcome::MemberGone);
    };
    // The clinic joined and the one left are locked before the panel is counted: two members
    // racing for a clinic's last place are decided one after the other (`crate::capacity`).
    let touched: Vec<i64> = [choice.location_id, locked.location_id].into_iter().flatten().collect();
    crate::capacity::lock(&mut transaction, &touched).await?;
    let clinic = match choice.location_id {
        Some(location_id) => clinic(&mut *transaction, location_id).await?,
        None => None,
    };
    let clinic = match clinic {
        Some(mut clinic) if clinic.id != locked.location_id.unwrap_or_default() => {
            let full = crate::capacity::panel(&mut transaction, clinic.id)
                .await?
                .is_some_and(|panel| panel.at_capacity());
            clinic.accepting_new_patients &= !full;
            Some(clinic)
        }
        other => other,
    };
    let target = match &clinic {
        Some(clinic) if clinic.organisation_id == choice.provider_id => Target::Location(clinic.facts()),
        None if choice.location_id.is_some() && !provider_exists(&mut *transaction, choice.provider_id).await? => {
            Target::Unknown
        }
        _ => Target::NotALocation,
    };
    let employer = locked.employer_status.as_deref().and_then(EmployerStatus::parse);
    let decision =
        match domain::enrolment::decide(&locked.facts(), employer, target, choice.change_confirmed, choice.today) {
            Ok(decision) => decision,
            Err(refusal) => return Ok(ChoiceOutcome::Refused(refusal)),
        };
    let clinic = clinic.ok_or_else(|| StoreError::InvalidData("a decided choice has a location".into()))?;
    let membership = match decision {
        Decision::Unchanged => {
            return Ok(ChoiceOutcome::Decided {
                decision,
                state: locked.state(),
                clinic: Box::new(clinic),
            });
        }
        Decision::NewEnrolment(membership) | Decision::ProviderChange(membership) => membership,
    };
    let (state, _change) = crate::memberships::enrol(
        &mut transaction,
        &crate::memberships::Enrol {
            member_id: choice.member_id,
            actor: crate::memberships::Actor::Member(choice.acted_by),
            clinic: &clinic,
            chosen: membership,
        },
    )
    .await?;
    let properties = json!({
        "providerId": clinic.organisation_id,
        "locationId": clinic.id,
        "changed": decision.changed(),
    });
    record_event(
        &mut transaction,
        "member_clinic_selected",
        Some(choice.member_id),
        &properties,
    )
    .await?;
    transaction.commit().await?;
    Ok(ChoiceOutcome::Decided {
        decision,
        state,
        clinic: Box::new(clinic),
    })
}

/// Appends one product analytics event.
async fn record_event(
    connection: &mut PgConnection,
    name: &str,
    member_id: Option<i64>,
    properties: &serde_json::Value,
) -> Result<()> {
    sqlx::query("insert into analytics_events (name, member_id, properties) values ($1, $2, $3)")
        .bind(name)
        .bind(member_id)
        .bind(sqlx::types::Json(properties))
        .execute(&mut *connection)
        .await?;
    Ok(())
}
