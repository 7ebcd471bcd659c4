//! Published search snapshot generations.

use chrono::{DateTime, Utc};
use sqlx::{PgPool, Row};

use crate::Result;

/// The channel a new generation is announced on; the payload is the generation number.
pub const INDEX_PUBLISHED_CHANNEL: &str = "index_published";
/// The channel catalogue edits are announced on (see the migration's triggers).
pub const CATALOGUE_CHANGED_CHANNEL: &str = "catalogue_changed";

/// One published snapshot: its number, what its build reported, and when it was published.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Generation {
    pub generation: i64,
    #[serde(flatten)]
    pub build: NewGeneration,
    pub published_at: DateTime<Utc>,
}

/// What a finished build reports before it is published.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NewGeneration {
    pub directory: String,
    pub catalogue_watermark: DateTime<Utc>,
    /// The database snapshot the catalogue was read under (see `catalogue::changes_since`).
    pub catalogue_cursor: String,
    pub locations: i32,
    pub clinicians: i32,
    pub build_millis: i32,
    pub peak_rss_bytes: i64,
}

/// Reserves the next generation number, so its directory can be named before the build.
pub async fn next_generation_number(pool: &PgPool) -> Result<i64> {
    let next: i64 = sqlx::query_scalar("select nextval(pg_get_serial_sequence('index_generations', 'generation'))")
        .fetch_one(pool)
        .await?;
    Ok(next)
}

/// Records a generation and announces it, in one transaction: listeners hear of it only once
/// the row is visible.
pub async fn publish(pool: &PgPool, generation: i64, new: &NewGeneration) -> Result<Generation> {
    let mut transaction = pool.begin().await?;
    let row = sqlx::query(
        "insert into index_generations
             (generation, directory, catalogue_watermark, catalogue_cursor, locations, clinicians, build_millis,
              peak_rss_bytes)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         returning published_at",
    )
    .bind(generation)
    .bind(&new.directory)
    .bind(new.catalogue_watermark)
    .bind(&new.catalogue_cursor)
    .bind(new.locations)
    .bind(new.clinicians)
    .bind(new.build_millis)
    .bind(new.peak_rss_bytes)
    .fetch_one(&mut *transaction)
    .await?;
    sqlx::query("select pg_notify($1, $2)")
        .bind(INDEX_PUBLISHED_CHANNEL)
        .bind(generation.to_string())
        .execute(&mut *transaction)
        .await?;
    transaction.commit().await?;
    Ok(Generation {
        generation,
        build: new.clone(),
        published_at: row.try_get("published_at")?,
    })
}

/// Returns the newest published generation, if any.
pub async fn current(pool: &PgPool) -> Result<Option<Generation>> {
    let row = sqlx::query(
        "select generation, directory, catalogue_watermark, catalogue_cursor, locations, clinicians, build_millis,
                peak_rss_bytes, published_at
         from index_generations order by generation desc limit 1",
    )
    .fetch_optional(pool)
    .await?;
    row.map(|row| {
        Ok(Generation {
            generation: row.try_get("generation")?,
            build: NewGeneration {
                directory: row.try_get("directory")?,
                catalogue_watermark: row.try_get("catalogue_watermark")?,
                catalogue_cursor: row.try_get("catalogue_cursor")?,
                locations: row.try_get("locations")?,
                clinicians: row.try_get("clinicians")?,
                build_millis: row.try_get("build_millis")?,
                peak_rss_bytes: row.try_get("peak_rss_bytes")?,
            },
            published_at: row.try_get("published_at")?,
        })
    })
    .transpose()
}
