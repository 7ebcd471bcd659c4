//! The email outbox: messages are written in the transaction that creates what they announce
//! and delivered later by background senders, so a rolled-back request sends nothing.
//!
//! A row holds what the message is about (kind, facts, the one-time link until it is sent);
//! the sender renders the text. Senders claim due rows with `FOR UPDATE SKIP LOCKED` and a
//! lease (`locked_until`, and `lease_holder` naming the claim): the claim commits at once, the
//! message is sent outside any transaction, and the outcome is written afterwards. A live
//! sender renews its claim's lease while it works ([`renew_lease`]), so the lease can be short:
//! a sender that dies leaves its rows locked only until that short lease runs out, then another
//! sender takes them. Delivery is at least once (a sender killed between the SMTP server's
//! acceptance and `mark_sent` is the only duplicate), and the `Message-ID` (stable per row) lets
//! a receiver drop a duplicate.
//!
//! A link request ([`LINK_REQUEST`]) is a row queued without knowing whether its address has an
//! account, so the request answers alike either way; the sender resolves it (see `api::mail`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{PgConnection, PgPool};

use crate::Result;

/// A message to send.
#[derive(Debug, Clone)]
pub struct NewEmail<'a> {
    pub to_email: &'a str,
    /// What the message is, for example `verify_email` or `waitlist_open` (a template name).
    pub kind: &'a str,
    /// The one-time link, kept until the message is sent.
    pub link: Option<&'a str>,
    /// What the template needs besides the link.
    pub facts: Value,
}

/// A stored message.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxEmail {
    pub id: i64,
    pub to_email: String,
    pub kind: String,
    pub subject: Option<String>,
    /// Only on rows written before rendering moved to the sender.
    pub body: Option<String>,
    pub link: Option<String>,
    pub facts: Value,
    pub state: String,
    pub message_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub attempts: i32,
    pub last_error: Option<String>,
    /// The request that enqueued the message (`x-request-id`), when one did.
    pub request_id: Option<String>,
}

const COLUMNS: &str = "id, to_email, kind, subject, body, link, facts, state, message_id, created_at, sent_at, attempts, \
                       last_error, request_id";

/// The kind of a queued link request: `facts.purpose` names the link; the sender turns the row
/// into that link's message for the account with the address, or drops it when none has it.
pub const LINK_REQUEST: &str = "link_request";

/// Writes a message on the caller's transaction, with the id of the request it is written for
/// (see [`crate::request_id`]); `NOTIFY email_outbox` wakes the senders of every server when it
/// commits.
pub async fn enqueue(connection: &mut PgConnection, email: &NewEmail<'_>) -> Result<i64> {
    enqueue_due(connection, email, None).await
}

/// [`enqueue`], due at `due` (a throttled link) instead of at once.
pub async fn enqueue_due(
    connection: &mut PgConnection,
    email: &NewEmail<'_>,
    due: Option<DateTime<Utc>>,
) -> Result<i64> {
    let id = sqlx::query_scalar(
        "insert into email_outbox (to_email, kind, link, facts, next_attempt_at, request_id)
         values ($1, $2, $3, $4, coalesce($5, now()), $6) returning id",
    )
    .bind(email.to_email)
    .bind(email.kind)
    .bind(email.link)
    .bind(&email.facts)
    .bind(due)
    .bind(crate::request_id::current_text())
    .fetch_one(&mut *connection)
    .await?;
    sqlx::query("select pg_notify('email_outbox', '')")
        .execute(&mut *connection)
        .await?;
    Ok(id)
}

/// Claims up to `limit` due messages for `lease` under the name `holder`, oldest first,
/// counting the attempt and giving each its Message-ID (`<outbox-ID.RANDOM@domain>`) the first
/// time. Rows another sender holds are skipped, not waited for.
pub async fn claim(pool: &PgPool, limit: i64, lease: Duration, domain: &str, holder: &str) -> Result<Vec<OutboxEmail>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "with due as (
             select id from email_outbox
             where state = 'pending' and next_attempt_at <= now()
               and (locked_until is null or locked_until < now())
             order by next_attempt_at, id
             limit $1
             for update skip locked
         )
         update email_outbox as e
         set locked_until = now() + make_interval(secs => $2),
             lease_holder = $4,
             attempts = e.attempts + 1,
             message_id = coalesce(e.message_id,
                 '<outbox-' || e.id || '.' || substr(md5(random()::text || clock_timestamp()::text), 1, 16) || '@' || $3 || '>')
         from due where e.id = due.id
         returning {}",
        COLUMNS
            .split(", ")
            .map(|column| format!("e.{column}"))
            .collect::<Vec<_>>()
            .join(", ")
    )))
    .bind(limit)
    .bind(lease.as_secs_f64())
    .bind(domain)
    .bind(holder)
    .fetch_all(pool)
    .await?)
}

/// Renews the lease of the rows `holder` claimed and has not finished, to `lease` from now.
/// Returns how many it still holds.
pub async fn renew_lease(pool: &PgPool, holder: &str, lease: Duration) -> Result<u64> {
    Ok(sqlx::query(
        "update email_outbox set locked_until = now() + make_interval(secs => $2)
         where lease_holder = $1 and state = 'pending' and locked_until is not null",
    )
    .bind(holder)
    .bind(lease.as_secs_f64())
    .execute(pool)
    .await?
    .rows_affected())
}

