//! Operability: request ids (answers, 5xx bodies, outbox and job rows), the metrics the server
//! records, and the dashboard and alert rules checked against what it exposes. The process
//! tests run real server binaries: Debian's Prometheus scrapes two of them, and a full run's
//! logs (text and JSON) are searched for every secret the run used.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fleet::seeded_database;
use crate::helpers::{PASSWORD, TestApp, jane_form};

/// A series' labels, as `(name, value)` pairs.
type Labels<'a> = &'a [(&'a str, &'a str)];

/// The value of the series `name{labels}` in an exposition (0 when absent).
pub(crate) fn sample(exposition: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    exposition
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.rsplit_once(' '))
        .filter(|(series, _)| {
            let (series_name, series_labels) = series.split_once('{').unwrap_or((series, ""));
            series_name == name
                && labels
                    .iter()
                    .all(|(key, value)| series_labels.contains(&format!("{key}=\"{value}\"")))
        })
        .filter_map(|(_, value)| value.parse::<f64>().ok())
        .sum()
}

pub(crate) fn exposition() -> String {
    api::metrics::get()
        .expect("metrics are on in the test configuration")
        .encode()
}

async fn get_with_request_id(app: &TestApp, path: &str, request_id: &str) -> reqwest::Response {
    app.client
        .get(format!("{}{path}", app.address))
        .header("x-request-id", request_id)
        .send()
        .await
        .unwrap()
}

fn is_uuid_v4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.iter().map(|part| part.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && text.chars().all(|c| c == '-' || c.is_ascii_hexdigit())
        && parts[2].starts_with('4')
}

#[tokio::test]
async fn every_answer_carries_a_request_id_keeping_a_valid_incoming_one() {
    let app = TestApp::spawn(20).await;
    let made = app.get("/health").await;
    let first = made.headers["x-request-id"].to_str().unwrap().to_owned();
    assert!(is_uuid_v4(&first), "{first}");
    let again = app.get("/health").await;
    assert_ne!(again.headers["x-request-id"].to_str().unwrap(), first);

    let kept = get_with_request_id(&app, "/health", "lb-7f3a.42:edge_1").await;
    assert_eq!(kept.headers()["x-request-id"], "lb-7f3a.42:edge_1");
    // The SPA, unknown API paths and refusals at the edge carry one too.
    for path in ["/member/app/no-such-call", "/marketplace", "/member/app/market/search"] {
        let answer = get_with_request_id(&app, path, "edge-check").await;
        assert_eq!(answer.headers()["x-request-id"], "edge-check", "{path}");
    }
    for refused in ["has space", "quote\"d", &"x".repeat(65), "{curly}"] {
        let answer = get_with_request_id(&app, "/health", refused).await;
        let replaced = answer.headers()["x-request-id"].to_str().unwrap();
        assert!(
            is_uuid_v4(replaced),
            "{refused:?} was replaced by a new id, not {replaced}"
        );
    }
}

async fn confirm_info_with_request_id(app: &TestApp, access: &str, request_id: &str) -> (u16, Value, String) {
    let response = app
        .client
        .post(format!("{}/member/app/confirm/info", app.address))
        .header("x-access-token", access)
        .header("x-request-id", request_id)
        .json(&jane_form())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let header = response.headers()["x-request-id"].to_str().unwrap().to_owned();
    (status, response.json().await.unwrap(), header)
}

