//! Memberships at clinics (docs/clinic-panel-contract.md). **Every membership transition is
//! written here**: enrolling, moving to another location or organisation, a confirmed
//! eligibility that completes an enrolment begun at sign-up, a clinic's activation, decline and
//! end, and a family member's removal. Each one, in the caller's transaction, updates the member
//! row's membership columns, the `memberships` row, appends an `enrolment_events` row naming who
//! acted, and writes the emails it sends to the outbox. Each answers a [`PanelChange`]: the
//! location that gained a live member and the one that lost one, and settles both locations'
//! panel capacity with it ([`crate::capacity::after_change`]: a location that fills up stops
//! accepting new patients, one closed by a full panel reopens when a member leaves).
//!
//! Every transition runs with the member row locked (`select … for update`, as enrolment has
//! always locked it), then reads the membership and decides: a member's provider change and a
//! clinic's decision arriving together are decided one after the other, and the second sees
//! what the first did. The locations it touches are locked after the member row, always in that
//! order ([`crate::capacity::lock`], the same order enrolment takes), so a clinic's decision and
//! a member's enrolment never wait on each other crosswise.

use chrono::{DateTime, NaiveDate, Utc};
use domain::clinic_panel::{DecisionRefusal, MembershipFacts, PanelDecision, PanelStatus, PanelTab};
use domain::membership::{Membership as ChosenMembership, MembershipStatus, NextStep, one_year_after};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};

use crate::enrolment::{Clinic, EnrolmentState};
use crate::{Result, StoreError};

/// Who made a transition: the `enrolment_events` row's `actor` and `acted_by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A member acting for themselves, or the subscriber acting for a family member.
    Member(i64),
    /// A provider account acting for its organisation.
    Provider(i64),
    /// An operator at the command line.
    Operator,
}

impl Actor {
    fn kind(self) -> &'static str {
        match self {
            Self::Member(_) => "member",
            Self::Provider(_) => "provider",
            Self::Operator => "operator",
        }
    }

    fn id(self) -> Option<i64> {
        match self {
            Self::Member(id) | Self::Provider(id) => Some(id),
            Self::Operator => None,
        }
    }
}

/// What a transition did to the locations' head counts (pending and active members).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PanelChange {
    /// The location that gained a live member.
    pub joined: Option<i64>,
    /// The location that lost one.
    pub left: Option<i64>,
}

impl PanelChange {
    /// Brings the touched locations' "accepting new patients" in line with their panels (each
    /// locked by the transition before it changed anything).
    async fn settle(self, connection: &mut PgConnection) -> Result<()> {
        crate::capacity::after_change(connection, self.joined, self.left).await
    }
}

/// A row of `memberships`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Membership {
    pub id: i64,
    pub member_id: i64,
    pub organisation_id: i64,
    pub location_id: i64,
    pub status: PanelStatus,
    pub enrolled_at: DateTime<Utc>,
    pub active_from: Option<NaiveDate>,
    pub active_until: Option<NaiveDate>,
    pub closed_at: Option<DateTime<Utc>>,
    pub changed_at: DateTime<Utc>,
    pub reason: Option<String>,
}

impl Membership {
    /// What a clinic's decision needs to know of it.
    pub fn facts(&self) -> MembershipFacts {
        MembershipFacts {
            status: self.status,
            enrolled_on: self.enrolled_at.date_naive(),
            active_from: self.active_from,
            closed_on: self.closed_at.map(|at| at.date_naive()),
        }
    }
}

const MEMBERSHIP_COLUMNS: &str = "id, member_id, organisation_id, location_id, status, enrolled_at, active_from, \
     active_until, closed_at, changed_at, reason";

/// The member's facts as the panel, its emails and the roster show them, as one JSON object
/// (`firstName`, `lastName`, `dob`, `gender`, `phone`, `email`, `memberId`, `relation`,
/// `employer`, `plan`, `eligibility`, `subscriberId`), for the membership row `x` with
/// [`member_facts_joins`] joined; from the copy kept on the membership when the member row is
/// gone. `email` is the login, else the contact address, else the subscriber's; a family
/// member's employer is the subscriber's when they have none of their own. Joins rather than a
/// subquery per row, so that a month's roster of thousands is one pass (hash joins).
macro_rules! member_facts {
    () => {
        "case when m.id is null
             then coalesce(x.member_facts, jsonb_build_object('id', x.member_id, 'firstName', '', 'lastName', ''))
             else jsonb_build_object(
                 'id', m.id, 'firstName', m.first_name, 'lastName', m.last_name, 'dob', m.dob, 'gender', m.gender,
                 'phone', m.phone, 'email', coalesce(m.email, m.contact_email, s.email, s.contact_email),
                 'memberId', m.member_id, 'relation', m.subscriber_relation,
                 'employer', coalesce(e.company_name, m.company_name, se.company_name, s.company_name),
                 'plan', coalesce(p.name, m.plan_id), 'eligibility', m.eligibility_status,
                 'subscriberId', m.subscriber_id)
         end"
    };
}

/// What [`member_facts`] reads, joined to the membership row `x` (aliases m, s, e, se, p).
macro_rules! member_facts_joins {
    () => {
        " left join members m on m.id = x.member_id
          left join members s on s.id = m.subscriber_id
          left join employers e on e.id = m.employer_id
          left join employers se on se.id = s.employer_id
          left join plans p on p.plan_id = m.plan_id "
    };
}

