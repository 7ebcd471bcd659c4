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