#[tokio::test]
async fn a_5xx_body_names_its_request_id_and_the_retry_job_and_its_email_keep_it() {
    let app = TestApp::spawn_with(30, |config| {
        config.eligibility_retry_base_ms = 100;
    })
    .await;
    let email = "retry-request@example.com";
    let signup = app
        .signup(&json!({ "email": email, "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    let access = signup.body["accessToken"].as_str().expect("an access token").to_owned();
    let signup_request: Option<String> =
        sqlx::query_scalar("select request_id from email_outbox where to_email = $1 and kind = 'verify_email'")
            .bind(email)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert!(
        signup_request.as_deref().is_some_and(is_uuid_v4),
        "the verification email keeps the sign-up's made id: {signup_request:?}"
    );

    // The roster cannot be read: 500 chcDown, whose body names the request.
    sqlx::query("alter table eligibility_roster rename to eligibility_roster_offline")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let (status, body, header) = confirm_info_with_request_id(&app, &access, "confirm-7").await;
    assert_eq!(status, 500, "{body:?}");
    assert_eq!(body["code"], "eligibility_unavailable");
    assert_eq!(body["requestId"], "confirm-7");
    assert_eq!(header, "confirm-7");
    let job_request: Option<String> =
        sqlx::query_scalar("select request_id from jobs where kind = 'eligibility_retry'")
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(job_request.as_deref(), Some("confirm-7"));

    // A 4xx body does not carry it.
    let refused = app.post("/member/app/login", &json!({ "email": "nobody" })).await;
    assert_eq!(refused.status, 400);
    assert!(refused.body.get("requestId").is_none(), "{:?}", refused.body);

    // The roster is back: the job confirms the member and emails the outcome, under the id
    // of the request that enqueued the job.
    sqlx::query("alter table eligibility_roster_offline rename to eligibility_roster")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let started = Instant::now();
    let outcome_request = loop {
        let row: Option<Option<String>> = sqlx::query_scalar(
            "select request_id from email_outbox where to_email = $1 and kind = 'eligibility_outcome'",
        )
        .bind(email)
        .fetch_optional(&app.database.pool)
        .await
        .unwrap();
        if let Some(request_id) = row {
            break request_id;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no outcome email");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(outcome_request.as_deref(), Some("confirm-7"));
}

#[tokio::test]
async fn requests_are_counted_by_route_template_and_logins_by_outcome() {
    let app = TestApp::spawn(20).await;
    let before = exposition();
    let profile_route = [
        ("route", "/member/app/market/provider/{id}"),
        ("method", "GET"),
        ("status", "4xx"),
    ];
    for _ in 0..3 {
        assert_eq!(app.get("/member/app/market/provider/987654321").await.status, 404);
    }
    let search = app.search("page=1", json!({ "zipCode": "80202" })).await;
    assert_eq!(search.status, 200, "{:?}", search.body);
    let pins = app
        .get("/member/app/market/location/pins?nwLng=-105.2&nwLat=39.9&seLng=-104.8&seLat=39.6")
        .await;
    assert_eq!(pins.status, 200, "{:?}", pins.body);
    assert_eq!(app.get("/member/app/unknown-call-for-metrics").await.status, 404);
    // Refused at the edge for its declared length, before any route is chosen.
    let too_large = crate::edge_answers::login_over_the_body_limit(&reqwest::Client::new(), &app).await;
    assert_eq!(too_large.status(), 413);

    // Five wrong passwords lock the email for this address; the sixth attempt is refused.
    let email = "metrics-lockout@example.com";
    app.registered_member(email).await;
    for _ in 0..5 {
        assert_eq!(app.login(email, "Wrong!pass1").await.status, 401);
    }
    assert_eq!(app.login(email, PASSWORD).await.status, 429);

    let after = exposition();
    let grew = |name: &str, labels: &[(&str, &str)]| sample(&after, name, labels) - sample(&before, name, labels);
    let expected: [(&str, Labels<'_>, f64); 13] = [
        ("nearcare_http_requests_total", &profile_route, 3.0),
        (
            "nearcare_http_requests_total",
            &[("route", "unmatched"), ("status", "4xx")],
            1.0,
        ),
        (
            "nearcare_http_requests_total",
            &[
                ("route", "refused:payload_too_large"),
                ("method", "POST"),
                ("status", "4xx"),
            ],
            1.0,
        ),
        (
            "nearcare_http_request_duration_seconds_count",
            &[("route", "/member/app/market/search")],
            1.0,
        ),
        (
            "nearcare_http_request_duration_seconds_bucket",
            &[("route", "/member/app/market/search"), ("le", "+Inf")],
            1.0,
        ),
        ("nearcare_search_engine_seconds_count", &[("class", "search")], 1.0),
        ("nearcare_search_engine_seconds_count", &[("class", "pins")], 1.0),
        // A Denver search lists cards.
        ("nearcare_search_results_sum", &[("class", "search")], 1.0),
        (
            "nearcare_logins_total",
            &[("method", "password"), ("outcome", "success")],
            1.0,
        ),
        (
            "nearcare_logins_total",
            &[("method", "password"), ("outcome", "invalid_credentials")],
            5.0,
        ),
        (
            "nearcare_logins_total",
            &[("method", "password"), ("outcome", "rate_limited")],
            1.0,
        ),
        ("nearcare_login_lockouts_total", &[("limit", "login_email_client")], 1.0),
        (
            "nearcare_rate_limit_refusals_total",
            &[("limit", "login_email_client")],
            1.0,
        ),
    ];
    for (name, labels, at_least) in expected {
        assert!(
            grew(name, labels) >= at_least,
            "{name}{labels:?} grew by {}",
            grew(name, labels)
        );
    }
    assert!(!after.contains("987654321"), "raw paths never become labels");
    assert!(
        !after.contains(email) && !after.contains("Wrong!pass1"),
        "no email or password in a label"
    );
}

/// `template` with each `{parameter}` replaced by `value`; with `{}`, a template's shape, which
/// the router and OpenAPI share though each names a parameter its own way (`{member_id}`,
/// `{memberId}`).
fn fill_parameters(template: &str, value: &str) -> String {
    let mut filled = String::with_capacity(template.len());
    let mut in_parameter = false;
    for character in template.chars() {
        match character {
            '{' => {
                in_parameter = true;
                filled.push_str(value);
            }
            '}' => in_parameter = false,
            _ if in_parameter => {}
            _ => filled.push(character),
        }
    }
    filled
}

fn template_shape(template: &str) -> String {
    fill_parameters(template, "{}")
}

#[tokio::test]
async fn every_documented_call_is_counted_by_its_route_template_never_its_path() {
    let app = TestApp::spawn(20).await;
    let document: Value = serde_json::from_str(include_str!("../../openapi.json")).unwrap();
    // A value no template holds, put in every path parameter: it must never reach a label.
    const RAW: &str = "918273645";
    let mut calls = Vec::new();
    for (path, operations) in document["paths"].as_object().unwrap() {
        for method in operations.as_object().unwrap().keys() {
            calls.push((path.clone(), method.to_uppercase()));
        }
    }
    assert!(calls.len() > 80, "the documented calls are read ({})", calls.len());
    for (path, method) in &calls {
        let concrete = fill_parameters(path, RAW);
        // No token and no body: each call is refused, after routing chose its route.
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        app.client
            .request(method, format!("{}{concrete}", app.address))
            .send()
            .await
            .unwrap();
    }
    let after = exposition();
    let counted: BTreeSet<(String, String)> = after
        .lines()
        .filter(|line| line.starts_with("nearcare_http_requests_total{"))
        .filter(|line| !line.ends_with(" 0"))
        .filter_map(|line| {
            let label = |key: &str| {
                let start = line.find(&format!("{key}=\""))? + key.len() + 2;
                let end = start + line[start..].find('"')?;
                Some(line[start..end].to_owned())
            };
            Some((template_shape(&label("route")?), label("method")?))
        })
        .collect();
    let missing: Vec<String> = calls
        .iter()
        .filter(|(path, method)| !counted.contains(&(template_shape(path), method.clone())))
        .map(|(path, method)| format!("{method} {path}"))
        .collect();
    assert!(missing.is_empty(), "not counted by their template: {missing:#?}");
    assert!(!after.contains(RAW), "a raw path became a label");
}

/// Metric names an expression uses (`nearcare_*` and `process_*`), as exposed: a histogram's
/// `_bucket`, `_sum` and `_count` are its base name.
fn names_in_expression(expression: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let bytes = expression.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let is_name = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
        if is_name(bytes[start]) && (start == 0 || !is_name(bytes[start - 1])) {
            let end = (start..bytes.len())
                .find(|&at| !is_name(bytes[at]))
                .unwrap_or(bytes.len());
            let word = &expression[start..end];
            if word.starts_with("nearcare_") || word.starts_with("process_") {
                names.insert(word.to_owned());
            }
            start = end;
        } else {
            start += 1;
        }
    }
    names
}

/// Whether `name` (as a query names it) is one of the exposition's series.
fn exposed(exposition: &str, name: &str) -> bool {
    let families: BTreeSet<(String, String)> = exposition
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE "))
        .filter_map(|rest| rest.split_once(' '))
        .map(|(family, kind)| (family.to_owned(), kind.to_owned()))
        .collect();
    families.iter().any(|(family, kind)| match kind.as_str() {
        "histogram" => [
            family.clone(),
            format!("{family}_bucket"),
            format!("{family}_sum"),
            format!("{family}_count"),
        ]
        .contains(&name.to_owned()),
        _ => family == name,
    })
}

#[tokio::test]
async fn the_grafana_dashboard_and_the_alert_rules_name_only_metrics_the_server_exposes() {
    let app = TestApp::spawn(5).await;
    // A route's series are made by its first request, the jobs' by the runner as it starts:
    // alone in its process this test makes both happen before it reads the exposition.
    assert_eq!(app.get("/health").await.status, 200);
    let started = Instant::now();
    let exposition = loop {
        let exposition = exposition();
        if exposition.contains("nearcare_jobs{") || started.elapsed() > Duration::from_secs(20) {
            break exposition;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let root = testkit::workspace_root();
    let dashboard: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("deploy/grafana/nearcare.json")).unwrap())
            .expect("the dashboard is JSON");
    let mut expressions = Vec::new();
    for panel in dashboard["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().into_iter().flatten() {
            expressions.push(target["expr"].as_str().expect("an expression").to_owned());
        }
    }
    assert!(expressions.len() >= 25, "{} expressions", expressions.len());
    let rules = std::fs::read_to_string(root.join("deploy/prometheus/alerts.yml")).unwrap();
    let mut named = BTreeSet::new();
    for expression in expressions.iter().map(String::as_str).chain([rules.as_str()]) {
        named.extend(names_in_expression(expression));
    }
    let missing: Vec<&String> = named.iter().filter(|name| !exposed(&exposition, name)).collect();
    assert!(missing.is_empty(), "named but not exposed: {missing:?}\n{exposition}");
    // The check itself can fail: a name the server does not expose is caught.
    assert!(!exposed(&exposition, "nearcare_http_request_seconds_bucket"));
    assert!(names_in_expression("rate(nearcare_x_total[5m]) / process_y").len() == 2);
    // Every family the server registers appears on the dashboard.
    let families: BTreeSet<String> = exposition
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|family| *family != "nearcare_build_info")
        .map(str::to_owned)
        .collect();
    let unused: Vec<&String> = families
        .iter()
        .filter(|family| !named.iter().any(|name| name.starts_with(family.as_str())))
        .collect();
    assert!(unused.is_empty(), "exposed but on no panel or rule: {unused:?}");
}

// ---- Processes: Prometheus scraping two servers; a full run's logs ---------------------------

/// A child process, killed when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A server binary with its log file.
struct ServerProcess {
    process: Killed,
    log: PathBuf,
    address: String,
    metrics: String,
}

impl ServerProcess {
    /// Starts the server on free loopback ports (its metrics too) with `environment`, and waits
    /// until it is ready.
    async fn start(database_url: &str, local_dir: &Path, environment: &[(&str, &str)]) -> Self {
        std::fs::create_dir_all(local_dir).unwrap();
        let log = local_dir.join("server.log");
        let file = std::fs::File::create(&log).unwrap();
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_nearcare-server"))
            .env("DATABASE_URL", database_url)
            .env("NEARCARE_LOCAL_DIR", local_dir)
            .env("HOST", "127.0.0.1")
            .env("PORT", "0")
            .env("NEARCARE_METRICS_ADDR", "127.0.0.1:0")
            .env("NEARCARE_SEED_CLINICS", "0")
            .env("NEARCARE_MAIL_POLL_MS", "50")
            .env(
                "NEARCARE_JWT_SECRET",
                "a-shared-secret-for-the-operability-test-0123456789",
            )
            .env("NO_COLOR", "1")
            .envs(environment.iter().copied())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .expect("the server binary starts");
        let mut server = Self {
            process: Killed(child),
            log,
            address: String::new(),
            metrics: String::new(),
        };
        let started = Instant::now();
        while server.address.is_empty() || server.metrics.is_empty() {
            let text = server.log_text();
            server.address = address_after(&text, "listening").unwrap_or_default();
            server.metrics = address_after(&text, "metrics listening").unwrap_or_default();
            assert!(started.elapsed() < Duration::from_secs(90), "no address logged: {text}");
            assert!(
                server.process.0.try_wait().unwrap().is_none(),
                "the server exited: {text}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        wait_until_ok(&server.url("/ready"), started, || server.log_text()).await;
        server
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }
}

/// Polls `url` until it answers 2xx, at most 90 s after `started`; `log` explains a failure.
async fn wait_until_ok(url: &str, started: Instant, log: impl Fn() -> String) {
    let client = reqwest::Client::new();
    while !client
        .get(url)
        .send()
        .await
        .is_ok_and(|answer| answer.status().is_success())
    {
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "{url} is not ready: {}",
            log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The address a line with `message` logs (text `address=…` or JSON `"address":"…"`).
fn address_after(log: &str, message: &str) -> Option<String> {
    log.lines().find_map(|line| {
        if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(line) {
            return (object.get("message").and_then(Value::as_str) == Some(message))
                .then(|| object.get("address").and_then(Value::as_str).map(str::to_owned))
                .flatten();
        }
        let (_, rest) = line.split_once(&format!(" {message} address="))?;
        rest.split_whitespace().next().map(str::to_owned)
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A tool of Debian's `prometheus` package, which `scripts/test.sh` installs.
fn prometheus_tool(name: &str) -> PathBuf {
    let path = PathBuf::from("/usr/bin").join(name);
    assert!(
        path.exists(),
        "{name} is missing: apt-get install prometheus (scripts/test.sh does)"
    );
    path
}

/// Prometheus on a free port, scraping `targets` every second as job "nearcare", with the
/// repository's alert rules loaded; stopped and its storage removed when dropped.
struct Prometheus {
    process: Killed,
    url: String,
    folder: PathBuf,
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.process.0.kill();
        let _ = self.process.0.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

impl Prometheus {
    async fn start(folder: &Path, targets: &[&str]) -> Self {
        std::fs::create_dir_all(folder.join("data")).unwrap();
        let rules = testkit::workspace_root().join("deploy/prometheus/alerts.yml");
        let config = format!(
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - {}\nscrape_configs:\n  - job_name: nearcare\n    static_configs:\n      - targets: [{}]\n",
            rules.display(),
            targets
                .iter()
                .map(|target| format!("'{target}'"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        std::fs::write(folder.join("prometheus.yml"), config).unwrap();
        let port = free_port();
        let log = std::fs::File::create(folder.join("prometheus.log")).unwrap();
        let child = std::process::Command::new(prometheus_tool("prometheus"))
            .arg(format!("--config.file={}", folder.join("prometheus.yml").display()))
            .arg(format!("--storage.tsdb.path={}", folder.join("data").display()))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("prometheus starts");
        let prometheus = Self {
            process: Killed(child),
            url: format!("http://127.0.0.1:{port}"),
            folder: folder.to_owned(),
        };
        wait_until_ok(&format!("{}/-/ready", prometheus.url), Instant::now(), || {
            std::fs::read_to_string(folder.join("prometheus.log")).unwrap_or_default()
        })
        .await;
        prometheus
    }

    /// An instant query's result vector.
    /// A call of the HTTP API (`/api/v1/...`).
    async fn api(&self, client: &reqwest::Client, path: &str, query: &[(&str, &str)]) -> Value {
        client
            .get(format!("{}/api/v1/{path}", self.url))
            .query(query)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    async fn query(&self, client: &reqwest::Client, query: &str) -> Vec<Value> {
        let answer = self.api(client, "query", &[("query", query)]).await;
        assert_eq!(answer["status"], "success", "{query}: {answer}");
        answer["data"]["result"].as_array().cloned().unwrap_or_default()
    }

    /// Queries until `accept` takes the result (at most 30 s).
    async fn wait_for(&self, client: &reqwest::Client, query: &str, accept: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let started = Instant::now();
        loop {
            let result = self.query(client, query).await;
            if accept(&result) {
                return result;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "{query}: {result:?}");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

fn value_of(series: &Value) -> f64 {
    series["value"][1]
        .as_str()
        .and_then(|value| value.parse().ok())
        .unwrap_or(f64::NAN)
}

#[tokio::test]
async fn prometheus_scrapes_two_server_processes_and_sees_a_search_move_the_request_counter() {
    let database = seeded_database(60, 48, 5).await;
    let root = std::env::temp_dir().join(format!("nearcare-prometheus-{}", database.name));
    let _ = std::fs::remove_dir_all(&root);
    let first = ServerProcess::start(&database.url, &root.join("a"), &[]).await;
    let second = ServerProcess::start(&database.url, &root.join("b"), &[("NEARCARE_LOG_FORMAT", "json")]).await;
    let client = reqwest::Client::new();

    // promtool accepts each server's exposition.
    for server in [&first, &second] {
        let text = client
            .get(format!("http://{}/metrics", server.metrics))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(text.contains("# TYPE nearcare_http_requests_total counter"), "{text}");
        assert!(text.contains("process_resident_memory_bytes "), "{text}");
        assert!(text.contains("nearcare_database_up 1"), "{text}");
        let check = std::process::Command::new(prometheus_tool("promtool"))
            .args(["check", "metrics"])
            .stdin(std::process::Stdio::piped())
            .output_with_stdin(text.as_bytes());
        assert!(check.status.success(), "promtool check metrics: {}", check.report());
    }
    assert_eq!(
        client
            .get(format!("http://{}/metrics", first.address))
            .send()
            .await
            .unwrap()
            .status(),
        404,
        "metrics are not on the public port"
    );

    let prometheus = Prometheus::start(&root.join("prometheus"), &[&first.metrics, &second.metrics]).await;
    let up = prometheus
        .wait_for(&client, "up{job=\"nearcare\"} == 1", |result| result.len() == 2)
        .await;
    let instances: BTreeSet<&str> = up
        .iter()
        .filter_map(|series| series["metric"]["instance"].as_str())
        .collect();
    assert_eq!(
        instances,
        BTreeSet::from([first.metrics.as_str(), second.metrics.as_str()])
    );
    prometheus
        .wait_for(&client, "nearcare_snapshot_generation", |result| {
            result.len() == 2 && result.iter().all(|series| value_of(series) >= 1.0)
        })
        .await;

    let searched = "sum(nearcare_http_requests_total{job=\"nearcare\", route=\"/member/app/market/search\", status=\"2xx\"}) or vector(0)";
    let before = value_of(&prometheus.query(&client, searched).await[0]);
    for server in [&first, &second] {
        let answer = client
            .post(server.url("/member/app/market/search?page=1"))
            .json(&json!({ "search": { "filters": { "zipCode": "80202" } } }))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
    }
    prometheus
        .wait_for(&client, searched, |result| {
            result.first().is_some_and(|series| value_of(series) >= before + 2.0)
        })
        .await;
    // Both servers' searches, each on its own instance.
    let per_instance = prometheus
        .query(
            &client,
            "sum by (instance) (nearcare_http_requests_total{route=\"/member/app/market/search\"})",
        )
        .await;
    assert_eq!(per_instance.len(), 2, "{per_instance:?}");

    // The alert rules loaded and evaluate without error, and none fires on a healthy fleet.
    let rules = prometheus.api(&client, "rules", &[]).await;
    let loaded: Vec<&Value> = rules["data"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|group| group["rules"].as_array().unwrap())
        .collect();
    assert_eq!(loaded.len(), 11, "{rules}");
    assert!(loaded.iter().all(|rule| rule["health"] != "err"), "{rules}");
    let firing = prometheus.query(&client, "ALERTS{alertstate=\"firing\"}").await;
    assert!(firing.is_empty(), "{firing:?}");

    drop(prometheus);
    drop((first, second));
    let _ = std::fs::remove_dir_all(&root);
}

/// A member's call on a server process, sent with a chosen request id; the answer's JSON.
async fn call(
    client: &reqwest::Client,
    server: &ServerProcess,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
    access: Option<&str>,
    request_id: &str,
) -> Value {
    let mut request = client
        .request(method, server.url(path))
        .header("x-request-id", request_id);
    if let Some(body) = body {
        request = request.json(&body);
    }
    if let Some(access) = access {
        request = request.header("x-access-token", access);
    }
    let answer = request.send().await.unwrap();
    assert_eq!(answer.headers()["x-request-id"], request_id);
    let text = answer.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

/// The newest link of `kind` emailed to `email`, and its token.
async fn emailed_link(pool: &store::PgPool, email: &str, kind: &str) -> (String, String) {
    let started = Instant::now();
    loop {
        let link: Option<String> = sqlx::query_scalar(
            "select link from email_outbox where to_email = $1 and kind = $2 order by id desc limit 1",
        )
        .bind(email)
        .bind(kind)
        .fetch_optional(pool)
        .await
        .unwrap()
        .flatten();
        if let Some(link) = link {
            let token = link
                .split(['?', '&'])
                .find_map(|pair| pair.strip_prefix("token=").or_else(|| pair.strip_prefix("magicLink=")))
                .expect("a token in the link")
                .to_owned();
            return (link, token);
        }
        assert!(started.elapsed() < Duration::from_secs(10), "no {kind} link to {email}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_full_run_logs_every_request_line_with_its_id_and_no_secret() {
    use reqwest::Method;
    let database = seeded_database(40, 32, 5).await;
    let root = std::env::temp_dir().join(format!("nearcare-secrets-{}", database.name));
    let _ = std::fs::remove_dir_all(&root);
    let debug = [("RUST_LOG", "debug")];
    let text = ServerProcess::start(&database.url, &root.join("text"), &debug).await;
    let json_server = ServerProcess::start(
        &database.url,
        &root.join("json"),
        &[("RUST_LOG", "debug"), ("NEARCARE_LOG_FORMAT", "json")],
    )
    .await;
    let client = reqwest::Client::new();
    let pool = &database.pool;
    let email = "secret-run@example.com";
    let (first_password, wrong_password, second_password) = ("Opening!pass1", "Guessing!pass2", "Changed!pass3");
    let mut secrets: Vec<String> = vec![
        first_password.into(),
        wrong_password.into(),
        second_password.into(),
        "a-shared-secret-for-the-operability-test-0123456789".into(),
    ];

    // Sign up (the verification link sets the first password), fail once, log in.
    let signup = call(
        &client,
        &text,
        Method::POST,
        "/member/app/signup",
        Some(json!({ "email": email, "employerId": seed::demo::ACME_EMPLOYER_ID })),
        None,
        "run-signup",
    )
    .await;
    secrets.push(signup["accessToken"].as_str().expect("an access token").to_owned());
    let (link, token) = emailed_link(pool, email, "verify_email").await;
    secrets.extend([link, token.clone()]);
    // The browser opening the link asks the server for the SPA page, token in the query.
    call(
        &client,
        &text,
        Method::GET,
        &format!("/auth/reset-password?token={token}"),
        None,
        None,
        "run-open-link",
    )
    .await;
    let validated = call(
        &client,
        &text,
        Method::POST,
        "/member/app/validate/token",
        Some(json!({ "token": token })),
        None,
        "run-validate",
    )
    .await;
    let exchanged = validated["newToken"].as_str().expect("an exchanged token").to_owned();
    secrets.push(exchanged.clone());
    let saved = call(
        &client,
        &text,
        Method::POST,
        "/member/app/password/reset",
        Some(json!({ "password": first_password, "token": exchanged })),
        None,
        "run-first-password",
    )
    .await;
    assert!(saved.get("code").is_none(), "{saved}");
    let wrong = call(
        &client,
        &text,
        Method::POST,
        "/member/app/login",
        Some(json!({ "email": email, "password": wrong_password })),
        None,
        "run-wrong-password",
    )
    .await;
    assert_eq!(wrong["code"], "invalid_credentials", "{wrong}");
    let login = call(
        &client,
        &text,
        Method::POST,
        "/member/app/login",
        Some(json!({ "email": email, "password": first_password })),
        None,
        "run-login",
    )
    .await;
    let access = login["accessToken"].as_str().expect("an access token").to_owned();
    secrets.push(access.clone());
    let info = call(
        &client,
        &text,
        Method::GET,
        "/member/app/member/info",
        None,
        Some(&access),
        "run-info",
    )
    .await;
    assert_eq!(info["email"], email, "{info}");

    // A magic link and a password reset, on the server that logs JSON.
    call(
        &client,
        &json_server,
        Method::POST,
        "/member/app/request/magic/link",
        Some(json!({ "email": email })),
        None,
        "run-magic-request",
    )
    .await;
    let (link, token) = emailed_link(pool, email, "magic_link").await;
    secrets.extend([link, token.clone()]);
    let magic = call(
        &client,
        &json_server,
        Method::POST,
        "/member/app/login/magic/link",
        Some(json!({ "token": token, "email": email })),
        None,
        "run-magic-login",
    )
    .await;
    secrets.push(magic["accessToken"].as_str().expect("an access token").to_owned());
    call(
        &client,
        &json_server,
        Method::POST,
        "/member/app/request/password/reset",
        Some(json!({ "email": email })),
        None,
        "run-reset-request",
    )
    .await;
    let (link, token) = emailed_link(pool, email, "password_reset").await;
    secrets.extend([link, token.clone()]);
    let validated = call(
        &client,
        &json_server,
        Method::POST,
        "/member/app/validate/token",
        Some(json!({ "token": token })),
        None,
        "run-reset-validate",
    )
    .await;
    let exchanged = validated["newToken"].as_str().expect("an exchanged token").to_owned();
    secrets.push(exchanged.clone());
    call(
        &client,
        &json_server,
        Method::POST,
        "/member/app/password/reset",
        Some(json!({ "password": second_password, "token": exchanged })),
        None,
        "run-second-password",
    )
    .await;
    let relogin = call(
        &client,
        &json_server,
        Method::POST,
        "/member/app/login",
        Some(json!({ "email": email, "password": second_password })),
        None,
        "run-relogin",
    )
    .await;
    secrets.push(relogin["accessToken"].as_str().expect("an access token").to_owned());

    // Every email delivered (to the development mailbox: the mode that logs the most).
    let started = Instant::now();
    while sqlx::query_scalar::<_, i64>("select count(*) from email_outbox where state <> 'sent'")
        .fetch_one(pool)
        .await
        .unwrap()
        > 0
    {
        assert!(started.elapsed() < Duration::from_secs(20), "emails not delivered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut exposition = String::new();
    for server in [&text, &json_server] {
        exposition += &client
            .get(format!("http://{}/metrics", server.metrics))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
    }
    let text_log = text.log_text();
    let json_log = json_server.log_text();
    drop((text, json_server));
    // Email bodies: sentences that only a message's text holds.
    let bodies = [
        "Confirm your e-mail address and choose your password",
        "It works once and expires in 15 minutes",
        "If you did not ask for it, ignore this e-mail",
    ];
    for (name, written) in [
        ("text log", &text_log),
        ("JSON log", &json_log),
        ("metrics", &exposition),
    ] {
        for secret in secrets.iter().map(String::as_str).chain(bodies) {
            assert!(!written.contains(secret), "the {name} holds {secret:?}");
        }
    }

    // The run was logged: each request's lines carry its id, and so do the deliveries of the
    // emails it enqueued.
    let line_with = |log: &str, needles: &[&str]| {
        log.lines()
            .any(|line| needles.iter().all(|needle| line.contains(needle)))
    };
    assert!(
        line_with(
            &text_log,
            &[
                "request{request_id=run-wrong-password}",
                "request finished",
                "route=/member/app/login",
                "status=401"
            ]
        ),
        "{text_log}"
    );
    assert!(
        line_with(
            &text_log,
            &["request{request_id=run-open-link}", "path=/auth/reset-password"]
        ),
        "{text_log}"
    );
    // Either server's sender may deliver a message; its line names the request that enqueued it.
    let delivered = |request_id: &str| {
        line_with(
            &text_log,
            &[
                "email{",
                &format!("request_id={request_id}"),
                "email delivered to the development mailbox",
            ],
        ) || json_log
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .any(|line| {
                line["span"]["name"] == "email"
                    && line["span"]["request_id"] == request_id
                    && line["message"] == "email delivered to the development mailbox"
            })
    };
    for request_id in ["run-signup", "run-magic-request", "run-reset-request"] {
        assert!(delivered(request_id), "{request_id}: {text_log}\n{json_log}");
    }
    let json_lines: Vec<Value> = json_log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("not JSON ({error}): {line}")))
        .collect();
    let in_span = |request_id: &str, message: &str| {
        json_lines.iter().any(|line| {
            line["span"]["request_id"] == request_id
                && line["message"].as_str().is_some_and(|text| text.contains(message))
        })
    };
    assert!(in_span("run-magic-login", "request finished"), "{json_log}");
    assert!(in_span("run-reset-request", "request finished"), "{json_log}");
    assert!(
        json_lines
            .iter()
            .all(|line| line["timestamp"].is_string() && line["level"].is_string())
    );
    let _ = std::fs::remove_dir_all(&root);
}

trait OutputWithStdin {
    fn output_with_stdin(&mut self, input: &[u8]) -> std::process::Output;
}

impl OutputWithStdin for std::process::Command {
    fn output_with_stdin(&mut self, input: &[u8]) -> std::process::Output {
        use std::io::Write;
        let mut child = self
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the command starts");
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    }
}

trait Report {
    fn report(&self) -> String;
}

impl Report for std::process::Output {
    fn report(&self) -> String {
        format!(
            "{:?}\n{}{}",
            self.status,
            String::from_utf8_lossy(&self.stdout),
            String::from_utf8_lossy(&self.stderr)
        )
    }
}
