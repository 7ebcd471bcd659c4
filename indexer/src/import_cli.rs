//! `indexer import PATH [--source NAME] [--dry-run] [--full] [--skip-invalid REJECTS]`: Plan-Net
//! resources (NDJSON, gzipped NDJSON, a Bundle) or the operators' CSV into the catalogue,
//! validated whole before anything is written, then published to running servers by a patch
//! or a rebuild (docs/fhir-contract.md, "indexer import").

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use fhir::import::{Problem, Record, read_resource};
use gazetteer::Gazetteer;
use serde_json::Value;
use store::directory::{Entity, ImportSummary};

use crate::import_plan::{self, Current, Publish};

#[derive(Args)]
pub struct ImportArgs {
    /// A `.ndjson` / `.ndjson.gz` file (one FHIR resource a line), a `.json` Bundle, or a `.csv`.
    path: PathBuf,
    /// Where the file comes from: identity is (source, resource id). Defaults to the file's name
    /// without its extensions.
    #[arg(long)]
    source: Option<String>,
    /// Prints what would be added, changed and removed, and writes nothing.
    #[arg(long)]
    dry_run: bool,
    /// Also retires the source's entries that the file no longer lists.
    #[arg(long)]
    full: bool,
    /// Writes the valid resources and copies each rejected line to REJECTS, instead of writing
    /// nothing when a line is invalid.
    #[arg(long, value_name = "REJECTS")]
    skip_invalid: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Ndjson,
    NdjsonGz,
    Bundle,
    Csv,
}

