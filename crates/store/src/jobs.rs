//! Background jobs in PostgreSQL, claimed like the email outbox: `FOR UPDATE SKIP LOCKED` and a
//! lease, so any number of servers run them, a job runs on one server at a time, and a crashed
//! server's job is taken again once its lease runs out.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgPool;

use crate::Result;

/// A claimed job.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Job {
    pub id: i64,
    pub kind: String,
    pub payload: Value,
    pub attempts: i32,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    /// The request that enqueued the job (`x-request-id`), when one did.
    pub request_id: Option<String>,
}

/// Adds a job due after `delay`, unless one with the same `dedupe_key` is pending, with the id
/// of the request it is added for (see [`crate::request_id`]). Returns whether it was added. `NOTIFY jobs` wakes the runners when it commits.
pub async fn enqueue(
    pool: &PgPool,
    kind: &str,
    payload: &Value,
    dedupe_key: &str,
    delay: Duration,
    lifetime: Duration,
) -> Result<bool> {
    let added: Option<i64> = sqlx::query_scalar(
        "insert into jobs (kind, payload, dedupe_key, run_at, expires_at, request_id)
         values ($1, $2, $3, now() + make_interval(secs => $4), now() + make_interval(secs => $5), $6)
         on conflict (dedupe_key) where state = 'pending' do nothing
         returning id",
    )
    .bind(kind)
    .bind(payload)
    .bind(dedupe_key)
    .bind(delay.as_secs_f64())
    .bind(lifetime.as_secs_f64())
    .bind(crate::request_id::current_text())
    .fetch_optional(pool)
    .await?;
    if added.is_some() {
        sqlx::query("select pg_notify('jobs', '')").execute(pool).await?;
    }
    Ok(added.is_some())
}

/// Claims up to `limit` due jobs for `lease`, counting the attempt.
pub async fn claim(pool: &PgPool, limit: i64, lease: Duration) -> Result<Vec<Job>> {
    Ok(sqlx::query_as(
        "with due as (
             select id from jobs
             where state = 'pending' and run_at <= now()
               and (locked_until is null or locked_until < now())
             order by run_at, id
             limit $1
             for update skip locked
         )
         update jobs as j
         set locked_until = now() + make_interval(secs => $2), attempts = j.attempts + 1
         from due where j.id = due.id
         returning j.id, j.kind, j.payload, j.attempts, j.expires_at, j.created_at, j.request_id",
    )
    .bind(limit)
    .bind(lease.as_secs_f64())
    .fetch_all(pool)
    .await?)
}

pub async fn done(pool: &PgPool, id: i64) -> Result<()> {
    sqlx::query("update jobs set state = 'done', finished_at = now(), locked_until = null where id = $1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn retry(pool: &PgPool, id: i64, error: &str, delay: Duration) -> Result<()> {
    crate::reschedule(
        pool,
        "update jobs set run_at = now() + make_interval(secs => $3), locked_until = null, last_error = $2
         where id = $1",
        id,
        error,
        delay,
    )
    .await
}

pub async fn fail(pool: &PgPool, id: i64, error: &str) -> Result<()> {
    sqlx::query(
        "update jobs set state = 'failed', finished_at = now(), locked_until = null, last_error = $2 where id = $1",
    )
    .bind(id)
    .bind(error)
    .execute(pool)
    .await?;
    Ok(())
}

/// Jobs pending and failed, by kind: `(kind, state, jobs)`.
pub async fn counts(pool: &PgPool) -> Result<Vec<(String, String, i64)>> {
    Ok(sqlx::query_as(
        "select kind, state, count(*) from jobs where state in ('pending', 'failed') group by kind, state order by 1, 2",
    )
    .fetch_all(pool)
    .await?)
}
