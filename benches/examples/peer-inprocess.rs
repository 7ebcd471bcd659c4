//! The peer benchmark's queries in-process: reads the queries `scripts/bench-peer.py` sent
//! through HTTP (one JSON object a line: `{"kind": "search", "lat", "lng", "filters", "page",
//! "limit"}`, `{"kind": "pins", "bounds"}` or `{"kind": "areaPins", "bounds", "zoom"}`), runs
//! each on a snapshot generation folder the way the HTTP handler does (the engine's call, then
//! the answer's JSON) and writes one line per query: the median of `REPEATS` timings in
//! seconds and the answer's JSON, which the script compares with PostGIS's as it does the HTTP
//! answers.
//!
//! `peer-inprocess GENERATION_FOLDER QUERIES_FILE [REPEATS]`

use std::io::{BufRead, BufWriter, Write};
use std::time::Instant;

use domain::{LatLng, SearchFilters};
use gazetteer::Gazetteer;
use search::{Bounds, PinFilters, SearchRequest, Snapshot};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
enum Query {
    Search {
        lat: f64,
        lng: f64,
        filters: Box<SearchFilters>,
        page: u32,
        limit: u32,
    },
    Pins {
        bounds: BoundsJson,
    },
    #[serde(rename_all = "camelCase")]
    AreaPins {
        bounds: BoundsJson,
        zoom: u32,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BoundsJson {
    nw_lng: f64,
    nw_lat: f64,
    se_lng: f64,
    se_lat: f64,
}

impl From<&BoundsJson> for Bounds {
    fn from(bounds: &BoundsJson) -> Self {
        Bounds {
            nw_lng: bounds.nw_lng,
            nw_lat: bounds.nw_lat,
            se_lng: bounds.se_lng,
            se_lat: bounds.se_lat,
        }
    }
}

/// Runs a query once: its answer's JSON, as the HTTP handler writes it.
fn answer(snapshot: &Snapshot, gazetteer: &Gazetteer, query: &Query) -> Vec<u8> {
    let no_filters = PinFilters::default();
    match query {
        Query::Search {
            lat,
            lng,
            filters,
            page,
            limit,
        } => {
            let request = SearchRequest {
                filters: (**filters).clone(),
                origin: Some(LatLng::new(*lat, *lng).expect("an origin on the globe")),
                page: *page,
                limit: *limit,
                ..SearchRequest::default()
            };
            snapshot
                .search_json_for(&request, gazetteer, None)
                .expect("the search answers")
        }
        Query::Pins { bounds } => {
            let found = snapshot.pins(bounds.into(), &no_filters).expect("the pins answer");
            serde_json::to_vec(&found).expect("pins are JSON")
        }
        Query::AreaPins { bounds, zoom } => {
            let found = snapshot
                .area_pins(bounds.into(), *zoom, &no_filters)
                .expect("the area pins answer");
            serde_json::to_vec(&found).expect("area pins are JSON")
        }
    }
}

/// The server's allocator (crates/api/src/main.rs), so allocations cost what they cost there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut arguments = std::env::args().skip(1);
    let usage = "usage: peer-inprocess GENERATION_FOLDER QUERIES_FILE [REPEATS]";
    let folder = arguments.next().expect(usage);
    let queries = arguments.next().expect(usage);
    let repeats: usize = arguments.next().map_or(5, |text| text.parse().expect(usage));
    let gazetteer = Gazetteer::embedded();
    let snapshot = Snapshot::open(std::path::Path::new(&folder), 1).expect("the folder holds a snapshot");
    let file = std::fs::File::open(&queries).expect("the queries file opens");
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in std::io::BufReader::new(file).lines() {
        let line = line.expect("the queries file reads");
        let query: Query = serde_json::from_str(&line).unwrap_or_else(|error| panic!("{error}: {line}"));
        let mut timings = Vec::with_capacity(repeats);
        let mut json = Vec::new();
        for _ in 0..repeats.max(1) {
            let started = Instant::now();
            json = std::hint::black_box(answer(&snapshot, &gazetteer, &query));
            timings.push(started.elapsed().as_secs_f64());
        }
        timings.sort_by(f64::total_cmp);
        let median = timings[timings.len() / 2];
        writeln!(
            out,
            "{{\"seconds\":{median},\"answer\":{}}}",
            String::from_utf8(json).expect("JSON is UTF-8")
        )
        .expect("stdout takes the line");
    }
}