/// The member's facts (see [`member_facts`]) for member `member_id`, if the row exists.
async fn member_facts(connection: &mut PgConnection, member_id: i64) -> Result<Option<Value>> {
    Ok(sqlx::query_scalar(concat!(
        "select ",
        member_facts!(),
        " from (select $1::bigint as member_id, null::jsonb as member_facts) x",
        member_facts_joins!(),
        "where exists (select 1 from members where id = $1)"
    ))
    .bind(member_id)
    .fetch_optional(connection)
    .await?)
}

/// "First Last" from a facts object; a member who never gave a name is named by their email,
/// else by their id.
pub fn full_name(facts: &Value) -> String {
    let part = |key: &str| {
        facts
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_owned()
    };
    let name = [part("firstName"), part("lastName")]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if !name.is_empty() {
        return name;
    }
    match part("email") {
        email if !email.is_empty() => email,
        _ => format!("Member {}", facts.get("id").and_then(Value::as_i64).unwrap_or_default()),
    }
}

/// The member row's membership columns, locked for the rest of the caller's transaction.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LockedMember {
    pub id: i64,
    pub provider_id: Option<i64>,
    pub location_id: Option<i64>,
    pub subscription_status: Option<MembershipStatus>,
    pub subscription_expire: Option<NaiveDate>,
}

/// Locks member `member_id` (the first step of every transition); `None` when no such member.
pub async fn lock_member(connection: &mut PgConnection, member_id: i64) -> Result<Option<LockedMember>> {
    Ok(sqlx::query_as(
        "select id, provider_id, location_id, subscription_status, subscription_expire
         from members where id = $1 and account_kind = 'member' for update",
    )
    .bind(member_id)
    .fetch_optional(connection)
    .await?)
}

/// The member's pending or active membership.
async fn live_membership(connection: &mut PgConnection, member_id: i64) -> Result<Option<Membership>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MEMBERSHIP_COLUMNS} from memberships where member_id = $1 and status in ('pending', 'active')"
    )))
    .bind(member_id)
    .fetch_optional(connection)
    .await?)
}

/// The member's pending or active membership, read without a lock (the operator's activation
/// finds the organisation with it, then decides under the lock).
pub async fn live_membership_of(pool: &PgPool, member_id: i64) -> Result<Option<Membership>> {
    live_membership(&mut *pool.acquire().await?, member_id).await
}

/// The member's newest membership at the organisation, locked.
async fn membership_at(
    connection: &mut PgConnection,
    organisation_id: i64,
    member_id: i64,
) -> Result<Option<Membership>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MEMBERSHIP_COLUMNS} from memberships where member_id = $1 and organisation_id = $2
         order by id desc limit 1 for update"
    )))
    .bind(member_id)
    .bind(organisation_id)
    .fetch_optional(connection)
    .await?)
}

async fn find(connection: &mut PgConnection, id: i64) -> Result<Membership> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {MEMBERSHIP_COLUMNS} from memberships where id = $1"
    )))
    .bind(id)
    .fetch_optional(connection)
    .await?
    .ok_or_else(|| StoreError::InvalidData(format!("membership {id} vanished")))
}

/// One `enrolment_events` row.
struct Event<'a> {
    member_id: i64,
    membership_id: i64,
    actor: Actor,
    kind: &'a str,
    from: (Option<i64>, Option<i64>),
    provider_id: i64,
    location_id: i64,
    effective_on: Option<NaiveDate>,
    reason: Option<&'a str>,
}

async fn record(connection: &mut PgConnection, event: &Event<'_>) -> Result<()> {
    sqlx::query(
        "insert into enrolment_events (member_id, membership_id, actor, acted_by, kind, from_provider_id,
                                       from_location_id, provider_id, location_id, effective_on, reason)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(event.member_id)
    .bind(event.membership_id)
    .bind(event.actor.kind())
    .bind(event.actor.id())
    .bind(event.kind)
    .bind(event.from.0)
    .bind(event.from.1)
    .bind(event.provider_id)
    .bind(event.location_id)
    .bind(event.effective_on)
    .bind(event.reason)
    .execute(connection)
    .await?;
    Ok(())
}

// ---- The member's side ---------------------------------------------------------------------

/// A member's choice of clinic that the enrolment rules accepted.
#[derive(Debug, Clone)]
pub struct Enrol<'a> {
    pub member_id: i64,
    pub actor: Actor,
    pub clinic: &'a Clinic,
    /// The membership the rules chose: location, next step, pending, valid until.
    pub chosen: ChosenMembership,
}

