//! Member accounts: creation, lookups and the updates sign-up, passwords, personal info and
//! eligibility make. Functions that belong in a caller's transaction take a connection.

use chrono::{DateTime, NaiveDate, Utc};
use domain::membership::{EligibilityStatus, MembershipStatus, NextStep};
use sqlx::{PgConnection, PgPool};

use crate::{Result, StoreError, convert_sqlx_err};

/// The columns of [`Member`], read from a `members` row `m` joined to its employer `e` (see
/// [`MEMBER_FROM`] and [`returning_member`]).
pub(crate) const MEMBER_COLUMNS: &str = "m.id, m.email, m.password_hash, m.email_verified_at, m.first_name, m.last_name, \
     m.dob, m.gender, m.phone, m.zip_code, m.contact_email, m.employer_id, m.company_name, \
     e.company_name as employer_name, m.member_id, m.payer_id, m.plan_id, m.group_id, m.subscriber_relation, \
     m.subscriber_member_id, m.subscriber_id, m.next_step, m.setup, m.eligibility_status, m.subscription_status, \
     m.subscription_expire, m.provider_id, m.location_id, m.notify, m.account_kind, m.organisation_id, m.created_at, \
     m.updated_at";

/// The rows [`MEMBER_COLUMNS`] reads from.
pub(crate) const MEMBER_FROM: &str = "members m left join employers e on e.id = m.employer_id";

/// A statement that writes one member row (`insert` or `update`, without `returning`) and
/// reads it back as a [`Member`].
fn returning_member(write: &str) -> String {
    format!(
        "with m as ({write} returning *)
         select {MEMBER_COLUMNS} from m left join employers e on e.id = m.employer_id"
    )
}

/// Runs a write built by [`returning_member`] on member `id` and answers the row it wrote.
async fn written_member(
    query: sqlx::query::QueryAs<'_, sqlx::Postgres, Member, sqlx::postgres::PgArguments>,
    connection: &mut PgConnection,
    id: i64,
) -> Result<Member> {
    query
        .fetch_optional(&mut *connection)
        .await
        .map_err(convert_sqlx_err)?
        .ok_or_else(|| StoreError::InvalidData(format!("member {id} vanished")))
}

/// A row of the `members` table: a subscriber or a family member, with the name of their
/// employer. The membership state is typed ([`NextStep`], [`EligibilityStatus`],
/// [`MembershipStatus`]); the other texts are the strings of the migration's checks.
#[derive(Clone, sqlx::FromRow)]
pub struct Member {
    pub id: i64,
    /// The login; a family member added by their subscriber has none.
    pub email: Option<String>,
    /// The argon2id PHC string; never sent to clients.
    pub password_hash: Option<String>,
    pub email_verified_at: Option<DateTime<Utc>>,
    pub first_name: String,
    pub last_name: String,
    pub dob: Option<NaiveDate>,
    pub gender: Option<String>,
    pub phone: Option<String>,
    pub zip_code: Option<String>,
    /// Where to reach a family member who has no login.
    pub contact_email: Option<String>,
    pub employer_id: Option<i64>,
    /// The company name the member gave.
    pub company_name: Option<String>,
    /// The name of the employer `employer_id` names, if it exists.
    pub employer_name: Option<String>,
    pub member_id: Option<String>,
    pub payer_id: Option<String>,
    pub plan_id: Option<String>,
    pub group_id: Option<String>,
    pub subscriber_relation: String,
    pub subscriber_member_id: Option<String>,
    /// The subscriber who manages this member, for a family member.
    pub subscriber_id: Option<i64>,
    pub next_step: NextStep,
    pub setup: String,
    pub eligibility_status: Option<EligibilityStatus>,
    pub subscription_status: Option<MembershipStatus>,
    pub subscription_expire: Option<NaiveDate>,
    pub provider_id: Option<i64>,
    pub location_id: Option<i64>,
    pub notify: bool,
    /// `member`, or `provider` for a login that acts for a DPC organisation (docs/provider-contract.md).
    pub account_kind: String,
    /// The organisation a provider account acts for.
    pub organisation_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Member {
    /// The employer's name, else the company name the member gave.
    pub fn company(&self) -> Option<&str> {
        self.employer_name.as_deref().or(self.company_name.as_deref())
    }

    /// The organisation this login acts for, when it is a provider account.
    pub fn provider_organisation(&self) -> Option<i64> {
        (self.account_kind == "provider")
            .then_some(self.organisation_id)
            .flatten()
    }

    /// The subscription status with its expiry, when both are set.
    pub fn subscription(&self) -> Option<(MembershipStatus, NaiveDate)> {
        self.subscription_status.zip(self.subscription_expire)
    }
}

impl std::fmt::Debug for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Member")
            .field("id", &self.id)
            .field("next_step", &self.next_step)
            .finish_non_exhaustive()
    }
}

