//! A test database lives exactly as long as its `TestDatabase`.

use sqlx::{Connection, PgConnection};

async fn exists(admin: &mut PgConnection, name: &str) -> bool {
    sqlx::query_scalar("select exists(select 1 from pg_database where datname = $1)")
        .bind(name)
        .fetch_one(admin)
        .await
        .expect("pg_database is readable")
}

#[tokio::test]
async fn a_test_database_is_dropped_with_its_handle_even_with_connections_open() {
    let database = testkit::database().await.expect("a test database");
    let name = database.name.clone();
    let admin_url = database.url.replace(&format!("/{name}"), "/postgres");
    let mut admin = PgConnection::connect(&admin_url).await.expect("admin connection");
    // A connection the test still holds must not keep the database alive.
    sqlx::query("select 1")
        .execute(&database.pool)
        .await
        .expect("the pool answers");
    assert!(exists(&mut admin, &name).await);

    drop(database);

    assert!(!exists(&mut admin, &name).await, "{name} outlived its TestDatabase");
}

#[test]
fn a_panicking_test_still_drops_its_database() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (name, admin_url) = runtime.block_on(async {
        let database = testkit::database().await.expect("a test database");
        let name = database.name.clone();
        let admin_url = database.url.replace(&format!("/{name}"), "/postgres");
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let _database = database;
            panic!("the test failed");
        }));
        assert!(panicked.is_err());
        (name, admin_url)
    });
    runtime.block_on(async {
        let mut admin = PgConnection::connect(&admin_url).await.expect("admin connection");
        assert!(!exists(&mut admin, &name).await, "{name} outlived a panicking test");
    });
}
