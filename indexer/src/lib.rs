//! The search snapshot's life: build from PostgreSQL, publish, load the newest, and catch up
//! with small catalogue changes. The operator CLI and the API server share this code.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use search::{Snapshot, SnapshotInput};
use store::PgPool;
use store::generations::{self, Generation, NewGeneration};

/// Where the private PostgreSQL cluster and the index live when nothing else is configured.
pub const DEFAULT_LOCAL_DIR: &str = ".local";

/// Generation directories kept on disk besides the newest (servers may still be loading one).
const KEEP_OLD_GENERATIONS: usize = 2;

/// Opens the database: `DATABASE_URL` when given, otherwise the private cluster in
/// `local_dir/postgres` (started if needed) and its `nearcare` database. Migrations are applied.
pub async fn open_database(database_url: Option<&str>, local_dir: &Path) -> Result<PgPool> {
    Ok(open_database_with_cluster(database_url, local_dir).await?.0)
}

/// Like [`open_database`], also returning the private cluster when one is used.
pub async fn open_database_with_cluster(
    database_url: Option<&str>,
    local_dir: &Path,
) -> Result<(PgPool, Option<pgcluster::PrivateCluster>)> {
    let (url, cluster) = match database_url {
        Some(url) => (url.to_owned(), None),
        None => {
            let root = local_dir.join("postgres");
            let cluster = tokio::task::spawn_blocking(move || pgcluster::PrivateCluster::start(&root)).await??;
            ensure_database(&cluster.url("postgres"), "nearcare").await?;
            (cluster.url("nearcare"), Some(cluster))
        }
    };
    let pool = store::connect(&url, 16)
        .await
        .with_context(|| format!("cannot reach the database at {}", redact(&url)))?;
    store::migrate(&pool).await.context("applying migrations")?;
    Ok((pool, cluster))
}

async fn ensure_database(admin_url: &str, name: &str) -> Result<()> {
    use sqlx::{Connection, Executor};
    let mut admin = sqlx::PgConnection::connect(admin_url)
        .await
        .context("connecting to the private cluster")?;
    let exists: bool = sqlx::query_scalar("select exists(select 1 from pg_database where datname = $1)")
        .bind(name)
        .fetch_one(&mut admin)
        .await?;
    if !exists {
        admin
            .execute(sqlx::AssertSqlSafe(format!("create database {name}")))
            .await?;
    }
    Ok(())
}

/// Hides a password in a connection URL.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

/// Converts the store's rows into the search engine's input.
pub fn snapshot_input(input: store::catalogue::IndexInput) -> SnapshotInput {
    SnapshotInput {
        organisations: input.organisations,
        locations: input.locations,
        clinicians: input.clinicians,
        employers: input.employers,
        version: search::CatalogueVersion {
            watermark_micros: input.watermark.timestamp_micros(),
            cursor: input.cursor,
        },
    }
}

/// The peak resident memory of this process so far, in bytes (Linux `VmHWM`).
pub fn peak_rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
            let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kilobytes * 1024)
        })
        .unwrap_or(0)
}

/// What a rebuild did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    pub generation: Generation,
    pub read_millis: u128,
    pub build_millis: u128,
}

/// Reads the catalogue, builds a snapshot in a new generation directory and publishes it. A
/// failed build removes its directory and publishes nothing, so the served snapshot stays.
pub async fn rebuild(
    pool: &PgPool,
    index_dir: &Path,
    progress: impl Fn(&str, u64, u64) + Send + Sync + 'static,
) -> Result<(BuildReport, Snapshot)> {
    let started = Instant::now();
    progress("reading catalogue", 0, 0);
    let rows = store::catalogue::read_index_input(pool)
        .await
        .context("reading the catalogue")?;
    let read_millis = started.elapsed().as_millis();
    let watermark = rows.watermark;
    let cursor = rows.cursor.clone();
    let generation = generations::next_generation_number(pool).await?;
    std::fs::create_dir_all(index_dir).with_context(|| format!("creating {}", index_dir.display()))?;
    let directory = generation_directory(&index_dir.canonicalize()?, generation);
    let build_directory = directory.clone();
    let build_started = Instant::now();
    let built = tokio::task::spawn_blocking(move || {
        if build_directory.exists() {
            std::fs::remove_dir_all(&build_directory)?;
        }
        std::fs::create_dir_all(&build_directory)?;
        // Marks the folder as being built for as long as this process holds the lock: a folder
        // whose marker nobody holds was left by a killed build (see remove_partial_generations).
        let marker = std::fs::File::create(build_directory.join(BUILDING_MARKER))?;
        marker.lock()?;
        let outcome = Snapshot::build_with_progress(snapshot_input(rows), Some(&build_directory), &progress);
        match &outcome {
            Ok(_) => std::fs::remove_file(build_directory.join(BUILDING_MARKER))?,
            Err(_) => {
                let _ = std::fs::remove_dir_all(&build_directory);
            }
        }
        drop(marker);
        outcome.map_err(anyhow::Error::from)
    })
    .await
    .context("the build task stopped")?
    .context("building the snapshot")?;
    let build_millis = build_started.elapsed().as_millis();
    let published = generations::publish(
        pool,
        generation,
        &NewGeneration {
            directory: directory.to_string_lossy().into_owned(),
            catalogue_watermark: watermark,
            catalogue_cursor: cursor,
            locations: built.location_count() as i32,
            clinicians: built.clinician_count() as i32,
            build_millis: i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX),
            peak_rss_bytes: peak_rss_bytes() as i64,
        },
    )
    .await?;
    prune_generations(index_dir, generation);
    let mut snapshot = built;
    snapshot.generation = generation;
    Ok((
        BuildReport {
            generation: published,
            read_millis,
            build_millis,
        },
        snapshot,
    ))
}

