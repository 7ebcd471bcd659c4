//! Agreements to the Terms of Use: the version (a digest of the text shown) and the time, one
//! row per agreement so a later version adds to the history.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use crate::Result;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TermsAgreement {
    pub version: String,
    pub agreed_at: DateTime<Utc>,
}

pub async fn record(connection: &mut PgConnection, member_id: i64, version: &str) -> Result<()> {
    sqlx::query("insert into terms_agreements (member_id, version) values ($1, $2)")
        .bind(member_id)
        .bind(version)
        .execute(connection)
        .await?;
    Ok(())
}

/// The member's most recent agreement, if any.
pub async fn latest(pool: &PgPool, member_id: i64) -> Result<Option<TermsAgreement>> {
    Ok(sqlx::query_as(
        "select version, agreed_at from terms_agreements where member_id = $1
         order by agreed_at desc, id desc limit 1",
    )
    .bind(member_id)
    .fetch_optional(pool)
    .await?)
}
