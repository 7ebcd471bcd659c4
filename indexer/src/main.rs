//! `indexer`: the operator CLI. Loads data, rebuilds and publishes the search snapshot, shows
//! its status and runs queries against it.

/// `println!` for the CLI's output. A reader that closes the pipe early (`indexer status | head`)
/// ends the command quietly, as other command-line tools do; `println!` panicked with a backtrace.
macro_rules! say {
    () => {
        $crate::say(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::say(format_args!($($arg)*))
    };
}

mod directory_cli;
mod employers_cli;
mod import_cli;
mod import_plan;
mod members_cli;
mod providers_cli;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use domain::{DistanceSlider, LatLng, SearchFilters};
use gazetteer::Gazetteer;
use indicatif::{ProgressBar, ProgressStyle};
use search::{Bounds, DEFAULT_PAGE_SIZE, PinFilters, SearchRequest, Snapshot};

#[derive(Parser)]
#[command(
    name = "indexer",
    about = "Nearcare operator CLI: seed, rebuild and inspect the search index"
)]
struct Cli {
    /// PostgreSQL URL; without it a private cluster is started in <local-dir>/postgres.
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    database_url: Option<String>,
    /// Folder for the private cluster and (by default) the index.
    #[arg(long, env = "NEARCARE_LOCAL_DIR", default_value = snapshots::DEFAULT_LOCAL_DIR, global = true)]
    local_dir: PathBuf,
    /// Folder of snapshot generations; defaults to <local-dir>/index.
    #[arg(long, env = "NEARCARE_INDEX_DIR", global = true)]
    index_dir: Option<PathBuf>,
    /// Where a rebuild stores the generation for the servers: unset, PostgreSQL; or an object
    /// store, s3://bucket/prefix (AWS_* variables) or file:///path.
    #[arg(long, env = "NEARCARE_GENERATION_STORE", global = true)]
    generation_store: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Applies pending migrations.
    Migrate,
    /// Fills the catalogue with generated, realistic data.
    Seed {
        #[arg(long, default_value_t = 1_500)]
        clinics: usize,
        /// Defaults to 80% of the clinics.
        #[arg(long)]
        clinicians: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Replaces a non-empty catalogue.
        #[arg(long)]
        replace: bool,
    },
    /// Builds a new snapshot generation from PostgreSQL and publishes it.
    Rebuild,
    /// Shows the published generation, the catalogue and the last import of each source.
    Status,
    /// Imports FHIR Plan-Net resources (NDJSON, gzipped NDJSON, a Bundle) or the operators' CSV
    /// into the catalogue, validated whole first, and publishes the result to running servers.
    Import(import_cli::ImportArgs),
    /// Runs a query against the current snapshot and prints the API's JSON.
    #[command(subcommand)]
    Query(QueryCommand),
    /// Edits a location (a small change that reaches running servers without a rebuild).
    #[command(subcommand)]
    Location(LocationCommand),
    /// The email outbox: what is waiting, sent and failed; sending failed messages again.
    #[command(subcommand)]
    Mail(MailCommand),
    /// Provider accounts and their solution participations.
    #[command(subcommand)]
    Providers(providers_cli::ProvidersCommand),
    /// Employers, whether they offer the benefit, and the requests to have it offered.
    #[command(subcommand)]
    Employers(employers_cli::EmployersCommand),
    /// Member accounts: the addresses that agreed to news and updates; the members who chose
    /// an organisation's clinics: list them, activate one.
    #[command(subcommand)]
    Members(members_cli::MembersCommand),
    /// The directory's freshness: listings the clinics have not confirmed.
    #[command(subcommand)]
    Directory(directory_cli::DirectoryCommand),
    /// Manages the private PostgreSQL cluster.
    #[command(subcommand)]
    Pg(PgCommand),
}

