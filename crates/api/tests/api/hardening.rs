//! What an attacker and a bad day found (issue 12), each kept fixed: the JSON error contract
//! at the edge, NUL characters, tokens of deleted or switched members, waitlist enumeration,
//! lockouts, spoofed proxy headers, security headers, slow connections, a database outage,
//! shutdown order, far-away reverse geocoding and half-built generations.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::enrolment::confirmed_jane;
use crate::family::{added, confirm, emma_form, token_for};
use crate::helpers::{PASSWORD, TestApp, assert_error};

/// The host:port of the app, for raw connections.
fn host(app: &TestApp) -> String {
    app.address.trim_start_matches("http://").to_owned()
}

/// Reads from a raw connection until it closes or `limit` passes; returns what was read and
/// whether the server closed it.
pub(crate) async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&received).into_owned(), true),
            Ok(Ok(read)) => received.extend_from_slice(&buffer[..read]),
            Err(_) => return (String::from_utf8_lossy(&received).into_owned(), false),
        }
    }
}

fn signed(claims: &Value) -> String {
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        claims,
        &jsonwebtoken::EncodingKey::from_secret(b"test-secret-not-for-production-use"),
    )
    .unwrap()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// No message may name a Rust type.
fn assert_plain(answer: &crate::helpers::Answer) {
    let message = answer.body["message"].as_str().unwrap_or_default();
    for rust in [
        "struct ", "enum ", "`i64`", "`u32`", " i64", " u32", " u8", " f64", "usize",
    ] {
        assert!(!message.contains(rust), "{message:?} names a Rust type ({rust})");
    }
}