/// What sign-up knows about a new member.
#[derive(Debug, Clone, Default)]
pub struct NewMember {
    pub email: String,
    pub password_hash: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub employer_id: Option<i64>,
    pub company_name: Option<String>,
    pub provider_id: Option<i64>,
    pub location_id: Option<i64>,
    pub next_step: NextStep,
    pub notify: bool,
}

/// Creates a member; a taken email is [`StoreError::AlreadyExists`].
pub async fn create(connection: &mut PgConnection, new: &NewMember) -> Result<Member> {
    let statement = returning_member(
        "insert into members (email, password_hash, first_name, last_name, phone, employer_id, company_name,
                              provider_id, location_id, next_step, notify)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    );
    sqlx::query_as::<_, Member>(sqlx::AssertSqlSafe(statement))
        .bind(&new.email)
        .bind(&new.password_hash)
        .bind(&new.first_name)
        .bind(&new.last_name)
        .bind(&new.phone)
        .bind(new.employer_id)
        .bind(&new.company_name)
        .bind(new.provider_id)
        .bind(new.location_id)
        .bind(new.next_step)
        .bind(new.notify)
        .fetch_one(&mut *connection)
        .await
        .map_err(convert_sqlx_err)
}

pub async fn find(pool: &PgPool, id: i64) -> Result<Option<Member>> {
    let statement = format!("select {MEMBER_COLUMNS} from {MEMBER_FROM} where m.id = $1");
    Ok(sqlx::query_as::<_, Member>(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .fetch_optional(pool)
        .await?)
}

/// The member whose login is `email` (already lower-cased).
pub async fn find_by_email(pool: &PgPool, email: &str) -> Result<Option<Member>> {
    let statement = format!("select {MEMBER_COLUMNS} from {MEMBER_FROM} where lower(m.email) = $1");
    Ok(sqlx::query_as::<_, Member>(sqlx::AssertSqlSafe(statement))
        .bind(email)
        .fetch_optional(pool)
        .await?)
}

/// The confirmed Self member holding `member_id` with `payer_id`, if one has an account.
pub async fn find_confirmed_subscriber(pool: &PgPool, payer_id: &str, member_id: &str) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "select id from members
         where payer_id = $1 and lower(member_id) = lower($2) and eligibility_status = 'active'
           and subscriber_relation = 'Self'",
    )
    .bind(payer_id)
    .bind(member_id)
    .fetch_optional(pool)
    .await?)
}

/// Whether another member already holds a confirmed account for this insured person.
pub async fn insured_person_taken(pool: &PgPool, payer_id: &str, member_id: &str, except: i64) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "select exists(select 1 from members
                       where payer_id = $1 and lower(member_id) = lower($2) and eligibility_status = 'active'
                         and id <> $3)",
    )
    .bind(payer_id)
    .bind(member_id)
    .bind(except)
    .fetch_one(pool)
    .await?)
}

/// Stores a new password hash; setting a password through an emailed link also proves the
/// email, so it is marked verified.
pub async fn set_password(connection: &mut PgConnection, id: i64, password_hash: &str) -> Result<()> {
    sqlx::query(
        "update members set password_hash = $2, email_verified_at = coalesce(email_verified_at, now())
         where id = $1",
    )
    .bind(id)
    .bind(password_hash)
    .execute(&mut *connection)
    .await?;
    Ok(())
}

