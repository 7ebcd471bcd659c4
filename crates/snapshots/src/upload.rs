//! Storing a built generation's files where the fleet fetches them (PostgreSQL chunks or an
//! object store) and publishing it; collecting what is no longer kept.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use store::PgPool;
use store::generations::{self, Generation, NewGeneration};

use crate::storage::{self, GenerationStore};
use crate::{BUILDING_MARKER, KEEP_STORED_GENERATIONS};

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
pub(crate) async fn upload_and_publish(
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
