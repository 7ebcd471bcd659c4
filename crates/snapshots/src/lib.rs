//! The search snapshot's life: build from PostgreSQL, publish, load the newest, and catch up
//! with small catalogue changes. The operator CLI and the API server share this code.

use std::path::{Path, PathBuf};
use std::time::Instant;

mod fetch;
pub mod storage;
mod upload;

use fetch::holds_files;
pub use fetch::{Fetched, fetch_generation};
pub use upload::collect_stored_generations;
use upload::upload_and_publish;

use anyhow::{Context, Result};
use search::{Snapshot, SnapshotInput};
use store::PgPool;
use store::generations::{self, Generation, NewGeneration};

pub use storage::GenerationStore;

/// Where the private PostgreSQL cluster and the index live when nothing else is configured.
pub const DEFAULT_LOCAL_DIR: &str = ".local";

/// Generation directories kept on disk besides the newest (servers may still be loading one).
const KEEP_OLD_GENERATIONS: usize = 2;

/// Generations whose files stay stored in PostgreSQL (the newest ones), for servers still
/// fetching or starting on one of them.
pub const KEEP_STORED_GENERATIONS: i64 = 3;

/// Opens the database: `DATABASE_URL` when given, otherwise the private cluster in
/// `local_dir/postgres` (started if needed) and its `nearcare` database. Migrations are applied.
pub async fn open_database(database_url: Option<&str>, local_dir: &Path) -> Result<PgPool> {
    Ok(open_database_with_cluster(database_url, local_dir).await?.0)
}

/// The database URL to use: `DATABASE_URL=` (set but empty, or blank) means unset, as a shell
/// user would expect.
pub fn given_database_url(database_url: Option<&str>) -> Option<&str> {
    database_url.map(str::trim).filter(|url| !url.is_empty())
}

