//! Fetching a published generation into a server's own folder, checking every file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use store::PgPool;
use store::generations;

use crate::{BUILDING_MARKER, generation_directory, storage};

/// Whether a folder holds the stored files, by size (a cheap check: the contents were checked
/// when the folder was fetched or built).
pub(crate) fn holds_files(directory: &Path, stored: &[generations::StoredFile]) -> bool {
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
/// start, see [`crate::remove_partial_generations`]).
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
