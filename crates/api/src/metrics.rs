//! Prometheus metrics. This module is the one list of what the server exposes: every name is
//! registered in [`Metrics::new`] (the Grafana dashboard and the alert rules are checked against
//! a live server's exposition), the points of record call the small functions at the bottom,
//! and [`serve`] answers `GET /metrics` on `NEARCARE_METRICS_ADDR`, off the public port, in the
//! Prometheus text format that `prometheus-client` encodes.
//!
//! Recording on the request path costs a few atomic adds, never a lock: a route's series are
//! made the first time the route answers and kept in [`Route`], so no label is allocated or
//! looked up per request, and histograms are [`histogram::Histogram`]'s atomic buckets. Values read from PostgreSQL and `/proc` (outbox, jobs, pool, process) are
//! read when Prometheus scrapes.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::http::{Method, StatusCode};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::registry::Registry;

use search::SnapshotHandle;
use store::PgPool;

use self::histogram::Histogram;

/// Latency buckets of HTTP answers, from 25 µs (a search answers in tens of microseconds) to
/// 10 s.
const HTTP_SECONDS: [f64; 18] = [
    0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 5.0, 10.0,
];
/// The search engine's own time, from 5 µs.
const ENGINE_SECONDS: [f64; 14] = [
    0.000_005, 0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1,
];
/// Results in one answer: cards listed, pins, area cells.
const RESULT_COUNTS: [f64; 12] = [
    0.0, 1.0, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2000.0, 4096.0,
];
/// Fetching and opening a generation: tens of milliseconds for the demo catalogue, seconds at a
/// million locations.
const SNAPSHOT_SECONDS: [f64; 12] = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0];
/// One SMTP delivery.
const SEND_SECONDS: [f64; 13] = [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];
/// Waiting for a PostgreSQL connection: microseconds when one is idle, up to the acquire timeout.
const ACQUIRE_SECONDS: [f64; 17] = [
    0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
    0.5, 1.0, 2.5,
];

