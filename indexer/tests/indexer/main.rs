//! The operator path against a real PostgreSQL: seed, rebuild, publish, load, patch, query.

use std::path::PathBuf;
use std::process::Command;

use domain::{DistanceSlider, LatLng, SearchFilters};
use gazetteer::Gazetteer;
use search::SearchRequest;
use sqlx::Row;

mod fleet;
mod import;
mod members;

fn index_dir(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("nearcare-index-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    directory
}

async fn seeded(clinics: usize) -> testkit::TestDatabase {
    let database = testkit::database().await.expect("test database");
    let config = seed::SeedConfig {
        clinics,
        clinicians: clinics * 4 / 5,
        seed: 11,
    };
    let catalogue = seed::generate(&config, &Gazetteer::embedded());
    store::catalogue::load(&database.pool, &catalogue, false)
        .await
        .expect("catalogue loads");
    database
}

/// Great-circle miles, independent of the engine (spherical law of cosines).
fn miles(a: LatLng, b: LatLng) -> f64 {
    let (phi1, phi2) = (a.lat.to_radians(), b.lat.to_radians());
    let cosine = phi1.sin() * phi2.sin() + phi1.cos() * phi2.cos() * (b.lng - a.lng).to_radians().cos();
    cosine.clamp(-1.0, 1.0).acos() * 3_958.761_3
}

#[tokio::test]
async fn a_rebuilt_snapshot_answers_like_a_scan_of_the_database() {
    let database = seeded(2_000).await;
    let directory = index_dir("scan");
    let (report, _) = snapshots::rebuild(&database.pool, &directory, |_, _, _| {})
        .await
        .unwrap();
    assert_eq!(report.generation.build.locations, 2_000);
    let snapshot = snapshots::load_published(&database.pool, &directory)
        .await
        .unwrap()
        .expect("the generation opens");
    assert_eq!(snapshot.generation, report.generation.generation);

    let rows = sqlx::query("select id, lat, lng, accepting_new_patients from locations where not is_virtual")
        .fetch_all(&database.pool)
        .await
        .unwrap();
    let gazetteer = Gazetteer::embedded();
    for (step, row) in rows.iter().step_by(97).enumerate() {
        let origin = LatLng {
            lat: row.get::<f64, _>("lat") + 0.05,
            lng: row.get::<f64, _>("lng") - 0.05,
        };
        let new_patients = step % 2 == 0;
        let slider = DistanceSlider::new((step % 10) as i64).unwrap();
        let mut expected: Vec<f64> = rows
            .iter()
            .filter(|r| !new_patients || r.get::<bool, _>("accepting_new_patients"))
            .map(|r| {
                miles(
                    origin,
                    LatLng {
                        lat: r.get("lat"),
                        lng: r.get("lng"),
                    },
                )
            })
            .filter(|distance| *distance <= slider.radius_miles())
            .collect();
        expected.sort_by(f64::total_cmp);
        let filters = SearchFilters {
            new_patients,
            search_distance: slider,
            ..SearchFilters::default()
        };
        let request = SearchRequest {
            filters,
            origin: Some(origin),
            company_alias: None,
            page: 1,
            limit: 6,
        };
        let answer = snapshot.search(&request, &gazetteer).unwrap();
        let physical: Vec<f64> = answer.clinics.iter().filter_map(|item| item.distance).collect();
        let virtual_count = answer.total_results - answer.clinics.iter().filter(|i| i.distance.is_some()).count();
        assert!(
            answer.total_results >= expected.len(),
            "every physical match is counted"
        );
        assert!(virtual_count <= answer.total_results);
        for (got, want) in physical.iter().zip(&expected) {
            assert!((got - want).abs() < 1e-6, "distance {got} vs {want}");
        }
        assert_eq!(physical.len(), expected.len().min(6));
    }
    std::fs::remove_dir_all(&directory).unwrap();
}

#[tokio::test]
async fn a_failed_build_never_replaces_a_good_snapshot() {
    let database = seeded(300).await;
    let directory = index_dir("failed");
    let (good, _) = snapshots::rebuild(&database.pool, &directory, |_, _, _| {})
        .await
        .unwrap();
    let not_a_directory = directory.join("a-file");
    std::fs::write(&not_a_directory, b"in the way").unwrap();
    let failed = snapshots::rebuild(&database.pool, &not_a_directory, |_, _, _| {}).await;
    assert!(failed.is_err(), "building into a file must fail");
    let current = store::generations::current(&database.pool).await.unwrap().unwrap();
    assert_eq!(
        current.generation, good.generation.generation,
        "the good generation is still the current one"
    );
    assert!(
        snapshots::load_published(&database.pool, &directory)
            .await
            .unwrap()
            .is_some()
    );
    std::fs::remove_dir_all(&directory).unwrap();
}

#[tokio::test]
async fn a_clinic_that_stops_taking_new_patients_reaches_the_snapshot_without_a_rebuild() {
    let database = seeded(300).await;
    let directory = index_dir("patch");
    let (_, snapshot) = snapshots::rebuild(&database.pool, &directory, |_, _, _| {})
        .await
        .unwrap();
    let accepting_id: i64 = sqlx::query_scalar(
        "select id from locations where accepting_new_patients and not is_virtual order by id limit 1",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    let ordinal = snapshot.location_ordinal(accepting_id).unwrap();
    let origin = snapshot.position(ordinal);
    let count = |snapshot: &search::Snapshot| {
        let filters = SearchFilters {
            new_patients: true,
            search_distance: DistanceSlider::new(1).unwrap(),
            ..SearchFilters::default()
        };
        let request = SearchRequest {
            filters,
            origin: Some(origin),
            company_alias: None,
            page: 1,
            limit: 6,
        };
        snapshot.search(&request, &Gazetteer::embedded()).unwrap().total_results
    };
    let before = count(&snapshot);

    let mut listener = sqlx::postgres::PgListener::connect_with(&database.pool).await.unwrap();
    listener
        .listen(store::generations::CATALOGUE_CHANGED_CHANNEL)
        .await
        .unwrap();
    assert!(
        store::catalogue::set_accepting_new_patients(&database.pool, accepting_id, false)
            .await
            .unwrap()
    );
    let notification = tokio::time::timeout(std::time::Duration::from_secs(5), listener.recv())
        .await
        .expect("notified")
        .unwrap();
    assert_eq!(notification.payload(), "locations");

    let snapshots::CatchUp::Patched(patched) = snapshots::catch_up(&database.pool, &snapshot).await.unwrap() else {
        panic!("an attribute change is patched in");
    };
    assert_eq!(count(&patched), before - 1);
    assert_eq!(patched.generation, snapshot.generation, "no new generation was built");
    assert!(
        !store::catalogue::set_accepting_new_patients(&database.pool, -1, false)
            .await
            .unwrap()
    );
    std::fs::remove_dir_all(&directory).unwrap();
}

/// The location and clinician ids a catch-up from `snapshot` would read.
async fn pending_changes(pool: &store::PgPool, snapshot: &search::Snapshot) -> (Vec<i64>, Vec<i64>) {
    let changes = snapshots::changes_for(pool, snapshot)
        .await
        .unwrap()
        .expect("a snapshot built from the catalogue has a cursor");
    (
        changes.locations.iter().map(|location| location.id).collect(),
        changes.clinicians.iter().map(|clinician| clinician.id).collect(),
    )
}

async fn patched(pool: &store::PgPool, snapshot: &search::Snapshot) -> search::Snapshot {
    match snapshots::catch_up(pool, snapshot).await.unwrap() {
        snapshots::CatchUp::Patched(patched) => patched,
        snapshots::CatchUp::Unchanged => panic!("a change was expected"),
        snapshots::CatchUp::NeedsRebuild(reason) => panic!("needs a rebuild: {reason}"),
    }
}

/// A seeded catalogue stamps every row with one time, and transactions commit in another order
/// than they stamp `updated_at`: a catch-up still reads exactly the rows written since its
/// snapshot was read, no more (not the whole catalogue) and none less (not a late commit).
#[tokio::test]
async fn a_catch_up_reads_what_changed_whatever_the_timestamps_say() {
    let database = seeded(300).await;
    let pool = &database.pool;
    let directory = index_dir("cursor");
    let (_, snapshot) = snapshots::rebuild(pool, &directory, |_, _, _| {}).await.unwrap();
    assert_eq!(
        pending_changes(pool, &snapshot).await,
        (vec![], vec![]),
        "nothing changed since the build"
    );
    assert!(matches!(
        snapshots::catch_up(pool, &snapshot).await.unwrap(),
        snapshots::CatchUp::Unchanged
    ));

    let ids: Vec<i64> = sqlx::query_scalar("select id from locations where not is_virtual order by id limit 2")
        .fetch_all(pool)
        .await
        .unwrap();
    let (early, late) = (ids[0], ids[1]);
    let flip = "update locations set accepting_new_patients = not accepting_new_patients where id = $1";
    // `early` is written first (its updated_at is the older) but commits last.
    let mut slow = pool.begin().await.unwrap();
    sqlx::query(flip).bind(early).execute(&mut *slow).await.unwrap();
    sqlx::query(flip).bind(late).execute(pool).await.unwrap();

    let first = patched(pool, &snapshot).await;
    assert_eq!(pending_changes(pool, &snapshot).await, (vec![late], vec![]));
    assert_eq!(
        pending_changes(pool, &first).await,
        (vec![], vec![]),
        "the running write is not visible yet"
    );
    slow.commit().await.unwrap();
    assert_eq!(
        pending_changes(pool, &first).await,
        (vec![early], vec![]),
        "a write committed after the catch-up is read by the next one, though stamped before it"
    );
    let second = patched(pool, &first).await;
    let accepting = |snapshot: &search::Snapshot, id: i64| {
        snapshot
            .location(snapshot.location_ordinal(id).unwrap())
            .accepting_new_patients
    };
    assert_eq!(accepting(&second, early), !accepting(&snapshot, early));
    assert_eq!(accepting(&second, late), !accepting(&snapshot, late));

    let clinician: i64 = sqlx::query_scalar("select min(id) from clinicians")
        .fetch_one(pool)
        .await
        .unwrap();
    sqlx::query("update clinicians set accepting_new_patients = not accepting_new_patients where id = $1")
        .bind(clinician)
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(pending_changes(pool, &second).await, (vec![], vec![clinician]));
    let third = patched(pool, &second).await;
    assert_eq!(pending_changes(pool, &third).await, (vec![], vec![]));

    // The published generation keeps its cursor: `indexer status` counts what changed since.
    let current = store::generations::current(pool).await.unwrap().unwrap();
    assert!(!current.build.catalogue_cursor.is_empty());
    std::fs::remove_dir_all(&directory).unwrap();
}

#[tokio::test]
async fn publishing_announces_the_generation() {
    let database = seeded(100).await;
    let directory = index_dir("announce");
    let mut listener = sqlx::postgres::PgListener::connect_with(&database.pool).await.unwrap();
    listener
        .listen(store::generations::INDEX_PUBLISHED_CHANNEL)
        .await
        .unwrap();
    let (report, _) = snapshots::rebuild(&database.pool, &directory, |_, _, _| {})
        .await
        .unwrap();
    let notification = tokio::time::timeout(std::time::Duration::from_secs(5), listener.recv())
        .await
        .expect("notified")
        .unwrap();
    assert_eq!(notification.payload(), report.generation.generation.to_string());
    std::fs::remove_dir_all(&directory).unwrap();
}

#[tokio::test]
async fn seeding_twice_needs_replace() {
    let database = seeded(100).await;
    let catalogue = seed::generate(
        &seed::SeedConfig {
            clinics: 50,
            clinicians: 40,
            seed: 2,
        },
        &Gazetteer::embedded(),
    );
    let refused = store::catalogue::load(&database.pool, &catalogue, false).await;
    assert!(matches!(refused, Err(store::StoreError::CatalogueNotEmpty)));
    store::catalogue::load(&database.pool, &catalogue, true).await.unwrap();
    assert_eq!(store::catalogue::counts(&database.pool).await.unwrap().locations, 50);
}

fn indexer_command(database_url: &str, index: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_indexer"));
    command
        .env("DATABASE_URL", database_url)
        .env("NEARCARE_INDEX_DIR", index)
        .env_remove("RUST_LOG");
    command
}

#[tokio::test]
async fn the_cli_query_prints_the_engine_answer_and_status_reports_the_generation() {
    let database = seeded(400).await;
    let directory = index_dir("cli");
    let rebuild = indexer_command(&database.url, &directory)
        .arg("rebuild")
        .output()
        .unwrap();
    assert!(rebuild.status.success(), "{}", String::from_utf8_lossy(&rebuild.stderr));
    assert!(String::from_utf8_lossy(&rebuild.stdout).contains("published generation"));

    let output = indexer_command(&database.url, &directory)
        .args(["query", "search", "--zip", "80202", "--distance", "0"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let snapshot = snapshots::load_published(&database.pool, &directory)
        .await
        .unwrap()
        .unwrap();
    let filters = SearchFilters {
        zip_code: Some("80202".into()),
        search_distance: DistanceSlider::new(0).unwrap(),
        ..SearchFilters::default()
    };
    let request = SearchRequest {
        filters,
        origin: None,
        company_alias: None,
        page: 1,
        limit: 6,
    };
    let expected = serde_json::to_value(snapshot.search(&request, &Gazetteer::embedded()).unwrap()).unwrap();
    assert_eq!(printed, expected);

    let pins = indexer_command(&database.url, &directory)
        .args(["query", "pins", "--bounds", "-105.5,40.2,-104.5,39.4"])
        .output()
        .unwrap();
    assert!(pins.status.success());
    let pins: serde_json::Value = serde_json::from_slice(&pins.stdout).unwrap();
    assert!(!pins["pins"].as_array().unwrap().is_empty());

    let status = indexer_command(&database.url, &directory)
        .arg("status")
        .output()
        .unwrap();
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["generation"]["locations"], 400);
    assert_eq!(status["changedRowsSinceBuild"], 0);
    let stored = &status["storedGenerations"][0];
    assert_eq!(stored["generation"], status["generation"]["generation"]);
    assert!(
        stored["files"].as_i64().unwrap() > 0 && stored["bytes"].as_i64().unwrap() > 0,
        "{stored}"
    );

    // A reader gone before the answer is written (`indexer query ... | head -1` once `head` has
    // its line): the command ends quietly, without a panic's backtrace.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let closed = indexer_command(&database.url, &directory)
        .args(["query", "search", "--zip", "80202"])
        .stdout(writer)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&closed.stderr);
    assert!(closed.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let bad = indexer_command(&database.url, &directory)
        .args(["query", "pins", "--bounds", "1,2,3"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn an_unreachable_database_is_a_one_line_error() {
    let output = indexer_command("postgres://nobody@127.0.0.1:1/nowhere", &std::env::temp_dir())
        .arg("status")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line, got: {stderr}");
    assert!(stderr.starts_with("error: cannot reach the database"), "{stderr}");
}

/// The operator's provider commands, as processes: invite, refuse a bad invitation, list, and
/// approve a pending participation (audit row, outcome email).
#[tokio::test]
async fn the_cli_invites_providers_and_decides_participations() {
    let database = seeded(50).await;
    let directory = index_dir("providers-cli");
    let run = |args: &[&str]| indexer_command(&database.url, &directory).args(args).output().unwrap();
    let invited = run(&[
        "providers",
        "invite",
        "--organisation",
        "1",
        "--email",
        "Ops.Invite@Clinic.example",
        "--first-name",
        "Ana",
    ]);
    assert!(invited.status.success(), "{}", String::from_utf8_lossy(&invited.stderr));
    assert!(String::from_utf8_lossy(&invited.stdout).starts_with("invited ops.invite@clinic.example to act for"));
    let link: String = sqlx::query_scalar(
        "select link from email_outbox where to_email = 'ops.invite@clinic.example' and kind = 'provider_invite'",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    assert!(link.starts_with("/auth/reset-password?token="), "{link}");
    for (args, error) in [
        (
            vec![
                "providers",
                "invite",
                "--organisation",
                "999999",
                "--email",
                "x@clinic.example",
            ],
            "no organisation has id 999999",
        ),
        (
            vec![
                "providers",
                "invite",
                "--organisation",
                "2",
                "--email",
                "ops.invite@clinic.example",
            ],
            "already acts for organisation 1",
        ),
        (
            vec!["providers", "invite", "--organisation", "1", "--email", "not an email"],
            "--email",
        ),
        (vec!["providers", "approve", "424242"], "no participation has id 424242"),
        (
            vec!["providers", "participations", "--status", "asleep"],
            "--status must be",
        ),
    ] {
        let output = run(&args);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(error),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let listed = run(&["providers", "list"]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("ops.invite@clinic.example"));

    let account: i64 = sqlx::query_scalar("select id from members where email = 'ops.invite@clinic.example'")
        .fetch_one(&database.pool)
        .await
        .unwrap();
    let solution = store::participations::solution_terms(&database.pool, 2)
        .await
        .unwrap()
        .unwrap();
    let rate = store::participations::rates(&database.pool, Some(2))
        .await
        .unwrap()
        .remove(0);
    let mut transaction = database.pool.begin().await.unwrap();
    let participation = store::participations::request(
        &mut transaction,
        &store::participations::Request {
            organisation_id: 1,
            solution: &solution,
            rate: &rate,
            contract_sha256: &"a".repeat(64),
            account_id: account,
            contact_email: "ops.invite@clinic.example",
        },
    )
    .await
    .unwrap();
    transaction.commit().await.unwrap();
    let pending = run(&["providers", "participations", "--status", "pending"]);
    assert!(String::from_utf8_lossy(&pending.stdout).contains(&solution.name));
    let approved = run(&["providers", "approve", &participation.id.to_string()]);
    assert!(
        approved.status.success(),
        "{}",
        String::from_utf8_lossy(&approved.stderr)
    );
    assert!(String::from_utf8_lossy(&approved.stdout).contains("is now active"));
    let again = run(&["providers", "approve", &participation.id.to_string()]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("is active, not pending"));
    let trail: Vec<(String, String)> =
        sqlx::query_as("select to_status, actor from participation_events where participation_id = $1 order by id")
            .bind(participation.id)
            .fetch_all(&database.pool)
            .await
            .unwrap();
    assert_eq!(
        trail,
        [
            ("pending".to_owned(), format!("provider:{account}")),
            ("active".to_owned(), "operator".to_owned())
        ]
    );
    let outcome: i64 = sqlx::query_scalar(
        "select count(*) from email_outbox where to_email = 'ops.invite@clinic.example' and kind = 'participation_outcome'",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    assert_eq!(outcome, 1);
}

/// `indexer employers list / set-status / leads` and `indexer members consents`: the operator
/// sees who waits for an employer, makes it active (each waiting address gets one email in the
/// outbox) and exports the addresses that agreed to news.
#[tokio::test]
async fn the_cli_activates_employers_lists_leads_and_exports_news_consents() {
    let database = seeded(50).await;
    let directory = index_dir("employers-cli");
    let run = |args: &[&str]| indexer_command(&database.url, &directory).args(args).output().unwrap();
    let stdout = |output: &std::process::Output| String::from_utf8_lossy(&output.stdout).into_owned();
    let globex = seed::demo::GLOBEX_EMPLOYER_ID;
    sqlx::query(
        "insert into members (email, first_name, notify) values
             ('news@example.com', 'Nia', true), ('quiet@example.com', 'Quinn', false), ('asked@example.com', 'Ash', true)",
    )
    .execute(&database.pool)
    .await
    .unwrap();
    let mut transaction = database.pool.begin().await.unwrap();
    for (email, consent, source) in [
        ("asked@example.com", true, store::benefit_requests::Source::NotifyMe),
        ("quiet@example.com", false, store::benefit_requests::Source::Enrolment),
    ] {
        let request = store::benefit_requests::NewBenefitRequest {
            employer_id: Some(globex),
            company_name: seed::demo::GLOBEX_NAME,
            email,
            member_id: None,
            consent,
            source,
        };
        store::benefit_requests::record(&mut transaction, &request, "sales@nearcare.example")
            .await
            .unwrap()
            .unwrap();
    }
    transaction.commit().await.unwrap();

    let listed = stdout(&run(&["employers", "list"]));
    let globex_line = listed
        .lines()
        .find(|line| line.contains(seed::demo::GLOBEX_NAME))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(globex_line.contains("inactive"), "{globex_line}");
    assert!(
        globex_line.ends_with("1 waiting"),
        "only the consenting address waits: {globex_line}"
    );
    let leads = stdout(&run(&["employers", "leads"]));
    assert_eq!(leads.lines().count(), 2, "{leads}");
    assert!(
        leads
            .lines()
            .any(|line| line.contains("asked@example.com") && line.ends_with("waiting")),
        "{leads}"
    );
    assert!(
        leads
            .lines()
            .any(|line| line.contains("quiet@example.com") && line.ends_with("not to be emailed")),
        "{leads}"
    );

    let activated = run(&["employers", "set-status", &globex.to_string(), "active"]);
    assert!(
        activated.status.success(),
        "{}",
        String::from_utf8_lossy(&activated.stderr)
    );
    assert!(
        stdout(&activated).starts_with(&format!(
            "employer {globex} ({}) is now active (was inactive); 1 waiting address(es) emailed",
            seed::demo::GLOBEX_NAME
        )),
        "{}",
        stdout(&activated)
    );
    let told: Vec<(String, serde_json::Value)> =
        sqlx::query_as("select to_email, facts from email_outbox where kind = 'benefit_offered'")
            .fetch_all(&database.pool)
            .await
            .unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].0, "asked@example.com");
    assert_eq!(told[0].1["company_name"], seed::demo::GLOBEX_NAME);
    let again = run(&["employers", "set-status", &globex.to_string(), "active"]);
    assert!(
        stdout(&again).contains("0 waiting address(es) emailed"),
        "{}",
        stdout(&again)
    );
    assert!(stdout(&run(&["employers", "leads"])).contains("told "));

    for (args, error) in [
        (
            vec!["employers", "set-status", "999999", "active"],
            "no employer has id 999999",
        ),
        (
            vec!["employers", "set-status", "1", "asleep"],
            "the status must be active, inactive or pending",
        ),
    ] {
        let output = run(&args);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(error),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert_eq!(
        stdout(&run(&["members", "consents"])),
        "asked@example.com\nnews@example.com\n",
        "the addresses that agreed to news, and no other"
    );
}

/// `indexer directory stale`: the organisations whose listings are past due, with their
/// contacts and listings; listings confirmed lately are not named.
#[tokio::test]
async fn the_cli_lists_the_organisations_whose_listings_are_past_due() {
    let database = seeded(50).await;
    let directory = index_dir("directory-cli");
    let run = |args: &[&str]| indexer_command(&database.url, &directory).args(args).output().unwrap();
    sqlx::query("update locations set last_verified = now() - interval '1 day'")
        .execute(&database.pool)
        .await
        .unwrap();
    sqlx::query("update clinicians set last_verified = now() - interval '1 day'")
        .execute(&database.pool)
        .await
        .unwrap();
    let stale: i64 = sqlx::query_scalar(
        "update locations set last_verified = now() - interval '100 days'
         where id = (select min(id) from locations where organisation_id = 1) returning id",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    let invited = run(&[
        "providers",
        "invite",
        "--organisation",
        "1",
        "--email",
        "stale@clinic.example",
    ]);
    assert!(invited.status.success(), "{}", String::from_utf8_lossy(&invited.stderr));

    let listed = run(&["directory", "stale", "--days", "90"]);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        text.starts_with("1 organisations have listings not confirmed for more than 90 days"),
        "{text}"
    );
    assert!(text.contains("organisation 1 "), "{text}");
    assert!(text.contains("1 listings past due, never reminded"), "{text}");
    assert!(
        text.contains("contact: stale@clinic.example (invited, no password yet)"),
        "{text}"
    );
    assert!(text.contains(&format!("location {stale} ")), "{text}");
    assert_eq!(
        text.matches("  location ").count() + text.matches("  clinician ").count(),
        1,
        "{text}"
    );

    let later = run(&["directory", "stale", "--days", "120"]);
    assert!(
        String::from_utf8_lossy(&later.stdout).starts_with("0 organisations"),
        "{}",
        String::from_utf8_lossy(&later.stdout)
    );
    let refused = run(&["directory", "stale", "--days", "0"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--days must be at least 1"));
}