/// Enrols the member (locked by the caller, see [`lock_member`]) at `enrol.clinic`: a new
/// pending membership; or the live one moved to another location of the same organisation; or,
/// for another organisation, the live one closed as `moved` and a new one opened there. The
/// member row's provider, location, next step and subscription follow. The clinics are emailed:
/// the new one "enrolled" (or "moved in"), the one left "moved away", or "location changed".
pub async fn enrol(connection: &mut PgConnection, enrol: &Enrol<'_>) -> Result<(EnrolmentState, PanelChange)> {
    let before: (Option<i64>, Option<i64>) =
        sqlx::query_as("select provider_id, location_id from members where id = $1")
            .bind(enrol.member_id)
            .fetch_one(&mut *connection)
            .await?;
    let clinic = enrol.clinic;
    let live = live_membership(connection, enrol.member_id).await?;
    if live.as_ref().is_some_and(|live| live.status != PanelStatus::Pending) {
        return Err(StoreError::InvalidData(format!(
            "member {} has an active membership and cannot enrol",
            enrol.member_id
        )));
    }
    // Both clinics' panels change: locked (after the member row, as every transition) before
    // anything is written. Enrolment has taken the same locks already to count the panel.
    let touched: Vec<i64> = [Some(clinic.id), live.as_ref().map(|live| live.location_id)]
        .into_iter()
        .flatten()
        .collect();
    crate::capacity::lock(connection, &touched).await?;
    let (membership_id, kind, from, change) = match &live {
        Some(live) if live.organisation_id == clinic.organisation_id => {
            sqlx::query("update memberships set location_id = $2, changed_at = now() where id = $1")
                .bind(live.id)
                .bind(clinic.id)
                .execute(&mut *connection)
                .await?;
            email_clinic(
                connection,
                clinic.organisation_id,
                enrol.member_id,
                "location_changed",
                clinic.id,
            )
            .await?;
            let change = PanelChange {
                joined: Some(clinic.id),
                left: Some(live.location_id),
            };
            (
                live.id,
                "provider_changed",
                (Some(live.organisation_id), Some(live.location_id)),
                change,
            )
        }
        Some(live) => {
            close(connection, live.id, PanelStatus::Moved, None, None).await?;
            let id = open(connection, enrol.member_id, clinic).await?;
            email_clinic(
                connection,
                live.organisation_id,
                enrol.member_id,
                "moved_away",
                live.location_id,
            )
            .await?;
            email_clinic(
                connection,
                clinic.organisation_id,
                enrol.member_id,
                "moved_in",
                clinic.id,
            )
            .await?;
            let change = PanelChange {
                joined: Some(clinic.id),
                left: Some(live.location_id),
            };
            (
                id,
                "provider_changed",
                (Some(live.organisation_id), Some(live.location_id)),
                change,
            )
        }
        None => {
            let id = open(connection, enrol.member_id, clinic).await?;
            email_clinic(
                connection,
                clinic.organisation_id,
                enrol.member_id,
                "enrolled",
                clinic.id,
            )
            .await?;
            let change = PanelChange {
                joined: Some(clinic.id),
                left: None,
            };
            (id, "enrolled", before, change)
        }
    };
    let state = sqlx::query_as::<_, EnrolmentState>(
        "update members set provider_id = $2, location_id = $3, next_step = $4, subscription_status = $5,
                            subscription_expire = $6
         where id = $1
         returning provider_id, location_id, next_step, setup, subscription_status, subscription_expire",
    )
    .bind(enrol.member_id)
    .bind(clinic.organisation_id)
    .bind(clinic.id)
    .bind(enrol.chosen.next_step)
    .bind(enrol.chosen.subscription)
    .bind(enrol.chosen.expire)
    .fetch_one(&mut *connection)
    .await?;
    record(
        connection,
        &Event {
            member_id: enrol.member_id,
            membership_id,
            actor: enrol.actor,
            kind,
            from,
            provider_id: clinic.organisation_id,
            location_id: clinic.id,
            effective_on: None,
            reason: None,
        },
    )
    .await?;
    change.settle(connection).await?;
    Ok((state, change))
}

/// Opens a pending membership at `clinic`.
async fn open(connection: &mut PgConnection, member_id: i64, clinic: &Clinic) -> Result<i64> {
    sqlx::query_scalar(
        "insert into memberships (member_id, organisation_id, location_id, status) values ($1, $2, $3, 'pending')
         returning id",
    )
    .bind(member_id)
    .bind(clinic.organisation_id)
    .bind(clinic.id)
    .fetch_one(connection)
    .await
    .map_err(crate::convert_sqlx_err)
}

/// Closes a membership as `status` (declined, ended, moved, cancelled).
async fn close(
    connection: &mut PgConnection,
    id: i64,
    status: PanelStatus,
    active_until: Option<NaiveDate>,
    reason: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "update memberships set status = $2, active_until = $3, reason = $4, closed_at = now(), changed_at = now()
         where id = $1",
    )
    .bind(id)
    .bind(status)
    .bind(active_until)
    .bind(reason)
    .execute(connection)
    .await?;
    Ok(())
}