type Labels = Vec<(&'static str, String)>;
type Histograms = Family<Labels, Histogram, fn() -> Histogram>;
type FloatGauge = Gauge<f64, std::sync::atomic::AtomicU64>;

/// Every metric the server exposes, registered once per process.
pub struct Metrics {
    registry: Registry,
    http_requests: Family<Labels, Counter>,
    http_seconds: Histograms,
    search_seconds: Histograms,
    search_results: Histograms,
    snapshot_generation: Gauge,
    snapshot_published: FloatGauge,
    snapshot_age: FloatGauge,
    snapshot_patches: Counter,
    snapshot_fetch_seconds: Histogram,
    snapshot_load_seconds: Histogram,
    snapshot_load_failures: Counter,
    outbox_messages: Family<Labels, Gauge>,
    outbox_oldest_pending: FloatGauge,
    email_deliveries: Family<Labels, Counter>,
    email_send_seconds: Histogram,
    jobs: Family<Labels, Gauge>,
    job_runs: Family<Labels, Counter>,
    logins: Family<Labels, Counter>,
    lockouts: Family<Labels, Counter>,
    rate_limit_refusals: Family<Labels, Counter>,
    pool_connections: Family<Labels, Gauge>,
    pool_max: Gauge,
    pool_acquire_seconds: Histogram,
    pool_acquire_timeouts: Counter,
    database_up: Gauge,
    /// The served generation's publication time, read once per generation.
    published_at: Mutex<Option<(i64, f64)>>,
    /// The job kinds and states counted so far.
    job_series: Mutex<std::collections::BTreeSet<Labels>>,
}

fn histograms_http() -> Histogram {
    Histogram::new(HTTP_SECONDS)
}

fn histograms_engine() -> Histogram {
    Histogram::new(ENGINE_SECONDS)
}

fn histograms_results() -> Histogram {
    Histogram::new(RESULT_COUNTS)
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::default();
        let build = Family::<Labels, Gauge>::default();
        build
            .get_or_create(&vec![("version", env!("CARGO_PKG_VERSION").to_owned())])
            .set(1);
        registry.register("nearcare_build_info", "The server's version (always 1)", build);
        let metrics = Self {
            http_requests: Family::default(),
            http_seconds: Family::new_with_constructor(histograms_http as fn() -> Histogram),
            search_seconds: Family::new_with_constructor(histograms_engine as fn() -> Histogram),
            search_results: Family::new_with_constructor(histograms_results as fn() -> Histogram),
            snapshot_generation: Gauge::default(),
            snapshot_published: FloatGauge::default(),
            snapshot_age: FloatGauge::default(),
            snapshot_patches: Counter::default(),
            snapshot_fetch_seconds: Histogram::new(SNAPSHOT_SECONDS),
            snapshot_load_seconds: Histogram::new(SNAPSHOT_SECONDS),
            snapshot_load_failures: Counter::default(),
            outbox_messages: Family::default(),
            outbox_oldest_pending: FloatGauge::default(),
            email_deliveries: Family::default(),
            email_send_seconds: Histogram::new(SEND_SECONDS),
            jobs: Family::default(),
            job_runs: Family::default(),
            logins: Family::default(),
            lockouts: Family::default(),
            rate_limit_refusals: Family::default(),
            pool_connections: Family::default(),
            pool_max: Gauge::default(),
            pool_acquire_seconds: Histogram::new(ACQUIRE_SECONDS),
            pool_acquire_timeouts: Counter::default(),
            database_up: Gauge::default(),
            published_at: Mutex::new(None),
            job_series: Mutex::default(),
            registry,
        };
        metrics.register().with_known_series()
    }

    fn register(mut self) -> Self {
        let registry = &mut self.registry;
        registry.register(
            "nearcare_http_requests",
            "HTTP requests answered, by route template (`unmatched`: no route; `refused:CODE`: refused at the edge before routing), method and status class",
            self.http_requests.clone(),
        );
        registry.register(
            "nearcare_http_request_duration_seconds",
            "Time from a request's arrival to its answer's headers, by route template",
            self.http_seconds.clone(),
        );
        registry.register(
            "nearcare_search_engine_seconds",
            "The search engine's time per query, by class (search: the answer's JSON included; pins; area_pins)",
            self.search_seconds.clone(),
        );
        registry.register(
            "nearcare_search_results",
            "Results in one answer, by class (search: cards listed; pins: pins; area_pins: cells)",
            self.search_results.clone(),
        );
        registry.register(
            "nearcare_snapshot_generation",
            "The search snapshot generation this server serves",
            self.snapshot_generation.clone(),
        );
        registry.register(
            "nearcare_snapshot_published_timestamp_seconds",
            "When the served generation was published (Unix time)",
            self.snapshot_published.clone(),
        );
        registry.register(
            "nearcare_snapshot_age_seconds",
            "Seconds since the served generation was published",
            self.snapshot_age.clone(),
        );
        registry.register(
            "nearcare_snapshot_patches",
            "Catalogue changes patched into the served snapshot",
            self.snapshot_patches.clone(),
        );
        registry.register(
            "nearcare_snapshot_fetch_seconds",
            "Fetching a published generation's files into this server's folder",
            self.snapshot_fetch_seconds.clone(),
        );
        registry.register(
            "nearcare_snapshot_load_seconds",
            "Opening a generation (after any fetch) until it can be served",
            self.snapshot_load_seconds.clone(),
        );
        registry.register(
            "nearcare_snapshot_load_failures",
            "Published generations this server could not fetch or open (it kept serving the one it had)",
            self.snapshot_load_failures.clone(),
        );
        registry.register(
            "nearcare_email_outbox_messages",
            "Outbox messages by state (pending: not sent yet, retries included; failed: given up), read from PostgreSQL at scrape",
            self.outbox_messages.clone(),
        );
        registry.register(
            "nearcare_email_outbox_oldest_pending_seconds",
            "Age of the oldest pending outbox message (0: none), read from PostgreSQL at scrape",
            self.outbox_oldest_pending.clone(),
        );
        registry.register(
            "nearcare_email_deliveries",
            "Delivery attempts by this server's sender, by outcome (sent, retry, failed; the log names each message)",
            self.email_deliveries.clone(),
        );
        registry.register(
            "nearcare_email_send_seconds",
            "Handing one message to the SMTP relay (or the development mailbox)",
            self.email_send_seconds.clone(),
        );
        registry.register(
            "nearcare_jobs",
            "Background jobs by kind and state (pending, failed), read from PostgreSQL at scrape",
            self.jobs.clone(),
        );
        registry.register(
            "nearcare_job_runs",
            "Background job runs on this server, by kind and outcome (done, retry, failed)",
            self.job_runs.clone(),
        );
        registry.register(
            "nearcare_logins",
            "Login attempts by method (password, magic_link) and outcome",
            self.logins.clone(),
        );
        registry.register(
            "nearcare_login_lockouts",
            "Failed logins that reached a limit, locking its key for the rest of the window, by limit",
            self.lockouts.clone(),
        );
        registry.register(
            "nearcare_rate_limit_refusals",
            "Requests refused 429 by a rate limit, by limit",
            self.rate_limit_refusals.clone(),
        );
        registry.register(
            "nearcare_db_pool_connections",
            "PostgreSQL pool connections by state (idle, in_use)",
            self.pool_connections.clone(),
        );
        registry.register(
            "nearcare_db_pool_max_connections",
            "The PostgreSQL pool's size limit",
            self.pool_max.clone(),
        );
        registry.register(
            "nearcare_db_pool_acquire_seconds",
            "Waiting for a PostgreSQL connection from the pool (slow buckets: acquires that waited)",
            self.pool_acquire_seconds.clone(),
        );
        registry.register(
            "nearcare_db_pool_acquire_timeouts",
            "Requests that found no PostgreSQL connection in time (answered 503 database_unavailable)",
            self.pool_acquire_timeouts.clone(),
        );
        registry.register(
            "nearcare_database_up",
            "Whether PostgreSQL answered this scrape's queries (1) or not (0)",
            self.database_up.clone(),
        );
        registry.register_collector(Box::new(ProcessCollector {
            started: SystemTime::now(),
        }));
        self
    }

    /// Every label value known in advance, shown at 0 before anything happens: a series that
    /// appears at 1 shows no increase, so alerts on increases would miss the first event.
    fn with_known_series(self) -> Self {
        for state in ["idle", "in_use"] {
            self.pool_connections
                .get_or_create_owned(&vec![("state", state.to_owned())]);
        }
        for state in ["pending", "failed"] {
            self.outbox_messages
                .get_or_create_owned(&vec![("state", state.to_owned())]);
        }
        for outcome in Delivery::ALL {
            self.email_deliveries
                .get_or_create_owned(&outcome_label(outcome.name()));
        }
        for method in LoginMethod::ALL {
            for outcome in LOGIN_OUTCOMES {
                self.logins.get_or_create_owned(&vec![
                    ("method", method.name().to_owned()),
                    ("outcome", outcome.to_owned()),
                ]);
            }
        }
        for limit in RATE_LIMITS {
            self.lockouts.get_or_create_owned(&vec![("limit", limit.to_owned())]);
            self.rate_limit_refusals
                .get_or_create_owned(&vec![("limit", limit.to_owned())]);
        }
        self.rate_limit_refusals
            .get_or_create_owned(&vec![("limit", CONNECTIONS_PER_ADDRESS.to_owned())]);
        for class in QueryClass::ALL {
            let labels = vec![("class", class.name().to_owned())];
            self.search_seconds.get_or_create_owned(&labels);
            self.search_results.get_or_create_owned(&labels);
        }
        self
    }

    /// Sets the count of every job kind and state seen to 0 (the next counts overwrite them).
    fn zero_job_counts(&self) {
        for labels in self
            .job_series
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .iter()
        {
            self.jobs.get_or_create(labels).set(0);
        }
    }

    /// The job count of `kind` in `state`, remembered for [`Self::zero_job_counts`].
    fn job_count(&self, kind: &str, state: &str) -> Gauge {
        let labels = vec![("kind", kind.to_owned()), ("state", state.to_owned())];
        self.job_series
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .insert(labels.clone());
        self.jobs.get_or_create_owned(&labels)
    }

    /// The exposition, in the Prometheus text format (version 0.0.4).
    pub fn encode(&self) -> String {
        let mut text = String::with_capacity(32 * 1024);
        if prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry).is_err() {
            text.clear();
        }
        text
    }

    /// Reads the values that live elsewhere (PostgreSQL, the pool, the served snapshot) into
    /// their gauges. A database that does not answer within `timeout` leaves its gauges as they
    /// were and sets `nearcare_database_up` to 0.
    async fn read_scraped_values(&self, pool: &PgPool, snapshots: &SnapshotHandle, timeout: Duration) {
        let idle = pool.num_idle() as i64;
        self.pool_connections
            .get_or_create(&vec![("state", "idle".to_owned())])
            .set(idle);
        self.pool_connections
            .get_or_create(&vec![("state", "in_use".to_owned())])
            .set(i64::from(pool.size()) - idle);
        self.pool_max.set(i64::from(pool.options().get_max_connections()));
        let generation = snapshots.load().map(|snapshot| snapshot.generation);
        if let Some(generation) = generation {
            self.snapshot_generation.set(generation);
        }
        let read = tokio::time::timeout(timeout, self.read_database(pool, generation)).await;
        let up = matches!(read, Ok(Ok(())));
        if let Ok(Err(error)) = &read {
            tracing::warn!(error = %error, "metrics: reading the outbox and jobs failed");
        }
        self.database_up.set(i64::from(up));
        if let Some((_, published)) = *self.published_at.lock().unwrap_or_else(|poison| poison.into_inner()) {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs_f64();
            self.snapshot_published.set(published);
            self.snapshot_age.set((now - published).max(0.0));
        }
    }

    async fn read_database(&self, pool: &PgPool, generation: Option<i64>) -> Result<(), store::StoreError> {
        let backlog = store::outbox::backlog(pool).await?;
        for (name, count) in [("pending", backlog.pending), ("failed", backlog.failed)] {
            self.outbox_messages
                .get_or_create(&vec![("state", name.to_owned())])
                .set(count);
        }
        self.outbox_oldest_pending.set(backlog.oldest_pending_seconds);
        // Kinds that have no pending or failed job any more read 0, not their last count.
        let counts = store::jobs::counts(pool).await?;
        self.zero_job_counts();
        for (kind, job_state, count) in counts {
            self.job_count(&kind, &job_state).set(count);
        }
        let known = *self.published_at.lock().unwrap_or_else(|poison| poison.into_inner());
        if let Some(generation) = generation
            && known.is_none_or(|(known, _)| known != generation)
            && let Some(published) = store::generations::published_at(pool, generation).await?
        {
            let seconds = published.timestamp_micros() as f64 / 1e6;
            *self.published_at.lock().unwrap_or_else(|poison| poison.into_inner()) = Some((generation, seconds));
        }
        Ok(())
    }
}

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// Turns metrics on for this process (the first call registers them; later ones are no-ops).
pub fn install() -> &'static Metrics {
    METRICS.get_or_init(Metrics::new)
}

