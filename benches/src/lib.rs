//! Shared fixtures for the criterion benches: generated catalogues, snapshots and the places
//! where queries start (where people live, since clinics are placed by population).

use domain::{LatLng, SearchFilters};
use gazetteer::Gazetteer;
use search::{Bounds, Snapshot, SnapshotInput};

/// Sizes benchmarked, from `NEARCARE_BENCH_SIZES` (comma-separated), default 10,000 and
/// 1,000,000 locations.
pub fn sizes() -> Vec<usize> {
    std::env::var("NEARCARE_BENCH_SIZES")
        .ok()
        .map(|text| text.split(',').filter_map(|size| size.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 1_000_000])
}

/// The rows of a generated catalogue with `clinics` locations and 80% as many clinicians.
pub fn input(clinics: usize, gazetteer: &Gazetteer) -> SnapshotInput {
    let catalogue = seed::generate(
        &seed::SeedConfig {
            clinics,
            clinicians: clinics * 4 / 5,
            seed: 1,
        },
        gazetteer,
    );
    SnapshotInput::from(catalogue)
}

/// Query origins: 64 clinic positions spread through the catalogue, nudged a little, so the
/// mix of dense cities and small towns follows the population.
pub fn origins(snapshot: &Snapshot) -> Vec<LatLng> {
    let count = snapshot.location_count();
    (0..64)
        .map(|step| (step * 7_919 + 13) % count)
        .filter(|ordinal| snapshot.is_physical(*ordinal))
        .map(|ordinal| {
            let position = snapshot.position(ordinal);
            LatLng {
                lat: position.lat + 0.01,
                lng: position.lng - 0.01,
            }
        })
        .collect()
}

/// A 1280x800 pixel viewport centred on `centre` at a Web Mercator `zoom`.
pub fn viewport(centre: LatLng, zoom: u32) -> Bounds {
    let degrees_per_pixel = 360.0 / (256.0 * f64::from(1u32 << zoom));
    let half_width = 640.0 * degrees_per_pixel;
    let half_height = 400.0 * degrees_per_pixel * centre.lat.to_radians().cos();
    Bounds {
        nw_lng: (centre.lng - half_width).max(-180.0),
        nw_lat: (centre.lat + half_height).min(85.0),
        se_lng: (centre.lng + half_width).min(180.0),
        se_lat: (centre.lat - half_height).max(-85.0),
    }
}

/// Filters of the "with filters and radius" case: accepting new patients, pediatrics, MD, 15 miles.
pub fn narrow_filters() -> SearchFilters {
    SearchFilters {
        new_patients: true,
        pediatrics: true,
        selected_credentials: vec!["MD".into()],
        search_distance: domain::DistanceSlider::new(2).expect("a valid slider position"),
        ..SearchFilters::default()
    }
}
