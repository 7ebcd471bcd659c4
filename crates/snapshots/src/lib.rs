//! The search snapshot's life: build from PostgreSQL, publish, load the newest, and catch up
//! with small catalogue changes. The operator CLI and the API server share this code.

use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod storage;

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

/// How old an unlisted object must be before it counts as left by a killed upload.
const ORPHAN_OBJECT_AGE: std::time::Duration = std::time::Duration::from_secs(60 * 60);

/// Deletes the stored files of generations no longer kept (PostgreSQL's chunks, or the objects
/// of an object store) and, in an object store, objects left by killed uploads. Failures are
/// logged: the generation is published already.
pub async fn collect_stored_generations(pool: &PgPool, files_store: &GenerationStore) {
    match generations::collect_garbage(pool, KEEP_STORED_GENERATIONS).await {
        Ok(collected) => {
            if collected.chunks > 0 {
                tracing::info!(chunks = collected.chunks, "deleted the stored files of old generations");
            }
            match storage::delete_objects(&collected.object_urls).await {
                Ok(0) => {}
                Ok(objects) => tracing::info!(objects, "deleted the stored objects of old generations"),
                Err(error) => tracing::warn!(
                    error = format!("{error:#}"),
                    "could not delete old generations' objects"
                ),
            }
        }
        Err(error) => tracing::warn!(%error, "could not delete the stored files of old generations"),
    }
    if let GenerationStore::Objects(base) = files_store {
        match storage::remove_orphans(pool, base, ORPHAN_OBJECT_AGE).await {
            Ok(0) => {}
            Ok(objects) => tracing::info!(objects, "deleted objects left by killed uploads"),
            Err(error) => tracing::warn!(error = format!("{error:#}"), "could not look for orphan objects"),
        }
    }
}

/// Stores every file of the generation folder (in PostgreSQL, or in the object store first)
/// and publishes the generation with its list of files, in one transaction.
async fn upload_and_publish(
    pool: &PgPool,
    files_store: &GenerationStore,
    generation: i64,
    directory: &Path,
    new: &NewGeneration,
) -> Result<Generation> {
    let files = generation_files(directory)?;
    let uploaded = match files_store {
        GenerationStore::Postgres => None,
        GenerationStore::Objects(base) => Some(upload_objects(base, generation, &files).await?),
    };
    let mut transaction = pool.begin().await?;
    let mut bytes = 0u64;
    match &uploaded {
        None => {
            for (relative, path) in &files {
                let stored = upload_file(&mut transaction, generation, relative, path)
                    .await
                    .with_context(|| format!("storing {}", path.display()))?;
                bytes += stored.size as u64;
            }
        }
        Some(stored_files) => {
            for stored in stored_files {
                generations::store_file(&mut transaction, generation, stored).await?;
                bytes += stored.size as u64;
            }
        }
    }
    let published = generations::publish_in(&mut transaction, generation, new).await?;
    transaction.commit().await.context("publishing the generation")?;
    tracing::info!(
        generation,
        files = files.len(),
        bytes,
        "stored and published the generation"
    );
    Ok(published)
}

async fn upload_file(
    connection: &mut sqlx::PgConnection,
    generation: i64,
    relative: &str,
    path: &Path,
) -> Result<generations::StoredFile> {
    use sha2::Digest;
    use tokio::io::AsyncReadExt;
    let mut file = tokio::fs::File::open(path).await?;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; generations::CHUNK_BYTES];
    let mut size = 0i64;
    let mut chunks = 0i32;
    loop {
        // Fills the buffer (a read may return less than asked) so chunks are full but the last.
        let mut filled = 0;
        while filled < buffer.len() {
            let read = file.read(&mut buffer[filled..]).await?;
            if read == 0 {
                break;
            }
            filled += read;
        }
        if filled == 0 {
            break;
        }
        hasher.update(&buffer[..filled]);
        generations::store_chunk(connection, generation, relative, chunks, &buffer[..filled]).await?;
        size += filled as i64;
        chunks += 1;
        if filled < buffer.len() {
            break;
        }
    }
    let stored = generations::StoredFile {
        path: relative.to_owned(),
        size,
        chunks,
        sha256: hasher.finalize().to_vec(),
        object_url: None,
    };
    generations::store_file(connection, generation, &stored).await?;
    Ok(stored)
}

