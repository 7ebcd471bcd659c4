//! Product analytics events (`analytics_events`): a name, the member if signed in, and free-form
//! JSON properties. Written in the caller's transaction or straight to the pool.

use serde_json::Value;
use sqlx::PgExecutor;

use crate::Result;

/// The search record the marketplace sends (`POST /member/app/metadata`).
pub const SEARCH_METADATA: &str = "search_metadata";

/// Stores one event and returns its id.
pub async fn record<'e>(
    executor: impl PgExecutor<'e>,
    name: &str,
    member_id: Option<i64>,
    properties: &Value,
) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "insert into analytics_events (name, member_id, properties) values ($1, $2, $3) returning id",
    )
    .bind(name)
    .bind(member_id)
    .bind(properties)
    .fetch_one(executor)
    .await?)
}

/// Deletes the events older than `retention`, counting them first into `analytics_daily` by
/// day (UTC) and name, so totals outlive the rows. Returns how many events were deleted.
pub async fn expire(pool: &sqlx::PgPool, retention: std::time::Duration) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "with gone as (
             delete from analytics_events where created_at < now() - make_interval(secs => $1)
             returning created_at, name, member_id
         ), counted as (
             insert into analytics_daily (day, name, events, signed_in)
             select (created_at at time zone 'UTC')::date, name, count(*), count(member_id)
             from gone group by 1, 2
             on conflict (day, name) do update
             set events = analytics_daily.events + excluded.events,
                 signed_in = analytics_daily.signed_in + excluded.signed_in
         )
         select count(*) from gone",
    )
    .bind(retention.as_secs_f64())
    .fetch_one(pool)
    .await?)
}