/// Replaces the password hash only (a signed-in change).
pub async fn replace_password(pool: &PgPool, id: i64, password_hash: &str) -> Result<()> {
    sqlx::query("update members set password_hash = $2 where id = $1")
        .bind(id)
        .bind(password_hash)
        .execute(pool)
        .await?;
    Ok(())
}

/// Stores the member's email-notification choice (the sign-up "keep me posted" flag); `None`
/// when no member has this id.
pub async fn set_notify(pool: &PgPool, id: i64, notify: bool) -> Result<Option<bool>> {
    Ok(
        sqlx::query_scalar("update members set notify = $2 where id = $1 returning notify")
            .bind(id)
            .bind(notify)
            .fetch_optional(pool)
            .await?,
    )
}

/// The login emails of the members who agreed to news and updates (`notify`), by address.
pub async fn news_consents(pool: &PgPool) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar("select email from members where notify and email is not null order by email")
            .fetch_all(pool)
            .await?,
    )
}

pub async fn mark_email_verified(connection: &mut PgConnection, id: i64) -> Result<()> {
    sqlx::query("update members set email_verified_at = coalesce(email_verified_at, now()) where id = $1")
        .bind(id)
        .execute(&mut *connection)
        .await?;
    Ok(())
}

/// Makes `email` the member's login, verified. A taken email is [`StoreError::AlreadyExists`].
pub async fn change_email(connection: &mut PgConnection, id: i64, email: &str) -> Result<()> {
    sqlx::query("update members set email = $2, email_verified_at = now() where id = $1")
        .bind(id)
        .bind(email)
        .execute(&mut *connection)
        .await
        .map_err(convert_sqlx_err)?;
    Ok(())
}

/// Replaces the member's mobile phone (E.164) and nothing else; `None` when no member has
/// this id.
pub async fn set_phone(pool: &PgPool, id: i64, phone: &str) -> Result<Option<()>> {
    let updated = sqlx::query("update members set phone = $2 where id = $1")
        .bind(id)
        .bind(phone)
        .execute(pool)
        .await?;
    Ok((updated.rows_affected() == 1).then_some(()))
}

/// Personal and insurance details as the forms send them, already validated.
#[derive(Debug, Clone, Default)]
pub struct PersonalInfo {
    pub first_name: String,
    pub last_name: String,
    pub dob: Option<NaiveDate>,
    pub gender: Option<String>,
    pub phone: Option<String>,
    pub zip_code: Option<String>,
    pub member_id: Option<String>,
    pub payer_id: Option<String>,
    pub plan_id: Option<String>,
    pub group_id: Option<String>,
    pub subscriber_relation: String,
    pub subscriber_member_id: Option<String>,
    pub employer_id: Option<i64>,
    pub company_name: Option<String>,
}

impl From<&Member> for PersonalInfo {
    /// The member's stored details, to change some of them.
    fn from(member: &Member) -> Self {
        Self {
            first_name: member.first_name.clone(),
            last_name: member.last_name.clone(),
            dob: member.dob,
            gender: member.gender.clone(),
            phone: member.phone.clone(),
            zip_code: member.zip_code.clone(),
            member_id: member.member_id.clone(),
            payer_id: member.payer_id.clone(),
            plan_id: member.plan_id.clone(),
            group_id: member.group_id.clone(),
            subscriber_relation: member.subscriber_relation.clone(),
            subscriber_member_id: member.subscriber_member_id.clone(),
            employer_id: member.employer_id,
            company_name: member.company_name.clone(),
        }
    }
}

/// What the roster identifies an insured person by (see `api::coverage`).
#[derive(Debug, Clone, Copy)]
pub struct Identity<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub dob: Option<NaiveDate>,
    pub member_id: Option<&'a str>,
    pub payer_id: Option<&'a str>,
    pub plan_id: Option<&'a str>,
    pub relation: &'a str,
    pub subscriber_member_id: Option<&'a str>,
}