/// The metrics, when they are on (`NEARCARE_METRICS_ADDR` is not `off`).
pub fn get() -> Option<&'static Metrics> {
    METRICS.get()
}

/// Answers `GET /metrics` on `listener` until `shutdown` completes; anything else is a 404.
/// `pool` and `snapshots` are this server's, read at each scrape.
pub async fn serve(
    listener: tokio::net::TcpListener,
    pool: PgPool,
    snapshots: SnapshotHandle,
    mut shutdown: crate::shutdown::Shutdown,
) {
    let metrics = install();
    let exposition = move || {
        let (pool, snapshots) = (pool.clone(), snapshots.clone());
        async move {
            metrics
                .read_scraped_values(&pool, &snapshots, Duration::from_secs(2))
                .await;
            (
                [(
                    axum::http::header::CONTENT_TYPE,
                    prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
                )],
                metrics.encode(),
            )
        }
    };
    let router = axum::Router::new().route("/metrics", axum::routing::get(exposition));
    let stopped = async move { shutdown.wait().await };
    if let Err(error) = axum::serve(listener, router).with_graceful_shutdown(stopped).await {
        tracing::warn!(%error, "the metrics listener stopped");
    }
}

/// A route's name in metrics and logs (its template, such as `/member/app/market/provider/{id}`)
/// and its series, made when first recorded.
#[derive(Debug)]
pub struct Route {
    template: &'static str,
    requests: [[OnceLock<Counter>; STATUS_CLASSES]; METHODS.len()],
    seconds: OnceLock<Histogram>,
}