/// Turns a claimed link request into the message of its link (`kind` the link's purpose), on
/// the transaction that issued the token. False when the row is no longer a link request
/// (another sender resolved it after this one's lease ran out).
pub async fn resolve_link_request(connection: &mut PgConnection, id: i64, kind: &str, link: &str) -> Result<bool> {
    Ok(
        sqlx::query("update email_outbox set kind = $2, link = $3 where id = $1 and kind = $4")
            .bind(id)
            .bind(kind)
            .bind(link)
            .bind(LINK_REQUEST)
            .execute(&mut *connection)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Deletes a link request for an address no account has: nothing about it is kept.
pub async fn drop_link_request(pool: &PgPool, id: i64) -> Result<()> {
    sqlx::query("delete from email_outbox where id = $1 and kind = $2")
        .bind(id)
        .bind(LINK_REQUEST)
        .execute(pool)
        .await?;
    Ok(())
}

/// Records a delivery: the subject is kept for operators; the link is dropped unless
/// `keep_link` (the development mailbox shows it).
pub async fn mark_sent(pool: &PgPool, id: i64, subject: &str, keep_link: bool) -> Result<()> {
    sqlx::query(
        "update email_outbox
         set state = 'sent', sent_at = now(), subject = $2, locked_until = null, last_error = null,
             link = case when $3 then link end
         where id = $1",
    )
    .bind(id)
    .bind(subject)
    .bind(keep_link)
    .execute(pool)
    .await?;
    Ok(())
}

/// Puts a message back after a temporary failure, due again after `delay`.
pub async fn mark_retry(pool: &PgPool, id: i64, error: &str, delay: Duration) -> Result<()> {
    crate::reschedule(
        pool,
        "update email_outbox
         set next_attempt_at = now() + make_interval(secs => $3), locked_until = null, last_error = $2
         where id = $1 and state = 'pending'",
        id,
        error,
        delay,
    )
    .await
}

/// Gives a message up (a permanent answer, or too many attempts). Its link is kept so that
/// `retry` can send it as it was, while the token is still valid.
pub async fn mark_failed(pool: &PgPool, id: i64, error: &str) -> Result<()> {
    sqlx::query(
        "update email_outbox
         set state = 'failed', failed_at = now(), locked_until = null, last_error = $2
         where id = $1",
    )
    .bind(id)
    .bind(error)
    .execute(pool)
    .await?;
    Ok(())
}

/// Sends a failed message again with a fresh count of attempts. False when no failed message
/// has that id.
pub async fn retry(pool: &PgPool, id: i64) -> Result<bool> {
    Ok(sqlx::query(
        "update email_outbox
         set state = 'pending', attempts = 0, next_attempt_at = now(), failed_at = null, locked_until = null
         where id = $1 and state = 'failed'",
    )
    .bind(id)
    .execute(pool)
    .await?
    .rows_affected()
        == 1)
}

/// Counts by state: `(state, messages)`, every state listed.
pub async fn counts(pool: &PgPool) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "select s.state, count(e.id)
         from unnest(array['pending', 'sent', 'failed']) with ordinality as s(state, position)
         left join email_outbox e on e.state = s.state
         group by s.state, s.position order by s.position",
    )
    .fetch_all(pool)
    .await?)
}

/// What waits in the outbox: messages pending (retries included) and failed, and the age of the
/// oldest pending one in seconds (0 when none). Both counts read a partial index.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backlog {
    pub pending: i64,
    pub failed: i64,
    pub oldest_pending_seconds: f64,
}

pub async fn backlog(pool: &PgPool) -> Result<Backlog> {
    let (pending, failed, oldest_pending_seconds) = sqlx::query_as(
        "select (select count(*) from email_outbox where state = 'pending'),
                (select count(*) from email_outbox where state = 'failed'),
                coalesce((select extract(epoch from now() - min(created_at))::float8
                          from email_outbox where state = 'pending'), 0)",
    )
    .fetch_one(pool)
    .await?;
    Ok(Backlog {
        pending,
        failed,
        oldest_pending_seconds,
    })
}

/// The failed messages, newest first.
pub async fn failed(pool: &PgPool, limit: i64) -> Result<Vec<OutboxEmail>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from email_outbox where state = 'failed' order by id desc limit $1"
    )))
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// The newest messages, newest first (the development mailbox).
pub async fn recent(pool: &PgPool, limit: i64) -> Result<Vec<OutboxEmail>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from email_outbox order by id desc limit $1"
    )))
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// The newest message to an address, if any (for operators and tests).
pub async fn latest_to(pool: &PgPool, to_email: &str, kind: Option<&str>) -> Result<Option<OutboxEmail>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select {COLUMNS} from email_outbox
         where to_email = $1 and ($2::text is null or kind = $2)
         order by id desc limit 1"
    )))
    .bind(to_email)
    .bind(kind)
    .fetch_optional(pool)
    .await?)
}

/// Drops the links of messages older than `age` whatever their state (the longest-lived token
/// is valid for a day, so an older link opens nothing). Returns how many were dropped.
pub async fn forget_old_links(pool: &PgPool, age: Duration) -> Result<u64> {
    Ok(sqlx::query(
        "update email_outbox set link = null
         where link is not null and created_at < now() - make_interval(secs => $1)",
    )
    .bind(age.as_secs_f64())
    .execute(pool)
    .await?
    .rows_affected())
}

/// What a waitlist or notify-me message says about its clinic.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClinicFacts {
    pub id: i64,
    pub organisation_id: i64,
    pub name: String,
    pub location_name: String,
    pub address: String,
    pub lat: f64,
    pub lng: f64,
}

pub async fn clinic_facts(pool: &PgPool, location_id: i64) -> Result<Option<ClinicFacts>> {
    Ok(sqlx::query_as(
        "select id, organisation_id, name, location_name,
                address1 || ', ' || city || ', ' || state || ' ' || zip as address, lat, lng
         from locations where id = $1",
    )
    .bind(location_id)
    .fetch_optional(pool)
    .await?)
}
