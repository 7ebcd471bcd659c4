//! Test support: a fresh, migrated PostgreSQL database per test.
//!
//! With `DATABASE_URL` set (the test command sets it), databases are created on that server;
//! otherwise a private cluster is started in `.local/postgres-test`. Each test database is a
//! copy of a migrated template, so a test pays for `CREATE DATABASE`, not for the migrations.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use anyhow::{Context, Result};
use sqlx::{Connection, Executor, PgConnection, PgPool};

/// A database made for one test.
pub struct TestDatabase {
    pub url: String,
    pub pool: PgPool,
    pub name: String,
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
    if let Ok(url) = std::env::var("DATABASE_URL") {
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

static SWEPT: AtomicBool = AtomicBool::new(false);

/// Drops the databases of test processes that have exited. Nothing else drops them, and on the
/// private cluster, which lives as long as the checkout, they added up to gigabytes. Names carry
/// the process id, so a running test binary's databases are left alone.
async fn drop_leftovers(admin: &mut PgConnection) -> Result<()> {
    let names: Vec<String> = sqlx::query_scalar("select datname from pg_database where datname like 'test\\_%'")
        .fetch_all(&mut *admin)
        .await?;
    for name in names {
        let owner = name.split('_').nth(1).and_then(|pid| pid.parse::<u32>().ok());
        let exited = owner
            .is_some_and(|pid| pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists());
        if exited {
            admin
                .execute(sqlx::AssertSqlSafe(format!(
                    "drop database if exists {name} with (force)"
                )))
                .await?;
        }
    }
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
    if std::env::var_os("DATABASE_URL").is_none() && !SWEPT.swap(true, Ordering::Relaxed) {
        drop_leftovers(&mut admin).await?;
    }
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
    Ok(TestDatabase { url, pool, name })
}