/// A family member is taken off the subscriber's account and their row is about to be deleted
/// (the member row locked by the caller): their live membership, if any, is cancelled, keeps a
/// copy of their facts for the panel and past rosters, and the clinic is emailed. An active
/// membership's last day is today.
pub async fn cancel_for_removal(
    connection: &mut PgConnection,
    member_id: i64,
    subscriber_id: i64,
    today: NaiveDate,
) -> Result<PanelChange> {
    let Some(live) = live_membership(connection, member_id).await? else {
        return Ok(PanelChange::default());
    };
    crate::capacity::lock(connection, &[live.location_id]).await?;
    // Written before the row goes: the email and the membership keep the member's facts.
    email_clinic(
        connection,
        live.organisation_id,
        member_id,
        "cancelled",
        live.location_id,
    )
    .await?;
    let active_until = live.active_from.map(|from| from.max(today));
    close(connection, live.id, PanelStatus::Cancelled, active_until, None).await?;
    sqlx::query(concat!(
        "update memberships set member_facts = (select ",
        member_facts!(),
        " from memberships x",
        member_facts_joins!(),
        "where x.id = $1) where id = $1"
    ))
    .bind(live.id)
    .execute(&mut *connection)
    .await?;
    record(
        connection,
        &Event {
            member_id,
            membership_id: live.id,
            actor: Actor::Member(subscriber_id),
            kind: "cancelled",
            from: (None, None),
            provider_id: live.organisation_id,
            location_id: live.location_id,
            effective_on: active_until,
            reason: None,
        },
    )
    .await?;
    // The member row goes after this; it leaves the clinic's head count now, so the panel is
    // settled here like every other transition's.
    sqlx::query(
        "update members set provider_id = null, location_id = null, subscription_status = null,
                            subscription_expire = null
         where id = $1",
    )
    .bind(member_id)
    .execute(&mut *connection)
    .await?;
    let change = PanelChange {
        joined: None,
        left: Some(live.location_id),
    };
    change.settle(connection).await?;
    Ok(change)
}

// ---- The clinic's side ---------------------------------------------------------------------

/// What became of a clinic's decision.
#[derive(Debug, Clone)]
pub enum DecisionOutcome {
    /// The member has no membership at this organisation (or does not exist).
    NotFound,
    /// The rules refused it; nothing was written. `name` is the member's, for the message.
    Refused { name: String, refusal: DecisionRefusal },
    Decided {
        name: String,
        membership: Box<Membership>,
        change: PanelChange,
    },
}

/// Applies a clinic's (or an operator's) decision to the member's newest membership at
/// `organisation_id`: activate (the member row's subscription becomes active, valid a year from
/// the first visit), decline (the member chooses a clinic again) or end (the subscription is
/// inactive until the end date, and the member may choose a clinic again). The member is
/// emailed.
pub async fn decide(
    connection: &mut PgConnection,
    organisation_id: i64,
    member_id: i64,
    decision: &PanelDecision,
    actor: Actor,
    today: NaiveDate,
) -> Result<DecisionOutcome> {
    // The member row first, as every transition: a provider change waiting on it, or holding
    // it, is decided before or after this, never beside it. A removed family member has no row
    // left; their cancelled membership still answers.
    lock_member(connection, member_id).await?;
    let Some(membership) = membership_at(connection, organisation_id, member_id).await? else {
        return Ok(DecisionOutcome::NotFound);
    };
    let facts = sqlx::query_scalar::<_, Value>(concat!(
        "select ",
        member_facts!(),
        " from memberships x",
        member_facts_joins!(),
        "where x.id = $1"
    ))
    .bind(membership.id)
    .fetch_one(&mut *connection)
    .await?;
    let name = full_name(&facts);
    if let Err(refusal) = domain::clinic_panel::decide(&membership.facts(), decision, today) {
        return Ok(DecisionOutcome::Refused { name, refusal });
    }
    // A decline or an end frees a place: the location is locked (after the member row) before
    // its panel is counted again.
    if !matches!(decision, PanelDecision::Activate { .. }) {
        crate::capacity::lock(connection, &[membership.location_id]).await?;
    }
    let effective_on = decision.effective_on();
    let reason = decision.reason().map(|reason| reason.as_str());
    let change = match decision {
        PanelDecision::Activate { first_visit } => {
            sqlx::query("update memberships set status = 'active', active_from = $2, changed_at = now() where id = $1")
                .bind(membership.id)
                .bind(first_visit)
                .execute(&mut *connection)
                .await?;
            sqlx::query("update members set subscription_status = 'active', subscription_expire = $2 where id = $1")
                .bind(member_id)
                .bind(one_year_after(*first_visit))
                .execute(&mut *connection)
                .await?;
            PanelChange::default()
        }
        PanelDecision::Decline { .. } | PanelDecision::End { .. } => {
            let ended = matches!(decision, PanelDecision::End { .. });
            let (status, until) = if ended {
                (PanelStatus::Ended, effective_on)
            } else {
                (PanelStatus::Declined, None)
            };
            close(connection, membership.id, status, until, reason).await?;
            // Back to choosing a clinic: a declined member has no membership, an ended one an
            // inactive subscription that ran until its last day.
            sqlx::query(
                "update members set provider_id = null, location_id = null, next_step = $2,
                                    subscription_status = $3, subscription_expire = $4
                 where id = $1",
            )
            .bind(member_id)
            .bind(NextStep::SelectDpc)
            .bind(ended.then_some(MembershipStatus::Inactive))
            .bind(until)
            .execute(&mut *connection)
            .await?;
            PanelChange {
                joined: None,
                left: Some(membership.location_id),
            }
        }
    };
    record(
        connection,
        &Event {
            member_id,
            membership_id: membership.id,
            actor,
            kind: decision.event_kind(),
            from: (None, None),
            provider_id: membership.organisation_id,
            location_id: membership.location_id,
            effective_on,
            reason,
        },
    )
    .await?;
    change.settle(connection).await?;
    let membership = find(connection, membership.id).await?;
    email_member(connection, &membership, &facts, decision).await?;
    Ok(DecisionOutcome::Decided {
        name,
        membership: Box::new(membership),
        change,
    })
}