/// The methods counted apart; any other is `other`.
const METHODS: [&str; 8] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "other"];
const STATUS_CLASSES: usize = 5;

/// The name of requests no route answered: the web app's files and unknown API paths.
pub const UNMATCHED: &str = "unmatched";

/// The start of the names of requests refused at the edge before routing, followed by the
/// refusal's error code (`refused:payload_too_large`, `refused:too_many_requests`, ...).
pub const REFUSED_PREFIX: &str = "refused:";

/// The route named `template`, the same one every time (routes are few and live as long as
/// the process).
pub fn route(template: &str) -> &'static Route {
    static ROUTES: OnceLock<Mutex<HashMap<String, &'static Route>>> = OnceLock::new();
    let mut routes = ROUTES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poison| poison.into_inner());
    if let Some(route) = routes.get(template) {
        return route;
    }
    let route: &'static Route = Box::leak(Box::new(Route {
        template: Box::leak(template.to_owned().into_boxed_str()),
        requests: Default::default(),
        seconds: OnceLock::new(),
    }));
    routes.insert(template.to_owned(), route);
    route
}

fn method_index(method: &Method) -> usize {
    match *method {
        Method::GET => 0,
        Method::POST => 1,
        Method::PUT => 2,
        Method::PATCH => 3,
        Method::DELETE => 4,
        Method::HEAD => 5,
        Method::OPTIONS => 6,
        _ => 7,
    }
}

