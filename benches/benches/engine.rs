//! Search, pins, area pins and snapshot builds at 10,000 and 1,000,000 locations.

use std::hint::black_box;
use std::time::Duration;

use benches::{input, narrow_filters, origins, sizes, viewport};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use domain::{DistanceSlider, SearchFilters};
use gazetteer::Gazetteer;
use search::{PinFilters, SearchRequest, Snapshot};

fn bench_queries(criterion: &mut Criterion) {
    let gazetteer = Gazetteer::embedded();
    for size in sizes() {
        let snapshot = Snapshot::build(input(size, &gazetteer), None).expect("snapshot builds");
        let origins = origins(&snapshot);
        let rare_name = {
            let clinician = snapshot.clinician(snapshot.clinician_count() / 2);
            format!("{} {}", clinician.first_name, clinician.last_name)
        };
        let cases: Vec<(&str, SearchFilters, u32)> = vec![
            ("empty-text", SearchFilters::default(), 1),
            (
                "common-text",
                SearchFilters {
                    search_by_name: Some("care".into()),
                    ..SearchFilters::default()
                },
                1,
            ),
            (
                "rare-text",
                SearchFilters {
                    search_by_name: Some(rare_name.clone()),
                    ..SearchFilters::default()
                },
                1,
            ),
            ("filters-radius", narrow_filters(), 1),
            (
                "common-text-offset-300",
                SearchFilters {
                    search_by_name: Some("care".into()),
                    ..SearchFilters::default()
                },
                51,
            ),
            (
                "empty-text-offset-300",
                SearchFilters {
                    search_distance: DistanceSlider::new(0).unwrap(),
                    ..SearchFilters::default()
                },
                51,
            ),
        ];
        let mut group = criterion.benchmark_group(format!("search/{size}"));
        group
            .measurement_time(Duration::from_secs(4))
            .warm_up_time(Duration::from_secs(1));
        for (name, filters, page) in cases {
            let requests: Vec<SearchRequest> = origins
                .iter()
                .map(|origin| SearchRequest {
                    filters: filters.clone(),
                    origin: Some(*origin),
                    company_alias: None,
                    page,
                    limit: 6,
                })
                .collect();
            let mut next = 0;
            group.bench_function(BenchmarkId::from_parameter(name), |bencher| {
                bencher.iter(|| {
                    next = (next + 1) % requests.len();
                    black_box(snapshot.search(&requests[next], &gazetteer).expect("search answers"))
                })
            });
        }
        group.finish();

        let mut group = criterion.benchmark_group(format!("text-uncached/{size}"));
        group
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_secs(1));
        for (name, text) in [("common", "care"), ("rare", rare_name.as_str()), ("typo", "familly")] {
            group.bench_function(BenchmarkId::from_parameter(name), |bencher| {
                bencher.iter(|| black_box(snapshot.count_name_matches_uncached(text).expect("text query runs")))
            });
        }
        group.finish();

        let mut group = criterion.benchmark_group(format!("pins/{size}"));
        group
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_secs(1));
        for zoom in [8, 10, 12, 14] {
            let boxes: Vec<_> = origins.iter().map(|origin| viewport(*origin, zoom)).collect();
            let pins_per_query: usize = boxes
                .iter()
                .map(|bounds| {
                    snapshot
                        .pins(*bounds, &PinFilters::default())
                        .map(|answer| answer.pins.len())
                        .unwrap_or(0)
                })
                .sum::<usize>()
                / boxes.len();
            let mut next = 0;
            group.bench_function(
                BenchmarkId::new(format!("zoom-{zoom}"), format!("{pins_per_query}-pins-avg")),
                |bencher| {
                    bencher.iter(|| {
                        next = (next + 1) % boxes.len();
                        black_box(snapshot.pins(boxes[next], &PinFilters::default()).expect("pins answer"))
                    })
                },
            );
        }
        group.finish();

        let mut group = criterion.benchmark_group(format!("area-pins/{size}"));
        group
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_secs(1));
        let accepting = PinFilters {
            filters: SearchFilters {
                new_patients: true,
                ..SearchFilters::default()
            },
            ..PinFilters::default()
        };
        for zoom in [4, 6, 8] {
            let boxes: Vec<_> = origins.iter().map(|origin| viewport(*origin, zoom)).collect();
            let mut next = 0;
            group.bench_function(BenchmarkId::from_parameter(format!("zoom-{zoom}")), |bencher| {
                bencher.iter(|| {
                    next = (next + 1) % boxes.len();
                    black_box(
                        snapshot
                            .area_pins(boxes[next], zoom, &accepting)
                            .expect("area pins answer"),
                    )
                })
            });
        }
        group.finish();
    }
}

fn bench_build(criterion: &mut Criterion) {
    let gazetteer = Gazetteer::embedded();
    let mut group = criterion.benchmark_group("snapshot-build");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for size in sizes().into_iter().filter(|size| *size <= 100_000) {
        let rows = input(size, &gazetteer);
        group.bench_function(BenchmarkId::from_parameter(size), |bencher| {
            bencher.iter(|| black_box(Snapshot::build(rows.clone(), None).expect("snapshot builds")))
        });
    }
    group.finish();
}

criterion_group!(engine, bench_queries, bench_build);
criterion_main!(engine);