#[derive(Subcommand)]
enum MailCommand {
    /// Counts messages by state (pending, sent, failed) and lists the failed ones with their
    /// last error.
    Status {
        /// How many failed messages to list, newest first.
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Sends a failed message again (its attempts start from zero).
    Retry { id: i64 },
}

#[derive(Subcommand)]
enum QueryCommand {
    /// A marketplace search (POST /member/app/market/search).
    Search(SearchArgs),
    /// Pins in a box (GET /member/app/market/location/pins).
    Pins(PinArgs),
    /// Clusters in a box (GET /member/app/market/location/areapins).
    AreaPins {
        #[command(flatten)]
        pins: PinArgs,
        #[arg(long)]
        zoom: u32,
    },
}

#[derive(Args)]
struct SearchArgs {
    #[arg(long, allow_hyphen_values = true)]
    lat: Option<f64>,
    #[arg(long, allow_hyphen_values = true)]
    lng: Option<f64>,
    /// Origin ZIP when no lat/lng is given.
    #[arg(long)]
    zip: Option<String>,
    /// searchByName.
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    new_patients: bool,
    #[arg(long)]
    pediatrics: bool,
    /// Distance slider position, 0..=9.
    #[arg(long, default_value_t = 5)]
    distance: i64,
    #[arg(long)]
    employer: Option<String>,
    #[arg(long)]
    company: Option<String>,
    /// The whole filters object as JSON (spec field names); overrides the flags above.
    #[arg(long)]
    filters: Option<String>,
    #[arg(long, default_value_t = 1)]
    page: u32,
    #[arg(long, default_value_t = DEFAULT_PAGE_SIZE)]
    limit: u32,
}

#[derive(Args)]
struct PinArgs {
    /// nwLng,nwLat,seLng,seLat
    #[arg(long, allow_hyphen_values = true)]
    bounds: String,
    #[arg(long)]
    new_patients: bool,
    #[arg(long)]
    pediatrics: bool,
    #[arg(long)]
    employer: Option<String>,
    #[arg(long)]
    company: Option<String>,
}

#[derive(Subcommand)]
enum LocationCommand {
    /// Marks whether a location accepts new patients.
    SetAccepting {
        id: i64,
        /// `true` or `false` (a positional bool is a flag to clap unless told to take a value).
        #[arg(action = clap::ArgAction::Set)]
        accepting: bool,
    },
}

#[derive(Subcommand)]
enum PgCommand {
    /// Starts the private cluster (if needed) and prints the URL of its `nearcare` database.
    Start,
    /// Stops the private cluster.
    Stop,
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    if let Err(error) = runtime.block_on(run(cli)) {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

/// Writes a line of output (see `say!`).
fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_fmt(line).and_then(|()| out.write_all(b"\n")) {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output failed: {error}");
        std::process::exit(1);
    }
}

async fn run(cli: Cli) -> Result<()> {
    let index_dir = cli.index_dir.clone().unwrap_or_else(|| cli.local_dir.join("index"));
    if let Command::Pg(command) = &cli.command {
        return pg(command, &cli.local_dir).await;
    }
    let pool = snapshots::open_database(cli.database_url.as_deref(), &cli.local_dir).await?;
    snapshots::remove_partial_generations(&index_dir);
    match cli.command {
        Command::Migrate => say!("migrations applied"),
        Command::Seed {
            clinics,
            clinicians,
            seed,
            replace,
        } => seed_catalogue(&pool, clinics, clinicians, seed, replace).await?,
        Command::Rebuild => {
            let files_store = snapshots::GenerationStore::from_setting(cli.generation_store.as_deref())?;
            rebuild(&pool, &index_dir, &files_store).await?;
        }
        Command::Status => status(&pool).await?,
        Command::Import(args) => {
            let files_store = snapshots::GenerationStore::from_setting(cli.generation_store.as_deref())?;
            import_cli::run(&pool, &index_dir, &files_store, args).await?;
        }
        Command::Query(query) => run_query(&pool, &index_dir, query).await?,
        Command::Location(LocationCommand::SetAccepting { id, accepting }) => {
            if !store::catalogue::set_accepting_new_patients(&pool, id, accepting).await? {
                bail!("no location with id {id}");
            }
            say!("location {id} accepting new patients: {accepting}");
        }
        Command::Mail(MailCommand::Status { limit }) => mail_status(&pool, limit).await?,
        Command::Mail(MailCommand::Retry { id }) => {
            if !store::outbox::retry(&pool, id).await? {
                bail!("no failed message with id {id} (see `indexer mail status`)");
            }
            // Running servers hear this and send it at once.
            sqlx::query("select pg_notify('email_outbox', '')")
                .execute(&pool)
                .await?;
            say!("message {id} will be sent again");
        }
        Command::Providers(command) => providers_cli::run(&pool, command).await?,
        Command::Employers(command) => employers_cli::run(&pool, command).await?,
        Command::Members(command) => members_cli::run(&pool, command).await?,
        Command::Directory(command) => directory_cli::run(&pool, command).await?,
        Command::Pg(_) => unreachable!("handled above"),
    }
    Ok(())
}

async fn pg(command: &PgCommand, local_dir: &std::path::Path) -> Result<()> {
    let root = local_dir.join("postgres");
    match command {
        // The URL printed works at once (`DATABASE_URL=$(indexer pg start) indexer seed`): the
        // database is made here, not left to the first server.
        PgCommand::Start => {
            let cluster = pgcluster::PrivateCluster::start(&root)?;
            snapshots::ensure_database(&cluster.url("postgres"), "nearcare").await?;
            say!("{}", cluster.url("nearcare"));
        }
        PgCommand::Stop => {
            if root.join("data/postmaster.pid").exists() {
                pgcluster::PrivateCluster::start(&root)?.stop()?;
            }
            say!("stopped");
        }
    }
    Ok(())
}

async fn seed_catalogue(
    pool: &store::PgPool,
    clinics: usize,
    clinicians: Option<usize>,
    seed: u64,
    replace: bool,
) -> Result<()> {
    let started = Instant::now();
    let config = seed::SeedConfig {
        clinics,
        clinicians: clinicians.unwrap_or(clinics * 4 / 5),
        seed,
    };
    let spinner = spinner(format!("generating {clinics} clinics"));
    let catalogue = tokio::task::spawn_blocking(move || seed::generate(&config, &Gazetteer::embedded())).await?;
    spinner.set_message(format!(
        "loading {} locations and {} clinicians",
        catalogue.locations.len(),
        catalogue.clinicians.len()
    ));
    store::catalogue::load(pool, &catalogue, replace).await?;
    spinner.finish_and_clear();
    let counts = store::catalogue::counts(pool).await?;
    say!("{}", serde_json::to_string_pretty(&counts)?);
    say!("seeded in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn spinner(message: String) -> ProgressBar {
    let spinner = ProgressBar::new_spinner();
    spinner.enable_steady_tick(Duration::from_millis(120));
    spinner.set_message(message);
    spinner
}

async fn rebuild(
    pool: &store::PgPool,
    index_dir: &std::path::Path,
    files_store: &snapshots::GenerationStore,
) -> Result<()> {
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg:22} [{bar:40}] {pos}/{len} rows ({elapsed})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let reporter = bar.clone();
    let (report, snapshot) = snapshots::rebuild_to(pool, index_dir, files_store, move |stage, done, total| {
        reporter.set_message(stage.to_owned());
        reporter.set_length(total.max(1));
        reporter.set_position(done);
    })
    .await?;
    bar.finish_and_clear();
    let generation = &report.generation;
    say!(
        "published generation {} ({}, files stored in {}): {} locations, {} clinicians; read {:.1} s, built {:.1} s, total {:.1} s; peak memory {} MiB",
        generation.generation,
        generation.build.directory,
        files_store.describe(),
        generation.build.locations,
        generation.build.clinicians,
        report.read_millis as f64 / 1000.0,
        report.build_millis as f64 / 1000.0,
        f64::from(generation.build.build_millis) / 1000.0,
        generation.build.peak_rss_bytes / (1 << 20)
    );
    if !snapshot.text_indexes_are_compact() {
        say!("note: a name index spans several segments; queries map doc ids through a fast field");
    }
    Ok(())
}

async fn mail_status(pool: &store::PgPool, limit: i64) -> Result<()> {
    for (state, count) in store::outbox::counts(pool).await? {
        say!("{state:<8} {count}");
    }
    let failed = store::outbox::failed(pool, limit).await?;
    if !failed.is_empty() {
        say!();
        say!("failed (newest first; `indexer mail retry ID` sends one again):");
        for email in failed {
            say!(
                "{:>8}  {}  {:<20} {:<32} attempts {:<3} {}",
                email.id,
                email.created_at.format("%Y-%m-%d %H:%M"),
                email.kind,
                email.to_email,
                email.attempts,
                email.last_error.unwrap_or_default()
            );
        }
    }
    Ok(())
}

async fn status(pool: &store::PgPool) -> Result<()> {
    let counts = store::catalogue::counts(pool).await?;
    let current = store::generations::current(pool).await?;
    let stored = store::generations::stored_summary(pool).await?;
    let mut report = match &current {
        Some(generation) => {
            let age = chrono::Utc::now() - generation.published_at;
            // A generation built before change cursors counts as all changed.
            let changed = match generation.build.catalogue_cursor.as_str() {
                "" => counts.locations + counts.clinicians,
                cursor => {
                    let pending =
                        store::catalogue::changes_since(pool, cursor, generation.build.catalogue_watermark).await?;
                    (pending.locations.len() + pending.clinicians.len()) as i64
                }
            };
            serde_json::json!({
                "generation": generation,
                "ageSeconds": age.num_seconds(),
                "changedRowsSinceBuild": changed,
                "catalogue": counts,
            })
        }
        None => serde_json::json!({ "generation": null, "catalogue": counts }),
    };
    // What servers fetch from: the generations whose files PostgreSQL holds.
    report["storedGenerations"] = serde_json::to_value(stored)?;
    let served: Vec<serde_json::Value> = store::generations::served_generations(pool)
        .await?
        .into_iter()
        .map(|(generation, servers)| serde_json::json!({ "generation": generation, "servers": servers }))
        .collect();
    report["servedGenerations"] = serde_json::Value::Array(served);
    // The last import of each source (docs/fhir-contract.md).
    report["imports"] = serde_json::to_value(store::directory::last_imports(pool).await?)?;
    say!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}

async fn current_snapshot(pool: &store::PgPool, index_dir: &std::path::Path) -> Result<Snapshot> {
    let snapshot = snapshots::load_published(pool, index_dir)
        .await?
        .context("no published snapshot: run `indexer rebuild` first")?;
    Ok(match snapshots::catch_up(pool, &snapshot).await? {
        snapshots::CatchUp::Patched(patched) => patched,
        snapshots::CatchUp::Unchanged => snapshot,
        snapshots::CatchUp::NeedsRebuild(reason) => {
            eprintln!("note: the catalogue changed since this snapshot ({reason}); run `indexer rebuild`");
            snapshot
        }
    })
}

fn parse_bounds(text: &str) -> Result<Bounds> {
    let values: Vec<f64> = text
        .split(',')
        .map(|value| value.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .context("bounds are four numbers")?;
    let [nw_lng, nw_lat, se_lng, se_lat] = values[..] else {
        bail!("bounds are nwLng,nwLat,seLng,seLat")
    };
    Ok(Bounds {
        nw_lng,
        nw_lat,
        se_lng,
        se_lat,
    })
}

fn pin_filters(args: &PinArgs) -> PinFilters {
    PinFilters {
        filters: SearchFilters {
            new_patients: args.new_patients,
            service_types: if args.pediatrics {
                vec![domain::PEDIATRICS_SERVICE_TYPE.to_owned()]
            } else {
                Vec::new()
            },
            employer: args.employer.clone(),
            ..SearchFilters::default()
        },
        company_alias: args.company.clone(),
    }
}

async fn run_query(pool: &store::PgPool, index_dir: &std::path::Path, query: QueryCommand) -> Result<()> {
    let snapshot = current_snapshot(pool, index_dir).await?;
    let json = match query {
        QueryCommand::Search(args) => {
            let filters = match &args.filters {
                Some(json) => serde_json::from_str(json).context("--filters is not a valid filters object")?,
                None => SearchFilters {
                    search_by_name: args.name.clone(),
                    new_patients: args.new_patients,
                    pediatrics: args.pediatrics,
                    search_distance: DistanceSlider::new(args.distance).context("--distance is 0 to 9")?,
                    employer: args.employer.clone(),
                    zip_code: args.zip.clone(),
                    ..SearchFilters::default()
                },
            };
            let origin = match (args.lat, args.lng) {
                (Some(lat), Some(lng)) => Some(LatLng::new(lat, lng).context("lat/lng out of range")?),
                (None, None) => None,
                _ => bail!("give both --lat and --lng, or neither"),
            };
            let request = SearchRequest {
                filters,
                origin,
                company_alias: args.company,
                page: args.page,
                limit: args.limit,
            };
            serde_json::to_value(snapshot.search(&request, &Gazetteer::embedded())?)?
        }
        QueryCommand::Pins(args) => {
            serde_json::to_value(snapshot.pins(parse_bounds(&args.bounds)?, &pin_filters(&args))?)?
        }
        QueryCommand::AreaPins { pins, zoom } => {
            serde_json::to_value(snapshot.area_pins(parse_bounds(&pins.bounds)?, zoom, &pin_filters(&pins))?)?
        }
    };
    say!("{}", serde_json::to_string_pretty(&json)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, Command, LocationCommand};

    fn accepting(args: &[&str]) -> Option<bool> {
        match Cli::try_parse_from(args).ok()?.command {
            Command::Location(LocationCommand::SetAccepting { accepting, .. }) => Some(accepting),
            _ => None,
        }
    }

    /// Every `indexer ...` command the README shows (in backticks), as concrete command lines:
    /// optional `[...]` parts included, placeholders given example values, `true/false` both
    /// ways, and a `query ...` alternative after ` / ` read as an indexer command too.
    fn readme_commands() -> Vec<String> {
        const README: &str = include_str!("../../README.md");
        let mut commands = Vec::new();
        for line in README.lines() {
            let spans: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
            let first_cell = line.starts_with("| `indexer ");
            for (index, span) in spans.iter().enumerate() {
                let span = span.trim();
                // In the CLI table, the first cell's alternatives (`indexer pg start` / `indexer pg
                // stop`, `query pins ...` / `query area-pins ...`) are commands too.
                let alternative =
                    first_cell && index > 0 && line.split('|').nth(1).is_some_and(|cell| cell.contains(span));
                let command = if span.starts_with("indexer ") {
                    span.to_owned()
                } else if alternative {
                    format!("indexer {span}")
                } else {
                    continue;
                };
                let concrete = command
                    .replace(['[', ']'], "")
                    .replace("...", "--bounds -105,40,-104,39")
                    .replace("nwLng,nwLat,seLng,seLat", "-105,40,-104,39")
                    .replace("0..9", "3");
                let words: Vec<&str> = concrete
                    .split_whitespace()
                    .map(|word| match word {
                        "N" => "10",
                        "M" => "8",
                        "S" | "P" => "1",
                        "Z" => "5",
                        "ID" | "MEMBER_ID" => "668",
                        "YYYY-MM-DD" => "2026-11-26",
                        "E" => "someone@clinic.example",
                        "F" | "L" => "Lee",
                        other => other,
                    })
                    .collect();
                let line = words.join(" ");
                if line.contains("true/false") {
                    commands.push(line.replace("true/false", "true"));
                    commands.push(line.replace("true/false", "false"));
                } else {
                    commands.push(line);
                }
            }
        }
        commands
    }

    #[test]
    fn every_readme_command_parses_as_written() {
        let commands = readme_commands();
        for expected in [
            "indexer location set-accepting 668 true",
            "indexer location set-accepting 668 false",
            "indexer pg stop",
            "indexer rebuild",
            "indexer providers invite --organisation 668 --email someone@clinic.example --first-name Lee --last-name Lee",
            "indexer providers approve 668",
        ] {
            assert!(
                commands.iter().any(|command| command == expected),
                "{expected} in {commands:#?}"
            );
        }
        assert!(commands.len() >= 10, "{commands:#?}");
        for command in &commands {
            let parsed = Cli::try_parse_from(command.split_whitespace());
            assert!(
                parsed.is_ok(),
                "README: `{command}` does not parse: {}",
                parsed.err().unwrap()
            );
        }
        let reopen = commands
            .iter()
            .find(|command| command.ends_with("set-accepting 668 true"))
            .unwrap();
        assert_eq!(accepting(&reopen.split_whitespace().collect::<Vec<_>>()), Some(true));
    }

    #[test]
    fn set_accepting_reads_the_readme_form_both_ways() {
        assert_eq!(
            accepting(&["indexer", "location", "set-accepting", "668", "true"]),
            Some(true)
        );
        assert_eq!(
            accepting(&["indexer", "location", "set-accepting", "668", "false"]),
            Some(false)
        );
        assert_eq!(
            accepting(&["indexer", "location", "set-accepting", "668"]),
            None,
            "the value is required"
        );
    }
}
