//! Published search snapshot generations.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool, Row};

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
    let published = publish_in(&mut transaction, generation, new).await?;
    transaction.commit().await?;
    Ok(published)
}

/// Records a generation and announces it inside the caller's transaction (the one that
/// stored its files): nothing is visible, and nobody hears of it, until that commits.
pub async fn publish_in(connection: &mut PgConnection, generation: i64, new: &NewGeneration) -> Result<Generation> {
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
    .fetch_one(&mut *connection)
    .await?;
    sqlx::query("select pg_notify($1, $2)")
        .bind(INDEX_PUBLISHED_CHANNEL)
        .bind(generation.to_string())
        .execute(&mut *connection)
        .await?;
    Ok(Generation {
        generation,
        build: new.clone(),
        published_at: row.try_get("published_at")?,
    })
}

/// The largest chunk a stored file is cut into.
pub const CHUNK_BYTES: usize = 1 << 20;

/// One file of a stored generation: its path inside the generation folder ('/'-separated),
/// its size, how many chunks hold it and the SHA-256 of its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    pub path: String,
    pub size: i64,
    pub chunks: i32,
    pub sha256: Vec<u8>,
    /// Where the bytes are when an object store holds them (then `chunks` is 0).
    pub object_url: Option<String>,
}

/// Stores one chunk of a generation's file (inside the publishing transaction).
pub async fn store_chunk(
    connection: &mut PgConnection,
    generation: i64,
    path: &str,
    chunk: i32,
    data: &[u8],
) -> Result<()> {
    sqlx::query("insert into index_generation_chunks (generation, path, chunk, data) values ($1, $2, $3, $4)")
        .bind(generation)
        .bind(path)
        .bind(chunk)
        .bind(data)
        .execute(connection)
        .await?;
    Ok(())
}

/// Records a generation's file once its chunks are stored (inside the publishing transaction).
pub async fn store_file(connection: &mut PgConnection, generation: i64, file: &StoredFile) -> Result<()> {
    sqlx::query(
        "insert into index_generation_files (generation, path, size, chunks, sha256, object_url)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(generation)
    .bind(&file.path)
    .bind(file.size)
    .bind(file.chunks)
    .bind(&file.sha256)
    .bind(&file.object_url)
    .execute(connection)
    .await?;
    Ok(())
}

/// The files stored for a generation (empty for one published before generations were stored).
pub async fn stored_files(pool: &PgPool, generation: i64) -> Result<Vec<StoredFile>> {
    let rows = sqlx::query(
        "select path, size, chunks, sha256, object_url from index_generation_files where generation = $1 order by path",
    )
    .bind(generation)
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(StoredFile {
                path: row.try_get("path")?,
                size: row.try_get("size")?,
                chunks: row.try_get("chunks")?,
                sha256: row.try_get("sha256")?,
                object_url: row.try_get("object_url")?,
            })
        })
        .collect()
}

/// One chunk of a stored file, if it exists.
pub async fn stored_chunk(pool: &PgPool, generation: i64, path: &str, chunk: i32) -> Result<Option<Vec<u8>>> {
    Ok(sqlx::query_scalar(
        "select data from index_generation_chunks where generation = $1 and path = $2 and chunk = $3",
    )
    .bind(generation)
    .bind(path)
    .bind(chunk)
    .fetch_optional(pool)
    .await?)
}

/// The generations whose files are stored, oldest first.
pub async fn stored_generations(pool: &PgPool) -> Result<Vec<i64>> {
    Ok(
        sqlx::query_scalar("select distinct generation from index_generation_files order by generation")
            .fetch_all(pool)
            .await?,
    )
}

/// What PostgreSQL holds of one stored generation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredGeneration {
    pub generation: i64,
    pub files: i64,
    pub bytes: i64,
}

/// The stored generations with their file counts and sizes, oldest first.
pub async fn stored_summary(pool: &PgPool) -> Result<Vec<StoredGeneration>> {
    let rows = sqlx::query(
        "select generation, count(*) as files, sum(size)::bigint as bytes
         from index_generation_files group by generation order by generation",
    )
    .fetch_all(pool)
    .await?;
    rows.into_iter()
        .map(|row| {
            Ok(StoredGeneration {
                generation: row.try_get("generation")?,
                files: row.try_get("files")?,
                bytes: row.try_get("bytes")?,
            })
        })
        .collect()
}

