//! Solution rates and organisations' participations in solutions: requests, the facilitator's
//! review links, transitions with their audit rows, and the emails each step sends (written to
//! the outbox in the caller's transaction). The rules are `domain::participation`'s; the
//! contract is docs/provider-contract.md.

use std::time::Duration;

use chrono::{DateTime, Utc};
use domain::participation::{ParticipationStatus, Transition, next_status};
use serde_json::json;
use sqlx::{PgConnection, PgPool};

use crate::tokens::LinkToken;
use crate::{Result, StoreError, convert_sqlx_err};

/// How long a facilitator's review link works.
pub const REVIEW_LINK_LIFETIME: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// A rate group of a solution.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Rate {
    pub id: i64,
    pub solution_id: i64,
    pub rate_group: String,
    pub base_rate_cents: i64,
}

/// Every rate, or the rates of one solution, by solution and base rate.
pub async fn rates(pool: &PgPool, solution: Option<i64>) -> Result<Vec<Rate>> {
    Ok(sqlx::query_as(
        "select id, solution_id, rate_group, base_rate_cents from solution_rates
         where $1::bigint is null or solution_id = $1
         order by solution_id, base_rate_cents, id",
    )
    .bind(solution)
    .fetch_all(pool)
    .await?)
}

/// The rate `rate_id` when it is one of `solution_id`'s.
pub async fn rate_of(pool: &PgPool, solution_id: i64, rate_id: i64) -> Result<Option<Rate>> {
    Ok(sqlx::query_as(
        "select id, solution_id, rate_group, base_rate_cents from solution_rates where id = $1 and solution_id = $2",
    )
    .bind(rate_id)
    .bind(solution_id)
    .fetch_optional(pool)
    .await?)
}

/// What a participation needs to know of its solution.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SolutionTerms {
    pub id: i64,
    pub name: String,
    pub kind: String,
    pub category: String,
    pub logo: String,
    pub description: String,
    pub definition: String,
    pub website: String,
    pub facilitator_first_name: String,
    pub facilitator_last_name: String,
    pub facilitator_email: String,
    pub facilitator_address1: String,
    pub tpa_basis_points: i32,
}

const TERMS_COLUMNS: &str = "s.id, s.name, s.kind, c.name as category, s.logo, s.description, s.definition, s.website, \
     s.facilitator_first_name, s.facilitator_last_name, s.facilitator_email, s.facilitator_address1, s.tpa_basis_points";

pub async fn solution_terms(pool: &PgPool, id: i64) -> Result<Option<SolutionTerms>> {
    let statement = format!(
        "select {TERMS_COLUMNS} from solutions s join marketplace_categories c on c.id = s.category_id where s.id = $1"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .fetch_optional(pool)
        .await?)
}

/// Every solution, by name.
pub async fn all_solutions(pool: &PgPool) -> Result<Vec<SolutionTerms>> {
    let statement = format!(
        "select {TERMS_COLUMNS} from solutions s join marketplace_categories c on c.id = s.category_id order by s.name, s.id"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(statement)).fetch_all(pool).await?)
}

/// An organisation's participation in a solution, with the rate and contract it agreed to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Participation {
    pub id: i64,
    pub organisation_id: i64,
    pub solution_id: i64,
    #[sqlx(try_from = "String")]
    pub status: Status,
    pub rate_id: i64,
    pub rate_group: String,
    pub base_rate_cents: i64,
    pub tpa_basis_points: i32,
    pub contract_sha256: String,
    pub agreed_by: i64,
    pub agreed_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
    pub stopped_at: Option<DateTime<Utc>>,
    /// An active participation's rate change waiting for the facilitator (the rate above stays
    /// in force until it is approved).
    pub requested_rate_id: Option<i64>,
    pub requested_rate_group: Option<String>,
    pub requested_base_rate_cents: Option<i64>,
    /// Where the facilitator's decision is emailed (null: to the account that agreed).
    pub contact_email: Option<String>,
    /// The solution's name, when it still exists.
    pub solution_name: Option<String>,
    /// The organisation's name, when it still exists.
    pub organisation_name: Option<String>,
}

/// [`ParticipationStatus`] as read from its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status(pub ParticipationStatus);

impl TryFrom<String> for Status {
    type Error = StoreError;
    fn try_from(text: String) -> Result<Self> {
        ParticipationStatus::parse(&text)
            .map(Status)
            .ok_or_else(|| StoreError::InvalidData(format!("participation status {text:?}")))
    }
}

const PARTICIPATION_COLUMNS: &str = "p.id, p.organisation_id, p.solution_id, p.status, p.rate_id, p.rate_group, \
     p.base_rate_cents, p.tpa_basis_points, p.contract_sha256, p.agreed_by, p.agreed_at, p.decided_at, p.stopped_at, \
     p.requested_rate_id, p.requested_rate_group, p.requested_base_rate_cents, p.contact_email, \
     s.name as solution_name, o.name as organisation_name";