impl Route {
    pub fn template(&self) -> &'static str {
        self.template
    }

    /// Counts one answer and its time.
    pub fn record(&self, method: &Method, status: StatusCode, elapsed: Duration) {
        let Some(metrics) = get() else { return };
        let method = method_index(method);
        let class = usize::from((status.as_u16() / 100).clamp(1, 5)) - 1;
        self.requests[method][class]
            .get_or_init(|| {
                metrics.http_requests.get_or_create_owned(&vec![
                    ("route", self.template.to_owned()),
                    ("method", METHODS[method].to_owned()),
                    ("status", format!("{}xx", class + 1)),
                ])
            })
            .inc();
        self.seconds
            .get_or_init(|| {
                metrics
                    .http_seconds
                    .get_or_create_owned(&vec![("route", self.template.to_owned())])
            })
            .observe(elapsed.as_secs_f64());
    }
}

/// The search engine's query classes.
#[derive(Debug, Clone, Copy)]
pub enum QueryClass {
    Search,
    Pins,
    AreaPins,
}

impl QueryClass {
    const ALL: [QueryClass; 3] = [Self::Search, Self::Pins, Self::AreaPins];

    fn name(self) -> &'static str {
        match self {
            Self::Search => "search",
            Self::Pins => "pins",
            Self::AreaPins => "area_pins",
        }
    }
}

/// The start of a timed call when metrics are on (with them off, not even the clock is read).
pub fn timer() -> Option<Instant> {
    get().map(|_| Instant::now())
}

/// Records one engine call timed from `timer` ([`timer`]'s) and how many results it answered.
pub fn search_query(class: QueryClass, timer: Option<Instant>, results: usize) {
    let (Some(metrics), Some(started)) = (get(), timer) else {
        return;
    };
    static SERIES: OnceLock<[(Histogram, Histogram); 3]> = OnceLock::new();
    let series = SERIES.get_or_init(|| {
        QueryClass::ALL.map(|class| {
            let labels = vec![("class", class.name().to_owned())];
            (
                metrics.search_seconds.get_or_create_owned(&labels),
                metrics.search_results.get_or_create_owned(&labels),
            )
        })
    });
    let (seconds, counts) = &series[class as usize];
    seconds.observe(started.elapsed().as_secs_f64());
    counts.observe(results as f64);
}

/// Records a generation loaded: its fetch (when it was fetched) and its opening.
pub fn snapshot_loaded(fetch: Option<Duration>, load: Duration) {
    let Some(metrics) = get() else { return };
    if let Some(fetch) = fetch {
        metrics.snapshot_fetch_seconds.observe(fetch.as_secs_f64());
    }
    metrics.snapshot_load_seconds.observe(load.as_secs_f64());
}

/// Records a published generation this server could not fetch or open.
pub fn snapshot_load_failed() {
    if let Some(metrics) = get() {
        metrics.snapshot_load_failures.inc();
    }
}

