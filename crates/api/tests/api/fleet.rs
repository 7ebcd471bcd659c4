//! A fleet: three servers with three different local folders and one database. A rebuild on a
//! fourth folder reaches all three through PostgreSQL (fetched, checked, swapped in) while a
//! load loop runs against them; a generation damaged in storage is refused by every server.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use api::app::Application;
use api::config::Config;
use gazetteer::Gazetteer;
use serde_json::{Value, json};
use tokio::sync::oneshot;

struct Server {
    address: String,
    local_dir: PathBuf,
    _shutdown: oneshot::Sender<()>,
}

/// A fresh database holding a generated catalogue.
pub(crate) async fn seeded_database(clinics: usize, clinicians: usize, seed: u64) -> testkit::TestDatabase {
    let database = testkit::database().await.expect("a test database");
    let catalogue = seed::generate(
        &seed::SeedConfig {
            clinics,
            clinicians,
            seed,
        },
        &Gazetteer::embedded(),
    );
    store::catalogue::load(&database.pool, &catalogue, false).await.unwrap();
    database
}

async fn start(database_url: &str, name: &str) -> Server {
    let local_dir = fleet_root(name);
    let application = Application::build(Config::for_tests(database_url.to_owned(), local_dir.clone()))
        .await
        .expect("the server starts");
    let address = format!("http://{}", application.local_addr());
    let (shutdown, stopped) = oneshot::channel::<()>();
    tokio::spawn(application.run(async move {
        let _ = stopped.await;
    }));
    Server {
        address,
        local_dir,
        _shutdown: shutdown,
    }
}

async fn ready_generation(client: &reqwest::Client, server: &Server) -> Option<i64> {
    let response = client.get(format!("{}/ready", server.address)).send().await.ok()?;
    let body: Value = response.json().await.ok()?;
    body["generation"].as_i64()
}

