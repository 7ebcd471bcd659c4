//! Start-up and the router: database, seed data, snapshot, background sync, HTTP.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use gazetteer::Gazetteer;
use search::{Snapshot, SnapshotHandle};
use store::PgPool;
use tokio::net::TcpListener;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::auth::Tokens;
use crate::config::Config;
use crate::eligibility::{Eligibility, RosterEligibility};
use crate::error::ApiError;
use crate::geocoding::Geocoder;
use crate::limits::RateLimits;
use crate::mail::Mailer;
use crate::passwords::PasswordHasher;
use crate::routes;

/// Everything a handler may need, cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub snapshots: SnapshotHandle,
    pub gazetteer: Arc<Gazetteer>,
    pub geocoder: Geocoder,
    pub tokens: Arc<Tokens>,
    pub config: Arc<Config>,
    pub passwords: PasswordHasher,
    pub eligibility: Arc<dyn Eligibility>,
    pub mailer: Mailer,
    pub limits: RateLimits,
}

impl AppState {
    /// The snapshot serving this request.
    pub fn snapshot(&self) -> Result<Arc<Snapshot>, ApiError> {
        self.snapshots.load().ok_or(ApiError::Unavailable)
    }
}

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

/// Path prefixes that belong to the API; anything else is the SPA.
const API_PREFIXES: [&str; 5] = ["/member/", "/market/", "/dpcproviders/", "/health", "/openapi.json"];

pub fn router(state: AppState) -> Router {
    let web_dist = state.config.web_dist.clone();
    let body_limit = state.config.body_limit;
    let api = routes::router().with_state(state);
    api.fallback_service(spa(web_dist))
        // Enforced by the body extractors, so an oversized body gets our JSON 413.
        .layer(axum::extract::DefaultBodyLimit::max(body_limit))
        .layer(CompressionLayer::new())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(|_| {
            ApiError::Internal(anyhow::anyhow!("a handler panicked")).into_response()
        }))
        .layer(TraceLayer::new_for_http())
}

/// The built SPA with history-mode fallback to `index.html`; unknown API paths get a JSON 404.
fn spa(web_dist: PathBuf) -> Router {
    let index = web_dist.join("index.html");
    let files = ServeDir::new(&web_dist).fallback(ServeFile::new(index));
    Router::new().fallback_service(tower::service_fn(move |request: axum::extract::Request| {
        let files = files.clone();
        async move {
            let path = request.uri().path().to_owned();
            if API_PREFIXES.iter().any(|prefix| path.starts_with(prefix)) {
                return Ok::<Response, std::convert::Infallible>(not_found_api(request.uri()));
            }
            let mut files = files;
            match tower::Service::call(&mut files, request).await {
                Ok(response) if response.status() == StatusCode::NOT_FOUND => Ok(web_app_missing()),
                Ok(response) => Ok(response.into_response()),
                Err(error) => Ok(ApiError::Internal(anyhow::anyhow!("serving the web app: {error}")).into_response()),
            }
        }
    }))
}

fn not_found_api(uri: &Uri) -> Response {
    ApiError::NotFound(format!("No route for {}", uri.path())).into_response()
}

fn web_app_missing() -> Response {
    let page = "<!doctype html><title>Nearcare</title><p>The web app is not built yet: run <code>npm run build</code> in <code>web/</code>.</p>";
    (StatusCode::NOT_FOUND, axum::response::Html(page)).into_response()
}