impl Format {
    fn of(path: &Path) -> Result<Self> {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        Ok(if name.ends_with(".ndjson.gz") {
            Self::NdjsonGz
        } else if name.ends_with(".ndjson") {
            Self::Ndjson
        } else if name.ends_with(".json") {
            Self::Bundle
        } else if name.ends_with(".csv") {
            Self::Csv
        } else {
            bail!(
                "{} is not .ndjson, .ndjson.gz, .json (a Bundle) or .csv",
                path.display()
            )
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Ndjson => "ndjson",
            Self::NdjsonGz => "ndjson.gz",
            Self::Bundle => "bundle",
            Self::Csv => "csv",
        }
    }
}

/// What reading the file gave.
struct FileRead {
    records: Vec<Record>,
    problems: Vec<Problem>,
    /// Lines read (resources, or CSV rows).
    resources: usize,
    /// The text of each line, kept only for `--skip-invalid` (to copy rejected ones).
    raw: HashMap<usize, String>,
}

pub async fn run(
    pool: &store::PgPool,
    index_dir: &Path,
    files_store: &snapshots::GenerationStore,
    args: ImportArgs,
) -> Result<()> {
    let started = Instant::now();
    let format = Format::of(&args.path)?;
    let source = match &args.source {
        Some(source) => source.trim().to_owned(),
        None => default_source(&args.path),
    };
    if source.is_empty() || source.len() > 100 {
        bail!("--source must be 1 to 100 characters");
    }
    let gazetteer = Gazetteer::embedded();
    let keep_raw = args.skip_invalid.is_some();
    let path = args.path.clone();
    // Parsing is CPU work: off the async threads.
    let read = tokio::task::spawn_blocking(move || read_file(&path, format, &gazetteer, keep_raw)).await??;
    let gazetteer = Gazetteer::embedded();
    let mut current = load_current(pool, &source, &read.records).await?;
    let mut problems = read.problems;
    let invalid: HashMap<String, usize> = problems
        .iter()
        .filter_map(|problem| problem.resource.clone().map(|resource| (resource, problem.line)))
        .collect();
    problems.extend(import_plan::check_file(&read.records, &invalid, &current, &source));
    problems.sort_by_key(|problem| problem.line);
    let rejected_lines: HashSet<usize> = problems.iter().map(|problem| problem.line).collect();
    for problem in &problems {
        eprintln!("{problem}");
    }
    let mut records = read.records;
    let mut rejected = 0;
    if !problems.is_empty() {
        let Some(rejects_path) = &args.skip_invalid else {
            bail!(
                "{} problem{} in {} line{}: nothing was written (fix the file, or pass --skip-invalid REJECTS to write the valid resources)",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" },
                rejected_lines.len(),
                if rejected_lines.len() == 1 { "" } else { "s" }
            );
        };
        // A resource that refers to a rejected one goes with it.
        let all_rejected = import_plan::dependents_of(&records, &rejected_lines);
        let mut lines: Vec<usize> = all_rejected.iter().copied().collect();
        lines.sort_unstable();
        let mut rejects = std::io::BufWriter::new(
            std::fs::File::create(rejects_path).with_context(|| format!("creating {}", rejects_path.display()))?,
        );
        for line in &lines {
            if let Some(text) = read.raw.get(line) {
                writeln!(rejects, "{text}")?;
            }
        }
        rejects.flush()?;
        for line in lines.iter().filter(|line| !rejected_lines.contains(line)) {
            eprintln!("line {line}: rejected with the resource it refers to");
        }
        rejected = lines.len();
        records.retain(|record| !all_rejected.contains(&record.line));
        say!(
            "{rejected} line{} rejected, copied to {}",
            if rejected == 1 { "" } else { "s" },
            rejects_path.display()
        );
        // The identities and rows to compare with are those of the records kept.
        current = load_current(pool, &source, &records).await?;
    }
    if args.full {
        fill_kept_elsewhere(pool, &source, &records, &mut current).await?;
    }
    let plan = import_plan::plan(&records, &current, &gazetteer, args.full, chrono::Utc::now());
    for change in &plan.report {
        if args.dry_run || !matches!(change, import_plan::Change::Add { .. }) || plan.report.len() <= 200 {
            say!("{change}");
        }
    }
    if plan.report.len() > 200 && !args.dry_run {
        say!(
            "(additions not listed: {} in all; --dry-run lists every one)",
            plan.added
        );
    }
    let counts = format!(
        "{} resources from {} ({}): {} added, {} changed, {} removed, {} unchanged",
        records.len(),
        args.path.display(),
        format.name(),
        plan.added,
        plan.changed,
        plan.removed,
        plan.unchanged
    );
    if args.dry_run {
        say!("dry run, nothing written: {counts}; source \"{source}\"");
        return Ok(());
    }
    if !plan.writes {
        say!("no changes: {counts}; source \"{source}\"");
        return Ok(());
    }
    let mut summary = ImportSummary {
        source: source.clone(),
        file: args.path.display().to_string(),
        format: format.name().to_owned(),
        full_import: args.full,
        resources: read.resources as i32,
        added: plan.added as i32,
        changed: plan.changed as i32,
        removed: plan.removed as i32,
        unchanged: plan.unchanged as i32,
        rejected: rejected as i32,
        published: plan.publish.as_str().to_owned(),
        generation: None,
        millis: started.elapsed().as_millis() as i32,
        finished_at: None,
    };
    let mut changes = plan.changes;
    changes.source = source.clone();
    let written = Instant::now();
    let import_id = store::directory::apply(pool, &changes, &summary).await?;
    say!(
        "written in {:.1} s: {counts}; source \"{source}\"",
        written.elapsed().as_secs_f64()
    );
    match plan.publish {
        Publish::None => say!("the catalogue's rows are unchanged: nothing to publish"),
        Publish::Patch => say!(
            "published as a patch: running servers apply the {} changed rows from catalogue_changed",
            plan.changed
        ),
        Publish::Rebuild => {
            let (report, _) = snapshots::rebuild_to(pool, index_dir, files_store, |_, _, _| {}).await?;
            let generation = report.generation.generation;
            summary.generation = Some(generation);
            say!(
                "published by a rebuild: generation {generation} ({} locations, {} clinicians), which running servers load",
                report.generation.build.locations,
                report.generation.build.clinicians
            );
        }
    }
    store::directory::finish_import(
        pool,
        import_id,
        started.elapsed().as_millis() as i32,
        summary.generation,
    )
    .await?;
    say!(
        "import took {:.1} s; peak memory {} MiB",
        started.elapsed().as_secs_f64(),
        snapshots::peak_rss_bytes() / (1 << 20)
    );
    Ok(())
}

/// `network.ndjson.gz` → `network`.
fn default_source(path: &Path) -> String {
    let name = path.file_name().and_then(|name| name.to_str()).unwrap_or("import");
    name.split('.').next().unwrap_or(name).to_owned()
}

fn read_file(path: &Path, format: Format, gazetteer: &Gazetteer, keep_raw: bool) -> Result<FileRead> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    match format {
        Format::Ndjson => read_ndjson(BufReader::new(file), gazetteer, keep_raw),
        Format::NdjsonGz => read_ndjson(
            BufReader::new(flate2::read::MultiGzDecoder::new(file)),
            gazetteer,
            keep_raw,
        ),
        Format::Bundle => read_bundle(file, gazetteer, keep_raw),
        Format::Csv => {
            let csv = fhir::import_csv::read_csv(BufReader::new(file), gazetteer);
            let raw = if keep_raw { csv_lines(path)? } else { HashMap::new() };
            Ok(FileRead {
                records: csv.records,
                problems: csv.problems,
                resources: csv.rows,
                raw,
            })
        }
    }
}

