//! PostgreSQL access: the pool, migrations, the catalogue queries, and member accounts (members,
//! one-time tokens, the email outbox, rate limits, the eligibility roster) as plain async
//! functions.

pub mod analytics;
pub mod attestation;
pub mod benefit_requests;
pub mod capacity;
pub mod catalogue;
pub mod contact_requests;
pub mod copy;
pub mod directory;
pub mod enrolment;
pub mod family;
pub mod favourites;
pub mod generations;
pub mod jobs;
pub mod listings;
pub mod members;
pub mod memberships;
pub mod outbox;
pub mod participations;
pub mod providers;
pub mod rate_limits;
pub mod request_id;
pub mod roster;
pub mod sessions;
pub mod terms_agreements;
pub mod tokens;
pub mod waitlist;

use std::time::Duration;

pub use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be reached or a query failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration could not be applied.
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// A row already exists with the same unique key.
    #[error("already exists: {0}")]
    AlreadyExists(String),
    /// A stored value does not fit the domain's rules.
    #[error("invalid stored data: {0}")]
    InvalidData(String),
    /// The catalogue already holds data and the caller did not ask to replace it.
    #[error("the catalogue is not empty; pass --replace to overwrite it")]
    CatalogueNotEmpty,
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Opens a pool; fails within `connect_timeout` when the server does not answer.
pub async fn connect(url: &str, max_connections: u32) -> Result<PgPool> {
    let pool = PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(5))
        .connect(url)
        .await?;
    Ok(pool)
}

/// Applies the migrations in `migrations/` that the database has not seen yet.
pub async fn migrate(pool: &PgPool) -> Result<()> {
    sqlx::migrate!("../../migrations").run(pool).await?;
    Ok(())
}

/// Turns a unique violation into [`StoreError::AlreadyExists`], keeping other errors as they are.
pub fn convert_sqlx_err(error: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(db_error) = &error
        && db_error.is_unique_violation()
    {
        return StoreError::AlreadyExists(db_error.constraint().unwrap_or("unique key").to_owned());
    }
    StoreError::Database(error)
}

/// Puts a claimed row (an outbox message, a job) back to be tried again after `delay`, with the
/// error that stopped it: `statement` binds the row's id ($1), the error ($2) and the delay in
/// seconds ($3).
async fn reschedule(pool: &PgPool, statement: &'static str, id: i64, error: &str, delay: Duration) -> Result<()> {
    sqlx::query(statement)
        .bind(id)
        .bind(error)
        .bind(delay.as_secs_f64())
        .execute(pool)
        .await?;
    Ok(())
}