/// How long a server's report of what it serves counts: a server reports every
/// [`SERVED_REPORT_INTERVAL`], so a silent one is gone.
pub const SERVED_REPORT_FRESHNESS: Duration = Duration::from_secs(120);
/// How often a running server reports the generation it serves.
pub const SERVED_REPORT_INTERVAL: Duration = Duration::from_secs(15);

/// Records that `server` serves `generation` now.
pub async fn report_served(pool: &PgPool, server: &str, generation: i64) -> Result<()> {
    sqlx::query(
        "insert into fleet_servers (server_id, generation) values ($1, $2)
         on conflict (server_id) do update set generation = excluded.generation, heartbeat_at = now()",
    )
    .bind(server)
    .bind(generation)
    .execute(pool)
    .await?;
    Ok(())
}

/// Forgets a server that stopped (and every report older than an hour).
pub async fn forget_server(pool: &PgPool, server: &str) -> Result<()> {
    sqlx::query("delete from fleet_servers where server_id = $1 or heartbeat_at < now() - interval '1 hour'")
        .bind(server)
        .execute(pool)
        .await?;
    Ok(())
}

/// The generations live servers reported serving, with how many serve each.
pub async fn served_generations(pool: &PgPool) -> Result<Vec<(i64, i64)>> {
    Ok(sqlx::query_as(
        "select generation, count(*) from fleet_servers
         where heartbeat_at > now() - make_interval(secs => $1)
         group by generation order by generation",
    )
    .bind(SERVED_REPORT_FRESHNESS.as_secs_f64())
    .fetch_all(pool)
    .await?)
}

/// Deletes the stored files of every generation but the newest `keep` published ones and those
/// a live server still serves. An upload still in progress is not yet committed, so it is never
/// seen (nor deleted) here.
pub async fn collect_garbage(pool: &PgPool, keep: i64) -> Result<Collected> {
    let mut transaction = pool.begin().await?;
    let object_urls: Vec<String> = sqlx::query_scalar::<_, Option<String>>(
        "delete from index_generation_files where generation not in
             (select generation from index_generations order by generation desc limit $1)
           and generation not in
             (select generation from fleet_servers where heartbeat_at > now() - make_interval(secs => $2))
         returning object_url",
    )
    .bind(keep)
    .bind(SERVED_REPORT_FRESHNESS.as_secs_f64())
    .fetch_all(&mut *transaction)
    .await?
    .into_iter()
    .flatten()
    .collect();
    let chunks = sqlx::query(
        "delete from index_generation_chunks where generation not in
             (select generation from index_generations order by generation desc limit $1)
           and generation not in
             (select generation from fleet_servers where heartbeat_at > now() - make_interval(secs => $2))",
    )
    .bind(keep)
    .bind(SERVED_REPORT_FRESHNESS.as_secs_f64())
    .execute(&mut *transaction)
    .await?
    .rows_affected();
    transaction.commit().await?;
    Ok(Collected { chunks, object_urls })
}

/// What [`collect_garbage`] removed from PostgreSQL: chunks deleted, and the objects of
/// object-stored files no longer listed (the caller deletes them from their store).
#[derive(Debug, Clone, Default)]
pub struct Collected {
    pub chunks: u64,
    pub object_urls: Vec<String>,
}

/// Whether any stored file refers to this object (an upload's objects before it is published
/// are referred to by nothing).
pub async fn object_is_listed(pool: &PgPool, object_url: &str) -> Result<bool> {
    Ok(
        sqlx::query_scalar("select exists(select 1 from index_generation_files where object_url = $1)")
            .bind(object_url)
            .fetch_one(pool)
            .await?,
    )
}

/// When `generation` was published; `None` when no such generation is recorded.
pub async fn published_at(pool: &PgPool, generation: i64) -> Result<Option<DateTime<Utc>>> {
    Ok(
        sqlx::query_scalar("select published_at from index_generations where generation = $1")
            .bind(generation)
            .fetch_optional(pool)
            .await?,
    )
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
