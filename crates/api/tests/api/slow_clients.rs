//! Slow connections from one address (issue 25, item 1): a few hundred slow-header and
//! slow-body connections from 127.0.0.2 against the real server binary, reopened as soon as
//! they are closed, while a normal client on 127.0.0.1 keeps being served. And behind a proxy,
//! the same bound on the requests in flight of the header's client address.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::fleet::{fleet_root, spawn_process_with};
use crate::helpers::TestApp;

/// What one attacking connection saw.
#[derive(Debug, Default)]
struct Tally {
    /// Connections made.
    opened: AtomicUsize,
    /// Answered 429 at once: over the address's limit.
    refused: AtomicUsize,
    /// Slow bodies answered 408 (the minimum body rate).
    timed_out: AtomicUsize,
    /// Connections the server closed while they were still trickling, and the longest one.
    closed: AtomicUsize,
    longest_held_ms: AtomicUsize,
}

/// A connection to `server` from `source` (another loopback address: all of 127.0.0.0/8 is
/// loopback on Linux).
async fn connect_from(source: &str, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{source}:0").parse().unwrap())?;
    socket.connect(server).await
}

/// One attacker: opens a connection, sends `head`, then trickles `trickle` a byte at a time
/// every `every`, until the server answers or closes; then opens the next, until `stop`.
async fn attack(server: SocketAddr, head: &'static [u8], every: Duration, tally: Arc<Tally>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut stream) = connect_from("127.0.0.2", server).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        tally.opened.fetch_add(1, Ordering::Relaxed);
        let opened = Instant::now();
        let _ = stream.write_all(head).await;
        let mut received = Vec::new();
        let mut buffer = [0u8; 1024];
        loop {
            tokio::select! {
                read = stream.read(&mut buffer) => match read {
                    Ok(0) | Err(_) => break,
                    Ok(read) => received.extend_from_slice(&buffer[..read]),
                },
                () = tokio::time::sleep(every) => {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if stream.write_all(b"x").await.is_err() {
                        break;
                    }
                }
            }
        }
        let answer = String::from_utf8_lossy(&received);
        if answer.starts_with("HTTP/1.1 429") {
            tally.refused.fetch_add(1, Ordering::Relaxed);
            // The attack reopens at once; a pause keeps a shared machine usable.
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if answer.starts_with("HTTP/1.1 408") {
            tally.timed_out.fetch_add(1, Ordering::Relaxed);
        }
        tally.closed.fetch_add(1, Ordering::Relaxed);
        let held = usize::try_from(opened.elapsed().as_millis()).unwrap_or(usize::MAX);
        tally.longest_held_ms.fetch_max(held, Ordering::Relaxed);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_with_slow_connections_gets_its_share_and_a_normal_client_is_served() {
    api::install_tls_provider();
    let database = testkit::database().await.expect("a test database");
    let root = fleet_root("slow-clients");
    let server = spawn_process_with(
        &database.url,
        &root,
        &[
            ("NEARCARE_MAX_CONNECTIONS", "200"),
            ("NEARCARE_MAX_CONNECTIONS_PER_ADDRESS", "40"),
            ("NEARCARE_HEADER_READ_TIMEOUT", "3"),
            ("NEARCARE_MIN_BODY_RATE", "500"),
        ],
    );
    let address: SocketAddr = server.address.trim_start_matches("http://").parse().unwrap();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    assert_eq!(
        client
            .get(format!("{}/health", server.address))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    let stop = Arc::new(AtomicBool::new(false));
    let slow_heads = Arc::new(Tally::default());
    let slow_bodies = Arc::new(Tally::default());
    let mut attackers = Vec::new();
    for _ in 0..300 {
        attackers.push(tokio::spawn(attack(
            address,
            b"GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: ",
            Duration::from_millis(500),
            Arc::clone(&slow_heads),
            Arc::clone(&stop),
        )));
        attackers.push(tokio::spawn(attack(
            address,
            b"POST /member/app/password/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 60000\r\n\r\n{\"password\":\"",
            Duration::from_secs(1),
            Arc::clone(&slow_bodies),
            Arc::clone(&stop),
        )));
    }

    // A normal client, on its own address, throughout: a GET and a POST with a body.
    let started = Instant::now();
    let mut served = 0;
    let mut failures = Vec::new();
    while started.elapsed() < Duration::from_secs(12) {
        let health = client.get(format!("{}/health", server.address)).send().await;
        let validated = client
            .post(format!("{}/member/app/password/validate", server.address))
            .json(&json!({ "password": "Secret!123" }))
            .send()
            .await;
        for answer in [health, validated] {
            match answer {
                Ok(response) if response.status() == 200 => served += 1,
                Ok(response) => failures.push(format!("{} at {:?}", response.status(), started.elapsed())),
                Err(error) => failures.push(format!("{error} at {:?}", started.elapsed())),
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for attacker in attackers {
        let _ = attacker.await;
    }
    let report = |name: &str, tally: &Tally| {
        eprintln!(
            "{name}: {} opened, {} refused with 429, {} closed by the server (longest {} ms), {} answered 408",
            tally.opened.load(Ordering::Relaxed),
            tally.refused.load(Ordering::Relaxed),
            tally.closed.load(Ordering::Relaxed),
            tally.longest_held_ms.load(Ordering::Relaxed),
            tally.timed_out.load(Ordering::Relaxed),
        );
    };
    report("slow heads", &slow_heads);
    report("slow bodies", &slow_bodies);
    eprintln!("normal client: {served} requests served, {} failed", failures.len());

    assert!(failures.is_empty(), "the normal client was not served: {failures:?}");
    assert!(served >= 20, "{served}");
    // 600 connections at once from one address, 40 allowed: the rest are answered 429 at once.
    let refused = slow_heads.refused.load(Ordering::Relaxed) + slow_bodies.refused.load(Ordering::Relaxed);
    assert!(refused >= 500, "{refused} refused");
    // The ones let in do not hold their slot for the 30 s request timeout: the head has a
    // deadline (3 s here, whatever trickles in) and a body its minimum rate.
    for tally in [&slow_heads, &slow_bodies] {
        assert!(tally.closed.load(Ordering::Relaxed) > 0);
        let longest = tally.longest_held_ms.load(Ordering::Relaxed);
        assert!(longest < 15_000, "a slow connection was held {longest} ms");
    }
    assert!(
        slow_bodies.timed_out.load(Ordering::Relaxed) > 0,
        "slow bodies are answered 408"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&root);
}

/// Writes a request's head and the first byte of its body, and leaves the body unfinished.
/// A connection over its address's share is refused before any request of it is read, so no
/// route counts it: it is counted with the rate limits' refusals.
#[tokio::test]
async fn a_connection_over_its_addresss_share_is_refused_and_counted() {
    let app = TestApp::spawn_with(30, |config| {
        config.max_connections_per_address = 2;
        config.header_read_timeout = 10;
    })
    .await;
    let refusals = || {
        crate::observability::sample(
            &crate::observability::exposition(),
            "nearcare_rate_limit_refusals_total",
            &[("limit", "connections_per_address")],
        )
    };
    let refused_before = refusals();
    let address = app.address.trim_start_matches("http://");
    let held = [
        TcpStream::connect(address).await.unwrap(),
        TcpStream::connect(address).await.unwrap(),
    ];
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut third = TcpStream::connect(address).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), third.read_to_string(&mut answer))
        .await
        .expect("the refusal is answered at once")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(refusals() > refused_before, "the refused connection is counted");
    drop(held);
}

async fn unfinished_body(app: &TestApp, client_address: &str) -> TcpStream {
    let mut stream = TcpStream::connect(app.address.trim_start_matches("http://"))
        .await
        .unwrap();
    let head = format!(
        "POST /member/app/password/validate HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client_address}\r\n\
         Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{{"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

#[tokio::test]
async fn behind_a_proxy_one_client_address_gets_its_share_of_requests_in_flight() {
    let app = TestApp::spawn_with(30, |config| {
        config.client_ip_header = Some("x-forwarded-for".into());
        config.max_connections_per_address = 3;
        config.header_read_timeout = 10;
    })
    .await;
    // Every connection comes from the proxy (127.0.0.1 here): the connection loop does not
    // count them per address, the edge counts requests per client of the header.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(unfinished_body(&app, "198.51.100.7").await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let refusals = || {
        crate::observability::sample(
            &crate::observability::exposition(),
            "nearcare_http_requests_total",
            &[("route", "refused:too_many_requests"), ("status", "4xx")],
        )
    };
    let refused_before = refusals();
    let ask = |client_address: &'static str| {
        app.client
            .post(format!("{}/member/app/password/validate", app.address))
            .header("x-forwarded-for", client_address)
            .json(&json!({ "password": "Secret!123" }))
            .send()
    };
    let fourth = ask("198.51.100.7").await.unwrap();
    assert_eq!(fourth.status(), 429);
    let body: serde_json::Value = fourth.json().await.unwrap();
    assert_eq!(body["code"], "too_many_requests", "{body}");
    assert!(
        refusals() > refused_before,
        "counted as refused at the edge, not as an unmatched path"
    );
    assert_eq!(
        ask("198.51.100.8").await.unwrap().status(),
        200,
        "another client is served"
    );
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(ask("198.51.100.7").await.unwrap().status(), 200, "its slots come back");
}
