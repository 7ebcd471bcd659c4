//! Test support: a fresh, migrated PostgreSQL database per test.
//!
//! With `DATABASE_URL` set (the test command sets it), databases are created on that server;
//! otherwise a private cluster is started in `.local/postgres-test`. Each test database is a
//! copy of a migrated template, so a test pays for `CREATE DATABASE`, not for the migrations.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};
use sqlx::{Connection, Executor, PgConnection, PgPool};

/// A database made for one test.
pub struct TestDatabase {
    pub url: String,
    pub pool: PgPool,
    pub name: String,
    admin_url: String,
}

impl Drop for TestDatabase {
    /// Drops the database when the test ends, passed or panicked, as crates.io's test harness
    /// does: a private cluster lives as long as the checkout, and kept databases add up to
    /// gigabytes. `Drop` cannot await, and the test's runtime may be the current-thread one
    /// this is called from, so the statement runs on a thread with a runtime of its own.
    fn drop(&mut self) {
        let admin_url = self.admin_url.clone();
        let statement = format!("drop database if exists {} with (force)", self.name);
        let dropped = std::thread::spawn(move || -> Result<()> {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(async {
                let mut admin = PgConnection::connect(&admin_url).await?;
                admin.execute(sqlx::AssertSqlSafe(statement)).await?;
                admin.close().await?;
                Ok(())
            })
        })
        .join();
        match dropped {
            Ok(Ok(())) => {}
            Ok(Err(error)) => eprintln!("testkit: could not drop {}: {error:#}", self.name),
            Err(_) => eprintln!("testkit: dropping {} panicked", self.name),
        }
    }
}

/// The workspace root, for paths such as `.local/`.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root exists")
}

/// Returns the URL of the server tests run against, with `database` as the database name.
fn server_url(database: &str) -> Result<String> {
    // Set but empty means unset, as for the server and the CLI.
    let given = std::env::var("DATABASE_URL").ok().filter(|url| !url.trim().is_empty());
    if let Some(url) = given {
        let base = url
            .rsplit_once('/')
            .map(|(base, _)| base.to_owned())
            .context("DATABASE_URL has no database name")?;
        return Ok(format!("{base}/{database}"));
    }
    let cluster = pgcluster::PrivateCluster::start(&workspace_root().join(".local/postgres-test"))?;
    Ok(cluster.url(database))
}

/// Names the template after the migrations, so a changed migration gets a new template.
fn template_name() -> String {
    let migrator = sqlx::migrate!("../../migrations");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for migration in migrator.iter() {
        for byte in migration
            .checksum
            .iter()
            .copied()
            .chain(migration.version.to_le_bytes())
        {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("nearcare_template_{hash:016x}")
}

async fn ensure_template(admin: &mut PgConnection, template: &str) -> Result<()> {
    // Several test binaries may start at once: one creates the template, the others wait.
    admin.execute("select pg_advisory_lock(4242)").await?;
    let exists: bool = sqlx::query_scalar("select exists(select 1 from pg_database where datname = $1)")
        .bind(template)
        .fetch_one(&mut *admin)
        .await?;
    let outcome = if exists {
        Ok(())
    } else {
        create_template(admin, template).await
    };
    admin.execute("select pg_advisory_unlock(4242)").await?;
    outcome
}

async fn create_template(admin: &mut PgConnection, template: &str) -> Result<()> {
    let building = format!("{template}_building");
    admin
        .execute(sqlx::AssertSqlSafe(format!("drop database if exists {building}")))
        .await?;
    admin
        .execute(sqlx::AssertSqlSafe(format!("create database {building}")))
        .await?;
    let pool = store::connect(&server_url(&building)?, 2).await?;
    store::migrate(&pool).await?;
    pool.close().await;
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            "alter database {building} rename to {template}"
        )))
        .await?;
    Ok(())
}

/// Creates a fresh migrated database for one test.
pub async fn database() -> Result<TestDatabase> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let template = template_name();
    let mut admin = PgConnection::connect(&server_url("postgres")?)
        .await
        .context("connecting to the test server")?;
    ensure_template(&mut admin, &template).await?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .subsec_nanos();
    let name = format!(
        "test_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            "create database {name} template {template}"
        )))
        .await?;
    admin.close().await?;
    let url = server_url(&name)?;
    let pool = store::connect(&url, 8).await?;
    Ok(TestDatabase {
        url,
        pool,
        name,
        admin_url: server_url("postgres")?,
    })
}