/// Puts every file in the object store under a folder of its own, hashing as it goes. On a
/// failure the objects already put are deleted (what a killed upload leaves is removed later,
/// see [`storage::remove_orphans`]).
async fn upload_objects(
    base: &url::Url,
    generation: i64,
    files: &[(String, PathBuf)],
) -> Result<Vec<generations::StoredFile>> {
    let mut random = [0u8; 6];
    getrandom::fill(&mut random).map_err(|error| anyhow::anyhow!("no randomness: {error}"))?;
    let folder = format!(
        "gen-{generation:06}-{}",
        random.iter().map(|byte| format!("{byte:02x}")).collect::<String>()
    );
    let mut stored_files: Vec<generations::StoredFile> = Vec::with_capacity(files.len());
    for (relative, path) in files {
        match upload_object(base, &folder, relative, path).await {
            Ok(stored) => stored_files.push(stored),
            Err(error) => {
                let urls: Vec<String> = stored_files
                    .iter()
                    .filter_map(|stored| stored.object_url.clone())
                    .collect();
                let _ = storage::delete_objects(&urls).await;
                return Err(error.context(format!("storing {} in {base}", path.display())));
            }
        }
    }
    Ok(stored_files)
}

async fn upload_object(base: &url::Url, folder: &str, relative: &str, path: &Path) -> Result<generations::StoredFile> {
    use sha2::Digest;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = storage::object_url(base, folder, relative)?;
    let (store, object) = storage::open(&url)?;
    let mut writer = object_store::buffered::BufWriter::new(store, object);
    let mut file = tokio::fs::File::open(path).await?;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; generations::CHUNK_BYTES];
    let mut size = 0i64;
    loop {
        let read = file.read(&mut buffer).await?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        writer.write_all(&buffer[..read]).await?;
        size += read as i64;
    }
    writer.shutdown().await.with_context(|| format!("completing {url}"))?;
    Ok(generations::StoredFile {
        path: relative.to_owned(),
        size,
        chunks: 0,
        sha256: hasher.finalize().to_vec(),
        object_url: Some(url.to_string()),
    })
}