/// Polls every server's /ready until each serves `generation` (at most 20 s).
async fn all_serve(client: &reqwest::Client, servers: &[Server], generation: i64) {
    let started = Instant::now();
    for server in servers {
        loop {
            let served = ready_generation(client, server).await;
            if served == Some(generation) {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{} serves {served:?}, not generation {generation}",
                server.address
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

async fn search_status_and_total(client: &reqwest::Client, server: &Server) -> (u16, i64) {
    let response = client
        .post(format!("{}/member/app/market/search?page=1", server.address))
        .json(&json!({ "search": { "filters": { "zipCode": "80202", "searchDistance": 9 } } }))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap_or_default();
    (status, body["totalResults"].as_i64().unwrap_or(-1))
}

#[tokio::test]
async fn three_servers_with_their_own_folders_serve_each_rebuild_and_refuse_a_damaged_one() {
    api::install_tls_provider();
    let database = seeded_database(400, 320, 5).await;
    // The first server builds and publishes; the next two fetch what it published.
    let mut servers = Vec::new();
    for name in ["a", "b", "c"] {
        servers.push(start(&database.url, name).await);
    }
    let client = reqwest::Client::new();
    let first = ready_generation(&client, &servers[0])
        .await
        .expect("the first server is ready");
    all_serve(&client, &servers, first).await;
    for server in &servers[1..] {
        assert!(server.local_dir.join(format!("index/gen-{first:06}/READY")).exists());
    }

    // A rebuild on a fourth folder, with a load loop against all three meanwhile.
    let load = {
        let client = client.clone();
        let addresses: Vec<String> = servers.iter().map(|server| server.address.clone()).collect();
        tokio::spawn(async move {
            let mut statuses = Vec::new();
            for round in 0..120 {
                let address = &addresses[round % addresses.len()];
                let response = client
                    .post(format!("{address}/member/app/market/search?page=1"))
                    .json(&json!({ "search": { "filters": { "zipCode": "10001" } } }))
                    .send()
                    .await
                    .unwrap();
                statuses.push(response.status().as_u16());
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            statuses
        })
    };
    let builder = std::env::temp_dir().join(format!("nearcare-fleet-builder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&builder);
    let second = snapshots::rebuild(&database.pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;
    all_serve(&client, &servers, second).await;
    let statuses = load.await.unwrap();
    assert!(statuses.iter().all(|status| *status == 200), "{statuses:?}");
    let totals: Vec<(u16, i64)> = answers_of(&client, &servers).await;
    assert!(totals[0].0 == 200 && totals[0].1 > 0, "{totals:?}");
    assert!(totals.iter().all(|answer| *answer == totals[0]), "{totals:?}");

    // Storage damages the next generation's catalogue file (after its checksum was taken):
    // every server refuses it and keeps serving the one it has.
    sqlx::raw_sql(
        "create function damage_chunk() returns trigger language plpgsql as $$
         begin
             if new.chunk = 0 and new.path like 'catalogue%' then
                 new.data := set_byte(new.data, 0, 255 - get_byte(new.data, 0));
             end if;
             return new;
         end $$;
         create trigger damage_chunk before insert on index_generation_chunks
             for each row execute function damage_chunk();",
    )
    .execute(&database.pool)
    .await
    .unwrap();
    let damaged = snapshots::rebuild(&database.pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;
    // The servers heard of it; give them time to fetch, check and refuse.
    tokio::time::sleep(Duration::from_secs(2)).await;
    for server in &servers {
        assert_eq!(ready_generation(&client, server).await, Some(second));
        assert!(!server.local_dir.join(format!("index/gen-{damaged:06}")).exists());
        let (status, total) = search_status_and_total(&client, server).await;
        assert_eq!((status, total), totals[0]);
    }

    // Repaired storage: the next generation reaches all three.
    sqlx::raw_sql("drop trigger damage_chunk on index_generation_chunks")
        .execute(&database.pool)
        .await
        .unwrap();
    let repaired = snapshots::rebuild(&database.pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;
    all_serve(&client, &servers, repaired).await;

    let folders: Vec<PathBuf> = servers.iter().map(|server| server.local_dir.clone()).collect();
    drop(servers);
    for folder in folders.iter().chain([&builder]) {
        let _ = std::fs::remove_dir_all(folder);
    }
}

async fn answers_of(client: &reqwest::Client, servers: &[Server]) -> Vec<(u16, i64)> {
    let mut answers = Vec::new();
    for server in servers {
        answers.push(search_status_and_total(client, server).await);
    }
    answers
}

/// A `nearcare-server` process, killed when dropped.
pub(crate) struct Process {
    pub(crate) child: std::process::Child,
    pub(crate) address: String,
    /// Every line it has logged so far (ANSI colours removed).
    pub(crate) log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the real server binary on a free loopback port with its own local folder and waits
/// for the address it logs.
pub(crate) fn spawn_process(database_url: &str, local_dir: &std::path::Path) -> Process {
    spawn_process_with(database_url, local_dir, &[])
}

/// [`spawn_process`] with more environment variables.
pub(crate) fn spawn_process_with(
    database_url: &str,
    local_dir: &std::path::Path,
    environment: &[(&str, &str)],
) -> Process {
    use std::io::BufRead;
    let mut child = server_command(database_url, local_dir)
        .envs(environment.iter().copied())
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server binary starts");
    let (sender, receiver) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = std::sync::Arc::clone(&log);
    std::thread::spawn(move || {
        // Reads every line (the pipe must not fill up), keeps it and reports the listening address.
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            let plain: String = strip_ansi(&line);
            kept.lock().unwrap().push(plain.clone());
            if let Some(at) = plain.find("listening address=") {
                let address = plain[at + "listening address=".len()..]
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                let _ = sender.send(address);
            }
        }
    });
    let address = receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("the server logs its address");
    Process {
        child,
        address: format!("http://{address}"),
        log,
    }
}

fn strip_ansi(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut characters = line.chars();
    while let Some(character) = characters.next() {
        if character == '\u{1b}' {
            for next in characters.by_ref() {
                if next.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(character);
        }
    }
    plain
}

/// Runs the `indexer` CLI binary (built next to the server's by `cargo test --workspace`) with
/// more environment variables.
fn indexer_cli_with(
    database_url: &str,
    index_dir: &std::path::Path,
    args: &[&str],
    environment: &[(&str, &str)],
) -> std::process::Output {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_nearcare-server")).with_file_name("indexer");
    assert!(
        binary.exists(),
        "build the CLI first: cargo build -p indexer ({})",
        binary.display()
    );
    std::process::Command::new(binary)
        .args(args)
        .envs(environment.iter().copied())
        .env("DATABASE_URL", database_url)
        .env("NEARCARE_INDEX_DIR", index_dir)
        .env_remove("RUST_LOG")
        .output()
        .expect("the indexer runs")
}

fn indexer_cli(database_url: &str, index_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    indexer_cli_with(database_url, index_dir, args, &[])
}

/// `indexer rebuild` off the test's thread, so the test's other tasks (a load loop) run
/// meanwhile.
async fn indexer_rebuild(
    database_url: &str,
    index_dir: std::path::PathBuf,
    environment: &[(&str, &str)],
) -> std::process::Output {
    let url = database_url.to_owned();
    let environment: Vec<(String, String)> = environment
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect();
    tokio::task::spawn_blocking(move || {
        let environment: Vec<(&str, &str)> = environment
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str()))
            .collect();
        indexer_cli_with(&url, &index_dir, &["rebuild"], &environment)
    })
    .await
    .unwrap()
}

/// A fresh folder for one test's servers (removed first, in case a killed run left it).
pub(crate) fn fleet_root(name: &str) -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!("nearcare-fleet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    root
}

/// Polls a process's /ready until it reports `generation` (at most 20 s).
async fn process_serves(client: &reqwest::Client, process: &Process, generation: i64) {
    let started = Instant::now();
    loop {
        let served = async {
            let response = client.get(format!("{}/ready", process.address)).send().await.ok()?;
            let body: Value = response.json().await.ok()?;
            body["generation"].as_i64()
        }
        .await;
        if served == Some(generation) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{} serves {served:?}, not generation {generation}",
            process.address
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn server_processes_with_their_own_folders_serve_a_rebuild_and_a_late_or_restarted_one_catches_up() {
    api::install_tls_provider();
    let database = seeded_database(300, 240, 7).await;
    let root = fleet_root("processes");
    let client = reqwest::Client::new();

    // The first builds and publishes generation 1; the other two fetch it.
    let mut processes = vec![spawn_process(&database.url, &root.join("a"))];
    let first = store::generations::current(&database.pool)
        .await
        .unwrap()
        .unwrap()
        .generation;
    for name in ["b", "c"] {
        processes.push(spawn_process(&database.url, &root.join(name)));
    }
    for process in &processes {
        process_serves(&client, process, first).await;
    }

    // `indexer rebuild` on a fourth folder reaches all three processes, while a load loop
    // searches all three: no request fails.
    let addresses: Vec<String> = processes.iter().map(|process| process.address.clone()).collect();
    let loading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let load_loop = tokio::spawn({
        let client = client.clone();
        let loading = loading.clone();
        async move {
            let mut answers: Vec<u16> = Vec::new();
            while loading.load(std::sync::atomic::Ordering::Relaxed) {
                for address in &addresses {
                    let status = client
                        .post(format!("{address}/member/app/market/search?page=1"))
                        .json(&json!({ "search": { "filters": { "zipCode": "80202", "searchDistance": 9 } } }))
                        .send()
                        .await
                        .map_or(0, |response| response.status().as_u16());
                    answers.push(status);
                }
            }
            answers
        }
    });
    let rebuilt = indexer_rebuild(&database.url, root.join("builder"), &[]).await;
    assert!(rebuilt.status.success(), "{}", String::from_utf8_lossy(&rebuilt.stderr));
    let second = store::generations::current(&database.pool)
        .await
        .unwrap()
        .unwrap()
        .generation;
    assert!(second > first);
    for process in &processes {
        process_serves(&client, process, second).await;
    }
    loading.store(false, std::sync::atomic::Ordering::Relaxed);
    let answers = load_loop.await.unwrap();
    assert!(
        answers.len() >= 30,
        "the load loop ran throughout: {} requests",
        answers.len()
    );
    eprintln!("load loop during the rebuild: {} searches, all 200", answers.len());
    assert!(
        answers.iter().all(|status| *status == 200),
        "a request failed during the rebuild: {answers:?}"
    );
    // Every server reports what it serves (garbage collection keeps that generation).
    let started = Instant::now();
    while store::generations::served_generations(&database.pool).await.unwrap() != [(second, 3)] {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the servers did not report generation {second}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for name in ["a", "b", "c"] {
        assert!(root.join(format!("{name}/index/gen-{second:06}/READY")).exists());
    }

    // One killed: the others keep serving; restarted on its folder, it serves the newest.
    drop(processes.pop());
    for process in &processes {
        process_serves(&client, process, second).await;
    }
    processes.push(spawn_process(&database.url, &root.join("c")));
    // A server started after the rebuild fetches the newest.
    processes.push(spawn_process(&database.url, &root.join("late")));
    for process in &processes {
        process_serves(&client, process, second).await;
    }
    assert!(root.join(format!("late/index/gen-{second:06}/READY")).exists());

    // A small change reaches every process without a rebuild (NOTIFY catalogue_changed).
    let denver = seed::demo::DENVER_LOCATION_ID;
    let accepting_near_denver = |address: String| {
        let client = client.clone();
        async move {
            let response = client
                .post(format!("{address}/member/app/market/search?page=1"))
                .json(&json!({ "search": { "filters": {
                    "zipCode": "80202", "newPatients": true, "searchDistance": 1 } } }))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 200);
            let body: Value = response.json().await.unwrap();
            body["clinics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|clinic| clinic["locationId"] == denver)
        }
    };
    for process in &processes {
        assert!(accepting_near_denver(process.address.clone()).await);
    }
    let changed = indexer_cli(
        &database.url,
        &root.join("builder"),
        &["location", "set-accepting", &denver.to_string(), "false"],
    );
    assert!(changed.status.success(), "{}", String::from_utf8_lossy(&changed.stderr));
    let started = Instant::now();
    for process in &processes {
        while accepting_near_denver(process.address.clone()).await {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the change never reached {}",
                process.address
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // And back: `indexer location set-accepting ID true` reopens it on every server.
    let reopened = indexer_cli(
        &database.url,
        &root.join("builder"),
        &["location", "set-accepting", &denver.to_string(), "true"],
    );
    assert!(
        reopened.status.success(),
        "{}",
        String::from_utf8_lossy(&reopened.stderr)
    );
    let started = Instant::now();
    for process in &processes {
        while !accepting_near_denver(process.address.clone()).await {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the reopening never reached {}",
                process.address
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert_eq!(
        store::generations::current(&database.pool)
            .await
            .unwrap()
            .unwrap()
            .generation,
        second,
        "no server built a generation of its own"
    );

    drop(processes);
    let _ = std::fs::remove_dir_all(&root);
}

/// Three server processes drain 200 queued emails into a real SMTP server: each is sent exactly
/// once.
#[tokio::test]
async fn three_server_processes_send_200_queued_emails_exactly_once() {
    api::install_tls_provider();
    let database = seeded_database(50, 40, 7).await;
    let sink = crate::smtp::SmtpSink::start(&[]).await;
    let root = fleet_root("mail");
    let smtp_url = sink.url();
    let environment = [
        ("NEARCARE_SMTP_URL", smtp_url.as_str()),
        ("NEARCARE_MAIL_POLL_MS", "200"),
    ];
    // The first builds the generation the others fetch.
    let mut processes = vec![spawn_process_with(&database.url, &root.join("a"), &environment)];
    for name in ["b", "c"] {
        processes.push(spawn_process_with(&database.url, &root.join(name), &environment));
    }
    queue_magic_links(&database.pool, "fleet", 200).await;
    let messages = sink.wait_for_total(200, Duration::from_secs(90)).await;
    // Anything sent twice would arrive within the poll interval: wait a little longer.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let messages = if messages.len() == 200 {
        sink.messages()
    } else {
        messages
    };
    assert_eq!(messages.len(), 200, "exactly 200 messages arrive");
    let recipients: std::collections::BTreeSet<String> = messages
        .iter()
        .map(|message| message["rcpt_tos"][0].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(recipients.len(), 200, "each recipient got one message");
    let unsent: i64 = sqlx::query_scalar("select count(*) from email_outbox where sent_at is null")
        .fetch_one(&database.pool)
        .await
        .unwrap();
    assert_eq!(unsent, 0);
    drop(processes);
    let _ = std::fs::remove_dir_all(&root);
}

/// Queues `count` magic-link messages to `{prefix}000@example.com`, `{prefix}001@...`, in one
/// transaction.
pub(crate) async fn queue_magic_links(pool: &sqlx::PgPool, prefix: &str, count: usize) {
    let mut transaction = pool.begin().await.unwrap();
    for index in 0..count {
        store::outbox::enqueue(
            &mut transaction,
            &store::outbox::NewEmail {
                to_email: &format!("{prefix}{index:03}@example.com"),
                kind: "magic_link",
                link: Some(&format!("http://127.0.0.1/login?magicLink=token{index}")),
                facts: json!({}),
            },
        )
        .await
        .unwrap();
    }
    transaction.commit().await.unwrap();
}

/// moto's S3-compatible server (`scripts/s3-venv.sh`), killed when dropped.
struct S3Server {
    child: std::process::Child,
    endpoint: String,
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start_s3_server() -> S3Server {
    let binary = std::env::var("NEARCARE_S3_SERVER").unwrap_or_else(|_| {
        panic!(
            "NEARCARE_S3_SERVER is not set: the object store test needs a real S3-compatible server. Run \
             `export NEARCARE_S3_SERVER=$(scripts/s3-venv.sh)` (scripts/test.sh does it) and test again."
        )
    });
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = std::process::Command::new(binary)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("moto_server starts");
    let server = S3Server {
        child,
        endpoint: format!("http://127.0.0.1:{port}"),
    };
    let client = reqwest::Client::new();
    let started = Instant::now();
    while client.get(format!("{}/", server.endpoint)).send().await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "moto_server did not answer"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server
}

/// With `NEARCARE_GENERATION_STORE=s3://…` the generation's bytes travel through a real
/// S3-compatible server: the first server process stores what it builds there, a second
/// fetches it, and `indexer rebuild` reaches both; PostgreSQL holds only the list of files.
#[tokio::test]
async fn server_processes_share_generations_through_an_s3_store() {
    api::install_tls_provider();
    let s3 = start_s3_server().await;
    let created = reqwest::Client::new()
        .put(format!("{}/nearcare-generations", s3.endpoint))
        .send()
        .await
        .unwrap();
    assert!(created.status().is_success(), "bucket: {}", created.status());
    let database = seeded_database(100, 80, 3).await;
    let root = fleet_root("s3");
    let environment = [
        ("NEARCARE_GENERATION_STORE", "s3://nearcare-generations/fleet"),
        ("AWS_ENDPOINT", s3.endpoint.as_str()),
        ("AWS_ALLOW_HTTP", "true"),
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_REGION", "us-east-1"),
    ];
    let client = reqwest::Client::new();
    let mut processes = vec![spawn_process_with(&database.url, &root.join("a"), &environment)];
    let first = store::generations::current(&database.pool)
        .await
        .unwrap()
        .unwrap()
        .generation;
    processes.push(spawn_process_with(&database.url, &root.join("b"), &environment));
    for process in &processes {
        process_serves(&client, process, first).await;
    }
    let rebuilt = indexer_rebuild(&database.url, root.join("builder"), &environment).await;
    assert!(rebuilt.status.success(), "{}", String::from_utf8_lossy(&rebuilt.stderr));
    assert!(String::from_utf8_lossy(&rebuilt.stdout).contains("files stored in s3://nearcare-generations/fleet"));
    let second = store::generations::current(&database.pool)
        .await
        .unwrap()
        .unwrap()
        .generation;
    assert!(second > first);
    for process in &processes {
        process_serves(&client, process, second).await;
    }
    for generation in [first, second] {
        let files = store::generations::stored_files(&database.pool, generation)
            .await
            .unwrap();
        assert!(!files.is_empty());
        assert!(
            files.iter().all(|file| file.chunks == 0
                && file
                    .object_url
                    .as_deref()
                    .is_some_and(|url| url.starts_with("s3://nearcare-generations/fleet/gen-"))),
            "{files:?}"
        );
    }
    let chunks: i64 = sqlx::query_scalar("select count(*) from index_generation_chunks")
        .fetch_one(&database.pool)
        .await
        .unwrap();
    assert_eq!(chunks, 0, "no bytes in PostgreSQL");
    // The bucket really holds them: an object's bytes are the file the server fetched.
    let file = store::generations::stored_files(&database.pool, second)
        .await
        .unwrap()
        .remove(0);
    let key = file
        .object_url
        .as_deref()
        .unwrap()
        .trim_start_matches("s3://nearcare-generations/");
    let bucket = object_store::aws::AmazonS3Builder::new()
        .with_endpoint(&s3.endpoint)
        .with_allow_http(true)
        .with_bucket_name("nearcare-generations")
        .with_access_key_id("testing")
        .with_secret_access_key("testing")
        .with_region("us-east-1")
        .build()
        .unwrap();
    let object = object_store::ObjectStoreExt::get(&bucket, &object_store::path::Path::from(key))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let fetched = std::fs::read(root.join(format!("b/index/gen-{second:06}/{}", file.path))).unwrap();
    assert_eq!(object.len(), fetched.len());
    assert!(object[..] == fetched[..]);
    drop(processes);
    let _ = std::fs::remove_dir_all(&root);
}

/// A server process killed (SIGKILL) while it fetches a generation: the other server keeps
/// serving, the half-fetched folder is never taken for a generation, and the next start on the
/// same folder removes it, fetches again and serves.
#[tokio::test]
async fn a_server_killed_mid_fetch_recovers_at_its_next_start() {
    api::install_tls_provider();
    // Big enough (about 7 MB) that a fetch takes long enough to be caught in the middle.
    let database = seeded_database(20_000, 16_000, 9).await;
    let root = fleet_root("kill");
    let client = reqwest::Client::new();
    let serving = spawn_process(&database.url, &root.join("a"));
    let generation = store::generations::current(&database.pool)
        .await
        .unwrap()
        .unwrap()
        .generation;
    process_serves(&client, &serving, generation).await;

    let victim_dir = root.join("victim");
    let mut caught = false;
    for _ in 0..5 {
        let _ = std::fs::remove_dir_all(&victim_dir);
        let mut victim = spawn_fetching_process(&database.url, &victim_dir);
        let index = victim_dir.join("index");
        // Watch for the side folder a fetch writes into, and kill the process the moment it appears.
        let killed_mid_fetch = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(60) {
                let fetching = std::fs::read_dir(&index)
                    .ok()
                    .into_iter()
                    .flatten()
                    .filter_map(Result::ok)
                    .any(|entry| entry.file_name().to_string_lossy().contains(".fetching-"));
                if fetching {
                    let _ = victim.kill();
                    let _ = victim.wait();
                    return true;
                }
                if matches!(victim.try_wait(), Ok(Some(_))) {
                    return false;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            let _ = victim.kill();
            let _ = victim.wait();
            false
        })
        .await
        .unwrap();
        let finished = victim_dir.join(format!("index/gen-{generation:06}/READY")).exists();
        if killed_mid_fetch && !finished {
            caught = true;
            break;
        }
    }
    assert!(caught, "no fetch was caught in the middle in five tries");
    let leftovers: Vec<String> = std::fs::read_dir(victim_dir.join("index"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        leftovers.iter().any(|name| name.contains(".fetching-")),
        "{leftovers:?}"
    );
    // The other server never noticed.
    process_serves(&client, &serving, generation).await;

    let restarted = spawn_process(&database.url, &victim_dir);
    process_serves(&client, &restarted, generation).await;
    let names: Vec<String> = std::fs::read_dir(victim_dir.join("index"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|name| name.contains(".fetching-")),
        "the half-fetched folder is removed: {names:?}"
    );
    assert!(victim_dir.join(format!("index/gen-{generation:06}/READY")).exists());
    drop(restarted);
    drop(serving);
    let _ = std::fs::remove_dir_all(&root);
}

/// The server binary started on `local_dir`, returned as a bare child (the caller kills it).
fn spawn_fetching_process(database_url: &str, local_dir: &std::path::Path) -> std::process::Child {
    server_command(database_url, local_dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server binary starts")
}

/// The server binary on a free loopback port with its own local folder, no seeding, and the
/// token secret every fleet server shares.
fn server_command(database_url: &str, local_dir: &std::path::Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_nearcare-server"));
    command
        .env("DATABASE_URL", database_url)
        .env("NEARCARE_LOCAL_DIR", local_dir)
        .env("HOST", "127.0.0.1")
        .env("PORT", "0")
        .env("NEARCARE_SEED_CLINICS", "0")
        .env(
            "NEARCARE_JWT_SECRET",
            "a-fleet-test-secret-shared-by-every-server-0123456789",
        );
    command
}

/// Signs up on `process` (sign-up answers a token in a new session); answers the token.
async fn signed_up_on(client: &reqwest::Client, process: &Process, email: &str) -> String {
    let answer: Value = client
        .post(format!("{}/member/app/signup", process.address))
        .json(&json!({ "email": email, "companyName": "Fleet Test Company" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answer["accessToken"]
        .as_str()
        .expect("sign-up answers a token")
        .to_owned()
}

/// Member info on `process` with `token`: the status and the body's `code` and `reason`.
async fn member_info_on(client: &reqwest::Client, process: &Process, token: &str) -> (u16, Value) {
    let response = client
        .get(format!("{}/member/app/member/info", process.address))
        .header("x-access-token", token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

/// Polls member info on `process` until the token is refused (at most 10 s); answers how long
/// that took and the refusal.
async fn refused_after(client: &reqwest::Client, process: &Process, token: &str) -> (Duration, Value) {
    let started = Instant::now();
    loop {
        let (status, body) = member_info_on(client, process, token).await;
        if status == 401 || started.elapsed() > Duration::from_secs(10) {
            assert_eq!(status, 401, "still served after 10 s: {body}");
            return (started.elapsed(), body);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_session_ended_on_one_server_process_is_refused_by_the_other_within_a_second() {
    api::install_tls_provider();
    let database = seeded_database(60, 48, 11).await;
    let root = fleet_root("sessions");
    let client = reqwest::Client::new();
    let a = spawn_process(&database.url, &root.join("a"));
    let generation = store::generations::current(&database.pool)
        .await
        .unwrap()
        .unwrap()
        .generation;
    let mut b = spawn_process(&database.url, &root.join("b"));
    for process in [&a, &b] {
        process_serves(&client, process, generation).await;
    }

    // Signed in on A, served by B too (B reads the session once, then checks it in memory).
    let token = signed_up_on(&client, &a, "fleet.one@example.com").await;
    assert_eq!(member_info_on(&client, &b, &token).await.0, 200);
    assert_eq!(member_info_on(&client, &b, &token).await.0, 200);
    // Signed out on A: B refuses it within a second (NOTIFY session_ended).
    let signed_out = client
        .post(format!("{}/member/app/logout", a.address))
        .header("x-access-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(signed_out.status(), 200);
    let (elapsed, refusal) = refused_after(&client, &b, &token).await;
    eprintln!("signed out on A, refused by B after {elapsed:?}");
    assert_eq!(refusal["code"], "session_ended", "{refusal}");
    assert_eq!(refusal["reason"], "signed_out", "{refusal}");
    assert!(
        elapsed < Duration::from_secs(1),
        "B served the ended session for {elapsed:?}"
    );

    // A session ended while B is down: the restarted B refuses it (it trusts no old memory).
    let second = signed_up_on(&client, &a, "fleet.two@example.com").await;
    assert_eq!(member_info_on(&client, &b, &second).await.0, 200);
    drop(b);
    let signed_out = client
        .post(format!("{}/member/app/logout", a.address))
        .header("x-access-token", &second)
        .send()
        .await
        .unwrap();
    assert_eq!(signed_out.status(), 200);
    b = spawn_process(&database.url, &root.join("b"));
    process_serves(&client, &b, generation).await;
    let (status, body) = member_info_on(&client, &b, &second).await;
    assert_eq!((status, body["reason"].as_str()), (401, Some("signed_out")), "{body}");

    // A session ended with no notification (lost on the way): B's resync, every second, finds it.
    let third = signed_up_on(&client, &a, "fleet.three@example.com").await;
    assert_eq!(member_info_on(&client, &b, &third).await.0, 200);
    let sid: i64 = jsonwebtoken::dangerous::insecure_decode::<api::auth::Claims>(&third)
        .unwrap()
        .claims
        .sid
        .unwrap()
        .parse()
        .unwrap();
    sqlx::query(
        "update sessions set ended_at = now(), end_reason = 'ended_elsewhere', end_xid = pg_current_xact_id()
          where id = $1",
    )
    .bind(sid)
    .execute(&database.pool)
    .await
    .unwrap();
    let (elapsed, refusal) = refused_after(&client, &b, &third).await;
    eprintln!("ended without a notification, refused by B after {elapsed:?}");
    assert_eq!(refusal["reason"], "ended_elsewhere", "{refusal}");
    assert!(
        elapsed < Duration::from_secs(3),
        "the resync (every second) bounds a missed notification: {elapsed:?}"
    );
    // And A, where the session started, refuses it as well after its own resync (which need
    // not have run yet when B's did).
    let (elapsed, refusal) = refused_after(&client, &a, &third).await;
    assert_eq!(refusal["reason"], "ended_elsewhere", "{refusal}");
    assert!(elapsed < Duration::from_secs(3), "A's resync: {elapsed:?}");
    drop(a);
    drop(b);
    let _ = std::fs::remove_dir_all(&root);
}