/// Records catalogue changes patched into the served snapshot.
pub fn snapshot_patched() {
    if let Some(metrics) = get() {
        metrics.snapshot_patches.inc();
    }
}

/// What became of one delivery attempt.
#[derive(Debug, Clone, Copy)]
pub enum Delivery {
    Sent,
    Retry,
    Failed,
}

impl Delivery {
    const ALL: [Delivery; 3] = [Self::Sent, Self::Retry, Self::Failed];

    fn name(self) -> &'static str {
        match self {
            Self::Sent => "sent",
            Self::Retry => "retry",
            Self::Failed => "failed",
        }
    }
}

fn outcome_label(outcome: &str) -> Labels {
    vec![("outcome", outcome.to_owned())]
}

/// Records one delivery attempt and how long handing the message over took.
pub fn email_delivery(outcome: Delivery, took: Option<Duration>) {
    let Some(metrics) = get() else { return };
    metrics
        .email_deliveries
        .get_or_create(&outcome_label(outcome.name()))
        .inc();
    if let Some(took) = took {
        metrics.email_send_seconds.observe(took.as_secs_f64());
    }
}

/// What became of one job run.
pub const JOB_OUTCOMES: [&str; 3] = ["done", "retry", "failed"];

/// Records one run of a background job of `kind`: one of [`JOB_OUTCOMES`].
pub fn job_run(kind: &str, outcome: &'static str) {
    if let Some(metrics) = get() {
        metrics
            .job_runs
            .get_or_create(&vec![("kind", kind.to_owned()), ("outcome", outcome.to_owned())])
            .inc();
    }
}

/// Shows the job kinds a runner knows at 0 before any runs, so the first failure of a kind is
/// an increase that alerts can see (a series that starts at 1 shows none).
pub fn job_kinds(kinds: &[&str]) {
    let Some(metrics) = get() else { return };
    for kind in kinds {
        for outcome in JOB_OUTCOMES {
            metrics
                .job_runs
                .get_or_create_owned(&vec![("kind", (*kind).to_owned()), ("outcome", outcome.to_owned())]);
        }
        for state in ["pending", "failed"] {
            metrics.job_count(kind, state);
        }
    }
}

/// How a login attempt was made.
#[derive(Debug, Clone, Copy)]
pub enum LoginMethod {
    Password,
    MagicLink,
}

impl LoginMethod {
    const ALL: [LoginMethod; 2] = [Self::Password, Self::MagicLink];

    fn name(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::MagicLink => "magic_link",
        }
    }
}

/// What became of a login attempt.
pub const LOGIN_OUTCOMES: [&str; 5] = [
    "success",
    "invalid_credentials",
    "email_not_verified",
    "rate_limited",
    "invalid_link",
];

/// The limit of connections from one address (`NEARCARE_MAX_CONNECTIONS_PER_ADDRESS`): a
/// connection over it is refused before any request is read, so no route counts it; it is
/// counted with the rate limits' refusals under this name.
pub const CONNECTIONS_PER_ADDRESS: &str = "connections_per_address";

/// The rate limits, by the names `limits::Bucket::name` gives them.
pub const RATE_LIMITS: [&str; 7] = [
    "login_email_client",
    "client",
    "lookup",
    "change_email_to",
    "password_change",
    "eligibility",
    "contact_request",
];

/// Records one login attempt and its outcome, one of [`LOGIN_OUTCOMES`].
pub fn login(method: LoginMethod, outcome: &'static str) {
    if let Some(metrics) = get() {
        let method = method.name();
        metrics
            .logins
            .get_or_create(&vec![("method", method.to_owned()), ("outcome", outcome.to_owned())])
            .inc();
    }
}

/// Records a failure that reached the limit named `limit` (its key is locked for the window).
pub fn lockout(limit: &'static str) {
    if let Some(metrics) = get() {
        metrics.lockouts.get_or_create(&vec![("limit", limit.to_owned())]).inc();
    }
}

/// Records a request refused by the limit named `limit`.
pub fn rate_limit_refusal(limit: &'static str) {
    if let Some(metrics) = get() {
        metrics
            .rate_limit_refusals
            .get_or_create(&vec![("limit", limit.to_owned())])
            .inc();
    }
}

