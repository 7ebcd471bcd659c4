//! In-process costs of a FHIR `Location?near` page at scale: the query's parse, the search
//! (the R-tree walk) and the Bundle's writing, each timed for origins in rotation (so the
//! rendered Locations a page copies are mostly out of the CPU's caches, as on a server), with
//! their p50, p90 and p99 in microseconds. The first round renders and is not counted.
//!
//! ```sh
//! cargo build --release -p fhir --example near_costs
//! ./target/release/examples/near_costs GENERATION_DIR ORIGINS_CSV [COUNT [ROUNDS]]
//! ```
//!
//! `GENERATION_DIR` is a published snapshot (`.local/load-1000000/index/gen-000001`),
//! `ORIGINS_CSV` lines of `lat,lng` (the load test's `origins.csv`), `COUNT` the page size
//! (default 20) and `ROUNDS` how many times the origins are run through (default 30).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: near_costs GENERATION_DIR ORIGINS_CSV [COUNT [ROUNDS]]";
    let directory = args.next().expect(usage);
    let origins: Vec<(f64, f64)> = std::fs::read_to_string(args.next().expect(usage))
        .expect("ORIGINS_CSV reads")
        .lines()
        .filter_map(|line| {
            let (a, b) = line.split_once(',')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect();
    let count: usize = args.next().map_or(20, |c| c.parse().expect("COUNT is a number"));
    let rounds: usize = args.next().map_or(30, |r| r.parse().expect("ROUNDS is a number"));
    let snapshot =
        search::Snapshot::open(std::path::Path::new(&directory), 0).expect("GENERATION_DIR opens as a snapshot");
    let dir = fhir::Directory::new(&snapshot);
    let queries: Vec<_> = origins
        .iter()
        .map(|(lat, lng)| {
            vec![
                ("near".to_string(), format!("{lat}|{lng}|30|mi")),
                ("_count".to_string(), count.to_string()),
            ]
        })
        .collect();
    let mut parse = Vec::new();
    let mut searching = Vec::new();
    let mut bundle = Vec::new();
    let mut bytes = 0;
    for round in 0..rounds {
        for pairs in &queries {
            let t0 = Instant::now();
            let query = fhir::parse_query(fhir::ResourceType::Location, pairs).unwrap();
            let t1 = Instant::now();
            let page = fhir::search::search(&dir, &query).unwrap();
            let t2 = Instant::now();
            let unit = query.near.map(|near| near.unit);
            let body = fhir::search::write_bundle(&dir, "http://127.0.0.1:8080/fhir/r4", &query, &page, unit);
            let t3 = Instant::now();
            bytes = body.len();
            if round > 0 {
                parse.push((t1 - t0).as_nanos() as f64 / 1000.0);
                searching.push((t2 - t1).as_nanos() as f64 / 1000.0);
                bundle.push((t3 - t2).as_nanos() as f64 / 1000.0);
            }
            std::hint::black_box(body);
        }
    }
    for (name, values) in [
        ("parse", &mut parse),
        ("search", &mut searching),
        ("bundle", &mut bundle),
    ] {
        values.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let n = values.len();
        println!(
            "{name}: p50 {:.2} µs p90 {:.2} p99 {:.2}",
            values[n / 2],
            values[n * 9 / 10],
            values[n * 99 / 100]
        );
    }
    println!("last body {bytes} bytes");
}
