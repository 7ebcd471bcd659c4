//! Several servers, each with its own index folder and one database: generations travel
//! through PostgreSQL (stored by the rebuild, fetched and checked by each server).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use domain::{DistanceSlider, SearchFilters};
use gazetteer::Gazetteer;
use search::{SearchRequest, Snapshot};

use super::{index_dir, indexer_command, seeded};

/// What a search near a ZIP code answers: (total, locations of the first page's clinics).
fn answer(snapshot: &Snapshot) -> (usize, Vec<i64>) {
    let request = SearchRequest {
        filters: SearchFilters {
            zip_code: Some("10001".into()),
            search_distance: DistanceSlider::new(9).unwrap(),
            ..SearchFilters::default()
        },
        origin: None,
        company_alias: None,
        page: 1,
        limit: 6,
    };
    let answer = snapshot.search(&request, &Gazetteer::embedded()).unwrap();
    let ids = answer.clinics.iter().map(|item| item.location_id).collect();
    (answer.total_results, ids)
}

/// Every file under a folder, as (path inside it, bytes), sorted.
fn files(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if !path.to_string_lossy().ends_with(".lock") {
                found.push((
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    found.sort();
    found
}

fn generation_folder(index: &Path, generation: i64) -> PathBuf {
    index.join(format!("gen-{generation:06}"))
}

async fn current_generation(pool: &store::PgPool) -> i64 {
    store::generations::current(pool).await.unwrap().unwrap().generation
}

#[tokio::test]
async fn servers_with_their_own_folders_fetch_check_and_serve_every_new_generation() {
    // The demo catalogue's size (1,500 clinics, 1,200 clinicians).
    let database = seeded(1_500).await;
    let pool = &database.pool;
    let builder = index_dir("fleet-builder");
    let servers: Vec<PathBuf> = ["a", "b", "c"]
        .iter()
        .map(|name| index_dir(&format!("fleet-{name}")))
        .collect();

    let (first, built) = snapshots::rebuild(pool, &builder, |_, _, _| {}).await.unwrap();
    let first = first.generation.generation;
    let expected = answer(&built);
    assert!(expected.0 > 0, "the search near 10001 finds clinics");

    // Servers starting after the rebuild fetch it into their own folders; none rebuilds.
    for server in &servers {
        let snapshot = snapshots::load_or_build(pool, server).await.unwrap();
        assert_eq!(snapshot.generation, first);
        assert_eq!(answer(&snapshot), expected);
        assert_eq!(
            files(&generation_folder(server, first)),
            files(&generation_folder(&builder, first)),
            "the fetched folder is the built one, byte for byte"
        );
    }
    assert_eq!(
        current_generation(pool).await,
        first,
        "no server published a generation of its own"
    );

    // What the README reports: the size of the demo generation and how long a fetch takes.
    let measured = index_dir("fleet-measure");
    let fetched = snapshots::fetch_generation(pool, &measured, first).await.unwrap();
    eprintln!(
        "demo generation: {} files, {} bytes, fetched in {} ms",
        fetched.files, fetched.bytes, fetched.millis
    );
    assert!(fetched.bytes > 0);

    // A change and a rebuild on the fourth folder: each server loads the new generation.
    let location: i64 = sqlx::query_scalar("select id from locations order by id limit 1")
        .fetch_one(pool)
        .await
        .unwrap();
    store::catalogue::set_accepting_new_patients(pool, location, false)
        .await
        .unwrap();
    let (second, built) = snapshots::rebuild(pool, &builder, |_, _, _| {}).await.unwrap();
    let second = second.generation.generation;
    assert!(second > first);
    let expected = answer(&built);
    for server in &servers {
        let snapshot = snapshots::load_published(pool, server).await.unwrap().unwrap();
        assert_eq!(snapshot.generation, second);
        assert_eq!(answer(&snapshot), expected);
        assert_eq!(
            files(&generation_folder(server, second)),
            files(&generation_folder(&builder, second))
        );
    }

    // Old generations leave the database after each publish: the newest three stay.
    let mut newest = second;
    for _ in 0..2 {
        newest = snapshots::rebuild(pool, &builder, |_, _, _| {})
            .await
            .unwrap()
            .0
            .generation
            .generation;
    }
    let stored = store::generations::stored_generations(pool).await.unwrap();
    assert_eq!(stored, vec![second, newest - 1, newest]);
    let orphan_chunks: i64 = sqlx::query_scalar("select count(*) from index_generation_chunks where generation < $1")
        .bind(second)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(orphan_chunks, 0);
    // A server that starts now fetches the newest.
    let late = index_dir("fleet-late");
    assert_eq!(snapshots::load_or_build(pool, &late).await.unwrap().generation, newest);

    for folder in servers.iter().chain([&builder, &measured, &late]) {
        std::fs::remove_dir_all(folder).unwrap();
    }
}

#[tokio::test]
async fn a_damaged_chunk_is_refused_and_the_served_generation_stays() {
    let database = seeded(300).await;
    let pool = &database.pool;
    let builder = index_dir("damaged-builder");
    let server = index_dir("damaged-server");
    let first = snapshots::rebuild(pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;
    let served = snapshots::load_published(pool, &server).await.unwrap().unwrap();
    assert_eq!(served.generation, first);
    let second = snapshots::rebuild(pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;

    // One byte of the new generation's largest chunk flips in storage.
    let damaged = sqlx::query(
        "update index_generation_chunks set data = set_byte(data, 0, 255 - get_byte(data, 0))
         where (generation, path, chunk) =
               (select generation, path, chunk from index_generation_chunks where generation = $1
                order by length(data) desc limit 1)",
    )
    .bind(second)
    .execute(pool)
    .await
    .unwrap();
    assert_eq!(damaged.rows_affected(), 1);

    let refused = snapshots::load_published(pool, &server).await;
    let message = format!("{:#}", refused.err().expect("a damaged generation is refused"));
    assert!(message.contains("checksum"), "{message}");
    let left: Vec<String> = std::fs::read_dir(&server)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(
        left,
        vec![format!("gen-{first:06}")],
        "neither the damaged generation nor a partial fetch is left"
    );
    // The served snapshot is untouched and still answers.
    assert_eq!(served.generation, first);
    assert!(answer(&served).0 > 0);

    std::fs::remove_dir_all(&builder).unwrap();
    std::fs::remove_dir_all(&server).unwrap();
}

#[tokio::test]
async fn a_rebuild_killed_mid_upload_publishes_nothing_and_its_folder_is_removed() {
    let database = seeded(300).await;
    let pool = &database.pool;
    let builder = index_dir("killed-builder");
    let first = snapshots::rebuild(pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;

    // Holding the generations table keeps the next rebuild waiting after its upload, at the
    // insert of its row: it is killed there.
    let mut lock = pool.begin().await.unwrap();
    sqlx::query("lock table index_generations in exclusive mode")
        .execute(&mut *lock)
        .await
        .unwrap();
    let mut child = indexer_command(&database.url, &builder).arg("rebuild").spawn().unwrap();
    let waiting_insert = "select count(*) from pg_stat_activity
                          where datname = current_database() and query like 'insert into index_generations%'";
    let started = Instant::now();
    loop {
        let waiting: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "{waiting_insert} and wait_event_type = 'Lock'"
        )))
        .fetch_one(pool)
        .await
        .unwrap();
        if waiting > 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the rebuild never reached its publish"
        );
        assert!(child.try_wait().unwrap().is_none(), "the rebuild ended early");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Its chunks are written but not committed: nobody sees them.
    let visible: i64 = sqlx::query_scalar("select count(*) from index_generation_chunks where generation > $1")
        .bind(first)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(visible, 0);
    child.kill().unwrap();
    child.wait().unwrap();
    lock.rollback().await.unwrap();
    let started = Instant::now();
    loop {
        let left: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(waiting_insert.to_owned()))
            .fetch_one(pool)
            .await
            .unwrap();
        if left == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the killed rebuild's session stays"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    assert_eq!(
        current_generation(pool).await,
        first,
        "the killed upload is not published"
    );
    assert_eq!(store::generations::stored_generations(pool).await.unwrap(), vec![first]);
    let chunks: i64 = sqlx::query_scalar("select count(*) from index_generation_chunks where generation > $1")
        .bind(first)
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(chunks, 0, "no chunk of the killed upload stays");
    // Its folder still holds an unlocked build marker: the next start removes it.
    let removed = snapshots::remove_partial_generations(&builder);
    assert_eq!(removed.len(), 1, "{removed:?}");
    assert!(!removed[0].exists());
    assert!(generation_folder(&builder, first).exists());
    std::fs::remove_dir_all(&builder).unwrap();
}

#[tokio::test]
async fn a_local_folder_of_the_same_number_from_another_database_is_replaced() {
    let database = seeded(300).await;
    let pool = &database.pool;
    let builder = index_dir("stale-builder");
    let server = index_dir("stale-server");
    let (report, built) = snapshots::rebuild(pool, &builder, |_, _, _| {}).await.unwrap();
    let generation = report.generation.generation;
    // What a reset database's server may have left under the same number.
    let stale = generation_folder(&server, generation);
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("READY"), b"ready\n").unwrap();
    std::fs::write(stale.join("catalogue.postcard"), b"another catalogue").unwrap();
    let snapshot = snapshots::load_published(pool, &server).await.unwrap().unwrap();
    assert_eq!(snapshot.generation, generation);
    assert_eq!(answer(&snapshot), answer(&built));
    assert_eq!(files(&stale), files(&generation_folder(&builder, generation)));
    std::fs::remove_dir_all(&builder).unwrap();
    std::fs::remove_dir_all(&server).unwrap();
}

#[tokio::test]
async fn a_fetch_killed_midway_is_removed_at_the_next_start_which_fetches_again() {
    let database = seeded(300).await;
    let pool = &database.pool;
    let builder = index_dir("killed-fetch-builder");
    let server = index_dir("killed-fetch-server");
    let generation = snapshots::rebuild(pool, &builder, |_, _, _| {})
        .await
        .unwrap()
        .0
        .generation
        .generation;
    // What a server killed mid-fetch leaves: a side folder with an unlocked marker and part of
    // the files.
    let partial = server.join(format!("gen-{generation:06}.fetching-4242"));
    std::fs::create_dir_all(&partial).unwrap();
    std::fs::write(partial.join(snapshots::BUILDING_MARKER), b"").unwrap();
    std::fs::write(partial.join("catalogue.postcard"), b"the first bytes").unwrap();
    let snapshot = snapshots::load_or_build(pool, &server).await.unwrap();
    assert_eq!(snapshot.generation, generation);
    assert!(!partial.exists(), "the half-fetched folder is removed");
    let left: Vec<String> = std::fs::read_dir(&server)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, vec![format!("gen-{generation:06}")]);
    std::fs::remove_dir_all(&builder).unwrap();
    std::fs::remove_dir_all(&server).unwrap();
}