// ---- Emails --------------------------------------------------------------------------------

/// A location's name and address for an email.
async fn location_facts(connection: &mut PgConnection, location_id: i64) -> Result<Value> {
    let row: Option<(String, String, String, String)> = sqlx::query_as(
        "select l.name, l.location_name, l.address1 || ', ' || l.city || ', ' || l.state || ' ' || l.zip, o.name
         from locations l left join organisations o on o.id = l.organisation_id where l.id = $1",
    )
    .bind(location_id)
    .fetch_optional(connection)
    .await?;
    Ok(match row {
        Some((name, location_name, address, organisation)) => {
            json!({ "name": name, "location_name": location_name, "address": address, "organisation": organisation })
        }
        None => json!({ "name": "", "location_name": "", "address": "", "organisation": "" }),
    })
}

/// Emails every provider account of the organisation about one of its members (`event`:
/// enrolled, moved_in, location_changed, moved_away, cancelled), with the member's facts and a
/// link to the member in the portal.
async fn email_clinic(
    connection: &mut PgConnection,
    organisation_id: i64,
    member_id: i64,
    event: &str,
    location_id: i64,
) -> Result<()> {
    let accounts: Vec<String> = sqlx::query_scalar(
        "select email from members where account_kind = 'provider' and organisation_id = $1 and email is not null
         order by id",
    )
    .bind(organisation_id)
    .fetch_all(&mut *connection)
    .await?;
    if accounts.is_empty() {
        return Ok(());
    }
    let Some(member) = member_facts(connection, member_id).await? else {
        return Ok(());
    };
    let location = location_facts(connection, location_id).await?;
    let link = format!("/dpc-providers/members/{member_id}");
    let at = Utc::now().format("%b %-d, %Y %H:%M UTC").to_string();
    let facts = json!({
        "event": event,
        "member": member,
        "member_name": full_name(&member),
        "details": member_details(&member, &location, &at),
        "clinic": location,
        "at": at,
    });
    for account in &accounts {
        crate::outbox::enqueue(
            connection,
            &crate::outbox::NewEmail {
                to_email: account,
                kind: "clinic_member",
                link: Some(&link),
                facts: facts.clone(),
            },
        )
        .await?;
    }
    Ok(())
}

/// The member's facts as the clinic's email lists them: `[{label, value}]`.
fn member_details(member: &Value, location: &Value, at: &str) -> Value {
    let text = |value: Option<&Value>| {
        value
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    let fact = |key: &str| text(member.get(key));
    let date_of_birth = fact("dob").map(|dob| {
        NaiveDate::parse_from_str(&dob, "%Y-%m-%d")
            .map(domain::clinic_panel::long_date)
            .unwrap_or(dob)
    });
    let relation = match fact("relation").as_deref() {
        None | Some("Self") => "Subscriber".to_owned(),
        Some(relation) => format!("Dependent ({relation})"),
    };
    let place = [text(location.get("location_name")), text(location.get("address"))]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    let rows = [
        ("Name", Some(full_name(member))),
        ("Date of birth", date_of_birth),
        ("Phone", fact("phone")),
        ("E-mail", fact("email")),
        ("Member ID", fact("memberId")),
        ("Employer", fact("employer")),
        ("Plan", fact("plan")),
        ("Subscriber or dependent", Some(relation)),
        ("Location", Some(place)),
        ("When", Some(at.to_owned())),
    ];
    Value::Array(
        rows.into_iter()
            .map(|(label, value)| json!({ "label": label, "value": value.unwrap_or_else(|| "not given".to_owned()) }))
            .collect(),
    )
}

/// Tells the member (their login, contact address, else their subscriber's) what the clinic
/// decided.
async fn email_member(
    connection: &mut PgConnection,
    membership: &Membership,
    member: &Value,
    decision: &PanelDecision,
) -> Result<()> {
    let Some(to_email) = member.get("email").and_then(Value::as_str).map(str::to_owned) else {
        return Ok(());
    };
    let clinic = location_facts(connection, membership.location_id).await?;
    let (kind, link) = match decision {
        PanelDecision::Activate { .. } => ("membership_activated", "/membership"),
        PanelDecision::Decline { .. } => ("membership_declined", "/marketplace"),
        PanelDecision::End { .. } => ("membership_ended", "/marketplace"),
    };
    let long = |day: Option<NaiveDate>| day.map(domain::clinic_panel::long_date);
    let valid_until: Option<NaiveDate> = sqlx::query_scalar("select subscription_expire from members where id = $1")
        .bind(membership.member_id)
        .fetch_optional(&mut *connection)
        .await?
        .flatten();
    crate::outbox::enqueue(
        connection,
        &crate::outbox::NewEmail {
            to_email: &to_email,
            kind,
            link: Some(link),
            facts: json!({
                "member_name": full_name(member),
                "clinic": clinic,
                "first_visit": long(membership.active_from),
                "valid_until": long(valid_until),
                "end_date": long(membership.active_until),
                "reason": membership.reason,
            }),
        },
    )
    .await?;
    Ok(())
}

// ---- The panel's reads ---------------------------------------------------------------------

/// A question to the panel: one tab of one organisation's memberships.
#[derive(Debug, Clone)]
pub struct PanelQuery {
    pub organisation_id: i64,
    pub tab: PanelTab,
    pub location_id: Option<i64>,
    /// Lower-cased words; each must start a word of the first or last name, or be the
    /// insurance member id, or the Nearcare id.
    pub words: Vec<String>,
}

/// A membership with its member's facts and its location's name.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PanelRow {
    #[sqlx(flatten)]
    pub membership: Membership,
    pub member: Value,
    pub location_name: Option<String>,
}

