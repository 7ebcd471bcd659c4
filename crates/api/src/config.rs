//! The server's configuration, read once from flags and environment variables.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

/// A value that never prints (database URLs carry passwords).
#[derive(Clone)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(Self(text.to_owned()))
    }
}

/// The metrics listener's default address (see `Config::metrics_addr`).
pub const DEFAULT_METRICS_ADDR: &str = "127.0.0.1:9464";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Readable text, one line per event (the default).
    Text,
    /// One JSON object a line (tracing-subscriber's JSON format).
    Json,
}

#[derive(Debug, Clone, Parser)]
#[command(name = "nearcare-server", about = "The Nearcare API and web app")]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// PostgreSQL URL; without it a private cluster is started in <local-dir>/postgres.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<Secret>,
    /// Folder for the private cluster, the index and generated development keys.
    #[arg(long, env = "NEARCARE_LOCAL_DIR", default_value = snapshots::DEFAULT_LOCAL_DIR)]
    pub local_dir: PathBuf,
    /// Folder of snapshot generations; defaults to <local-dir>/index.
    #[arg(long, env = "NEARCARE_INDEX_DIR")]
    pub index_dir: Option<PathBuf>,
    /// Where generations this server builds are stored for the fleet: unset, PostgreSQL; or an
    /// object store, `s3://bucket/prefix` (AWS_* variables) or `file:///path`.
    #[arg(long, env = "NEARCARE_GENERATION_STORE")]
    pub generation_store: Option<String>,
    /// The legal pages' Markdown (terms.md, privacy.md, cookies.md); a file missing there is
    /// served from the texts shipped in the repository's legal/ (see legal/README.md).
    #[arg(long, env = "NEARCARE_LEGAL_DIR", default_value = "legal")]
    pub legal_dir: PathBuf,
    /// The built SPA (`npm run build` in web/).
    #[arg(long, env = "NEARCARE_WEB_DIST", default_value = "web/dist")]
    pub web_dist: PathBuf,
    /// Clinics generated when the catalogue is empty (0: leave it empty).
    #[arg(long, env = "NEARCARE_SEED_CLINICS", default_value_t = 1_500)]
    pub seed_clinics: usize,
    /// Secret for signing access tokens; generated into <local-dir>/secrets on first run when unset.
    #[arg(long, env = "NEARCARE_JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<Secret>,
    /// A Google-compatible geocoding API; without it geocoding is answered offline.
    #[arg(long, env = "NEARCARE_GEOCODER_URL")]
    pub geocoder_url: Option<String>,
    /// The outside geocoder's API key.
    #[arg(long, env = "NEARCARE_GEOCODER_KEY", hide_env_values = true)]
    pub geocoder_key: Option<Secret>,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "NEARCARE_BODY_LIMIT", default_value_t = 64 * 1024)]
    pub body_limit: usize,
    /// The address members reach the web app at, used in emailed links; defaults to
    /// http://<host>:<port> of this server.
    #[arg(long, env = "NEARCARE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Failed logins allowed for one account from one client address in 15 minutes, and wrong
    /// current passwords for a signed-in member (0: no limit). Never counted per account alone:
    /// a stranger's failures must not lock the owner out.
    #[arg(long, env = "NEARCARE_RATE_LIMIT_PER_EMAIL", default_value_t = 5)]
    pub rate_limit_per_email: u32,
    /// Failed logins and link requests allowed per client address in 15 minutes (0: no limit).
    #[arg(long, env = "NEARCARE_RATE_LIMIT_PER_CLIENT", default_value_t = 30)]
    pub rate_limit_per_client: u32,
    /// The least time between two emailed links of one kind (magic link, reset, verification)
    /// to one address, in seconds: a request within it is sent when it is up (0: no throttle).
    #[arg(long, env = "NEARCARE_LINK_INTERVAL_SECONDS", default_value_t = 60)]
    pub link_interval_seconds: u64,
    /// A header holding the client address when behind a proxy (for example x-forwarded-for).
    /// The address used is the one the trusted proxies appended (see
    /// NEARCARE_TRUSTED_PROXY_HOPS), never an entry the client wrote. Unset: the peer address.
    #[arg(long, env = "NEARCARE_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,
    /// How many proxies in front of the server append to the client address header: the
    /// address used is this many entries from the right (1: the last entry, written by the one
    /// proxy in front). With fewer entries than that, the leftmost is used.
    #[arg(long, env = "NEARCARE_TRUSTED_PROXY_HOPS", default_value_t = 1)]
    pub trusted_proxy_hops: usize,
    /// Send Strict-Transport-Security (true or false); unset: only when the public URL is https.
    #[arg(long, env = "NEARCARE_HSTS", value_parser = clap::builder::BoolishValueParser::new(), action = clap::ArgAction::Set)]
    pub hsts: Option<bool>,
    /// Seconds a connection may take to send a request's headers, and may stay idle between
    /// requests, before it is closed.
    #[arg(long, env = "NEARCARE_HEADER_READ_TIMEOUT", default_value_t = 10)]
    pub header_read_timeout: u64,
    /// Connections served at once; further ones wait in the listen queue.
    #[arg(long, env = "NEARCARE_MAX_CONNECTIONS", default_value_t = 1024)]
    pub max_connections: usize,
    /// Threads that accept and serve connections, each with its own event loop, so that a
    /// connection is served on one thread from accept to close (no hand-over between cores, no
    /// work stealing): unset, one per CPU core. 0 serves connections on the process's shared
    /// multi-threaded runtime instead.
    #[arg(long, env = "NEARCARE_SERVE_THREADS")]
    pub serve_threads: Option<usize>,
    /// Connections one client address may hold at once (IPv6: one /64); a further one is
    /// answered 429 and closed. Behind a proxy (NEARCARE_CLIENT_IP_HEADER set) every connection
    /// comes from the proxy, so the bound counts requests in flight per client address of the
    /// header instead. 0: no bound.
    #[arg(long, env = "NEARCARE_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 128)]
    pub max_connections_per_address: usize,
    /// The slowest a request body may arrive, in bytes a second on average, once the first
    /// NEARCARE_HEADER_READ_TIMEOUT seconds of it have passed; slower bodies are answered 408
    /// and their connection closed. 0: no minimum.
    #[arg(long, env = "NEARCARE_MIN_BODY_RATE", default_value_t = 500)]
    pub min_body_rate: u64,
    /// Milliseconds a request waits for a database connection before it answers 503
    /// `database_unavailable`.
    #[arg(long, env = "NEARCARE_DATABASE_ACQUIRE_TIMEOUT_MS", default_value_t = 2000)]
    pub database_acquire_timeout_ms: u64,
    /// The address members are told to write to when only support can help (an active
    /// membership that cannot change provider).
    #[arg(long, env = "NEARCARE_SUPPORT_EMAIL", default_value = "support@nearcare.example")]
    pub support_email: String,
    /// The operator's sales address: each request to have an employer offer the benefit
    /// ("A representative will contact the company") is emailed here.
    #[arg(long, env = "NEARCARE_SALES_EMAIL", default_value = "sales@nearcare.example")]
    pub sales_email: String,
    /// The SMTP relay: smtp://[user:password@]host[:port] (STARTTLS required, except to a
    /// loopback host where it is used when offered; ?tls=required|opportunistic|none) or
    /// smtps://host[:port] (TLS). Unset: no email leaves the server (see NEARCARE_DEV_MAILBOX).
    #[arg(long, env = "NEARCARE_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,
    /// Serve the development mailbox at /dev/mailbox (true or false): the messages with their
    /// live links, when no SMTP server is set. Only on a server whose listen address and public
    /// URL are both loopback; `make run` turns it on for the local demo.
    #[arg(long, env = "NEARCARE_DEV_MAILBOX", default_value_t = false, value_parser = clap::builder::BoolishValueParser::new(), action = clap::ArgAction::Set)]
    pub dev_mailbox: bool,
    /// The SMTP user, in place of one in the URL.
    #[arg(long, env = "NEARCARE_SMTP_USER")]
    pub smtp_user: Option<String>,
    /// The SMTP password, in place of one in the URL.
    #[arg(long, env = "NEARCARE_SMTP_PASSWORD", hide_env_values = true)]
    pub smtp_password: Option<Secret>,
    /// The sender of every email; its domain ends each Message-ID.
    #[arg(
        long,
        env = "NEARCARE_MAIL_FROM",
        default_value = "Nearcare <no-reply@nearcare.example>"
    )]
    pub mail_from: String,
    /// Delay before the first retry of a temporary SMTP failure, in milliseconds; each further
    /// retry doubles it (up to an hour), with jitter.
    #[arg(long, env = "NEARCARE_MAIL_RETRY_BASE_MS", default_value_t = 30_000)]
    pub mail_retry_base_ms: u64,
    /// Attempts after which a message that keeps failing temporarily is marked failed.
    #[arg(long, env = "NEARCARE_MAIL_MAX_ATTEMPTS", default_value_t = 8)]
    pub mail_max_attempts: i32,
    /// How often the sender looks for due retries and background jobs, in milliseconds (new
    /// messages wake it at once).
    #[arg(long, env = "NEARCARE_MAIL_POLL_MS", default_value_t = 2_000)]
    pub mail_poll_ms: u64,
    /// Days analytics events (the marketplace's search records) are kept; older ones are
    /// counted by day into analytics_daily and deleted, once an hour (0: kept forever).
    #[arg(long, env = "NEARCARE_ANALYTICS_RETENTION_DAYS", default_value_t = 90)]
    pub analytics_retention_days: u64,
    /// Search records (POST /member/app/metadata) one client address may send a minute, on
    /// each server (0: no limit).
    #[arg(long, env = "NEARCARE_METADATA_PER_MINUTE", default_value_t = 60)]
    pub metadata_per_minute: u32,
    /// Delay before the first background retry of an eligibility check the roster could not
    /// answer, in milliseconds; each further retry doubles it (up to an hour), with jitter.
    #[arg(long, env = "NEARCARE_ELIGIBILITY_RETRY_BASE_MS", default_value_t = 60_000)]
    pub eligibility_retry_base_ms: u64,
    /// How long a pending check is retried, in hours; then it stays pending for the member to
    /// confirm again.
    #[arg(long, env = "NEARCARE_ELIGIBILITY_RETRY_HOURS", default_value_t = 72)]
    pub eligibility_retry_hours: u64,
    /// How often the background job looks for organisations whose listings are past due (90
    /// days unconfirmed) and reminds them (at most once a week each), in seconds.
    #[arg(long, env = "NEARCARE_ATTESTATION_SWEEP_SECS", default_value_t = 3_600)]
    pub attestation_sweep_secs: u64,
    /// The server's clock (tests move it forward).
    #[arg(skip)]
    pub clock: crate::clock::Clock,
    /// Minutes without a request after which a session ends (signed out everywhere).
    #[arg(long, env = "NEARCARE_SESSION_IDLE_MINUTES", default_value_t = 12 * 60)]
    pub session_idle_minutes: u64,
    /// Days after signing in at which a session ends, however active.
    #[arg(long, env = "NEARCARE_SESSION_ABSOLUTE_DAYS", default_value_t = 30)]
    pub session_absolute_days: u64,
    /// How often each server reads the sessions ended elsewhere, in milliseconds, whether or
    /// not a notification came: the longest an ended session can still be served by a server
    /// that missed its notification.
    #[arg(long, env = "NEARCARE_SESSION_RESYNC_MS", default_value_t = 1_000)]
    pub session_resync_ms: u64,
    /// How often each server writes the sessions' newest activity, in seconds (one statement for
    /// all of them).
    #[arg(long, env = "NEARCARE_SESSION_ACTIVITY_FLUSH_SECONDS", default_value_t = 30)]
    pub session_activity_flush_seconds: u64,
    /// Where Prometheus scrapes `GET /metrics`, apart from the public port: an address and port,
    /// or `off` (no listener, nothing recorded). The default, loopback only, falls back to a free
    /// loopback port (logged) when another server on the machine holds it.
    #[arg(long, env = "NEARCARE_METRICS_ADDR", default_value = DEFAULT_METRICS_ADDR)]
    pub metrics_addr: String,
    /// Requests at least this slow, in milliseconds, are logged as warnings ("slow request").
    #[arg(long, env = "NEARCARE_SLOW_REQUEST_MS", default_value_t = 500)]
    pub slow_request_ms: u64,
    /// Log lines as readable text or as one JSON object a line.
    #[arg(long, env = "NEARCARE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl Config {
    /// A configuration for tests: a given database, an isolated local folder, a free port.
    pub fn for_tests(database_url: String, local_dir: PathBuf) -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 0,
            database_url: Some(Secret(database_url)),
            index_dir: Some(local_dir.join("index")),
            generation_store: None,
            local_dir,
            web_dist: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/dist")),
            legal_dir: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../legal")),
            seed_clinics: 0,
            jwt_secret: Some(Secret("test-secret-not-for-production-use".into())),
            geocoder_url: None,
            geocoder_key: None,
            body_limit: 64 * 1024,
            public_url: None,
            rate_limit_per_email: 5,
            rate_limit_per_client: 30,
            // Tests ask for links back to back; the throttle's own tests turn it on.
            link_interval_seconds: 0,
            client_ip_header: None,
            trusted_proxy_hops: 1,
            hsts: None,
            header_read_timeout: 10,
            max_connections: 1024,
            // The test's own runtime serves, so a test sees its server's tasks and panics;
            // `serve::tests` and the process tests cover the threads.
            serve_threads: Some(0),
            max_connections_per_address: 128,
            min_body_rate: 500,
            database_acquire_timeout_ms: 2000,
            support_email: "support@nearcare.example".into(),
            sales_email: "sales@nearcare.example".into(),
            smtp_url: None,
            dev_mailbox: true,
            smtp_user: None,
            smtp_password: None,
            mail_from: "Nearcare <no-reply@nearcare.example>".into(),
            mail_retry_base_ms: 30_000,
            mail_max_attempts: 8,
            mail_poll_ms: 200,
            analytics_retention_days: 90,
            metadata_per_minute: 60,
            eligibility_retry_base_ms: 60_000,
            eligibility_retry_hours: 72,
            attestation_sweep_secs: 3_600,
            clock: crate::clock::Clock::system(),
            session_idle_minutes: 12 * 60,
            session_absolute_days: 30,
            session_resync_ms: 1_000,
            session_activity_flush_seconds: 30,
            metrics_addr: "127.0.0.1:0".into(),
            slow_request_ms: 500,
            log_format: LogFormat::Text,
        }
    }

    /// How many threads serve connections: 0 for the shared runtime.
    pub fn serving_threads(&self) -> usize {
        self.serve_threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
    }

    /// The sessions' limits and how closely servers follow each other.
    pub fn session_policy(&self) -> crate::sessions::SessionPolicy {
        crate::sessions::SessionPolicy {
            idle: Duration::from_secs(self.session_idle_minutes.max(1) * 60),
            absolute: Duration::from_secs(self.session_absolute_days.max(1) * 86_400),
            resync: Duration::from_millis(self.session_resync_ms.max(10)),
            flush: Duration::from_secs(self.session_activity_flush_seconds.max(1)),
        }
    }

    /// Whether answers carry Strict-Transport-Security.
    pub fn hsts(&self) -> bool {
        self.hsts.unwrap_or_else(|| {
            self.public_url
                .as_deref()
                .is_some_and(|url| url.to_ascii_lowercase().starts_with("https://"))
        })
    }

    pub fn index_dir(&self) -> PathBuf {
        self.index_dir.clone().unwrap_or_else(|| self.local_dir.join("index"))
    }
}