/// A CSV's lines by number, for copying rejected rows (the header first, so the rejects file
/// is a CSV too).
fn csv_lines(path: &Path) -> Result<HashMap<usize, String>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.to_owned()))
        .collect())
}

/// One resource a line, read and checked as it streams.
fn read_ndjson(input: impl BufRead, gazetteer: &Gazetteer, keep_raw: bool) -> Result<FileRead> {
    let mut read = FileRead {
        records: Vec::new(),
        problems: Vec::new(),
        resources: 0,
        raw: HashMap::new(),
    };
    for (index, line) in input.lines().enumerate() {
        let number = index + 1;
        let line = line.with_context(|| format!("reading line {number}"))?;
        if line.trim().is_empty() {
            continue;
        }
        read.resources += 1;
        match serde_json::from_str::<Value>(&line) {
            Ok(value) => match read_resource(&value, number, gazetteer) {
                Ok(record) => read.records.push(record),
                Err(problems) => read.problems.extend(problems),
            },
            Err(error) => read.problems.push(Problem {
                line: number,
                resource: None,
                path: String::new(),
                message: format!("is not JSON: {error}"),
            }),
        }
        if keep_raw {
            read.raw.insert(number, line);
        }
    }
    Ok(read)
}

/// A Bundle: its entries' resources, each named by the line where the entry starts. (The
/// whole Bundle is held in memory: NDJSON is the format for bulk.)
fn read_bundle(mut file: std::fs::File, gazetteer: &Gazetteer, keep_raw: bool) -> Result<FileRead> {
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    let mut read = FileRead {
        records: Vec::new(),
        problems: Vec::new(),
        resources: 0,
        raw: HashMap::new(),
    };
    let bundle: Value = match serde_json::from_str(&text) {
        Ok(bundle) => bundle,
        Err(error) => {
            read.problems.push(Problem {
                line: error.line(),
                resource: None,
                path: String::new(),
                message: format!("is not JSON: {error}"),
            });
            return Ok(read);
        }
    };
    if bundle.get("resourceType").and_then(Value::as_str) != Some("Bundle") {
        read.problems.push(Problem {
            line: 1,
            resource: None,
            path: "resourceType".into(),
            message: "must be Bundle: a .json file is read as a Bundle".into(),
        });
        return Ok(read);
    }
    let entries = bundle
        .get("entry")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let starts = entry_lines(&text);
    for (index, entry) in entries.iter().enumerate() {
        read.resources += 1;
        let line = starts.get(index).copied().unwrap_or(1);
        match entry.get("resource") {
            Some(resource) => match read_resource(resource, line, gazetteer) {
                Ok(record) => read.records.push(record),
                Err(problems) => read.problems.extend(problems),
            },
            None => read.problems.push(Problem {
                line,
                resource: None,
                path: format!("entry[{index}].resource"),
                message: "is required".into(),
            }),
        }
        if keep_raw {
            read.raw.insert(line, entry.to_string());
        }
    }
    Ok(read)
}

/// The line where each element of the top-level `entry` array starts: a scan of the JSON text
/// that follows strings and nesting (the text is known to be valid JSON).
fn entry_lines(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let (mut depth, mut line, mut index) = (0usize, 1usize, 0usize);
    // The depth of the entry array's elements once its key was seen at the Bundle's level.
    let mut entry_depth: Option<usize> = None;
    let mut last_key_at_top: Option<&str> = None;
    while index < bytes.len() {
        match bytes[index] {
            b'\n' => line += 1,
            b'"' => {
                let start = index + 1;
                index += 1;
                while index < bytes.len() && bytes[index] != b'"' {
                    if bytes[index] == b'\\' {
                        index += 1;
                    }
                    index += 1;
                }
                if depth == 1 {
                    last_key_at_top = Some(&text[start..index.min(text.len())]);
                }
            }
            b'[' | b'{' => {
                if entry_depth == Some(depth) {
                    lines.push(line);
                }
                if bytes[index] == b'[' && depth == 1 && last_key_at_top == Some("entry") {
                    entry_depth = Some(depth + 1);
                }
                depth += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if entry_depth == Some(depth + 1) && bytes[index] == b']' && depth == 1 {
                    entry_depth = None;
                }
            }
            _ => {}
        }
        index += 1;
    }
    lines
}