/// One page of a tab, with the counts of every tab under the same filters.
#[derive(Debug, Clone)]
pub struct PanelPage {
    pub total: i64,
    pub counts: PanelCounts,
    pub rows: Vec<PanelRow>,
}

#[derive(Debug, Clone, Copy, Default, sqlx::FromRow)]
pub struct PanelCounts {
    pub pending: i64,
    pub active: i64,
    pub past: i64,
}

/// A word as a PostgreSQL regular expression that matches it literally at the start of a word.
fn word_start_pattern(word: &str) -> String {
    let mut pattern = String::from("\\m");
    for character in word.chars() {
        if !character.is_alphanumeric() {
            pattern.push('\\');
        }
        pattern.push(character);
    }
    pattern
}

/// A word as a LIKE pattern's literal text (`%`, `_` and `\\` escaped).
fn like_literal(word: &str) -> String {
    let mut literal = String::with_capacity(word.len());
    for character in word.chars() {
        if matches!(character, '%' | '_' | '\\') {
            literal.push('\\');
        }
        literal.push(character);
    }
    literal
}

/// The filter every panel read shares: the organisation ($1), the location ($2) and the words
/// ($3 as patterns, $4 as they were typed), on `memberships ms left join members m`. The
/// longest word of three letters or more ($5) first narrows the members to those whose names
/// or member id contain it, found by the trigram index `members_panel_search` (shorter words
/// leave it null); the words' exact rule is then checked on those alone.
const PANEL_FILTER: &str = "ms.organisation_id = $1 and ($2::bigint is null or ms.location_id = $2)
     and ($5::text is null or ms.member_facts is not null or ms.member_id::text = $5
          or ms.member_id in (
              select id from members
              where lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(member_id, ''))
                    like '%' || $5 || '%'))
     and not exists (
         select 1 from unnest($3::text[], $4::text[]) as w(pattern, word)
         where not (coalesce(m.first_name, ms.member_facts->>'firstName', '') ~* w.pattern
                    or coalesce(m.last_name, ms.member_facts->>'lastName', '') ~* w.pattern
                    or lower(coalesce(m.member_id, ms.member_facts->>'memberId', '')) = w.word
                    or ms.member_id::text = w.word))";

/// One page (1-based, `page_size` rows) of a tab, newest first.
pub async fn panel_page(pool: &PgPool, query: &PanelQuery, page: i64, page_size: i64) -> Result<PanelPage> {
    let patterns: Vec<String> = query.words.iter().map(|word| word_start_pattern(word)).collect();
    let narrowing = query
        .words
        .iter()
        .filter(|word| word.chars().count() >= 3)
        .max_by_key(|word| word.chars().count())
        .map(|word| like_literal(word));
    let counts = sqlx::query_as::<_, PanelCounts>(sqlx::AssertSqlSafe(format!(
        "select count(*) filter (where ms.tab = 'pending') as pending,
                count(*) filter (where ms.tab = 'active') as active,
                count(*) filter (where ms.tab = 'past') as past
         from memberships ms left join members m on m.id = ms.member_id
         where {PANEL_FILTER}"
    )))
    .bind(query.organisation_id)
    .bind(query.location_id)
    .bind(&patterns)
    .bind(&query.words)
    .bind(&narrowing)
    .fetch_one(pool)
    .await?;
    let rows = sqlx::query_as::<_, PanelRow>(sqlx::AssertSqlSafe(format!(
        "with page as (
             select ms.id from memberships ms left join members m on m.id = ms.member_id
             where {PANEL_FILTER} and ms.tab = $6
             order by ms.changed_at desc, ms.id desc
             limit $7 offset $8
         )
         select x.id, x.member_id, x.organisation_id, x.location_id, x.status, x.enrolled_at, x.active_from,
                x.active_until, x.closed_at, x.changed_at, x.reason,
                {facts} as member, coalesce(nullif(l.location_name, ''), l.name) as location_name
         from page join memberships x on x.id = page.id
         left join locations l on l.id = x.location_id {joins}
         order by x.changed_at desc, x.id desc",
        facts = member_facts!(),
        joins = member_facts_joins!(),
    )))
    .bind(query.organisation_id)
    .bind(query.location_id)
    .bind(&patterns)
    .bind(&query.words)
    .bind(&narrowing)
    .bind(query.tab)
    .bind(page_size)
    .bind((page - 1).saturating_mul(page_size))
    .fetch_all(pool)
    .await?;
    let total = match query.tab {
        PanelTab::New => counts.pending,
        PanelTab::Active => counts.active,
        PanelTab::Past => counts.past,
    };
    Ok(PanelPage { total, counts, rows })
}