const PARTICIPATION_FROM: &str = "participations p left join solutions s on s.id = p.solution_id left join organisations o on o.id = p.organisation_id";

async fn participation_where(connection: &mut PgConnection, condition: &str, id: i64) -> Result<Vec<Participation>> {
    let statement = format!(
        "select {PARTICIPATION_COLUMNS} from {PARTICIPATION_FROM} where {condition} order by p.agreed_at desc, p.id desc"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .fetch_all(connection)
        .await?)
}

pub async fn find(connection: &mut PgConnection, id: i64) -> Result<Option<Participation>> {
    Ok(participation_where(connection, "p.id = $1", id)
        .await?
        .into_iter()
        .next())
}

/// The organisation's participations, newest first.
pub async fn of_organisation(pool: &PgPool, organisation_id: i64) -> Result<Vec<Participation>> {
    participation_where(&mut *pool.acquire().await?, "p.organisation_id = $1", organisation_id).await
}

/// The organisation's pending or active participation in the solution, if any.
pub async fn live(
    connection: &mut PgConnection,
    organisation_id: i64,
    solution_id: i64,
) -> Result<Option<Participation>> {
    let statement = format!(
        "select {PARTICIPATION_COLUMNS} from {PARTICIPATION_FROM}
         where p.organisation_id = $1 and p.solution_id = $2 and p.status in ('pending', 'active')"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(organisation_id)
        .bind(solution_id)
        .fetch_optional(connection)
        .await?)
}

/// Every participation, or those in one status, newest first (the operator's list).
pub async fn list(pool: &PgPool, status: Option<ParticipationStatus>) -> Result<Vec<Participation>> {
    let statement = format!(
        "select {PARTICIPATION_COLUMNS} from {PARTICIPATION_FROM}
         where $1::text is null or p.status = $1 order by p.agreed_at desc, p.id desc"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(status.map(ParticipationStatus::as_str))
        .fetch_all(pool)
        .await?)
}

/// Who made a change: the audit row's `actor`.
#[derive(Debug, Clone)]
pub enum Actor {
    Provider(i64),
    Facilitator(String),
    Operator,
}

impl Actor {
    fn label(&self) -> String {
        match self {
            Self::Provider(account) => format!("provider:{account}"),
            Self::Facilitator(email) => format!("facilitator:{email}"),
            Self::Operator => "operator".to_owned(),
        }
    }
}

async fn record_event(
    connection: &mut PgConnection,
    participation: &Participation,
    from: Option<ParticipationStatus>,
    actor: &Actor,
) -> Result<()> {
    sqlx::query(
        "insert into participation_events (participation_id, actor, from_status, to_status, rate_id, base_rate_cents)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(participation.id)
    .bind(actor.label())
    .bind(from.map(ParticipationStatus::as_str))
    .bind(participation.status.0.as_str())
    .bind(participation.rate_id)
    .bind(participation.base_rate_cents)
    .execute(connection)
    .await?;
    Ok(())
}

/// A participation's audit trail, oldest first: (at, actor, from, to, base rate in cents).
pub async fn events(
    pool: &PgPool,
    participation_id: i64,
) -> Result<Vec<(DateTime<Utc>, String, Option<String>, String, i64)>> {
    Ok(sqlx::query_as(
        "select at, actor, from_status, to_status, base_rate_cents from participation_events
         where participation_id = $1 order by id",
    )
    .bind(participation_id)
    .fetch_all(pool)
    .await?)
}

/// What a provider agreed to.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub organisation_id: i64,
    pub solution: &'a SolutionTerms,
    pub rate: &'a Rate,
    pub contract_sha256: &'a str,
    pub account_id: i64,
    /// Where the facilitator's decision is to be emailed.
    pub contact_email: &'a str,
}

/// Records a new pending participation, its audit row, and sends the facilitator a review
/// link. A live participation already there is [`StoreError::AlreadyExists`].
pub async fn request(connection: &mut PgConnection, request: &Request<'_>) -> Result<Participation> {
    let id: i64 = sqlx::query_scalar(
        "insert into participations (organisation_id, solution_id, status, rate_id, rate_group, base_rate_cents,
                                     tpa_basis_points, contract_sha256, agreed_by, contact_email)
         values ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9) returning id",
    )
    .bind(request.organisation_id)
    .bind(request.solution.id)
    .bind(request.rate.id)
    .bind(&request.rate.rate_group)
    .bind(request.rate.base_rate_cents)
    .bind(request.solution.tpa_basis_points)
    .bind(request.contract_sha256)
    .bind(request.account_id)
    .bind(request.contact_email)
    .fetch_one(&mut *connection)
    .await
    .map_err(convert_sqlx_err)?;
    let participation = find(connection, id)
        .await?
        .ok_or_else(|| StoreError::InvalidData(format!("participation {id} vanished")))?;
    record_event(connection, &participation, None, &Actor::Provider(request.account_id)).await?;
    send_for_review(connection, &participation, &request.solution.facilitator_email).await?;
    Ok(participation)
}

