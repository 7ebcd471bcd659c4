//! Start-up: database, seed data, snapshot, background sync, binding the port and serving.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

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
    /// Tells background tasks to stop; they are awaited before the pool closes.
    stop_background: crate::shutdown::Trigger,
    background: Vec<tokio::task::JoinHandle<()>>,
}

impl Application {
    /// Connects to (or starts) PostgreSQL, seeds an empty catalogue, loads or builds the
    /// snapshot, starts the snapshot listener and binds the port.
    pub async fn build(config: Config) -> Result<Self> {
        let database_url = config.database_url.as_ref().map(|secret| secret.0.clone());
        let (setup_pool, cluster) =
            indexer::open_database_with_cluster(database_url.as_deref(), &config.local_dir).await?;
        let cluster = cluster.filter(pgcluster::PrivateCluster::started_here);
        seed_if_empty(&setup_pool, config.seed_clinics).await?;
        let snapshot = indexer::load_or_build(&setup_pool, &config.index_dir()).await?;
        // Requests wait at most this long for a connection: with PostgreSQL down they answer
        // 503 `database_unavailable` quickly instead of a 500 after the 5 s of start-up.
        let pool = setup_pool
            .options()
            .clone()
            .acquire_timeout(Duration::from_millis(config.database_acquire_timeout_ms.max(1)))
            .connect_lazy_with((*setup_pool.connect_options()).clone());
        setup_pool.close().await;
        tracing::info!(
            generation = snapshot.generation,
            locations = snapshot.location_count(),
            clinicians = snapshot.clinician_count(),
            "snapshot loaded"
        );
        let snapshots = SnapshotHandle::new(snapshot);
        let (stop_background, shutdown) = crate::shutdown::channel();
        let background = vec![tokio::spawn(crate::snapshot_sync::run(
            pool.clone(),
            snapshots.clone(),
            config.index_dir(),
            shutdown.clone(),
        ))];
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
            per_email_ceiling: config.rate_limit_per_email_ceiling,
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
            shutdown,
        };
        let router = router(state.clone());
        Ok(Self {
            listener,
            router,
            state,
            cluster,
            stop_background,
            background,
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

    /// Serves until `shutdown` completes, then stops the background tasks, then closes the
    /// pool.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> Result<()> {
        tracing::info!(address = %self.local_addr(), "listening");
        let limits = crate::serve::ConnectionLimits {
            header_read_timeout: Duration::from_secs(self.state.config.header_read_timeout.max(1)),
            max_connections: self.state.config.max_connections,
        };
        crate::serve::serve(self.listener, self.router, limits, shutdown).await;
        self.stop_background.fire();
        for task in self.background {
            if tokio::time::timeout(Duration::from_secs(10), task).await.is_err() {
                tracing::warn!("a background task did not stop within 10 s");
            }
        }
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
