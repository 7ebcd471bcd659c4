//! Fixed-window attempt counters in PostgreSQL, so every server sees the same counts.

use std::time::Duration;

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

/// Deletes windows that started more than `older_than` ago.
pub async fn prune(pool: &PgPool, older_than: Duration) -> Result<u64> {
    let done = sqlx::query("delete from rate_limit_windows where window_start < now() - make_interval(secs => $1)")
        .bind(older_than.as_secs_f64())
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}