/// Records a request that found no PostgreSQL connection in time.
pub fn pool_acquire_timeout() {
    if let Some(metrics) = get() {
        metrics.pool_acquire_timeouts.inc();
    }
}

/// A log layer that records the pool's acquire times from sqlx's own `sqlx::pool::acquire`
/// events (the pool is built with `acquire_time_level` on; see `app.rs`).
pub struct AcquireTimes;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for AcquireTimes {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Seconds(Option<f64>);
        impl tracing::field::Visit for Seconds {
            fn record_f64(&mut self, field: &tracing::field::Field, value: f64) {
                if field.name() == "acquired_after_secs" {
                    self.0 = Some(value);
                }
            }
            fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
        }
        let Some(metrics) = get() else { return };
        let mut seconds = Seconds(None);
        event.record(&mut seconds);
        if let Some(seconds) = seconds.0 {
            metrics.pool_acquire_seconds.observe(seconds);
        }
    }
}

/// The process's own figures, read from `/proc/self` at each scrape under the names every
/// Prometheus client library uses.
#[derive(Debug)]
struct ProcessCollector {
    started: SystemTime,
}

/// The kernel's clock ticks per second in `/proc` (USER_HZ, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let field = |index: usize| fields.get(index).and_then(|value| value.parse::<f64>().ok());
        // utime and stime are the 14th and 15th fields of the line, 12th and 13th after the name.
        if let (Some(user), Some(system)) = (field(11), field(12)) {
            let cpu = ConstCounter::new((user + system) / TICKS_PER_SECOND);
            let metric = encoder.encode_descriptor(
                "process_cpu_seconds",
                "User and system CPU time spent, in seconds",
                None,
                cpu.metric_type(),
            )?;
            cpu.encode(metric)?;
        }
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let kilobytes = |key: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(key))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|value| value.parse::<f64>().ok())
                .map(|value| value * 1024.0)
        };
        let open_files = std::fs::read_dir("/proc/self/fd")
            .map(|entries| entries.count() as f64)
            .ok();
        let max_files = std::fs::read_to_string("/proc/self/limits").ok().and_then(|limits| {
            limits
                .lines()
                .find(|line| line.starts_with("Max open files"))
                .and_then(|line| line.split_whitespace().nth(3))
                .and_then(|value| value.parse::<f64>().ok())
        });
        let started = self
            .started
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        let gauges = [
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                kilobytes("VmRSS:"),
            ),
            (
                "process_virtual_memory_bytes",
                "Virtual memory size in bytes",
                kilobytes("VmSize:"),
            ),
            ("process_open_fds", "Number of open file descriptors", open_files),
            ("process_max_fds", "Maximum number of open file descriptors", max_files),
            (
                "process_start_time_seconds",
                "Start time of the process since the Unix epoch, in seconds",
                Some(started),
            ),
        ];
        for (name, help, value) in gauges {
            let Some(value) = value else { continue };
            let gauge = ConstGauge::new(value);
            let metric = encoder.encode_descriptor(name, help, None, gauge.metric_type())?;
            gauge.encode(metric)?;
        }
        Ok(())
    }
}

