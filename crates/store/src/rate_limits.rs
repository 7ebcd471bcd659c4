//! Fixed-window attempt counters in PostgreSQL, so every server sees the same counts.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use crate::Result;

/// Counts one attempt for `key` in the current window of length `window` and returns the
/// attempts in that window, this one included. One statement: concurrent attempts are counted
/// exactly.
pub async fn hit(pool: &PgPool, key: &str, window: Duration) -> Result<i64> {
    let hits: i32 = sqlx::query_scalar(
        "insert into rate_limit_windows (key, window_start, hits)
         values ($1, to_timestamp(floor(extract(epoch from now()) / $2) * $2), 1)
         on conflict (key, window_start) do update set hits = rate_limit_windows.hits + 1
         returning hits",
    )
    .bind(key)
    .bind(window.as_secs_f64().max(1.0))
    .fetch_one(pool)
    .await?;
    Ok(i64::from(hits))
}

/// The attempts counted for `key` in the current window, without counting one.
pub async fn current(pool: &PgPool, key: &str, window: Duration) -> Result<i64> {
    let hits: Option<i32> = sqlx::query_scalar(
        "select hits from rate_limit_windows
         where key = $1 and window_start = to_timestamp(floor(extract(epoch from now()) / $2) * $2)",
    )
    .bind(key)
    .bind(window.as_secs_f64().max(1.0))
    .fetch_optional(pool)
    .await?;
    Ok(hits.map_or(0, i64::from))
}

/// When the next of a kind of message to one address may go, keeping them at least `interval`
/// apart: now when the last went longer ago, else `interval` after it. The slot is recorded and
/// returned, except when one is already waiting (`None`: the waiting one will go, and carries
/// the newest link, so requests made meanwhile add nothing).
pub async fn reserve_slot(pool: &PgPool, key: &str, interval: Duration) -> Result<Option<DateTime<Utc>>> {
    Ok(sqlx::query_scalar(
        "with last as (
             select max(window_start) as at from rate_limit_windows where key = $1
         ), slot as (
             select case
                 when at is null or at <= now() - make_interval(secs => $2) then now()
                 when at <= now() then at + make_interval(secs => $2)
             end as at
             from last
         )
         insert into rate_limit_windows (key, window_start, hits)
         select $1, slot.at, 1 from slot where slot.at is not null
         on conflict (key, window_start) do nothing
         returning window_start",
    )
    .bind(key)
    .bind(interval.as_secs_f64())
    .fetch_optional(pool)
    .await?)
}

/// Deletes windows that started more than `older_than` ago.
pub async fn prune(pool: &PgPool, older_than: Duration) -> Result<u64> {
    let done = sqlx::query("delete from rate_limit_windows where window_start < now() - make_interval(secs => $1)")
        .bind(older_than.as_secs_f64())
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}