/// Garbage collection keeps the newest generations and any one a live server reports serving;
/// once that server has been silent too long, its generation goes at the next collection.
#[tokio::test]
async fn collection_keeps_the_generation_a_live_server_still_serves() {
    let database = seeded(100).await;
    let pool = &database.pool;
    let builder = index_dir("gc-builder");
    let (first, _) = snapshots::rebuild(pool, &builder, |_, _, _| {}).await.unwrap();
    let first = first.generation.generation;
    store::generations::report_served(pool, "slow-server", first)
        .await
        .unwrap();
    for _ in 0..snapshots::KEEP_STORED_GENERATIONS + 1 {
        snapshots::rebuild(pool, &builder, |_, _, _| {}).await.unwrap();
    }
    let stored = store::generations::stored_generations(pool).await.unwrap();
    assert!(
        stored.contains(&first),
        "the served generation stays stored: {stored:?}"
    );
    assert_eq!(
        stored.len() as i64,
        snapshots::KEEP_STORED_GENERATIONS + 1,
        "{stored:?}"
    );
    assert_eq!(
        store::generations::served_generations(pool).await.unwrap(),
        [(first, 1)]
    );
    // A late server can still fetch what the slow one serves.
    let late = index_dir("gc-late");
    snapshots::fetch_generation(pool, &late, first).await.unwrap();

    sqlx::query("update fleet_servers set heartbeat_at = now() - interval '10 minutes'")
        .execute(pool)
        .await
        .unwrap();
    snapshots::rebuild(pool, &builder, |_, _, _| {}).await.unwrap();
    let stored = store::generations::stored_generations(pool).await.unwrap();
    assert!(
        !stored.contains(&first),
        "a silent server's generation is collected: {stored:?}"
    );
    assert_eq!(stored.len() as i64, snapshots::KEEP_STORED_GENERATIONS, "{stored:?}");
    store::generations::forget_server(pool, "slow-server").await.unwrap();
    assert!(store::generations::served_generations(pool).await.unwrap().is_empty());
}

