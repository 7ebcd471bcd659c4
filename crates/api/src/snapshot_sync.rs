//! Keeps a process's snapshot current: LISTENs for published generations (fetch into this
//! server's own index folder when needed, load and swap) and catalogue edits (patch and swap).
//! Queries in flight keep the snapshot they started with.

use std::path::{Path, PathBuf};
use std::time::Duration;

use search::SnapshotHandle;
use sqlx::postgres::PgListener;
use store::PgPool;

use crate::shutdown::Shutdown;
use store::generations::{CATALOGUE_CHANGED_CHANNEL, INDEX_PUBLISHED_CHANNEL};

/// Runs until the server stops (or the pool closes), reconnecting when the database
/// connection drops.
pub async fn run(pool: PgPool, served: SnapshotHandle, index_dir: PathBuf, mut shutdown: Shutdown) {
    loop {
        let outcome = tokio::select! {
            outcome = listen(&pool, &served, &index_dir) => outcome,
            () = shutdown.wait() => return,
        };
        if pool.is_closed() || shutdown.is_fired() {
            return;
        }
        if let Err(error) = outcome {
            tracing::warn!(
                error = format!("{error:#}"),
                "snapshot listener lost its connection, retrying"
            );
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(2)) => {}
            () = shutdown.wait() => return,
        }
    }
}

async fn listen(pool: &PgPool, served: &SnapshotHandle, index_dir: &Path) -> anyhow::Result<()> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener
        .listen_all([INDEX_PUBLISHED_CHANNEL, CATALOGUE_CHANGED_CHANNEL])
        .await?;
    // Anything published or edited while we were not listening.
    refresh(pool, served, index_dir, true).await;
    loop {
        let notification = listener.recv().await?;
        let published = notification.channel() == INDEX_PUBLISHED_CHANNEL;
        // Bulk edits arrive as bursts: handle them once.
        let mut any_published = published;
        while let Ok(Ok(next)) = tokio::time::timeout(Duration::from_millis(150), listener.recv()).await {
            any_published |= next.channel() == INDEX_PUBLISHED_CHANNEL;
        }
        refresh(pool, served, index_dir, any_published).await;
    }
}

/// Loads a newer generation when one was published (fetching it into `index_dir` when this
/// server does not have it; a fetch that fails, such as a damaged file, keeps the snapshot
/// served), then applies catalogue changes.
pub async fn refresh(pool: &PgPool, served: &SnapshotHandle, index_dir: &Path, check_generation: bool) {
    let current_generation = served.load().map(|snapshot| snapshot.generation).unwrap_or(-1);
    if check_generation {
        match store::generations::current(pool).await {
            Ok(Some(newest)) if newest.generation > current_generation => {
                match snapshots::load_published_timed(pool, index_dir).await {
                    Ok(Some((snapshot, times))) => {
                        tracing::info!(generation = snapshot.generation, "serving a new snapshot generation");
                        crate::metrics::snapshot_loaded(times.fetch, times.open);
                        served.replace(snapshot);
                    }
                    Ok(None) => {}
                    Err(error) => {
                        crate::metrics::snapshot_load_failed();
                        tracing::warn!(error = format!("{error:#}"), "loading the new generation failed");
                    }
                }
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "reading the current generation failed"),
        }
    }
    let Some(snapshot) = served.load() else { return };
    match snapshots::catch_up(pool, &snapshot).await {
        Ok(snapshots::CatchUp::Patched(patched)) => {
            crate::metrics::snapshot_patched();
            served.replace(patched);
        }
        Ok(snapshots::CatchUp::Unchanged) => {}
        Ok(snapshots::CatchUp::NeedsRebuild(reason)) => {
            tracing::warn!(%reason, "catalogue changes need a rebuild: run `indexer rebuild`");
        }
        Err(error) => tracing::warn!(error = format!("{error:#}"), "applying catalogue changes failed"),
    }
}

/// This process's name in `fleet_servers`: host, process id and a random part (a restarted
/// process with a recycled id is another server).
pub fn server_id() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "server".to_owned());
    let mut random = [0u8; 4];
    let _ = getrandom::fill(&mut random);
    let suffix: String = random.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("{host}:{}:{suffix}", std::process::id())
}

/// Reports the served generation when it changes (looked at every second) and at least every
/// [`store::generations::SERVED_REPORT_INTERVAL`], so that garbage collection keeps its stored
/// files; forgets this server when it stops.
pub async fn report_served(pool: PgPool, served: SnapshotHandle, server: String, mut shutdown: Shutdown) {
    let mut reported: Option<(i64, std::time::Instant)> = None;
    loop {
        if let Some(snapshot) = served.load() {
            let due = reported.is_none_or(|(generation, at)| {
                generation != snapshot.generation || at.elapsed() >= store::generations::SERVED_REPORT_INTERVAL
            });
            if due {
                match store::generations::report_served(&pool, &server, snapshot.generation).await {
                    Ok(()) => reported = Some((snapshot.generation, std::time::Instant::now())),
                    Err(error) => tracing::debug!(%error, "could not report the served generation"),
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            () = shutdown.wait() => break,
        }
    }
    if let Err(error) = store::generations::forget_server(&pool, &server).await {
        tracing::debug!(%error, "could not remove this server from fleet_servers");
    }
}
