//! The production way of serving (issue 28): threads with an event loop each, sharing the
//! listening socket and the connection bound, stopping with the server and closing every
//! database connection their requests opened. The other tests serve on the test's runtime.

use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::{Connection, PgConnection};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The names of this process's threads that serve `port`.
fn serving_threads(port: u16) -> Vec<String> {
    let prefix = format!("serve-{port}-");
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| name.starts_with(&prefix))
        .collect()
}

/// Sends one keep-alive GET /health and reads its answer's head within `limit`; `None` when
/// nothing came.
async fn health_on(stream: &mut TcpStream, limit: Duration) -> Option<String> {
    let mut buffer = [0u8; 2048];
    let read = tokio::time::timeout(limit, stream.read(&mut buffer)).await.ok()?.ok()?;
    Some(String::from_utf8_lossy(&buffer[..read]).into_owned())
}

async fn started(
    adjust: impl FnOnce(&mut api::config::Config),
) -> (
    testkit::TestDatabase,
    String,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<anyhow::Result<()>>,
    std::path::PathBuf,
) {
    api::install_tls_provider();
    let database = testkit::database().await.unwrap();
    let local_dir = std::env::temp_dir().join(format!("nearcare-api-test-{}", database.name));
    let mut config = api::config::Config::for_tests(database.url.clone(), local_dir.clone());
    config.seed_clinics = 30;
    config.serve_threads = Some(2);
    adjust(&mut config);
    let application = api::app::Application::build(config).await.unwrap();
    let host = application.local_addr().to_string();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(application.run(async move {
        let _ = stopped.await;
    }));
    (database, host, stop, running, local_dir)
}

/// Stops the server `started` ran and waits until `run` has returned (threads ended, pool closed).
async fn stop_and_wait(stop: tokio::sync::oneshot::Sender<()>, running: tokio::task::JoinHandle<anyhow::Result<()>>) {
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(30), running)
        .await
        .expect("the server stops")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn the_connection_bound_holds_across_the_serving_threads() {
    let (_database, host, stop, running, local_dir) = started(|config| config.max_connections = 1).await;
    let port: u16 = host.rsplit(':').next().unwrap().parse().unwrap();
    // `run` starts them, as a task of this test's runtime.
    let deadline = Instant::now() + Duration::from_secs(10);
    while serving_threads(port).len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        serving_threads(port).len(),
        2,
        "two threads serve: {:?}",
        serving_threads(port)
    );
    let request = b"GET /health HTTP/1.1\r\nhost: nearcare\r\n\r\n";

    let mut first = TcpStream::connect(&host).await.unwrap();
    first.write_all(request).await.unwrap();
    let answer = health_on(&mut first, Duration::from_secs(10))
        .await
        .expect("the first is served");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    // The second connection is accepted by the kernel but served by no thread while the first
    // is open, whichever thread would have taken it.
    let mut second = TcpStream::connect(&host).await.unwrap();
    second.write_all(request).await.unwrap();
    assert_eq!(
        health_on(&mut second, Duration::from_millis(700)).await,
        None,
        "one connection at a time"
    );
    drop(first);
    let answer = health_on(&mut second, Duration::from_secs(10))
        .await
        .expect("served once the first closed");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    drop(second);
    stop_and_wait(stop, running).await;
    let _ = std::fs::remove_dir_all(local_dir);
}

#[tokio::test]
async fn concurrent_clients_are_served_and_stopping_ends_the_threads_and_their_connections() {
    let (database, host, stop, running, local_dir) = started(|config| {
        // 96 failed logins from one address are this test's load, not an attack.
        config.rate_limit_per_client = 0;
        config.rate_limit_per_email = 0;
    })
    .await;
    let port: u16 = host.rsplit(':').next().unwrap().parse().unwrap();
    let base = format!("http://{host}");
    // Sixteen clients, each with its own keep-alive connection, mix the search (engine only),
    // a failed login (PostgreSQL and the password hash) and /health.
    let clients = (0..16).map(|client_index| {
        let base = base.clone();
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            for round in 0..6 {
                let search = client
                    .post(format!("{base}/member/app/market/search?page=1&limit=6"))
                    .json(&json!({ "search": { "filters": { "zipCode": "80202", "newPatients": round % 2 == 0 } } }))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(search.status(), 200);
                let body: serde_json::Value = search.json().await.unwrap();
                assert!(body["clinics"].is_array(), "{body}");
                let login = client
                    .post(format!("{base}/member/app/login"))
                    .json(&json!({ "email": format!("nobody{client_index}-{round}@example.com"), "password": "Wrong!1234" }))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(login.status(), 401);
                assert_eq!(client.get(format!("{base}/health")).send().await.unwrap().status(), 200);
            }
        })
    });
    for client in clients.collect::<Vec<_>>() {
        client.await.unwrap();
    }

    stop_and_wait(stop, running).await;
    assert_eq!(serving_threads(port), Vec::<String>::new(), "the serving threads ended");
    let mut observer = PgConnection::connect(&database.url).await.unwrap();
    database.pool.close().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let others = loop {
        let others: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        )
        .fetch_one(&mut observer)
        .await
        .unwrap();
        if others == 0 || Instant::now() > deadline {
            break others;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        others, 0,
        "every connection the server opened, on any thread, is closed"
    );
    let _ = std::fs::remove_dir_all(local_dir);
}