impl<'a> Identity<'a> {
    pub fn of(member: &'a Member) -> Self {
        Self {
            first_name: &member.first_name,
            last_name: &member.last_name,
            dob: member.dob,
            member_id: member.member_id.as_deref(),
            payer_id: member.payer_id.as_deref(),
            plan_id: member.plan_id.as_deref(),
            relation: &member.subscriber_relation,
            subscriber_member_id: member.subscriber_member_id.as_deref(),
        }
    }

    /// Whether the roster can be asked about this person: names, date of birth and member id.
    pub fn checkable(&self) -> bool {
        !self.first_name.is_empty() && !self.last_name.is_empty() && self.dob.is_some() && self.member_id.is_some()
    }

    /// Whether both name the same insured person as the roster sees it: names and member ids
    /// without regard to case (the roster matches them so), the rest exactly. A change the roster
    /// would not notice (a capital letter) keeps a confirmed eligibility.
    pub fn same_person_as(&self, other: &Identity<'_>) -> bool {
        let same = |a: Option<&str>, b: Option<&str>| match (a, b) {
            (Some(a), Some(b)) => a.to_lowercase() == b.to_lowercase(),
            (a, b) => a == b,
        };
        same(Some(self.first_name), Some(other.first_name))
            && same(Some(self.last_name), Some(other.last_name))
            && self.dob == other.dob
            && same(self.member_id, other.member_id)
            && self.payer_id == other.payer_id
            && self.plan_id == other.plan_id
            && self.relation == other.relation
            && same(self.subscriber_member_id, other.subscriber_member_id)
    }
}

impl PersonalInfo {
    /// The insured person these details name.
    pub fn identity(&self) -> Identity<'_> {
        Identity {
            first_name: &self.first_name,
            last_name: &self.last_name,
            dob: self.dob,
            member_id: self.member_id.as_deref(),
            payer_id: self.payer_id.as_deref(),
            plan_id: self.plan_id.as_deref(),
            relation: &self.subscriber_relation,
            subscriber_member_id: self.subscriber_member_id.as_deref(),
        }
    }
}

/// Saves personal and insurance details. `unconfirm`: the details name another insured person
/// than a confirmed (or pending) eligibility was for, so it is withdrawn in the same statement
/// (see [`unconfirmed_when`]) and the caller checks the new details at once.
pub async fn update_personal_info(
    connection: &mut PgConnection,
    id: i64,
    info: &PersonalInfo,
    unconfirm: bool,
) -> Result<Member> {
    let statement = returning_member(&format!(
        "update members set
             {unconfirmed},
             first_name = $2, last_name = $3, dob = $4, gender = $5, phone = $6, zip_code = $7, member_id = $8,
             payer_id = $9, plan_id = $10, group_id = $11, subscriber_relation = $12, subscriber_member_id = $13,
             employer_id = coalesce($14, employer_id), company_name = coalesce($15, company_name)
         where id = $1",
        unconfirmed = unconfirmed_when("$16")
    ));
    let query = sqlx::query_as::<_, Member>(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .bind(&info.first_name)
        .bind(&info.last_name)
        .bind(info.dob)
        .bind(&info.gender)
        .bind(&info.phone)
        .bind(&info.zip_code)
        .bind(&info.member_id)
        .bind(&info.payer_id)
        .bind(&info.plan_id)
        .bind(&info.group_id)
        .bind(&info.subscriber_relation)
        .bind(&info.subscriber_member_id)
        .bind(info.employer_id)
        .bind(&info.company_name)
        .bind(unconfirm);
    written_member(query, connection, id).await
}

/// Withdraws a confirmed eligibility where `condition` (SQL) holds: not confirmed, setup
/// incomplete, and eligibility to confirm as the next step (Home and the account then offer
/// Confirm Eligibility). A chosen clinic and its membership are kept, so confirming again
/// restores the member as they were.
pub(crate) fn unconfirmed_when(condition: &str) -> String {
    format!(
        "eligibility_status = case when {condition} then null else eligibility_status end,
         setup = case when {condition} then 'incomplete' else setup end,
         next_step = case when {condition} then 'confirmPlan' else next_step end"
    )
}

/// A pending check that the roster answered with a refusal: the member is no longer pending
/// but not confirmed, with eligibility to confirm as their next step.
pub async fn refuse_pending_eligibility(pool: &PgPool, id: i64) -> Result<()> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update members set {} where id = $1 and eligibility_status = 'pending'",
        unconfirmed_when("true")
    )))
    .bind(id)
    .execute(pool)
    .await?;
    Ok(())
}