/// A location of an organisation, for the panel's filter.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PanelLocation {
    pub id: i64,
    pub name: String,
    pub address: String,
}

/// The organisation's locations, by name.
pub async fn locations(pool: &PgPool, organisation_id: i64) -> Result<Vec<PanelLocation>> {
    Ok(sqlx::query_as(
        "select id, coalesce(nullif(location_name, ''), name) as name,
                address1 || ', ' || city || ', ' || state || ' ' || zip as address
         from locations where organisation_id = $1 order by 2, id",
    )
    .bind(organisation_id)
    .fetch_all(pool)
    .await?)
}

/// A family member with a live membership at the same organisation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FamilyAtClinic {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub relation: String,
    pub status: PanelStatus,
    pub location_id: i64,
    pub location_name: Option<String>,
}

/// One event of a member's history at an organisation.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HistoryEvent {
    pub created_at: DateTime<Utc>,
    pub kind: String,
    pub actor: String,
    pub actor_first_name: Option<String>,
    pub actor_last_name: Option<String>,
    pub from_provider_id: Option<i64>,
    pub from_location_id: Option<i64>,
    pub from_location_name: Option<String>,
    pub provider_id: i64,
    pub location_id: i64,
    pub location_name: Option<String>,
    pub effective_on: Option<NaiveDate>,
    pub reason: Option<String>,
}

/// A member as the organisation sees them: the newest membership there, the facts, the family
/// enrolled there too, and the history there.
#[derive(Debug, Clone)]
pub struct PanelMember {
    pub row: PanelRow,
    pub location_address: Option<String>,
    pub family: Vec<FamilyAtClinic>,
    pub history: Vec<HistoryEvent>,
}

/// Member `member_id` at `organisation_id`; `None` when they never had a membership there.
pub async fn panel_member(pool: &PgPool, organisation_id: i64, member_id: i64) -> Result<Option<PanelMember>> {
    let row = sqlx::query_as::<_, PanelRow>(sqlx::AssertSqlSafe(format!(
        "select x.id, x.member_id, x.organisation_id, x.location_id, x.status, x.enrolled_at, x.active_from,
                x.active_until, x.closed_at, x.changed_at, x.reason,
                {facts} as member, coalesce(nullif(l.location_name, ''), l.name) as location_name
         from memberships x left join locations l on l.id = x.location_id {joins}
         where x.member_id = $1 and x.organisation_id = $2
         order by x.id desc limit 1",
        facts = member_facts!(),
        joins = member_facts_joins!(),
    )))
    .bind(member_id)
    .bind(organisation_id)
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let location_address: Option<String> = sqlx::query_scalar(
        "select address1 || ', ' || city || ', ' || state || ' ' || zip from locations where id = $1",
    )
    .bind(row.membership.location_id)
    .fetch_optional(pool)
    .await?;
    let family = sqlx::query_as::<_, FamilyAtClinic>(
        "with head as (select coalesce(subscriber_id, id) as id from members where id = $1)
         select f.id, f.first_name, f.last_name, f.subscriber_relation as relation, ms.status, ms.location_id,
                coalesce(nullif(l.location_name, ''), l.name) as location_name
         from head join members f on f.id = head.id or f.subscriber_id = head.id
         join memberships ms on ms.member_id = f.id and ms.organisation_id = $2 and ms.status in ('pending', 'active')
         left join locations l on l.id = ms.location_id
         where f.id <> $1
         order by f.id",
    )
    .bind(member_id)
    .bind(organisation_id)
    .fetch_all(pool)
    .await?;
    let history = sqlx::query_as::<_, HistoryEvent>(
        "select e.created_at, e.kind, e.actor, a.first_name as actor_first_name, a.last_name as actor_last_name,
                e.from_provider_id, e.from_location_id,
                coalesce(nullif(fl.location_name, ''), fl.name) as from_location_name,
                e.provider_id, e.location_id, coalesce(nullif(l.location_name, ''), l.name) as location_name,
                e.effective_on, e.reason
         from enrolment_events e
         left join members a on a.id = e.acted_by
         left join locations l on l.id = e.location_id
         left join locations fl on fl.id = e.from_location_id
         where e.member_id = $1
           and (e.provider_id = $2 or (e.kind = 'provider_changed' and e.from_provider_id = $2))
         order by e.id",
    )
    .bind(member_id)
    .bind(organisation_id)
    .fetch_all(pool)
    .await?;
    Ok(Some(PanelMember {
        row,
        location_address,
        family,
        history,
    }))
}

/// One line of a monthly roster.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RosterRow {
    pub membership_id: i64,
    pub member: Value,
    pub location_name: Option<String>,
    pub active_from: NaiveDate,
    pub active_until: Option<NaiveDate>,
}

/// The organisation's memberships active on at least one day between `first_day` and
/// `last_day`, by last name, first name and id. One pass of hash joins; `offset 0` keeps the
/// subquery from being flattened, so each row's facts are built once, not again for each sort
/// key.
pub async fn roster(
    pool: &PgPool,
    organisation_id: i64,
    first_day: NaiveDate,
    last_day: NaiveDate,
) -> Result<Vec<RosterRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select * from (
             select x.id as membership_id, {facts} as member,
                    coalesce(nullif(l.location_name, ''), l.name) as location_name, x.active_from, x.active_until
             from memberships x left join locations l on l.id = x.location_id {joins}
             where x.organisation_id = $1 and x.active_from is not null and x.active_from <= $3
               and (x.active_until is null or x.active_until >= $2)
             offset 0
         ) roster
         order by lower(member->>'lastName'), lower(member->>'firstName'), membership_id",
        facts = member_facts!(),
        joins = member_facts_joins!(),
    )))
    .bind(organisation_id)
    .bind(first_day)
    .bind(last_day)
    .fetch_all(pool)
    .await?)
}