#[tokio::test]
async fn the_edge_answers_the_json_error_contract() {
    let app = TestApp::spawn(30).await;

    // 405 with a body, and its Allow header kept.
    let wrong_method = app
        .send_raw(
            reqwest::Method::DELETE,
            "/member/app/login",
            "application/json",
            String::new(),
            None,
        )
        .await;
    assert_error(&wrong_method, 405, "method_not_allowed");
    assert!(wrong_method.headers.get("allow").is_some());

    // 414 with a body.
    let long = format!("/market/specialities?q={}", "a".repeat(9_000));
    assert_error(&app.get(&long).await, 414, "uri_too_long");

    // A declared 10^12-byte body: 413 at once, not a 408 after 30 s.
    let started = Instant::now();
    let mut stream = TcpStream::connect(host(&app)).await.unwrap();
    stream
        .write_all(
            b"POST /member/app/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 1000000000000\r\n\r\n{\"email\":",
        )
        .await
        .unwrap();
    let (response, _) = read_until_closed(&mut stream, Duration::from_secs(5)).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(response.contains("\"code\":\"payload_too_large\""), "{response}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());

    // No message names a Rust type.
    let nested = app
        .post(
            "/member/app/join/wait/list",
            &json!({ "email": "n@example.com", "consent": true, "search": [] }),
        )
        .await;
    assert_error(&nested, 400, "invalid_body");
    assert_plain(&nested);
    let path = app.get("/dpcproviders/market/vendor/abc").await;
    assert_error(&path, 400, "invalid_path");
    assert_plain(&path);
    let query = app.search("page=abc", json!({ "zipCode": "80202" })).await;
    assert_error(&query, 400, "invalid_query");
    assert_plain(&query);
    let number = app
        .post(
            "/member/app/market/search",
            &json!({ "search": { "filters": { "searchDistance": "far" } } }),
        )
        .await;
    // A filter's value is the filter's to refuse, as in the pin calls' `filters`.
    assert_error(&number, 400, "invalid_filter");
    assert!(
        number.body["message"]
            .as_str()
            .unwrap()
            .contains("search.filters.searchDistance")
    );
    assert_plain(&number);

    // A JSON array is not an object: no login with one.
    app.registered_member("bob@example.com").await;
    let array = app
        .post_raw(
            "/member/app/login",
            "application/json",
            json!(["bob@example.com", PASSWORD]).to_string(),
        )
        .await;
    assert_error(&array, 400, "invalid_body");
    assert_plain(&array);
    assert_error(
        &app.post_raw("/member/app/market/search", "application/json", "[]")
            .await,
        400,
        "invalid_body",
    );

    // Tokens from the future are refused.
    let login = app.login("bob@example.com", PASSWORD).await;
    let bob = login.body["id"].as_i64().unwrap().to_string();
    let sid = crate::sessions::session_of(login.body["accessToken"].as_str().unwrap()).to_string();
    let fine = signed(&json!({ "sub": bob, "sid": sid, "iat": now(), "exp": now() + 600 }));
    assert_eq!(app.member_info(&fine).await.status, 200);
    for future in [
        json!({ "sub": bob, "sid": sid, "iat": now() + 3600, "exp": now() + 7200 }),
        json!({ "sub": bob, "sid": sid, "iat": now(), "nbf": now() + 3600, "exp": now() + 7200 }),
    ] {
        assert_error(&app.member_info(&signed(&future)).await, 401, "unauthorized");
    }
}

#[tokio::test]
async fn a_nul_character_is_a_400_naming_the_field_and_writes_nothing() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("nul@example.com").await;
    let before = app.account_rows().await;
    let cases = [
        (
            "/member/app/metadata",
            json!({ "number": 5, "addressSearched": "a\u{0}b" }),
            "addressSearched",
        ),
        (
            "/member/app/metadata",
            json!({ "number": 5, "email": "a\u{0}@b.co" }),
            "email",
        ),
        ("/member/app/metadata", json!({ "number": 5, "k\u{0}": 1 }), "k\\u0000"),
        (
            "/member/app/join/wait/list",
            json!({ "email": "w@example.com", "consent": true, "search": { "location": { "lat": 39.7, "lng": -105.0 }, "address": "a\u{0}" } }),
            "search.address",
        ),
        (
            "/member/app/join/wait/list",
            json!({ "email": "w@example.com", "consent": true, "search": { "location": { "lat": 39.7, "lng": -105.0 }, "filters": { "x\u{0}": true } } }),
            "search.filters.x\\u0000",
        ),
        ("/member/app/signup", json!({ "email": "s\u{0}@example.com" }), "email"),
        (
            "/member/app/login",
            json!({ "email": "nul@example.com", "password": "a\u{0}" }),
            "password",
        ),
    ];
    for (path, body, field) in cases {
        for token in [None, Some(token.as_str())] {
            let answer = app.post_as(path, &body, token).await;
            assert_error(&answer, 400, "invalid_character");
            assert_eq!(answer.body["field"], field, "{path}: {:?}", answer.body);
        }
    }
    let query = app
        .signup_with_query("company=a%00b", &json!({ "email": "q@example.com" }))
        .await;
    assert_error(&query, 400, "invalid_character");
    assert_eq!(query.body["field"], "company");
    let path = app.get("/member/app/plan/PLN%00-1").await;
    assert_error(&path, 400, "invalid_character");
    assert_eq!(path.body["field"], "path");
    assert_eq!(app.account_rows().await, before, "nothing written");
    let events: i64 = sqlx::query_scalar("select count(*) from analytics_events")
        .fetch_one(&app.database.pool)
        .await
        .unwrap_or(0);
    assert_eq!(events, 0);
}