/// What a confirmed eligibility writes.
#[derive(Debug, Clone)]
pub struct ConfirmedEligibility {
    /// The roster's spelling of the payer, member and plan ids.
    pub payer_id: String,
    pub member_id: String,
    pub plan_id: String,
    pub employer_id: Option<i64>,
    pub company_name: Option<String>,
    pub group_id: Option<String>,
    pub subscriber_id: Option<i64>,
    pub next_step: NextStep,
}

/// Marks eligibility active and setup complete and moves the member to their next step. A
/// second account for the same insured person is [`StoreError::AlreadyExists`]. The
/// subscription is not touched: an enrolment the confirmation completes is
/// [`crate::memberships::enrol`]'s.
pub async fn confirm_eligibility(
    connection: &mut PgConnection,
    id: i64,
    confirmed: &ConfirmedEligibility,
) -> Result<Member> {
    let statement = returning_member(
        "update members set eligibility_status = 'active', setup = 'complete', next_step = $2,
             employer_id = coalesce($3, employer_id), company_name = coalesce($4, company_name),
             group_id = coalesce($5, group_id), subscriber_id = $6, payer_id = $7, member_id = $8, plan_id = $9
         where id = $1",
    );
    let query = sqlx::query_as::<_, Member>(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .bind(confirmed.next_step)
        .bind(confirmed.employer_id)
        .bind(&confirmed.company_name)
        .bind(&confirmed.group_id)
        .bind(confirmed.subscriber_id)
        .bind(&confirmed.payer_id)
        .bind(&confirmed.member_id)
        .bind(&confirmed.plan_id);
    written_member(query, connection, id).await
}

/// Records that the eligibility check could not run (the payer was unreachable): the details
/// stay saved and eligibility is pending until a later check.
pub async fn mark_eligibility_pending(pool: &PgPool, id: i64) -> Result<()> {
    sqlx::query("update members set eligibility_status = 'pending' where id = $1 and eligibility_status is null")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

/// An employer as member screens show it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EmployerSummary {
    pub id: i64,
    pub company_name: String,
    pub alias: Option<String>,
    pub status: String,
}

pub async fn employer(pool: &PgPool, id: i64) -> Result<Option<EmployerSummary>> {
    Ok(
        sqlx::query_as::<_, EmployerSummary>("select id, company_name, alias, status from employers where id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?,
    )
}

pub async fn employer_by_alias(pool: &PgPool, alias: &str) -> Result<Option<EmployerSummary>> {
    Ok(sqlx::query_as::<_, EmployerSummary>(
        "select id, company_name, alias, status from employers where alias = lower($1)",
    )
    .bind(alias)
    .fetch_optional(pool)
    .await?)
}

/// An organisation's first location (by id), for a provider chosen without a location.
pub async fn first_location_of(pool: &PgPool, organisation_id: i64) -> Result<Option<i64>> {
    Ok(
        sqlx::query_scalar("select min(id) from locations where organisation_id = $1")
            .bind(organisation_id)
            .fetch_one(pool)
            .await?,
    )
}

/// The member record the SPA keeps (`GET /member/app/member/info`), built by PostgreSQL as one
/// JSON document in one round trip: the member, their clinic, employer with groups, plans by
/// payer and each family member with their clinic. Six queries in sequence made this the
/// slowest signed-in read under load (14 ms p50 at 32 connections). `None`: no such member.
pub async fn member_info_json(pool: &PgPool, id: i64) -> Result<Option<String>> {
    Ok(sqlx::query_scalar(MEMBER_INFO_QUERY)
        .bind(id)
        .fetch_optional(pool)
        .await?)
}

/// The account details document (`GET /member/app/account`) in one round trip.
pub async fn account_json(pool: &PgPool, id: i64) -> Result<Option<String>> {
    Ok(sqlx::query_scalar(ACCOUNT_QUERY).bind(id).fetch_optional(pool).await?)
}

/// The clinic card, portal link and provider of a member row `x`, for a lateral join. A location
/// that is gone, or no longer belongs to the stored provider, shows as none.
macro_rules! clinic_of {
    ($x:literal) => {
        concat!(
            "select json_build_object('id', l.id, 'providerId', l.organisation_id, 'name', o.name,
                    'companyName', o.name, 'locationName', l.location_name, 'logo', l.logo,
                    'address1', l.address1, 'city', l.city, 'state', l.state, 'zip', l.zip, 'zipCode', l.zip,
                    'phone', l.phone) as card,
                case when l.provider_portal_url is null then null
                     else json_build_object('link', l.provider_portal_url) end as portal,
                json_build_object('id', o.id, 'companyName', o.name) as provider
             from locations l join organisations o on o.id = l.organisation_id
             where l.id = ",
            $x,
            ".location_id and (",
            $x,
            ".provider_id is null or l.organisation_id = ",
            $x,
            ".provider_id)"
        )
    };
}

/// The newest membership of a member row `x` (docs/clinic-panel-contract.md), for a lateral
/// join: its status, clinic, dates and the clinic's reason.
macro_rules! membership_of {
    ($x:literal) => {
        concat!(
            "select json_build_object('id', ms.id, 'status', ms.status,
                    'clinic', json_build_object('id', ms.location_id, 'providerId', ms.organisation_id,
                                                'name', coalesce(l.name, o.name), 'locationName', l.location_name),
                    'enrolledAt', ms.enrolled_at, 'activeFrom', ms.active_from, 'activeUntil', ms.active_until,
                    'closedAt', ms.closed_at, 'reason', ms.reason) as latest
             from memberships ms
             left join locations l on l.id = ms.location_id
             left join organisations o on o.id = ms.organisation_id
             where ms.member_id = ",
            $x,
            ".id order by ms.id desc limit 1"
        )
    };
}