/// The files of a generation folder as ('/'-separated path inside it, path on disk), leaving
/// out the build marker and lock files.
fn generation_files(directory: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    let mut pending = vec![(String::new(), directory.to_path_buf())];
    while let Some((prefix, folder)) = pending.pop() {
        for entry in std::fs::read_dir(&folder).with_context(|| format!("listing {}", folder.display()))? {
            let entry = entry?;
            let name = entry
                .file_name()
                .into_string()
                .map_err(|name| anyhow::anyhow!("a file name that is not UTF-8: {name:?}"))?;
            let relative = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push((relative, entry.path()));
            } else if kind.is_file() && name != BUILDING_MARKER && !name.ends_with(".lock") {
                files.push((relative, entry.path()));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Whether a folder holds the stored files, by size (a cheap check: the contents were checked
/// when the folder was fetched or built).
fn holds_files(directory: &Path, stored: &[generations::StoredFile]) -> bool {
    stored.iter().all(|file| {
        std::fs::metadata(directory.join(&file.path)).is_ok_and(|metadata| metadata.len() == file.size as u64)
    })
}

/// What fetching a generation did.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub directory: PathBuf,
    pub files: usize,
    pub bytes: u64,
    pub millis: u128,
}

/// Fetches a published generation from PostgreSQL into `index_dir` (as `gen-NNNNNN`),
/// checking every file's size and SHA-256. The files land in a side folder first and are
/// renamed into place only once all are checked, so a refused or interrupted fetch never
/// leaves a generation folder that looks finished (and a killed one is removed at the next
/// start, see [`remove_partial_generations`]).
pub async fn fetch_generation(pool: &PgPool, index_dir: &Path, generation: i64) -> Result<Fetched> {
    use sha2::Digest;
    use tokio::io::AsyncWriteExt;
    let started = Instant::now();
    let files = generations::stored_files(pool, generation).await?;
    anyhow::ensure!(!files.is_empty(), "generation {generation} has no stored files");
    std::fs::create_dir_all(index_dir).with_context(|| format!("creating {}", index_dir.display()))?;
    let target = generation_directory(index_dir, generation);
    let partial = index_dir.join(format!("gen-{generation:06}.fetching-{}", std::process::id()));
    if partial.exists() {
        std::fs::remove_dir_all(&partial)?;
    }
    std::fs::create_dir_all(&partial)?;
    let marker = std::fs::File::create(partial.join(BUILDING_MARKER))?;
    marker.lock()?;
    let outcome: Result<u64> = async {
        let mut bytes = 0u64;
        for stored in &files {
            let relative = Path::new(&stored.path);
            anyhow::ensure!(
                relative
                    .components()
                    .all(|component| matches!(component, std::path::Component::Normal(_))),
                "generation {generation} stores a file outside its folder: {}",
                stored.path
            );
            let path = partial.join(relative);
            if let Some(parent) = path.parent() {
                tokio::fs::create_dir_all(parent).await?;
            }
            let mut file = tokio::fs::File::create(&path).await?;
            let mut hasher = sha2::Sha256::new();
            let mut size = 0i64;
            if let Some(object_url) = &stored.object_url {
                use futures_util::StreamExt;
                use object_store::ObjectStoreExt;
                let url = url::Url::parse(object_url).with_context(|| format!("stored object URL {object_url:?}"))?;
                let (store, object) = storage::open(&url)?;
                let mut stream = store
                    .get(&object)
                    .await
                    .with_context(|| format!("generation {generation}: reading {url}"))?
                    .into_stream();
                while let Some(data) = stream.next().await {
                    let data = data.with_context(|| format!("generation {generation}: reading {url}"))?;
                    hasher.update(&data);
                    size += data.len() as i64;
                    file.write_all(&data).await?;
                }
            }
            for chunk in 0..stored.chunks {
                let data = generations::stored_chunk(pool, generation, &stored.path, chunk)
                    .await?
                    .with_context(|| format!("generation {generation}: chunk {chunk} of {} is missing", stored.path))?;
                hasher.update(&data);
                size += data.len() as i64;
                file.write_all(&data).await?;
            }
            file.sync_all().await?;
            anyhow::ensure!(
                size == stored.size && hasher.finalize()[..] == stored.sha256[..],
                "generation {generation}: {} does not match its checksum (damaged in storage): refused",
                stored.path
            );
            bytes += size as u64;
        }
        Ok(bytes)
    }
    .await;
    let bytes = match outcome {
        Ok(bytes) => bytes,
        Err(error) => {
            let _ = std::fs::remove_dir_all(&partial);
            return Err(error);
        }
    };
    std::fs::remove_file(partial.join(BUILDING_MARKER))?;
    drop(marker);
    if let Err(error) = std::fs::rename(&partial, &target) {
        let _ = std::fs::remove_dir_all(&partial);
        // Another process sharing this folder fetched it first.
        if !target.exists() {
            return Err(error).with_context(|| format!("moving the fetched generation to {}", target.display()));
        }
    }
    let fetched = Fetched {
        directory: target,
        files: files.len(),
        bytes,
        millis: started.elapsed().as_millis(),
    };
    tracing::info!(
        generation,
        files = fetched.files,
        bytes,
        millis = fetched.millis as u64,
        "fetched the generation"
    );
    Ok(fetched)
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
    let Some(current) = generations::current(pool).await? else {
        return Ok(None);
    };
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
            directory = fetch_generation(pool, index_dir, generation).await?.directory;
        }
    }
    let opened = tokio::task::spawn_blocking(move || Snapshot::open(&directory, generation)).await?;
    let snapshot = opened.with_context(|| format!("opening generation {generation}"))?;
    prune_generations(index_dir, generation);
    Ok(Some(snapshot))
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
