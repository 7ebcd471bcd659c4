//! Runs the load test's searches (metro ZIP codes, with and without new patients, page 1 of 6)
//! against a snapshot generation folder in a loop, by the HTTP handler's call (the answer's JSON,
//! whose cards' rows are read only to render them) and by the two steps it replaced (the
//! answer's items, then their JSON), and prints the mean time of each. For profiling without HTTP:
//!
//! `cargo build --release -p benches --example search-loop`, then
//! `perf record -g target/release/examples/search-loop .local/load-1000000/index/gen-000001`.
//!
//! With `COLD=1` each call starts from caches another program has filled (a sweep of
//! `SWEEP_MIB`, default 64, before each, as PostGIS's work leaves them in the peer benchmark),
//! and the origins are `ORIGINS` (default 2,000) ZIP centroids drawn with a fixed seed, or the
//! `lat,lng` lines of `ORIGINS_FILE` (the load test writes its own to `.local/load-SIZE/origins.csv`:
//! clinics' positions, so dense places weigh as they do in traffic); each is searched within 30
//! miles with and without new patients, once per pass; medians are printed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use domain::{LatLng, SearchFilters};
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
    if std::env::var_os("COLD").is_some_and(|value| value == "1") {
        return cold(&snapshot, &gazetteer, seconds);
    }
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
    let (mut handled, mut searching, mut writing, mut runs, mut bytes) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO, 0u32, 0usize);
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        for request in &requests {
            let started = Instant::now();
            let json = snapshot
                .search_json_for(request, &gazetteer, None)
                .expect("the search answers");
            handled += started.elapsed();
            bytes += black_box(json).len();
            let started = Instant::now();
            let answer = snapshot.search(request, &gazetteer).expect("the search answers");
            let searched = Instant::now();
            black_box(snapshot.search_json(&answer));
            writing += searched.elapsed();
            searching += searched - started;
            runs += 1;
        }
    }
    let mean = |total: Duration| total.as_secs_f64() * 1e6 / f64::from(runs);
    println!(
        "{runs} searches: the handler's call (search_json_for) {:.1} µs; the answer's items (search) {:.1} µs \
         then their JSON {:.1} µs; answer {} bytes (means)",
        mean(handled),
        mean(searching),
        mean(writing),
        bytes / runs as usize
    );
}

/// Searches from scattered origins, each after a sweep that evicts the caches.
fn cold(snapshot: &Snapshot, gazetteer: &Gazetteer, seconds: u64) {
    let zips = gazetteer.zips();
    let mut state = 0x2026_1124_u64;
    let origins: Vec<LatLng> = match std::env::var("ORIGINS_FILE") {
        Ok(path) => std::fs::read_to_string(&path)
            .expect("ORIGINS_FILE is readable")
            .lines()
            .filter_map(|line| line.split_once(','))
            .map(|(lat, lng)| LatLng {
                lat: lat.trim().parse().expect("a latitude"),
                lng: lng.trim().parse().expect("a longitude"),
            })
            .collect(),
        Err(_) => {
            let count: usize = std::env::var("ORIGINS").map_or(2000, |text| text.parse().expect("ORIGINS"));
            (0..count)
                .map(|_| {
                    // xorshift: a fixed sequence without a dependency.
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    zips[(state % zips.len() as u64) as usize].position
                })
                .collect()
        }
    };
    let requests: Vec<SearchRequest> = [false, true]
        .into_iter()
        .flat_map(|new_patients| origins.iter().map(move |origin| (new_patients, *origin)))
        .map(|(new_patients, origin)| SearchRequest {
            origin: Some(origin),
            filters: SearchFilters {
                new_patients,
                ..SearchFilters::default()
            },
            page: 1,
            limit: 6,
            ..SearchRequest::default()
        })
        .collect();
    let sweep_mib: usize = std::env::var("SWEEP_MIB").map_or(64, |text| text.parse().expect("SWEEP_MIB"));
    let mut sweep = vec![0u8; sweep_mib << 20];
    let (mut handled, mut searching, mut writing) = (Vec::new(), Vec::new(), Vec::new());
    let mut evict = || {
        for line in sweep.chunks_mut(64) {
            line[0] = line[0].wrapping_add(1);
        }
        black_box(&sweep);
    };
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        for request in &requests {
            evict();
            let started = Instant::now();
            black_box(
                snapshot
                    .search_json_for(request, gazetteer, None)
                    .expect("the search answers"),
            );
            handled.push(started.elapsed());
            evict();
            let started = Instant::now();
            let answer = snapshot.search(request, gazetteer).expect("the search answers");
            let searched = Instant::now();
            black_box(snapshot.search_json(&answer));
            writing.push(searched.elapsed());
            searching.push(searched - started);
        }
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort_unstable();
        times[times.len() / 2].as_secs_f64() * 1e6
    };
    println!(
        "{} cold searches: the handler's call (search_json_for) {:.1} µs; the answer's items (search) {:.1} µs \
         then their JSON {:.1} µs (medians)",
        handled.len(),
        median(&mut handled),
        median(&mut searching),
        median(&mut writing)
    );
}