// ---- Demo data -----------------------------------------------------------------------------

/// What became of a seeded member's enrolment.
#[derive(Debug, Clone)]
pub enum SeededOutcome {
    Pending,
    Active {
        first_visit: NaiveDate,
    },
    Declined {
        on: NaiveDate,
        reason: domain::clinic_panel::Reason,
    },
}

/// A member the demo seed creates, eligible (Acme's plan) and enrolled at `location_id`.
#[derive(Debug, Clone)]
pub struct SeededMember<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub dob: NaiveDate,
    pub member_id: &'a str,
    pub relation: &'a str,
    pub subscriber_id: Option<i64>,
    pub email: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub employer_id: i64,
    pub company_name: &'a str,
    pub payer_id: &'a str,
    pub plan_id: &'a str,
    pub group_id: &'a str,
    pub location_id: i64,
    pub enrolled_on: NaiveDate,
    pub outcome: SeededOutcome,
}

/// Creates a demo member and takes them through the same transitions a real one goes through
/// (enrol as the member, then activate or decline as an operator), then dates each step back to
/// the day it says, so the panel and the roster show a plausible history. `None` when the
/// location is not in the catalogue (a small seed).
pub async fn seed_member(connection: &mut PgConnection, seeded: &SeededMember<'_>) -> Result<Option<i64>> {
    let Some(clinic) = crate::enrolment::clinic(&mut *connection, seeded.location_id).await? else {
        return Ok(None);
    };
    let member_id: i64 = sqlx::query_scalar(
        "insert into members (email, first_name, last_name, dob, phone, employer_id, company_name, member_id, payer_id,
                              plan_id, group_id, subscriber_relation, subscriber_id, subscriber_member_id,
                              eligibility_status, setup, email_verified_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                 (select member_id from members where id = $13), 'active', 'complete', case when $1 is not null then now() end)
         returning id",
    )
    .bind(seeded.email)
    .bind(seeded.first_name)
    .bind(seeded.last_name)
    .bind(seeded.dob)
    .bind(seeded.phone)
    .bind(seeded.employer_id)
    .bind(seeded.company_name)
    .bind(seeded.member_id)
    .bind(seeded.payer_id)
    .bind(seeded.plan_id)
    .bind(seeded.group_id)
    .bind(seeded.relation)
    .bind(seeded.subscriber_id)
    .fetch_one(&mut *connection)
    .await
    .map_err(crate::convert_sqlx_err)?;
    lock_member(connection, member_id).await?;
    let chosen = ChosenMembership::chosen(
        clinic.id,
        Some(domain::membership::EligibilityStatus::Active),
        seeded.enrolled_on,
    );
    enrol(
        connection,
        &Enrol {
            member_id,
            actor: Actor::Member(seeded.subscriber_id.unwrap_or(member_id)),
            clinic: &clinic,
            chosen,
        },
    )
    .await?;
    date_back(connection, member_id, "enrolled", seeded.enrolled_on).await?;
    let today = Utc::now().date_naive();
    let (decision, on) = match &seeded.outcome {
        SeededOutcome::Pending => return Ok(Some(member_id)),
        SeededOutcome::Active { first_visit } => (
            PanelDecision::Activate {
                first_visit: *first_visit,
            },
            *first_visit,
        ),
        SeededOutcome::Declined { on, reason } => (PanelDecision::Decline { reason: reason.clone() }, *on),
    };
    let outcome = decide(
        connection,
        clinic.organisation_id,
        member_id,
        &decision,
        Actor::Operator,
        today,
    )
    .await?;
    if let DecisionOutcome::Refused { refusal, name } = outcome {
        return Err(StoreError::InvalidData(format!(
            "demo member: {}",
            refusal.message(&name)
        )));
    }
    date_back(connection, member_id, decision.event_kind(), on).await?;
    Ok(Some(member_id))
}

/// Dates the member's `kind` event, and its membership's timestamps, back to noon UTC of `day`.
async fn date_back(connection: &mut PgConnection, member_id: i64, kind: &str, day: NaiveDate) -> Result<()> {
    let at = day.and_hms_opt(12, 0, 0).unwrap_or_default().and_utc();
    sqlx::query("update enrolment_events set created_at = $3 where member_id = $1 and kind = $2")
        .bind(member_id)
        .bind(kind)
        .bind(at)
        .execute(&mut *connection)
        .await?;
    sqlx::query(
        "update memberships set changed_at = $3,
                enrolled_at = case when $2 = 'enrolled' then $3 else enrolled_at end,
                closed_at = case when closed_at is not null then $3 end
         where member_id = $1",
    )
    .bind(member_id)
    .bind(kind)
    .bind(at)
    .execute(&mut *connection)
    .await?;
    Ok(())
}
