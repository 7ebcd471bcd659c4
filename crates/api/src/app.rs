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

use crate::address_slots::AddressSlots;
use crate::auth::Tokens;
use crate::body_rate::BodyRate;
use crate::config::Config;
use crate::coverage::RosterEligibility;
use crate::geocoding::Geocoder;
use crate::limits::RateLimits;
use crate::mail::{Delivery, Mailer, Sender, SenderSettings};
use crate::minute_counts::MinuteCounts;
use crate::passwords::PasswordHasher;
use crate::router::router;
use crate::sessions::Sessions;
use crate::state::{AppParts, AppState};

/// A built, bound application, ready to serve.
pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
    cluster: Option<pgcluster::PrivateCluster>,
    /// Where `GET /metrics` is answered; `None` when metrics are off.
    metrics_addr: Option<SocketAddr>,
    /// Tells background tasks to stop; they are awaited before the pool closes.
    stop_background: crate::shutdown::Trigger,
    background: Vec<tokio::task::JoinHandle<()>>,
}

impl Application {
    /// Connects to (or starts) PostgreSQL, seeds an empty catalogue, loads or builds the
    /// snapshot, starts the snapshot listener and binds the port.
    pub async fn build(config: Config) -> Result<Self> {
        let metrics_listener = bind_metrics(&config.metrics_addr).await?;
        if metrics_listener.is_some() {
            crate::metrics::install();
        }
        let database_url = config.database_url.as_ref().map(|secret| secret.0.clone());
        let (setup_pool, cluster) =
            snapshots::open_database_with_cluster(database_url.as_deref(), &config.local_dir).await?;
        let cluster = cluster.filter(pgcluster::PrivateCluster::started_here);
        seed_if_empty(&setup_pool, config.seed_clinics).await?;
        let files_store = snapshots::GenerationStore::from_setting(config.generation_store.as_deref())?;
        let snapshot = snapshots::load_or_build_to(&setup_pool, &config.index_dir(), &files_store).await?;
        // Requests wait at most this long for a connection: with PostgreSQL down they answer
        // 503 `database_unavailable` quickly instead of a 500 after the 5 s of start-up.
        let mut pool_options = setup_pool
            .options()
            .clone()
            .acquire_timeout(Duration::from_millis(config.database_acquire_timeout_ms.max(1)));
        if metrics_listener.is_some() {
            // sqlx then reports each acquire's wait, which `metrics::AcquireTimes` records.
            pool_options = pool_options.acquire_time_level(log::LevelFilter::Debug);
        }
        let pool = pool_options.connect_lazy_with((*setup_pool.connect_options()).clone());
        setup_pool.close().await;
        tracing::info!(
            generation = snapshot.generation,
            locations = snapshot.location_count(),
            clinicians = snapshot.clinician_count(),
            "snapshot loaded"
        );
        let served = SnapshotHandle::new(snapshot);
        let (stop_background, shutdown) = crate::shutdown::channel();
        let mut background = vec![
            tokio::spawn(crate::snapshot_sync::run(
                pool.clone(),
                served.clone(),
                config.index_dir(),
                shutdown.clone(),
            )),
            tokio::spawn(crate::snapshot_sync::report_served(
                pool.clone(),
                served.clone(),
                crate::snapshot_sync::server_id(),
                shutdown.clone(),
            )),
        ];
        let policy = config.session_policy();
        let tokens = match &config.jwt_secret {
            Some(secret) => Tokens::with_clock(secret.0.as_bytes(), config.clock.clone(), policy.idle.as_secs()),
            None => Tokens::load_or_create(&config.local_dir, config.clock.clone(), policy.idle.as_secs())?,
        };
        let sessions = Arc::new(Sessions::new(pool.clone(), config.clock.clone(), policy).await?);
        background.push(tokio::spawn(Arc::clone(&sessions).run(shutdown.clone())));
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
        let (mailer, delivery, domain) = mail_delivery(&config, &public_url)?;
        let stopped = shutdown.receiver();
        let sender = Sender {
            pool: pool.clone(),
            mailer: mailer.clone(),
            delivery,
            settings: SenderSettings {
                poll: Duration::from_millis(config.mail_poll_ms.max(10)),
                retry_base: Duration::from_millis(config.mail_retry_base_ms),
                max_attempts: config.mail_max_attempts.max(1),
                ..SenderSettings::default()
            },
            domain,
        };
        background.push(tokio::spawn(sender.run(stopped.clone())));
        let limits = RateLimits {
            per_email: config.rate_limit_per_email,
            per_client: config.rate_limit_per_client,
            link_interval: Duration::from_secs(config.link_interval_seconds),
        };
        let gazetteer = Arc::new(Gazetteer::embedded());
        let geocoder = Geocoder::new(
            Arc::clone(&gazetteer),
            config.geocoder_url.clone(),
            config.geocoder_key.clone(),
        );
        let state = AppState::new(AppParts {
            eligibility: Arc::new(RosterEligibility::new(pool.clone())),
            passwords: PasswordHasher::new(),
            mailer,
            legal: Arc::new(crate::legal::LegalDocuments::load(&config.legal_dir)?),
            limits,
            pool,
            snapshots: served,
            gazetteer,
            geocoder,
            tokens: Arc::new(tokens),
            requests_per_client: AddressSlots::new(match config.client_ip_header {
                Some(_) => config.max_connections_per_address,
                None => 0,
            }),
            metadata_counts: MinuteCounts::new(config.metadata_per_minute),
            sessions,
            config: Arc::new(config),
            shutdown,
        });
        // The fleet keeps one sweep waiting (the jobs table dedupes it); each one schedules the next.
        let sweep_every = Duration::from_secs(state.config.attestation_sweep_secs.max(1));
        crate::services::attestation::schedule(&state, sweep_every).await?;
        background.push(tokio::spawn(crate::jobs::run(
            state.clone(),
            Duration::from_millis(state.config.mail_poll_ms.max(10)),
            stopped,
        )));
        let metrics_addr = match metrics_listener {
            Some(metrics_listener) => {
                let bound = metrics_listener.local_addr()?;
                background.push(tokio::spawn(crate::metrics::serve(
                    metrics_listener,
                    state.pool.clone(),
                    state.snapshots.clone(),
                    state.shutdown.clone(),
                )));
                Some(bound)
            }
            None => None,
        };
        let router = router(state.clone());
        Ok(Self {
            listener,
            router,
            state,
            cluster,
            metrics_addr,
            stop_background,
            background,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// Where `GET /metrics` is answered, when metrics are on.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
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
        tracing::info!(address = %self.local_addr(), threads = self.state.config.serving_threads(), "listening");
        match self.metrics_addr {
            Some(address) => tracing::info!(address = %address, "metrics listening"),
            None => tracing::info!("metrics off (NEARCARE_METRICS_ADDR=off)"),
        }
        let config = &self.state.config;
        let header_read_timeout = Duration::from_secs(config.header_read_timeout.max(1));
        let limits = crate::serve::ConnectionLimits {
            header_read_timeout,
            max_connections: config.max_connections,
            // Behind a proxy the peer is the proxy: the edge bounds requests per client instead.
            per_address: AddressSlots::new(if config.client_ip_header.is_some() {
                0
            } else {
                config.max_connections_per_address
            }),
            body_rate: BodyRate {
                grace: header_read_timeout,
                bytes_per_second: config.min_body_rate,
            },
        };
        let threads = config.serving_threads();
        let serving = crate::serve::serve(self.listener, self.router, limits, threads, shutdown)
            .await
            .context("starting the threads that serve connections")?;
        // The sender finishes the message it is sending, then stops before the pool closes.
        self.stop_background.fire();
        for task in self.background {
            if tokio::time::timeout(Duration::from_secs(30), task).await.is_err() {
                tracing::warn!("a background task did not stop within 30 seconds");
            }
        }
        self.state.pool.close().await;
        serving.end().await;
        if let Some(cluster) = self.cluster {
            tokio::task::spawn_blocking(move || cluster.stop()).await??;
            tracing::info!("stopped the private postgres");
        }
        Ok(())
    }
}

/// Binds the metrics listener: `None` for `off`. The default address falls back to a free
/// loopback port when taken (several servers on one machine are the norm in development and
/// tests); an address set on purpose that cannot be bound stops the start.
async fn bind_metrics(address: &str) -> Result<Option<TcpListener>> {
    if address.trim().eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    match TcpListener::bind(address).await {
        Ok(listener) => Ok(Some(listener)),
        Err(error)
            if address == crate::config::DEFAULT_METRICS_ADDR && error.kind() == std::io::ErrorKind::AddrInUse =>
        {
            let listener = TcpListener::bind("127.0.0.1:0").await?;
            tracing::warn!(
                taken = address,
                address = %listener.local_addr()?,
                "the default metrics address is taken: metrics on a free loopback port instead (set NEARCARE_METRICS_ADDR)"
            );
            Ok(Some(listener))
        }
        Err(error) => {
            Err(error).with_context(|| format!("binding the metrics listener to {address} (NEARCARE_METRICS_ADDR)"))
        }
    }
}

/// The mailer and how it delivers: SMTP when configured; otherwise the development mailbox.
/// Its page, which shows live login links, is served only when asked for
/// (`NEARCARE_DEV_MAILBOX`) on a server whose listen address and public URL are both loopback:
/// a loopback server behind a reverse proxy would otherwise hand the links to whoever the proxy
/// forwards. Only a served page is announced in the log.
fn mail_delivery(config: &Config, public_url: &str) -> Result<(Mailer, Delivery, String)> {
    let from_domain = |from: &str| {
        from.rsplit_once('@')
            .map(|(_, domain)| domain.trim_end_matches('>').trim().to_owned())
            .filter(|domain| !domain.is_empty())
            .unwrap_or_else(|| "nearcare.example".to_owned())
    };
    match &config.smtp_url {
        Some(url) => {
            let settings = mail::SmtpSettings::from_url(
                &url.0,
                config.smtp_user.as_deref(),
                config.smtp_password.as_ref().map(|secret| secret.0.as_str()),
            )?;
            let smtp = mail::Smtp::new(&settings, &config.mail_from)?;
            tracing::info!(host = %settings.host, port = settings.port, security = ?settings.security, from = %config.mail_from, "emails are sent over SMTP");
            let domain = smtp.from_domain();
            Ok((Mailer::new(public_url), Delivery::Smtp(Box::new(smtp)), domain))
        }
        None => {
            let listens_on_loopback = mail::is_loopback(config.host.trim_start_matches('[').trim_end_matches(']'));
            let public_on_loopback = url_host(public_url).is_some_and(mail::is_loopback);
            let served = config.dev_mailbox && listens_on_loopback && public_on_loopback;
            if served {
                tracing::info!(
                    mailbox = %format!("{}/dev/mailbox", public_url.trim_end_matches('/')),
                    "no SMTP server configured (NEARCARE_SMTP_URL): emails are not sent; read them in the development mailbox"
                );
            } else if config.dev_mailbox {
                tracing::warn!(
                    host = %config.host,
                    "no SMTP server configured (NEARCARE_SMTP_URL): emails are NOT sent; the development mailbox is asked for (NEARCARE_DEV_MAILBOX) but served only when the listen address and the public URL are both loopback"
                );
            } else {
                tracing::warn!(
                    "no SMTP server configured (NEARCARE_SMTP_URL): emails are NOT sent (set NEARCARE_DEV_MAILBOX=true on a loopback server to read them in a development mailbox)"
                );
            }
            Ok((
                Mailer::new(public_url).with_mailbox(served),
                Delivery::Log,
                from_domain(&config.mail_from),
            ))
        }
    }
}

/// The host of an http(s) URL, without brackets, port or credentials.
fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_and_port = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    if let Some(bracketed) = host_and_port.strip_prefix('[') {
        return bracketed.split_once(']').map(|(host, _)| host);
    }
    let host = host_and_port.split(':').next()?;
    (!host.is_empty()).then_some(host)
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
    seed_demo_members(pool).await?;
    let mut transaction = pool.begin().await?;
    match store::providers::invite(
        &mut transaction,
        seed::demo::DENVER_ORGANISATION_ID,
        seed::demo::DEMO_PROVIDER_EMAIL,
        "Dana",
        "Demo",
    )
    .await?
    {
        Ok(_) => {
            transaction.commit().await?;
            tracing::info!(email = seed::demo::DEMO_PROVIDER_EMAIL, "demo provider invited");
        }
        // Already there from an earlier catalogue: nothing to do.
        Err(refusal) => tracing::info!(%refusal, "demo provider not invited"),
    }
    Ok(())
}

/// Enrols the demo members (`seed::demo::DEMO_MEMBERS`) at the demo provider's organisation,
/// before its provider account exists (so no "new member" emails go out for them).
async fn seed_demo_members(pool: &PgPool) -> Result<()> {
    use seed::demo::{DEMO_MEMBERS, DemoOutcome};
    use store::memberships::{SeededMember, SeededOutcome};
    let today = chrono::Utc::now().date_naive();
    let days_ago = |days: u32| today - chrono::Days::new(u64::from(days));
    let mut transaction = pool.begin().await?;
    let mut ids: Vec<Option<i64>> = Vec::with_capacity(DEMO_MEMBERS.len());
    for demo in &DEMO_MEMBERS {
        let outcome = match demo.outcome {
            DemoOutcome::Pending => SeededOutcome::Pending,
            DemoOutcome::Active { first_visit_days_ago } => SeededOutcome::Active {
                first_visit: days_ago(first_visit_days_ago),
            },
            DemoOutcome::Declined { days_ago: on, reason } => SeededOutcome::Declined {
                on: days_ago(on),
                reason: domain::clinic_panel::Reason::parse(reason)?,
            },
        };
        let seeded = SeededMember {
            first_name: demo.first_name,
            last_name: demo.last_name,
            dob: domain::accounts::parse_date(demo.date_of_birth)?,
            member_id: demo.member_id,
            relation: demo.relation,
            subscriber_id: demo.subscriber.and_then(|index| ids.get(index).copied().flatten()),
            email: demo.email,
            phone: demo.phone,
            employer_id: seed::demo::ACME_EMPLOYER_ID,
            company_name: seed::demo::ACME_NAME,
            payer_id: seed::demo::PAYER_ID,
            plan_id: seed::demo::ACME_PLAN_ID,
            group_id: seed::demo::ACME_GROUP_NUMBER,
            location_id: demo.location_id,
            enrolled_on: days_ago(demo.enrolled_days_ago),
            outcome,
        };
        ids.push(store::memberships::seed_member(&mut transaction, &seeded).await?);
    }
    transaction.commit().await?;
    tracing::info!(
        members = ids.iter().flatten().count(),
        organisation = seed::demo::DENVER_ORGANISATION_ID,
        "demo members enrolled"
    );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

    fn config(host: &str, smtp: Option<&str>) -> Config {
        let mut config = Config::for_tests("postgres://unused/db".into(), std::env::temp_dir());
        config.host = host.into();
        config.smtp_url = smtp.map(|url| Secret(url.into()));
        config
    }

    #[test]
    fn the_development_mailbox_is_served_only_when_asked_for_on_loopback_without_smtp() {
        let local = "http://127.0.0.1:8080";
        for (host, smtp, asked, public_url, served) in [
            ("127.0.0.1", None, true, local, true),
            ("localhost", None, true, "http://localhost:8080/", true),
            ("::1", None, true, "http://[::1]:8080", true),
            ("127.0.0.1", None, false, local, false),
            ("0.0.0.0", None, true, local, false),
            ("192.0.2.10", None, true, local, false),
            ("127.0.0.1", Some("smtp://127.0.0.1:2525"), true, local, false),
            // A loopback server behind a reverse proxy: the public URL is not loopback.
            ("127.0.0.1", None, true, "https://nearcare.example", false),
            ("127.0.0.1", None, true, "https://user@127.0.0.1.example:443/app", false),
        ] {
            let mut config = config(host, smtp);
            config.dev_mailbox = asked;
            let (mailer, delivery, domain) = mail_delivery(&config, public_url).unwrap();
            assert_eq!(mailer.serves_mailbox(), served, "{host} {smtp:?} {asked} {public_url}");
            assert_eq!(matches!(delivery, Delivery::Log), smtp.is_none());
            assert_eq!(domain, "nearcare.example");
        }
        assert!(mail_delivery(&config("127.0.0.1", Some("http://mail.example")), local).is_err());
    }

    #[test]
    fn a_urls_host_is_read_without_port_brackets_or_credentials() {
        assert_eq!(url_host("https://nearcare.example/x"), Some("nearcare.example"));
        assert_eq!(url_host("http://127.0.0.1:8080"), Some("127.0.0.1"));
        assert_eq!(url_host("http://[::1]:8080/"), Some("::1"));
        assert_eq!(url_host("http://me:secret@localhost"), Some("localhost"));
        assert_eq!(url_host("http://"), None);
    }
}