/// The catalogue's rows the records may touch.
async fn load_current(pool: &store::PgPool, source: &str, records: &[Record]) -> Result<Current> {
    let identities = store::directory::identities(pool, source).await?;
    let npis: Vec<String> = records
        .iter()
        .filter_map(|record| match &record.body {
            fhir::import::Body::Practitioner(practitioner) => Some(practitioner.npi.clone()),
            _ => None,
        })
        .collect();
    let clinicians_by_npi = store::directory::clinicians_by_npi(pool, &npis).await?;
    let mut organisation_ids = Vec::new();
    let mut network_ids = Vec::new();
    let mut location_ids = Vec::new();
    let mut plan_ids = Vec::new();
    for entity in identities.values() {
        match *entity {
            Entity::Organisation(id) => organisation_ids.push(id),
            Entity::Network(id) => network_ids.push(id),
            Entity::Location(id) => location_ids.push(id),
            Entity::InsurancePlan(id) => plan_ids.push(id),
            Entity::Clinician(_) => {}
        }
    }
    let locations = store::directory::locations_by_id(pool, &location_ids).await?;
    // A location's organisation may come from another source: its name is the clinic's default.
    organisation_ids.extend(locations.values().map(|location| location.organisation_id));
    Ok(Current {
        organisations: store::directory::organisations_by_id(pool, &organisation_ids).await?,
        networks: store::directory::networks_by_id(pool, &network_ids).await?,
        plans: store::directory::plans_by_id(pool, &plan_ids).await?,
        locations,
        links: store::directory::role_links(pool, source).await?,
        identities,
        clinicians_by_npi,
        organisations_with_other_locations: HashSet::new(),
        clinicians_kept_elsewhere: HashSet::new(),
    })
}

/// For `--full`: the organisations and clinicians the source would retire that must stay
/// (another location of theirs stays; another source or a link of another source names them).
async fn fill_kept_elsewhere(
    pool: &store::PgPool,
    source: &str,
    records: &[Record],
    current: &mut Current,
) -> Result<()> {
    let listed: HashSet<(&str, &str)> = records
        .iter()
        .map(|record| (record.kind.name(), record.id.as_str()))
        .collect();
    let mut gone_locations = Vec::new();
    let mut gone_organisations = Vec::new();
    let mut gone_clinicians = Vec::new();
    for ((kind, id), entity) in &current.identities {
        if listed.contains(&(kind.as_str(), id.as_str())) {
            continue;
        }
        match (kind.as_str(), entity) {
            ("Location", Entity::Location(id)) => gone_locations.push(*id),
            ("Organization", Entity::Organisation(id)) => gone_organisations.push(*id),
            ("Practitioner", Entity::Clinician(id)) => gone_clinicians.push(*id),
            _ => {}
        }
    }
    let kept: Vec<i64> = sqlx::query_scalar(
        "select distinct organisation_id from locations where organisation_id = any($1) and not (id = any($2))",
    )
    .bind(&gone_organisations)
    .bind(&gone_locations)
    .fetch_all(pool)
    .await?;
    current.organisations_with_other_locations = kept.into_iter().collect();
    let kept: Vec<i64> = sqlx::query_scalar(
        "select entity_id from directory_identities where entity = 'clinician' and source <> $1 and entity_id = any($2)
         union
         select l.clinician_id from clinician_locations l
         where l.clinician_id = any($2) and not (l.location_id = any($3))
           and not exists (select 1 from directory_role_links d where d.source = $1
                           and d.clinician_id = l.clinician_id and d.location_id = l.location_id)",
    )
    .bind(source)
    .bind(&gone_clinicians)
    .bind(&gone_locations)
    .fetch_all(pool)
    .await?;
    current.clinicians_kept_elsewhere = kept.into_iter().collect();
    Ok(())
}
