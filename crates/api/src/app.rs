//! Start-up: database, seed data, snapshot, background sync, binding the port and serving.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::Router;
use gazetteer::Gazetteer;
use search::SnapshotHandle;
use store::PgPool;
use tokio::net::TcpListener;

use crate::auth::Tokens;
use crate::config::Config;
use crate::coverage::RosterEligibility;
use crate::geocoding::Geocoder;
use crate::limits::RateLimits;
use crate::mail::Mailer;
use crate::passwords::PasswordHasher;
use crate::router::router;
use crate::state::AppState;

/// A built, bound application, ready to serve.
pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
    cluster: Option<pgcluster::PrivateCluster>,
}

impl Application {
    /// Connects to (or starts) PostgreSQL, seeds an empty catalogue, loads or builds the
    /// snapshot, starts the snapshot listener and binds the port.
    pub async fn build(config: Config) -> Result<Self> {
        let database_url = config.database_url.as_ref().map(|secret| secret.0.clone());
        let (pool, cluster) = indexer::open_database_with_cluster(database_url.as_deref(), &config.local_dir).await?;
        let cluster = cluster.filter(pgcluster::PrivateCluster::started_here);
        seed_if_empty(&pool, config.seed_clinics).await?;
        let snapshot = indexer::load_or_build(&pool, &config.index_dir()).await?;
        tracing::info!(
            generation = snapshot.generation,
            locations = snapshot.location_count(),
            clinicians = snapshot.clinician_count(),
            "snapshot loaded"
        );
        let snapshots = SnapshotHandle::new(snapshot);
        tokio::spawn(crate::snapshot_sync::run(pool.clone(), snapshots.clone()));
        let tokens = match &config.jwt_secret {
            Some(secret) => Tokens::new(secret.0.as_bytes()),
            None => Tokens::load_or_create(&config.local_dir)?,
        };
        let address = format!("{}:{}", config.host, config.port);
        let listener = TcpListener::bind(&address)
            .await
            .with_context(|| format!("binding {address}"))?;
        let public_url = config.public_url.clone().unwrap_or_else(|| {
            format!(
                "http://{}",
                listener.local_addr().map_or(address, |bound| bound.to_string())
            )
        });
        let mailer = Mailer::new(&public_url);
        tokio::spawn(mailer.clone().run_sender(pool.clone()));
        let limits = RateLimits {
            per_email: config.rate_limit_per_email,
            per_client: config.rate_limit_per_client,
        };
        let gazetteer = Arc::new(Gazetteer::embedded());
        let geocoder = Geocoder::new(
            Arc::clone(&gazetteer),
            config.geocoder_url.clone(),
            config.geocoder_key.clone(),
        );
        let state = AppState {
            eligibility: Arc::new(RosterEligibility::new(pool.clone())),
            passwords: PasswordHasher::new(),
            mailer,
            limits,
            pool,
            snapshots,
            gazetteer,
            geocoder,
            tokens: Arc::new(tokens),
            config: Arc::new(config),
        };
        let router = router(state.clone());
        Ok(Self {
            listener,
            router,
            state,
            cluster,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until SIGINT or SIGTERM, letting requests in flight finish.
    pub async fn run_until_stopped(self) -> Result<()> {
        self.run(shutdown_signal()).await
    }

    /// Serves until `shutdown` completes.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> Result<()> {
        tracing::info!(address = %self.local_addr(), "listening");
        axum::serve(
            self.listener,
            self.router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await?;
        self.state.pool.close().await;
        if let Some(cluster) = self.cluster {
            tokio::task::spawn_blocking(move || cluster.stop()).await??;
            tracing::info!("stopped the private postgres");
        }
        Ok(())
    }
}

async fn seed_if_empty(pool: &PgPool, clinics: usize) -> Result<()> {
    if clinics == 0 || store::catalogue::counts(pool).await?.organisations > 0 {
        return Ok(());
    }
    tracing::info!(clinics, "empty catalogue: generating demo data");
    let config = seed::SeedConfig {
        clinics,
        clinicians: clinics * 4 / 5,
        seed: 1,
    };
    let catalogue = tokio::task::spawn_blocking(move || seed::generate(&config, &Gazetteer::embedded())).await?;
    store::catalogue::load(pool, &catalogue, false).await?;
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { () = interrupt => {}, () = terminate => {} }
    tracing::info!("shutting down");
}