#[tokio::test]
async fn a_deleted_members_token_is_signed_out_everywhere() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    assert_eq!(confirm(&app, &jane, emma, &emma_form()).await.body["eligible"], true);
    let switched = token_for(&app, &jane, emma).await;
    let as_emma = switched.body["accessToken"].as_str().unwrap().to_owned();
    assert_eq!(app.member_info(&as_emma).await.status, 200);

    let removed = crate::family::delete(&app, &jane, &crate::family::member_path(emma)).await;
    assert_eq!(removed.status, 200, "{:?}", removed.body);
    // The deletion ends the sessions switched into Emma's account, on every server.
    crate::sessions::assert_ended(&app.wait_until_refused(&as_emma).await, "account_deleted");
    let calls = [
        ("GET", "/member/app/member/info", json!({})),
        ("GET", "/member/app/home", json!({})),
        (
            "POST",
            "/member/app/market/favorite",
            json!({ "entity": "provider", "provider": 1, "favorite": true }),
        ),
        ("POST", "/member/app/metadata", json!({ "number": 5 })),
        (
            "POST",
            "/member/app/join/wait/list",
            json!({ "location": seed::demo::DENVER_LOCATION_ID }),
        ),
        (
            "POST",
            "/member/app/market/search",
            json!({ "search": { "filters": { "zipCode": "80202" } } }),
        ),
    ];
    for (method, path, body) in &calls {
        let answer = match *method {
            "GET" => app.get_as(path, Some(&as_emma)).await,
            _ => app.post_as(path, body, Some(&as_emma)).await,
        };
        crate::sessions::assert_ended(&answer, "account_deleted");
    }
    // The subscriber's own token still works, and a deleted subscriber's does not.
    assert_eq!(app.member_info(&jane).await.status, 200);
    sqlx::query("delete from members where id = $1")
        .bind(jane_id)
        .execute(&app.database.pool)
        .await
        .unwrap();
    crate::sessions::assert_ended(&app.wait_until_refused(&jane).await, "account_deleted");
    for (method, path, body) in &calls {
        let answer = match *method {
            "GET" => app.get_as(path, Some(&jane)).await,
            _ => app.post_as(path, body, Some(&jane)).await,
        };
        crate::sessions::assert_ended(&answer, "account_deleted");
    }
    let events: i64 = sqlx::query_scalar("select count(*) from analytics_events")
        .fetch_one(&app.database.pool)
        .await
        .unwrap_or(0);
    assert_eq!(events, 0, "no metadata written for a deleted member");
}

#[tokio::test]
async fn a_switched_token_cannot_make_a_family_members_email_a_login() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    assert_eq!(confirm(&app, &jane, emma, &emma_form()).await.body["eligible"], true);
    let as_emma = token_for(&app, &jane, emma).await.body["accessToken"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = app.account_rows().await;
    let refused = [
        app.change_email(&as_emma, "emma@example.com").await,
        app.post_as(
            "/member/app/password/reset",
            &json!({ "password": PASSWORD, "confirmPassword": PASSWORD }),
            Some(&as_emma),
        )
        .await,
        app.password_change(&as_emma, PASSWORD, "Another!123").await,
    ];
    for answer in &refused {
        assert_error(answer, 403, "switched_account");
    }
    assert_eq!(app.account_rows().await, before, "no link, no password");
    let hash: Option<String> = sqlx::query_scalar("select password_hash from members where id = $1")
        .bind(emma)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(hash.is_none());
    // The subscriber's own account calls still work (a first password, then the email, which
    // asks for it).
    let first_password = app
        .post_as(
            "/member/app/password/reset",
            &json!({ "password": PASSWORD }),
            Some(&jane),
        )
        .await;
    assert_eq!(first_password.status, 200, "{:?}", first_password.body);
    assert_eq!(app.change_email(&jane, "jane.new@example.com").await.status, 200);
}

#[tokio::test]
async fn a_signed_out_waitlist_join_does_not_tell_whether_the_address_waits() {
    let app = TestApp::spawn(30).await;
    let body = json!({
        "email": "victim@example.com",
        "consent": true,
        "location": seed::demo::DENVER_LOCATION_ID,
    });
    let first = app.post("/member/app/join/wait/list", &body).await;
    let second = app.post("/member/app/join/wait/list", &body).await;
    let stranger = app
        .post(
            "/member/app/join/wait/list",
            &json!({ "email": "nobody@example.com", "consent": true, "location": seed::demo::DENVER_LOCATION_ID }),
        )
        .await;
    for answer in [&first, &second, &stranger] {
        assert_eq!(answer.status, 201, "{:?}", answer.body);
    }
    assert_eq!(first.body, second.body);
    assert_eq!(second.body, stranger.body);
    assert!(second.body.get("id").is_none());
}