const MEMBER_INFO_QUERY: &str = concat!(
    "select json_build_object(
        'id', m.id, 'type', 'dpc-member', 'email', m.email, 'firstName', m.first_name,
        'lastName', m.last_name, 'dob', m.dob, 'gender', m.gender, 'phone', m.phone, 'zipCode', m.zip_code,
        'memberId', m.member_id, 'payerId', m.payer_id, 'planId', m.plan_id, 'groupId', m.group_id,
        'employerId', m.employer_id, 'companyName', coalesce(e.company_name, m.company_name),
        'subscriberRelation', m.subscriber_relation, 'subscriberMemberId', m.subscriber_member_id,
        'subscriberId', m.subscriber_id, 'nextStep', m.next_step, 'setup', m.setup,
        'eligibility', json_build_object('status', m.eligibility_status),
        'subscription', json_build_object('status', m.subscription_status, 'expire', m.subscription_expire),
        'providerId', m.provider_id, 'locationId', m.location_id,
        'location', clinic.card, 'providerPortal', clinic.portal, 'membership', membership.latest,
        'password', m.password_hash is not null, 'emailVerified', m.email_verified_at is not null,
        'notify', m.notify, 'hasFamily', family.entries is not null,
        'family', coalesce(family.entries, '[]'),
        'associatedDependents', case when m.subscriber_relation = 'Self' then coalesce(family.entries, '[]')
                                     else '[]' end,
        'employer', case when e.id is null then null
                         else json_build_object('id', e.id, 'companyName', e.company_name, 'alias', e.alias,
                                                'status', e.status, 'groups', coalesce(groups.list, '[]')) end,
        'payers', coalesce(offered.payers, '[]'),
        'plans', coalesce(offered.plans, '[]'))::text
     from members m
     left join employers e on e.id = m.employer_id
     left join lateral (",
    clinic_of!("m"),
    ") clinic on true
     left join lateral (",
    membership_of!("m"),
    ") membership on true
     left join lateral (
        select json_agg(json_build_object('groupId', g.group_number, 'planId', g.plan_id,
                                          'tpa', json_build_object('payerId', g.payer_id))
                        order by g.group_number) as list
        from employer_groups g where g.employer_id = m.employer_id
     ) groups on true
     left join lateral (
        select json_agg(json_build_object(
                 'id', f.id, 'firstName', f.first_name, 'lastName', f.last_name,
                 'email', coalesce(f.contact_email, f.email), 'phone', f.phone, 'dob', f.dob,
                 'subscriberRelation', f.subscriber_relation, 'nextStep', f.next_step,
                 'providerId', f.provider_id, 'locationId', f.location_id,
                 'provider', fc.provider, 'location', fc.card, 'providerPortal', fc.portal,
                 'membership', fm.latest,
                 'eligibility', json_build_object('status', f.eligibility_status),
                 'subscription', json_build_object('status', f.subscription_status, 'expire', f.subscription_expire))
               order by f.id) as entries
        from members f
        left join lateral (",
    clinic_of!("f"),
    ") fc on true
        left join lateral (",
    membership_of!("f"),
    ") fm on true
        where f.subscriber_id = m.id
     ) family on true
     left join lateral (
        -- The employer's plans (each with the employer's group number), else every plan.
        with offered as (
            (select distinct on (p.plan_id) p.plan_id, p.name, p.payer_id, y.name as payer_name,
                    g.group_number as group_id
             from employer_groups g join plans p on p.plan_id = g.plan_id join payers y on y.id = p.payer_id
             where g.employer_id = m.employer_id
             order by p.plan_id, g.group_number)
            union all
            (select p.plan_id, p.name, p.payer_id, y.name, p.group_id
             from plans p join payers y on y.id = p.payer_id
             where m.employer_id is null)
        )
        select (select json_agg(json_build_object('planId', plan_id, 'name', name, 'groupId', group_id,
                                                  'payerId', payer_id, 'payerName', payer_name)
                                order by plan_id) from offered) as plans,
               (select json_agg(json_build_object('payerId', payer_id, 'payerName', payer_name, 'plans', plans)
                                order by first_plan)
                from (select payer_id, min(payer_name) as payer_name, min(plan_id) as first_plan,
                             json_agg(json_build_object('planId', plan_id, 'name', name, 'groupId', group_id)
                                      order by plan_id) as plans
                      from offered group by payer_id) by_payer) as payers
     ) offered on true
     where m.id = $1"
);

const ACCOUNT_QUERY: &str = "select json_build_object(
        'personal', json_build_object(
            'id', m.id, 'firstName', m.first_name, 'lastName', m.last_name, 'dob', m.dob, 'gender', m.gender,
            'email', m.email, 'phone', m.phone, 'zipCode', m.zip_code, 'memberId', m.member_id,
            'employerId', m.employer_id, 'companyName', coalesce(e.company_name, m.company_name),
            'planID', m.plan_id, 'planName', p.name, 'payerID', m.payer_id, 'payerName', y.name,
            'groupID', m.group_id),
        'subscriberRelation', m.subscriber_relation,
        'eligibility', json_build_object('status', m.eligibility_status),
        'subscription', json_build_object('status', m.subscription_status, 'expire', m.subscription_expire),
        'nextStep', m.next_step)::text
     from members m
     left join employers e on e.id = m.employer_id
     left join plans p on p.plan_id = m.plan_id
     left join payers y on y.id = p.payer_id
     where m.id = $1";
