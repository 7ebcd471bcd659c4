//! The email outbox: messages are written in the transaction that creates what they announce
//! and delivered later by a background task, so a rolled-back request sends nothing.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use crate::Result;

/// A message to send.
#[derive(Debug, Clone)]
pub struct NewEmail<'a> {
    pub to_email: &'a str,
    /// What the message is, for example `verify_email` or `password_reset`.
    pub kind: &'a str,
    pub subject: &'a str,
    pub body: &'a str,
    pub link: Option<&'a str>,
}

/// A stored message.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxEmail {
    pub id: i64,
    pub to_email: String,
    pub kind: String,
    pub subject: String,
    pub body: String,
    pub link: Option<String>,
    pub created_at: DateTime<Utc>,
    pub attempts: i32,
}

pub async fn enqueue(connection: &mut PgConnection, email: &NewEmail<'_>) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "insert into email_outbox (to_email, kind, subject, body, link) values ($1, $2, $3, $4, $5) returning id",
    )
    .bind(email.to_email)
    .bind(email.kind)
    .bind(email.subject)
    .bind(email.body)
    .bind(email.link)
    .fetch_one(&mut *connection)
    .await?)
}

/// Hands up to `limit` unsent messages to `deliver`, oldest first, and stamps those it accepts
/// as sent. Rows are locked while delivered (`skip locked`), so several servers never send
/// the same message twice. Returns how many were sent.
pub async fn deliver_pending<F>(pool: &PgPool, limit: i64, mut deliver: F) -> Result<usize>
where
    F: FnMut(&OutboxEmail) -> bool,
{
    let mut transaction = pool.begin().await?;
    let pending: Vec<OutboxEmail> = sqlx::query_as(
        "select id, to_email, kind, subject, body, link, created_at, attempts from email_outbox
         where sent_at is null and attempts < 10
         order by id limit $1 for update skip locked",
    )
    .bind(limit)
    .fetch_all(&mut *transaction)
    .await?;
    let mut sent = Vec::with_capacity(pending.len());
    let mut failed = Vec::new();
    for email in &pending {
        if deliver(email) {
            sent.push(email.id);
        } else {
            failed.push(email.id);
        }
    }
    sqlx::query("update email_outbox set sent_at = now(), attempts = attempts + 1 where id = any($1)")
        .bind(&sent)
        .execute(&mut *transaction)
        .await?;
    sqlx::query("update email_outbox set attempts = attempts + 1 where id = any($1)")
        .bind(&failed)
        .execute(&mut *transaction)
        .await?;
    transaction.commit().await?;
    Ok(sent.len())
}

/// The newest message to an address, if any (for operators and tests).
pub async fn latest_to(pool: &PgPool, to_email: &str, kind: Option<&str>) -> Result<Option<OutboxEmail>> {
    Ok(sqlx::query_as(
        "select id, to_email, kind, subject, body, link, created_at, attempts from email_outbox
         where to_email = $1 and ($2::text is null or kind = $2)
         order by id desc limit 1",
    )
    .bind(to_email)
    .bind(kind)
    .fetch_optional(pool)
    .await?)
}