#[tokio::test]
async fn wrong_passwords_from_one_address_do_not_lock_the_owner_out() {
    let app = TestApp::spawn_with(30, |config| {
        config.client_ip_header = Some("x-forwarded-for".into());
    })
    .await;
    app.registered_member("owner@example.com").await;
    let login = |from: &'static str, password: &'static str| {
        app.client
            .post(format!("{}/member/app/login", app.address))
            .header("x-forwarded-for", from)
            .json(&json!({ "email": "owner@example.com", "password": password }))
            .send()
    };
    for _ in 0..5 {
        assert_eq!(login("203.0.113.66", "Wrong!1234").await.unwrap().status(), 401);
    }
    assert_eq!(login("203.0.113.66", "Wrong!1234").await.unwrap().status(), 429);
    assert_eq!(
        login("203.0.113.66", PASSWORD).await.unwrap().status(),
        429,
        "the guesser stays out"
    );
    assert_eq!(
        login("198.51.100.20", PASSWORD).await.unwrap().status(),
        200,
        "the owner gets in"
    );
}

#[tokio::test]
async fn spoofed_left_entries_of_x_forwarded_for_do_not_escape_the_client_limit() {
    let app = TestApp::spawn_with(30, |config| {
        config.client_ip_header = Some("x-forwarded-for".into());
    })
    .await;
    let mut statuses = Vec::new();
    for i in 0..35 {
        let answer = app
            .client
            .post(format!("{}/member/app/login", app.address))
            .header("x-forwarded-for", format!("198.51.100.{i}, 203.0.113.7"))
            .json(&json!({ "email": format!("guess{i}@example.com"), "password": "Wrong!1234" }))
            .send()
            .await
            .unwrap();
        statuses.push(answer.status().as_u16());
    }
    assert!(statuses[..30].iter().all(|status| *status == 401), "{statuses:?}");
    assert!(statuses[30..].iter().all(|status| *status == 429), "{statuses:?}");
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_hsts_only_when_configured() {
    let app = TestApp::spawn(30).await;
    for path in ["/health", "/", "/member/app/no-such-call", "/market/specialities"] {
        let answer = app.get(path).await;
        let header = |name: &str| {
            answer
                .headers
                .get(name)
                .map(|value| value.to_str().unwrap().to_owned())
                .unwrap_or_else(|| panic!("{path}: no {name}"))
        };
        let policy = header("content-security-policy");
        assert!(policy.contains("default-src 'self'"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
        assert!(policy.contains("style-src 'self' 'unsafe-inline'"), "{policy}");
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(header("x-frame-options"), "DENY");
        assert_eq!(header("referrer-policy"), "strict-origin-when-cross-origin");
        assert!(answer.headers.get("strict-transport-security").is_none(), "{path}");
    }
    let https = TestApp::spawn_with(30, |config| config.hsts = Some(true)).await;
    let answer = https.get("/health").await;
    assert!(
        answer.headers["strict-transport-security"]
            .to_str()
            .unwrap()
            .starts_with("max-age=")
    );
}

#[tokio::test]
async fn slow_and_idle_connections_are_closed_and_connections_are_capped() {
    let app = TestApp::spawn_with(30, |config| {
        config.header_read_timeout = 1;
        config.max_connections = 2;
    })
    .await;
    // Half a request's headers, then nothing: closed after the 1 s timeout.
    let started = Instant::now();
    let mut slow = TcpStream::connect(host(&app)).await.unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let (_, closed) = read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(closed, "a slow header is closed");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(3),
        "{waited:?}"
    );

    // A kept-alive connection that sends nothing after its answer: closed too.
    let mut idle = TcpStream::connect(host(&app)).await.unwrap();
    idle.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let (answer, closed) = read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        closed && started.elapsed() < Duration::from_secs(3),
        "an idle connection is closed"
    );

    // Two connections hold the cap: a third is served only once one of them closes.
    let holders = [
        TcpStream::connect(host(&app)).await.unwrap(),
        TcpStream::connect(host(&app)).await.unwrap(),
    ];
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut third = TcpStream::connect(host(&app)).await.unwrap();
    let started = Instant::now();
    third
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let (answer, _) = read_until_closed(&mut third, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        started.elapsed() >= Duration::from_millis(700),
        "the third waited for a slot: {:?}",
        started.elapsed()
    );
    drop(holders);
}

#[tokio::test]
async fn a_point_far_from_every_place_has_no_reverse_geocode() {
    let app = TestApp::spawn(30).await;
    let answer = app
        .post(
            "/member/app/market/locations/geocode",
            &json!({ "lat": 0.0, "lng": 0.0 }),
        )
        .await;
    assert_error(&answer, 404, "not_found");
    let denver = app
        .post(
            "/member/app/market/locations/geocode",
            &json!({ "lat": 39.7392, "lng": -104.9903 }),
        )
        .await;
    assert_eq!(denver.status, 200, "{:?}", denver.body);
}

#[tokio::test]
async fn a_map_centre_over_open_water_stands_on_the_nearest_zip_when_asked() {
    let app = TestApp::spawn(30).await;
    // A hundred miles north of San Juan: no ZIP within 60 miles.
    let at_sea = json!({ "lat": 20.0, "lng": -66.2 });
    let plain = app.post("/member/app/market/locations/geocode", &at_sea).await;
    assert_error(&plain, 404, "not_found");
    let mut nearest = at_sea.clone();
    nearest["nearest"] = json!(true);
    let answer = app.post("/member/app/market/locations/geocode", &nearest).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    let result = &answer.body["results"][0];
    assert_eq!(result["state"], "PR", "{result}");
    let location = &result["geometry"]["location"];
    let lat = location["lat"].as_f64().unwrap();
    assert!(
        (17.8..18.6).contains(&lat),
        "the answer stands on Puerto Rico, not at sea: {location}"
    );
    // A point on land keeps its own position.
    let denver = app
        .post(
            "/member/app/market/locations/geocode",
            &json!({ "lat": 39.7392, "lng": -104.9903, "nearest": true }),
        )
        .await;
    assert_eq!(denver.body["results"][0]["geometry"]["location"]["lat"], 39.7392);
}

#[tokio::test]
async fn a_half_built_generation_is_removed_at_start() {
    let mut partial = None;
    let mut live = None;
    let app = TestApp::spawn_with(30, |config| {
        let index = config.index_dir();
        let folder = index.join("gen-900000");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(snapshots::BUILDING_MARKER), b"").unwrap();
        std::fs::write(folder.join("segment.idx"), b"half").unwrap();
        // One still being built elsewhere (its marker locked) is left alone.
        let building = index.join("gen-900001");
        std::fs::create_dir_all(&building).unwrap();
        let marker = std::fs::File::create(building.join(snapshots::BUILDING_MARKER)).unwrap();
        marker.lock().unwrap();
        partial = Some(folder);
        live = Some((building, marker));
    })
    .await;
    assert!(!partial.unwrap().exists(), "the killed build's folder is gone");
    let (building, marker) = live.unwrap();
    assert!(building.exists(), "a build in progress is kept");
    drop(marker);
    assert_eq!(app.get("/health").await.status, 200);
}

