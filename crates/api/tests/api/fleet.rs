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

async fn start(database_url: &str, name: &str) -> Server {
    let local_dir = std::env::temp_dir().join(format!("nearcare-fleet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&local_dir);
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
    let database = testkit::database().await.expect("a test database");
    let catalogue = seed::generate(
        &seed::SeedConfig {
            clinics: 400,
            clinicians: 320,
            seed: 5,
        },
        &Gazetteer::embedded(),
    );
    store::catalogue::load(&database.pool, &catalogue, false).await.unwrap();
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
    let second = indexer::rebuild(&database.pool, &builder, |_, _, _| {})
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
    let damaged = indexer::rebuild(&database.pool, &builder, |_, _, _| {})
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
    let repaired = indexer::rebuild(&database.pool, &builder, |_, _, _| {})
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