/// Like [`open_database`], also returning the private cluster when one is used.
pub async fn open_database_with_cluster(
    database_url: Option<&str>,
    local_dir: &Path,
) -> Result<(PgPool, Option<pgcluster::PrivateCluster>)> {
    let (url, cluster) = match given_database_url(database_url) {
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

/// Creates database `name` on the cluster `admin_url` reaches, unless it exists.
pub async fn ensure_database(admin_url: &str, name: &str) -> Result<()> {
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
        networks: input.networks,
        insurance_plans: input.insurance_plans,
        hours_patterns: input
            .hours_patterns
            .into_iter()
            .map(|(hours, location_ids)| search::HoursPattern { hours, location_ids })
            .collect(),
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

/// Reads the catalogue, builds a snapshot in a new generation directory, stores its files in
/// PostgreSQL and publishes it (one transaction), then deletes the stored files of old
/// generations. A failed build or upload removes its directory and publishes nothing, so the
/// served snapshot stays.
pub async fn rebuild(
    pool: &PgPool,
    index_dir: &Path,
    progress: impl Fn(&str, u64, u64) + Send + Sync + 'static,
) -> Result<(BuildReport, Snapshot)> {
    rebuild_to(pool, index_dir, &GenerationStore::Postgres, progress).await
}

/// [`rebuild`], storing the generation's files in `files_store`.
pub async fn rebuild_to(
    pool: &PgPool,
    index_dir: &Path,
    files_store: &GenerationStore,
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
        // Marks the folder as being built for as long as this process holds the lock, until
        // the generation is published: a folder whose marker nobody holds was left by a killed
        // build or upload (see remove_partial_generations).
        let marker = std::fs::File::create(build_directory.join(BUILDING_MARKER))?;
        marker.lock()?;
        let outcome = Snapshot::build_with_progress(snapshot_input(rows), Some(&build_directory), &progress);
        if outcome.is_err() {
            let _ = std::fs::remove_dir_all(&build_directory);
        }
        outcome.map(|built| (built, marker)).map_err(anyhow::Error::from)
    })
    .await
    .context("the build task stopped")?
    .context("building the snapshot")?;
    let (built, marker) = built;
    let build_millis = build_started.elapsed().as_millis();
    let new = NewGeneration {
        directory: directory.to_string_lossy().into_owned(),
        catalogue_watermark: watermark,
        catalogue_cursor: cursor,
        locations: built.location_count() as i32,
        clinicians: built.clinician_count() as i32,
        build_millis: i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX),
        peak_rss_bytes: peak_rss_bytes() as i64,
    };
    // The files and the generation's row commit together: an upload that fails (or a process
    // killed mid-upload) rolls back, and nothing of it is published.
    let published = match upload_and_publish(pool, files_store, generation, &directory, &new).await {
        Ok(published) => published,
        Err(error) => {
            let _ = std::fs::remove_dir_all(&directory);
            return Err(error);
        }
    };
    // Published: the folder is finished (a marker left behind would only make the next start
    // remove the folder, and this machine fetch it back).
    if let Err(error) = std::fs::remove_file(directory.join(BUILDING_MARKER)) {
        tracing::warn!(path = %directory.display(), %error, "could not remove the build marker");
    }
    drop(marker);
    collect_stored_generations(pool, files_store).await;
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

/// Removes generation folders left half-built by a rebuild (or half-fetched by a server) that
/// was killed: those whose building marker no live process holds. Run at the start of the server and the indexer; a
/// build running elsewhere keeps its lock and its folder. Returns the folders removed.
pub fn remove_partial_generations(index_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(index_dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(|entry| entry.ok()) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("gen-") {
            continue;
        }
        match std::fs::File::open(path.join(BUILDING_MARKER)) {
            // Held by a running build or fetch: not ours to remove.
            Ok(marker) if marker.try_lock().is_err() => continue,
            Ok(_) => {}
            // A process killed between creating the folder and its marker leaves neither the
            // marker nor READY.
            Err(_) if !unmarked_and_abandoned(&path, &name) => continue,
            Err(_) => {}
        }
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

/// Whether a generation folder without a building marker was left by a killed process: not
/// finished (no READY), and either a fetch's side folder whose process is gone or a build
/// folder untouched for a minute (a running build creates its marker right after the folder).
fn unmarked_and_abandoned(path: &Path, name: &str) -> bool {
    if path.join("READY").exists() {
        return false;
    }
    if let Some((_, pid)) = name.split_once(".fetching-") {
        let alive = pid
            .parse::<u32>()
            .is_ok_and(|pid| pid != std::process::id() && Path::new(&format!("/proc/{pid}")).exists());
        return !alive;
    }
    std::fs::metadata(path)
        .and_then(|metadata| metadata.modified())
        .is_ok_and(|modified| {
            modified
                .elapsed()
                .is_ok_and(|age| age > std::time::Duration::from_secs(60))
        })
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

/// Opens the newest published generation from this machine's index folder, fetching it from
/// PostgreSQL first when the folder does not hold it. `None` when nothing is published; an
/// error when the generation cannot be fetched (a damaged file is refused) or opened.
pub async fn load_published(pool: &PgPool, index_dir: &Path) -> Result<Option<Snapshot>> {
    Ok(load_published_timed(pool, index_dir)
        .await?
        .map(|(snapshot, _)| snapshot))
}

/// How long [`load_published_timed`] took: fetching the generation's files (when this server did
/// not have them) and opening them.
#[derive(Debug, Clone, Copy)]
pub struct LoadTimes {
    pub fetch: Option<std::time::Duration>,
    pub open: std::time::Duration,
}

/// [`load_published`], with how long the fetch and the opening took.
pub async fn load_published_timed(pool: &PgPool, index_dir: &Path) -> Result<Option<(Snapshot, LoadTimes)>> {
    let Some(current) = generations::current(pool).await? else {
        return Ok(None);
    };
    let mut fetch = None;
    let generation = current.generation;
    let mut directory = generation_directory(index_dir, generation);
    let stored = generations::stored_files(pool, generation).await?;
    if directory.exists() && !stored.is_empty() && !holds_files(&directory, &stored) {
        // A folder of the same number from another database (one that was reset, say).
        tracing::warn!(path = %directory.display(), "a local folder is not the published generation: replacing it");
        std::fs::remove_dir_all(&directory).with_context(|| format!("removing {}", directory.display()))?;
    }
    if !directory.exists() {
        if stored.is_empty() {
            // Published before generations were stored: only its builder's folder has it.
            directory = PathBuf::from(&current.build.directory);
        } else {
            let fetching = std::time::Instant::now();
            directory = fetch_generation(pool, index_dir, generation).await?.directory;
            fetch = Some(fetching.elapsed());
        }
    }
    let opening = std::time::Instant::now();
    let opened = tokio::task::spawn_blocking(move || Snapshot::open(&directory, generation)).await?;
    let snapshot = opened.with_context(|| format!("opening generation {generation}"))?;
    let open = opening.elapsed();
    prune_generations(index_dir, generation);
    Ok(Some((snapshot, LoadTimes { fetch, open })))
}

/// The newest snapshot with later catalogue changes applied; builds and publishes one when
/// none can be opened (a fresh machine needs no extra step).
pub async fn load_or_build(pool: &PgPool, index_dir: &Path) -> Result<Snapshot> {
    load_or_build_to(pool, index_dir, &GenerationStore::Postgres).await
}

/// [`load_or_build`], storing a generation it builds in `files_store`.
pub async fn load_or_build_to(pool: &PgPool, index_dir: &Path, files_store: &GenerationStore) -> Result<Snapshot> {
    remove_partial_generations(index_dir);
    // A second try covers a newer generation published (and an older one collected) mid-fetch.
    let loaded = match load_published(pool, index_dir).await {
        Ok(loaded) => loaded,
        Err(_) => match load_published(pool, index_dir).await {
            Ok(loaded) => loaded,
            Err(error) => {
                tracing::warn!(
                    error = format!("{error:#}"),
                    "the newest generation cannot be fetched or opened"
                );
                None
            }
        },
    };
    let snapshot = match loaded {
        Some(snapshot) => snapshot,
        None => {
            tracing::info!("no published snapshot this server can open: building one");
            let (report, snapshot) = rebuild_to(pool, index_dir, files_store, |_, _, _| {}).await?;
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
            Ok(rebuild_to(pool, index_dir, files_store, |_, _, _| {}).await?.1)
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

#[cfg(test)]
mod tests {
    #[test]
    fn an_empty_database_url_means_the_private_cluster() {
        assert_eq!(super::given_database_url(None), None);
        assert_eq!(super::given_database_url(Some("")), None);
        assert_eq!(super::given_database_url(Some("  ")), None);
        assert_eq!(
            super::given_database_url(Some(" postgres://db/x ")),
            Some("postgres://db/x")
        );
    }
}