#[tokio::test]
async fn background_tasks_stop_before_the_pool_closes() {
    api::install_tls_provider();
    let database = testkit::database().await.unwrap();
    let local_dir = std::env::temp_dir().join(format!("nearcare-api-test-{}", database.name));
    let config = api::config::Config::for_tests(database.url.clone(), local_dir.clone());
    let application = api::app::Application::build(config).await.unwrap();
    let listeners = || async {
        sqlx::query_scalar::<_, i64>(
            "select count(*) from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
        )
        .fetch_one(&database.pool)
        .await
        .unwrap()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(application.run(async move {
        let _ = stopped.await;
    }));
    let deadline = Instant::now() + Duration::from_secs(10);
    // The snapshot listener, the outbox sender, the job runner and the sessions' listener each
    // LISTEN on a connection.
    while listeners().await < 4 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        listeners().await,
        4,
        "the snapshot listener, the outbox sender, the job runner and the sessions' listener run"
    );
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(15), running)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        listeners().await,
        0,
        "the listeners' connections closed with the server"
    );
    let _ = std::fs::remove_dir_all(local_dir);
}

/// A private cluster of the test's own, stopped and removed when the test ends.
struct OwnCluster {
    cluster: pgcluster::PrivateCluster,
    root: std::path::PathBuf,
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        let _ = self.cluster.stop();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_is_a_quick_503_and_the_server_is_not_ready() {
    api::install_tls_provider();
    let root = std::env::temp_dir().join(format!("nearcare-outage-{}", std::process::id()));
    let started = {
        let root = root.clone();
        tokio::task::spawn_blocking(move || pgcluster::PrivateCluster::start(&root))
            .await
            .unwrap()
            .unwrap()
    };
    let own = OwnCluster { cluster: started, root };
    let local_dir = own.root.join("app");
    let mut config = api::config::Config::for_tests(own.cluster.url("postgres"), local_dir);
    config.seed_clinics = 20;
    config.database_acquire_timeout_ms = 1000;
    let application = api::app::Application::build(config).await.unwrap();
    let address = format!("http://{}", application.local_addr());
    let (_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(application.run(async move {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let login = || {
        client
            .post(format!("{address}/member/app/login"))
            .json(&json!({ "email": "someone@example.com", "password": "Wrong!1234" }))
            .send()
    };
    let get = |path: &'static str| client.get(format!("{address}{path}")).send();
    // A session this server has not seen: checking it needs PostgreSQL.
    let token = signed(&json!({ "sub": "1", "sid": "4242", "iat": now(), "exp": now() + 600 }));
    assert_eq!(login().await.unwrap().status(), 401);
    let ready = get("/ready").await.unwrap();
    assert_eq!(ready.status(), 200);
    assert!(ready.json::<Value>().await.unwrap()["generation"].is_i64());

    let cluster = own.cluster.clone();
    tokio::task::spawn_blocking(move || cluster.stop())
        .await
        .unwrap()
        .unwrap();

    let mut slowest = Duration::ZERO;
    for _ in 0..2 {
        let started = Instant::now();
        let answer = login().await.unwrap();
        slowest = slowest.max(started.elapsed());
        assert_eq!(answer.status(), 503);
        assert!(answer.headers().get("retry-after").is_some());
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["code"], "database_unavailable", "{body}");

        let started = Instant::now();
        let info = client
            .get(format!("{address}/member/app/member/info"))
            .header("x-access-token", &token)
            .send()
            .await
            .unwrap();
        slowest = slowest.max(started.elapsed());
        assert_eq!(info.status(), 503);
        assert_eq!(info.json::<Value>().await.unwrap()["code"], "database_unavailable");

        let started = Instant::now();
        let ready = get("/ready").await.unwrap();
        slowest = slowest.max(started.elapsed());
        assert_eq!(ready.status(), 503);
        assert_eq!(ready.json::<Value>().await.unwrap()["code"], "database_unavailable");
        assert_eq!(get("/health").await.unwrap().status(), 200, "liveness stays cheap");
    }
    assert!(slowest < Duration::from_secs(3), "answered in {slowest:?}");
    eprintln!("slowest answer during the outage: {slowest:?}");

    let cluster = own.cluster.clone();
    tokio::task::spawn_blocking(move || cluster.start_again())
        .await
        .unwrap()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    while get("/ready").await.unwrap().status() != 200 {
        assert!(Instant::now() < deadline, "ready again after the restart");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(login().await.unwrap().status(), 401, "back to normal");
}