/// The file a generation folder holds (locked) while it is being built.
pub const BUILDING_MARKER: &str = ".building";

/// Removes generation folders left half-built by a rebuild that was killed: those whose
/// building marker no live process holds. Run at the start of the server and the indexer; a
/// build running elsewhere keeps its lock and its folder. Returns the folders removed.
pub fn remove_partial_generations(index_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(index_dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(|entry| entry.ok()) {
        let path = entry.path();
        let is_generation = entry.file_name().to_str().is_some_and(|name| name.starts_with("gen-"));
        let Ok(marker) = std::fs::File::open(path.join(BUILDING_MARKER)) else {
            continue;
        };
        // Held by a running build: not ours to remove.
        if !is_generation || marker.try_lock().is_err() {
            continue;
        }
        drop(marker);
        match std::fs::remove_dir_all(&path) {
            Ok(()) => {
                tracing::warn!(path = %path.display(), "removed a generation left half-built by a stopped rebuild");
                removed.push(path);
            }
            Err(error) => tracing::warn!(path = %path.display(), %error, "could not remove a half-built generation"),
        }
    }
    removed
}

fn generation_directory(index_dir: &Path, generation: i64) -> PathBuf {
    index_dir.join(format!("gen-{generation:06}"))
}

/// Removes generation directories older than the newest few.
fn prune_generations(index_dir: &Path, newest: i64) {
    let Ok(entries) = std::fs::read_dir(index_dir) else {
        return;
    };
    let mut generations: Vec<(i64, PathBuf)> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let number: i64 = name.strip_prefix("gen-")?.parse().ok()?;
            Some((number, entry.path()))
        })
        .filter(|(number, _)| *number < newest)
        .collect();
    generations.sort_by_key(|(number, _)| std::cmp::Reverse(*number));
    for (_, path) in generations.into_iter().skip(KEEP_OLD_GENERATIONS) {
        if let Err(error) = std::fs::remove_dir_all(&path) {
            tracing::warn!(path = %path.display(), %error, "could not remove an old generation");
        }
    }
}

/// Opens the newest published generation, if its directory is on this machine.
pub async fn load_published(pool: &PgPool) -> Result<Option<Snapshot>> {
    let Some(current) = generations::current(pool).await? else {
        return Ok(None);
    };
    let directory = PathBuf::from(&current.build.directory);
    let generation = current.generation;
    let opened = tokio::task::spawn_blocking(move || Snapshot::open(&directory, generation)).await?;
    match opened {
        Ok(snapshot) => Ok(Some(snapshot)),
        Err(error) => {
            tracing::warn!(generation, %error, "the newest generation cannot be opened");
            Ok(None)
        }
    }
}

/// The newest snapshot with later catalogue changes applied; builds and publishes one when
/// none can be opened (a fresh machine needs no extra step).
pub async fn load_or_build(pool: &PgPool, index_dir: &Path) -> Result<Snapshot> {
    remove_partial_generations(index_dir);
    let snapshot = match load_published(pool).await? {
        Some(snapshot) => snapshot,
        None => {
            tracing::info!("no published snapshot: building one");
            let (report, snapshot) = rebuild(pool, index_dir, |_, _, _| {}).await?;
            tracing::info!(
                generation = report.generation.generation,
                millis = report.build_millis as u64,
                "built a snapshot"
            );
            snapshot
        }
    };
    match catch_up(pool, &snapshot).await? {
        CatchUp::Unchanged => Ok(snapshot),
        CatchUp::Patched(patched) => Ok(patched),
        CatchUp::NeedsRebuild(reason) => {
            tracing::info!(%reason, "catalogue changed beyond a patch: rebuilding");
            Ok(rebuild(pool, index_dir, |_, _, _| {}).await?.1)
        }
    }
}

/// What catching up with the catalogue found.
pub enum CatchUp {
    Unchanged,
    Patched(Snapshot),
    NeedsRebuild(String),
}

/// Applies the catalogue rows changed since the snapshot was read (its cursor). A snapshot
/// without a cursor (not built from this catalogue) needs a rebuild.
pub async fn catch_up(pool: &PgPool, snapshot: &Snapshot) -> Result<CatchUp> {
    let Some(changes) = changes_for(pool, snapshot).await? else {
        return Ok(CatchUp::NeedsRebuild(
            "the snapshot does not say which catalogue state it holds".into(),
        ));
    };
    if changes.is_empty() {
        return Ok(CatchUp::Unchanged);
    }
    let version = search::CatalogueVersion {
        watermark_micros: changes.watermark.timestamp_micros(),
        cursor: changes.cursor,
    };
    match snapshot.with_changes(&changes.locations, &changes.clinicians, version) {
        Ok(patched) => Ok(CatchUp::Patched(patched)),
        Err(search::snapshot::NeedsRebuild(reason)) => Ok(CatchUp::NeedsRebuild(reason)),
    }
}

/// The catalogue rows changed since `snapshot` was read (what a catch-up reads); `None` for a
/// snapshot without a cursor.
pub async fn changes_for(pool: &PgPool, snapshot: &Snapshot) -> Result<Option<store::catalogue::CatalogueChanges>> {
    if snapshot.version.cursor.is_empty() {
        return Ok(None);
    }
    let watermark = chrono::DateTime::from_timestamp_micros(snapshot.version.watermark_micros).unwrap_or_default();
    Ok(Some(
        store::catalogue::changes_since(pool, &snapshot.version.cursor, watermark).await?,
    ))
}