/// Generations stored in an object store (here `file://`, a mounted bucket): the rebuild puts
/// the objects before publishing, a server fetches and checks them into its own folder,
/// damaged objects are refused, and collection deletes the objects of old generations and
/// those an upload left unlisted.
#[tokio::test]
async fn generations_travel_through_an_object_store_when_one_is_configured() {
    let database = seeded(200).await;
    let pool = &database.pool;
    let bucket = index_dir("object-store-bucket");
    let files_store =
        snapshots::GenerationStore::from_setting(Some(&format!("file://{}/generations", bucket.display()))).unwrap();
    let builder = index_dir("object-store-builder");
    let (first, built) = snapshots::rebuild_to(pool, &builder, &files_store, |_, _, _| {})
        .await
        .unwrap();
    let first = first.generation.generation;
    let stored = store::generations::stored_files(pool, first).await.unwrap();
    assert!(!stored.is_empty());
    assert!(
        stored
            .iter()
            .all(|file| file.chunks == 0 && file.object_url.as_deref().is_some_and(|url| url.starts_with("file://")))
    );
    let chunks: i64 = sqlx::query_scalar("select count(*) from index_generation_chunks")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(chunks, 0, "no bytes in PostgreSQL");

    let server = index_dir("object-store-server");
    let snapshot = snapshots::load_or_build(pool, &server).await.unwrap();
    assert_eq!(snapshot.generation, first);
    assert_eq!(answer(&snapshot), answer(&built));
    assert_eq!(
        files(&generation_folder(&server, first)),
        files(&generation_folder(&builder, first))
    );

    // A damaged object is refused; the folder is not created.
    let (second, _) = snapshots::rebuild_to(pool, &builder, &files_store, |_, _, _| {})
        .await
        .unwrap();
    let second = second.generation.generation;
    let victim = store::generations::stored_files(pool, second)
        .await
        .unwrap()
        .into_iter()
        .max_by_key(|file| file.size)
        .unwrap();
    let victim_path = url::Url::parse(victim.object_url.as_deref().unwrap())
        .unwrap()
        .to_file_path()
        .unwrap();
    let mut bytes = std::fs::read(&victim_path).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(&victim_path, &bytes).unwrap();
    let refused = snapshots::fetch_generation(pool, &index_dir("object-store-damaged"), second).await;
    assert!(format!("{:#}", refused.unwrap_err()).contains("does not match its checksum"));

    // Old generations' objects go with their rows; an unlisted object (a killed upload's) too.
    let orphan = bucket.join("generations/gen-000099-killed/rows.bin");
    std::fs::create_dir_all(orphan.parent().unwrap()).unwrap();
    std::fs::write(&orphan, b"left by a killed upload").unwrap();
    for _ in 0..snapshots::KEEP_STORED_GENERATIONS {
        snapshots::rebuild_to(pool, &builder, &files_store, |_, _, _| {})
            .await
            .unwrap();
    }
    let first_objects: Vec<PathBuf> = stored
        .iter()
        .map(|file| {
            url::Url::parse(file.object_url.as_deref().unwrap())
                .unwrap()
                .to_file_path()
                .unwrap()
        })
        .collect();
    assert!(
        first_objects.iter().all(|path| !path.exists()),
        "the first generation's objects are deleted"
    );
    assert!(orphan.exists(), "a young unlisted object may be an upload in progress");
    let snapshots::GenerationStore::Objects(base) = &files_store else {
        unreachable!()
    };
    let removed = snapshots::storage::remove_orphans(pool, base, Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(removed, 1);
    assert!(!orphan.exists());
    let listed: i64 = sqlx::query_scalar("select count(*) from index_generation_files")
        .fetch_one(pool)
        .await
        .unwrap();
    let objects = walk(&bucket.join("generations"));
    assert_eq!(objects as i64, listed, "every object left is listed");
}

fn walk(folder: &Path) -> usize {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| if entry.path().is_dir() { walk(&entry.path()) } else { 1 })
                .sum()
        })
        .unwrap_or(0)
}

/// A process killed between creating a folder and its building marker: a fetch's side folder
/// whose process is gone is removed; a fresh unmarked build folder (a build may be starting)
/// and a finished generation stay.
#[test]
fn unmarked_folders_of_dead_fetches_are_removed_and_a_starting_build_is_not() {
    let index = index_dir("unmarked");
    let dead_fetch = index.join("gen-000003.fetching-4194304999");
    let starting_build = index.join("gen-000004");
    let finished = index.join("gen-000002");
    for folder in [&dead_fetch, &starting_build, &finished] {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::write(finished.join("READY"), b"").unwrap();
    let removed = snapshots::remove_partial_generations(&index);
    assert_eq!(removed, std::slice::from_ref(&dead_fetch));
    assert!(!dead_fetch.exists() && starting_build.exists() && finished.exists());
}