/// Revokes the participation's open review links and emails `facilitator_email` a new one.
async fn send_for_review(
    connection: &mut PgConnection,
    participation: &Participation,
    facilitator_email: &str,
) -> Result<()> {
    revoke_review_links(connection, participation.id).await?;
    let token = LinkToken::generate().map_err(|error| StoreError::InvalidData(format!("no randomness: {error}")))?;
    sqlx::query(
        "insert into participation_review_links (participation_id, token_hash, sent_to, expires_at)
         values ($1, $2, $3, now() + make_interval(secs => $4))",
    )
    .bind(participation.id)
    .bind(token.hash.as_slice())
    .bind(facilitator_email)
    .bind(REVIEW_LINK_LIFETIME.as_secs_f64())
    .execute(&mut *connection)
    .await?;
    // Relative: the sender makes it absolute with the web app's public URL.
    let link = format!("/dpc-providers/participations/review?token={}", token.plain);
    crate::outbox::enqueue(
        connection,
        &crate::outbox::NewEmail {
            to_email: facilitator_email,
            kind: "participation_review",
            link: Some(&link),
            facts: review_facts(participation),
        },
    )
    .await?;
    Ok(())
}

/// What the facilitator's email says: a request to participate at a rate, or an active
/// participation's change of rate from the rate in force to the one requested.
fn review_facts(participation: &Participation) -> serde_json::Value {
    let cents = |cents: i64| domain::participation::Cents(cents).to_string();
    let mut facts = match (
        &participation.requested_rate_group,
        participation.requested_base_rate_cents,
    ) {
        (Some(requested_group), Some(requested_cents)) => json!({
            "solution": participation.solution_name,
            "organisation": participation.organisation_name,
            "rate_change": true,
            "from_rate_group": participation.rate_group,
            "from_base_rate": cents(participation.base_rate_cents),
            "rate_group": requested_group,
            "base_rate": cents(requested_cents),
        }),
        _ => json!({
            "solution": participation.solution_name,
            "organisation": participation.organisation_name,
            "rate_change": false,
            "rate_group": participation.rate_group,
            "base_rate": cents(participation.base_rate_cents),
        }),
    };
    // Where the clinic wants the answer (the provider solution form's e-mail).
    facts["contact_email"] = json!(participation.contact_email);
    facts
}

async fn revoke_review_links(connection: &mut PgConnection, participation_id: i64) -> Result<()> {
    sqlx::query(
        "update participation_review_links set revoked_at = now()
         where participation_id = $1 and used_at is null and revoked_at is null",
    )
    .bind(participation_id)
    .execute(connection)
    .await?;
    Ok(())
}

/// Why a transition was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotFound,
    /// The participation is in a status the transition does not leave from.
    NotAllowed(ParticipationStatus),
}

