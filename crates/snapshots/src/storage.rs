//! Where a generation's files travel from the builder to the servers: PostgreSQL (1 MiB
//! `bytea` chunks, the default) or an object store named by `NEARCARE_GENERATION_STORE`
//! (`s3://bucket/prefix` for S3 and S3-compatible stores, credentials and endpoint from the
//! usual `AWS_*` variables; `file:///path` for a mounted bucket). Either way PostgreSQL lists
//! the files with their size and SHA-256 in the transaction that publishes the generation, so
//! nothing is published before every byte is stored, and a server checks what it fetched.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};
use url::Url;

/// Where new generations are stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerationStore {
    /// Chunks in `index_generation_chunks`.
    Postgres,
    /// Objects under this URL's prefix.
    Objects(Url),
}

impl GenerationStore {
    /// The store a setting names: unset or empty is PostgreSQL; else an `s3://` or `file://`
    /// URL (a `file://` folder is created if missing).
    pub fn from_setting(setting: Option<&str>) -> Result<Self> {
        let Some(setting) = setting.map(str::trim).filter(|setting| !setting.is_empty()) else {
            return Ok(Self::Postgres);
        };
        let url = Url::parse(setting).with_context(|| format!("NEARCARE_GENERATION_STORE {setting:?} is not a URL"))?;
        match url.scheme() {
            "s3" => {
                anyhow::ensure!(
                    url.host_str().is_some(),
                    "NEARCARE_GENERATION_STORE: s3:// needs a bucket"
                );
            }
            "file" => {
                let folder = url.to_file_path().map_err(|()| {
                    anyhow::anyhow!("NEARCARE_GENERATION_STORE: {setting} is not an absolute file URL")
                })?;
                std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
            }
            other => bail!("NEARCARE_GENERATION_STORE: unsupported scheme {other}:// (use s3:// or file://)"),
        }
        Ok(Self::Objects(url))
    }

    /// For logs and the CLI: `PostgreSQL` or the URL.
    pub fn describe(&self) -> String {
        match self {
            Self::Postgres => "PostgreSQL".to_owned(),
            Self::Objects(url) => url.to_string(),
        }
    }
}

/// The URL of a generation file's object: `<base>/<folder>/<path>`, where `folder` is unique
/// to one upload (two databases may number their generations alike).
pub fn object_url(base: &Url, folder: &str, relative: &str) -> Result<Url> {
    let mut url = base.clone();
    let prefix = base.path().trim_end_matches('/');
    url.set_path(&format!("{prefix}/{folder}/{relative}"));
    Ok(url)
}

/// The object store holding `url` and the object's path in it.
pub fn open(url: &Url) -> Result<(Arc<dyn ObjectStore>, ObjectPath)> {
    match url.scheme() {
        "s3" => {
            // reqwest is built without a TLS provider of its own (see Cargo.toml); a process
            // that installed one already keeps it.
            let _ = rustls::crypto::ring::default_provider().install_default();
            let store = object_store::aws::AmazonS3Builder::from_env()
                .with_url(url.as_str())
                .build()
                .with_context(|| format!("opening {url}"))?;
            let key = url.path().trim_start_matches('/');
            Ok((Arc::new(store), ObjectPath::from(key)))
        }
        "file" => {
            let path = url
                .to_file_path()
                .map_err(|()| anyhow::anyhow!("{url} is not an absolute file URL"))?;
            let object = ObjectPath::from_absolute_path(&path).with_context(|| format!("{url}"))?;
            Ok((Arc::new(object_store::local::LocalFileSystem::new()), object))
        }
        other => bail!("unsupported object store scheme {other}://"),
    }
}

/// Deletes objects by URL; a missing one is fine (already deleted).
pub async fn delete_objects(urls: &[String]) -> Result<usize> {
    let mut deleted = 0;
    for text in urls {
        let url = Url::parse(text).with_context(|| format!("stored object URL {text:?}"))?;
        let (store, path) = open(&url)?;
        match store.delete(&path).await {
            Ok(()) => deleted += 1,
            Err(object_store::Error::NotFound { .. }) => {}
            Err(error) => return Err(error).with_context(|| format!("deleting {url}")),
        }
    }
    Ok(deleted)
}

/// Deletes objects under `base` that no stored file lists and that are older than `age`: those
/// of uploads that were killed before they published (a running upload is younger).
pub async fn remove_orphans(pool: &store::PgPool, base: &Url, age: std::time::Duration) -> Result<usize> {
    use futures_util::StreamExt;
    let (store, prefix) = open(base)?;
    let cutoff = chrono::Utc::now() - chrono::Duration::from_std(age)?;
    let mut listing = store.list(Some(&prefix));
    let mut orphans = Vec::new();
    while let Some(meta) = listing.next().await {
        let meta = meta.with_context(|| format!("listing {base}"))?;
        if meta.last_modified >= cutoff {
            continue;
        }
        let mut url = base.clone();
        url.set_path(&format!("/{}", meta.location));
        if !store::generations::object_is_listed(pool, url.as_str()).await? {
            orphans.push(meta.location);
        }
    }
    for location in &orphans {
        store
            .delete(location)
            .await
            .with_context(|| format!("deleting {location}"))?;
    }
    Ok(orphans.len())
}