/// A classic Prometheus histogram whose observations are atomic adds. prometheus-client's own
/// takes a mutex for each observation; the serving threads record the same route's and engine's
/// histograms on every search, and on a busy machine a thread that found the lock held was
/// parked while it had work (with metrics on, 73% of the search throughput without them at a
/// million locations and load 10, at the same CPU time per search). Encoded by prometheus-client
/// like its own.
mod histogram {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet};
    use prometheus_client::metrics::{MetricType, TypedMetric};

    #[derive(Debug, Clone)]
    pub struct Histogram(Arc<Cells>);

    #[derive(Debug)]
    struct Cells {
        /// Upper bounds, ascending; a last bucket, +Inf, takes the rest.
        bounds: Box<[f64]>,
        /// Observations per bucket (not cumulative), one more than `bounds`.
        counts: Box<[AtomicU64]>,
        count: AtomicU64,
        /// The sum's `f64` bits.
        sum: AtomicU64,
    }

    impl Histogram {
        pub fn new(bounds: impl IntoIterator<Item = f64>) -> Self {
            let bounds: Box<[f64]> = bounds.into_iter().filter(|bound| bound.is_finite()).collect();
            let counts = (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect();
            Self(Arc::new(Cells {
                bounds,
                counts,
                count: AtomicU64::new(0),
                sum: AtomicU64::new(0f64.to_bits()),
            }))
        }

        pub fn observe(&self, value: f64) {
            let cells = &*self.0;
            // The first bucket whose bound is at least the value (`le`); NaN goes to +Inf.
            let bucket = if value.is_nan() {
                cells.bounds.len()
            } else {
                cells.bounds.partition_point(|bound| *bound < value)
            };
            cells.counts[bucket].fetch_add(1, Ordering::Relaxed);
            cells.count.fetch_add(1, Ordering::Relaxed);
            let _ = cells.sum.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f64::from_bits(bits) + value).to_bits())
            });
        }
    }

    impl TypedMetric for Histogram {
        const TYPE: MetricType = MetricType::Histogram;
    }

    impl EncodeMetric for Histogram {
        fn encode(&self, mut encoder: MetricEncoder<'_>) -> Result<(), std::fmt::Error> {
            let cells = &*self.0;
            let buckets: Vec<(f64, u64)> = cells
                .bounds
                .iter()
                .copied()
                .chain(std::iter::once(f64::INFINITY))
                .zip(cells.counts.iter().map(|count| count.load(Ordering::Relaxed)))
                .collect();
            // Read after the buckets, so `count` is never below their sum in one scrape.
            let count = cells
                .count
                .load(Ordering::Relaxed)
                .max(buckets.iter().map(|(_, count)| count).sum());
            let sum = f64::from_bits(cells.sum.load(Ordering::Relaxed));
            encoder.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)
        }

        fn metric_type(&self) -> MetricType {
            Self::TYPE
        }
    }

    #[cfg(test)]
    mod tests {
        use prometheus_client::encoding::text::encode;
        use prometheus_client::registry::Registry;

        use super::*;

        fn exposition(histogram: &Histogram) -> String {
            let mut registry = Registry::default();
            registry.register("latency_seconds", "test", histogram.clone());
            let mut text = String::new();
            encode(&mut text, &registry).unwrap();
            text
        }

        /// The same text as prometheus-client's histogram for the same observations, bounds
        /// included (`le` is inclusive), from threads recording at once.
        #[test]
        fn encodes_as_prometheus_clients_histogram_from_concurrent_threads() {
            let bounds = [0.001, 0.01, 0.1];
            let ours = Histogram::new(bounds);
            let theirs = prometheus_client::metrics::histogram::Histogram::new(bounds);
            let values = [0.0005, 0.001, 0.002, 0.01, 0.05, 0.5, 7.0];
            std::thread::scope(|scope| {
                for _ in 0..4 {
                    scope.spawn(|| {
                        for _ in 0..1000 {
                            for value in values {
                                ours.observe(value);
                            }
                        }
                    });
                }
            });
            for _ in 0..4000 {
                for value in values {
                    theirs.observe(value);
                }
            }
            let mut registry = Registry::default();
            registry.register("latency_seconds", "test", theirs);
            let mut expected = String::new();
            encode(&mut expected, &registry).unwrap();
            let ours = exposition(&ours);
            // The sums are added in different orders: compare them as numbers, the rest as text.
            let without_sum = |text: &str| -> (Vec<String>, f64) {
                let sum = text
                    .lines()
                    .find_map(|line| line.strip_prefix("latency_seconds_sum "))
                    .unwrap()
                    .parse()
                    .unwrap();
                let rest = text
                    .lines()
                    .filter(|line| !line.starts_with("latency_seconds_sum "))
                    .map(str::to_owned)
                    .collect();
                (rest, sum)
            };
            let (our_lines, our_sum) = without_sum(&ours);
            let (their_lines, their_sum) = without_sum(&expected);
            assert_eq!(our_lines, their_lines);
            assert!(
                (our_sum - their_sum).abs() < 1e-6 * their_sum,
                "{our_sum} vs {their_sum}"
            );
            assert!(ours.contains("latency_seconds_bucket{le=\"0.001\"} 8000"), "{ours}");
            assert!(ours.contains("latency_seconds_count 28000"), "{ours}");
        }
    }
}