/// Applies `transition` to participation `id` (locked for the change), records the audit row,
/// and sends what the step sends: the outcome to the provider on approve or decline, a new
/// review link on a rate change. `new_rate` is the rate of a [`Transition::ChangeRate`].
pub async fn apply(
    connection: &mut PgConnection,
    id: i64,
    transition: Transition,
    actor: &Actor,
    new_rate: Option<&Rate>,
) -> Result<std::result::Result<Participation, Refusal>> {
    let current: Option<(String, bool)> =
        sqlx::query_as("select status, requested_rate_id is not null from participations where id = $1 for update")
            .bind(id)
            .fetch_optional(&mut *connection)
            .await?;
    let Some((current, change_requested)) = current else {
        return Ok(Err(Refusal::NotFound));
    };
    let from = Status::try_from(current)?.0;
    let Some(to) = next_status(from, transition, change_requested) else {
        return Ok(Err(Refusal::NotAllowed(from)));
    };
    // What each step does to the rate: an active participation's new rate waits (requested_*),
    // a pending one's replaces the rate asked for; approving an active one's change puts the
    // requested rate in force; declining it, or stopping, drops it.
    let rate_change = match (from, transition) {
        (ParticipationStatus::Active, Transition::ChangeRate) => "request",
        (ParticipationStatus::Pending, Transition::ChangeRate) => "replace",
        (ParticipationStatus::Active, Transition::Approve) => "accept",
        _ => "drop",
    };
    sqlx::query(
        "update participations set status = $2,
                decided_at = case when $3 then now() when $2 = 'pending' then null else decided_at end,
                stopped_at = case when $2 = 'stopped' then now() else stopped_at end,
                rate_id = case $7 when 'replace' then $4 when 'accept' then requested_rate_id else rate_id end,
                rate_group = case $7 when 'replace' then $5 when 'accept' then requested_rate_group else rate_group end,
                base_rate_cents = case $7 when 'replace' then $6 when 'accept' then requested_base_rate_cents
                                  else base_rate_cents end,
                requested_rate_id = case $7 when 'request' then $4 else null end,
                requested_rate_group = case $7 when 'request' then $5 else null end,
                requested_base_rate_cents = case $7 when 'request' then $6 else null end
         where id = $1",
    )
    .bind(id)
    .bind(to.as_str())
    .bind(matches!(transition, Transition::Approve | Transition::Decline))
    .bind(new_rate.map(|rate| rate.id))
    .bind(new_rate.map(|rate| rate.rate_group.clone()))
    .bind(new_rate.map(|rate| rate.base_rate_cents))
    .bind(rate_change)
    .execute(&mut *connection)
    .await?;
    let participation = find(connection, id)
        .await?
        .ok_or_else(|| StoreError::InvalidData(format!("participation {id} vanished")))?;
    record_event(connection, &participation, Some(from), actor).await?;
    match transition {
        Transition::Approve | Transition::Decline => {
            revoke_review_links(connection, id).await?;
            email_outcome(
                connection,
                &participation,
                transition == Transition::Approve,
                from == ParticipationStatus::Active,
            )
            .await?;
        }
        Transition::Stop => revoke_review_links(connection, id).await?,
        Transition::ChangeRate => {
            let facilitator: Option<String> =
                sqlx::query_scalar("select facilitator_email from solutions where id = $1")
                    .bind(participation.solution_id)
                    .fetch_optional(&mut *connection)
                    .await?;
            if let Some(facilitator) = facilitator {
                send_for_review(connection, &participation, &facilitator).await?;
            }
        }
    }
    Ok(Ok(participation))
}

/// Tells the provider who agreed how the facilitator decided (`rate_change`: on an active
/// participation's change of rate, not on the participation itself, which stays active either
/// way, so `approved` comes from the decision rather than the status).
async fn email_outcome(
    connection: &mut PgConnection,
    participation: &Participation,
    approved: bool,
    rate_change: bool,
) -> Result<()> {
    let email: Option<String> = match &participation.contact_email {
        Some(contact) => Some(contact.clone()),
        None => sqlx::query_scalar("select email from members where id = $1")
            .bind(participation.agreed_by)
            .fetch_optional(&mut *connection)
            .await?
            .flatten(),
    };
    let Some(email) = email else {
        return Ok(());
    };
    let link = format!("/dpc-providers/solutions/details/{}", participation.solution_id);
    crate::outbox::enqueue(
        connection,
        &crate::outbox::NewEmail {
            to_email: &email,
            kind: "participation_outcome",
            link: Some(&link),
            facts: json!({
                "solution": participation.solution_name,
                "organisation": participation.organisation_name,
                "approved": approved,
                "rate_change": rate_change,
                "rate_group": participation.rate_group,
                "base_rate": domain::participation::Cents(participation.base_rate_cents).to_string(),
            }),
        },
    )
    .await?;
    Ok(())
}

/// A review link that still works: unused, not revoked, unexpired.
#[derive(Debug, Clone)]
pub struct ReviewLink {
    pub participation_id: i64,
    pub sent_to: String,
}

const OPEN_LINK: &str = "token_hash = $1 and used_at is null and revoked_at is null and expires_at > now()";

/// The open review link with this token hash.
pub async fn review_link(pool: &PgPool, token_hash: &[u8; 32]) -> Result<Option<ReviewLink>> {
    let statement = format!("select participation_id, sent_to from participation_review_links where {OPEN_LINK}");
    let row: Option<(i64, String)> = sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(token_hash.as_slice())
        .fetch_optional(pool)
        .await?;
    Ok(row.map(|(participation_id, sent_to)| ReviewLink {
        participation_id,
        sent_to,
    }))
}

/// Uses the open review link with this token hash (of two concurrent uses, one wins).
pub async fn consume_review_link(connection: &mut PgConnection, token_hash: &[u8; 32]) -> Result<Option<ReviewLink>> {
    let statement = format!(
        "update participation_review_links set used_at = now() where {OPEN_LINK} returning participation_id, sent_to"
    );
    let row: Option<(i64, String)> = sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(token_hash.as_slice())
        .fetch_optional(connection)
        .await?;
    Ok(row.map(|(participation_id, sent_to)| ReviewLink {
        participation_id,
        sent_to,
    }))
}
