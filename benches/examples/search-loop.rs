//! Runs the load test's searches (metro ZIP codes, with and without new patients, page 1 of 6)
//! against a snapshot generation folder in a loop, on the path the HTTP handler takes (search,
//! then the answer's JSON), and prints the mean time of each part. For profiling without HTTP:
//!
//! `cargo build --release -p benches --example search-loop`, then
//! `perf record -g target/release/examples/search-loop .local/load-1000000/index/gen-000001`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use domain::SearchFilters;
use gazetteer::Gazetteer;
use search::{SearchRequest, Snapshot};

/// The load test's ZIP codes (scripts/load-test.sh reads the same file).
const ZIPS: &str = include_str!("../load-test-zips.txt");

/// The server's allocator (crates/api/src/main.rs), so allocations cost what they cost there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let folder = std::env::args()
        .nth(1)
        .expect("usage: search-loop GENERATION_FOLDER [SECONDS]");
    let seconds: u64 = std::env::args()
        .nth(2)
        .map_or(10, |text| text.parse().expect("seconds"));
    let gazetteer = Gazetteer::embedded();
    let opened = Instant::now();
    let snapshot = Snapshot::open(std::path::Path::new(&folder), 1).expect("the folder holds a snapshot");
    eprintln!(
        "opened {} locations in {:.1?}",
        snapshot.location_count(),
        opened.elapsed()
    );
    let requests: Vec<SearchRequest> = ZIPS
        .lines()
        .flat_map(|zip| {
            [false, true].map(|new_patients| SearchRequest {
                filters: SearchFilters {
                    zip_code: Some(zip.to_owned()),
                    new_patients,
                    ..SearchFilters::default()
                },
                page: 1,
                limit: 6,
                ..SearchRequest::default()
            })
        })
        .collect();
    let (mut searching, mut writing, mut runs, mut bytes) = (Duration::ZERO, Duration::ZERO, 0u32, 0usize);
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        for request in &requests {
            let started = Instant::now();
            let answer = snapshot.search(request, &gazetteer).expect("the search answers");
            let searched = Instant::now();
            let json = snapshot.search_json(&answer);
            writing += searched.elapsed();
            searching += searched - started;
            bytes += black_box(json).len();
            runs += 1;
        }
    }
    println!(
        "{runs} searches: search {:.1} µs, JSON {:.1} µs, answer {} bytes (means)",
        searching.as_secs_f64() * 1e6 / f64::from(runs),
        writing.as_secs_f64() * 1e6 / f64::from(runs),
        bytes / runs as usize
    );
}
