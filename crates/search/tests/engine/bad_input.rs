//! Bad requests get clear client errors, never a panic.

use domain::{LatLng, SearchFilters};
use search::{Bounds, PinFilters, SearchError, SearchRequest};

use crate::fixture::{fixture, gazetteer};

fn search(request: SearchRequest) -> Result<search::SearchResponse<'static>, SearchError> {
    fixture().snapshot.search(&request, gazetteer())
}

fn denver() -> SearchRequest {
    SearchRequest {
        origin: Some(LatLng {
            lat: 39.74,
            lng: -104.99,
        }),
        page: 1,
        limit: 6,
        ..SearchRequest::default()
    }
}

#[test]
fn bad_pages_limits_and_origins_are_client_errors() {
    let cases = [
        SearchRequest { page: 0, ..denver() },
        SearchRequest {
            page: 10_001,
            ..denver()
        },
        SearchRequest { limit: 0, ..denver() },
        SearchRequest { limit: 51, ..denver() },
        SearchRequest {
            origin: None,
            ..denver()
        },
        SearchRequest {
            origin: None,
            filters: SearchFilters {
                zip_code: Some("00000".into()),
                ..SearchFilters::default()
            },
            ..denver()
        },
        SearchRequest {
            origin: None,
            filters: SearchFilters {
                user_zip_code: Some("abcde".into()),
                ..SearchFilters::default()
            },
            ..denver()
        },
        SearchRequest {
            filters: SearchFilters {
                selected_genders: vec!["X".into()],
                ..SearchFilters::default()
            },
            ..denver()
        },
        SearchRequest {
            filters: SearchFilters {
                search_by_name: Some("x".repeat(500)),
                ..SearchFilters::default()
            },
            ..denver()
        },
        SearchRequest {
            filters: SearchFilters {
                selected_credentials: vec!["MD".into(); 51],
                ..SearchFilters::default()
            },
            ..denver()
        },
        SearchRequest {
            company_alias: Some("no-such-alias".into()),
            ..denver()
        },
    ];
    for case in cases {
        let error = search(case.clone()).expect_err(&format!("{case:?} should be refused"));
        assert!(error.is_client_error(), "{error}");
        assert!(!error.to_string().is_empty());
    }
}

#[test]
fn bad_bounds_and_zooms_are_client_errors() {
    let snapshot = &fixture().snapshot;
    let good = Bounds {
        nw_lng: -105.5,
        nw_lat: 40.0,
        se_lng: -104.5,
        se_lat: 39.5,
    };
    let bad = [
        Bounds {
            nw_lat: f64::NAN,
            ..good
        },
        Bounds { nw_lat: 91.0, ..good },
        Bounds { se_lng: -181.0, ..good },
        Bounds {
            nw_lat: 39.0,
            se_lat: 40.0,
            ..good
        },
        Bounds {
            nw_lng: f64::INFINITY,
            ..good
        },
    ];
    for bounds in bad {
        assert!(
            snapshot
                .pins(bounds, &PinFilters::default())
                .unwrap_err()
                .is_client_error()
        );
        assert!(
            snapshot
                .area_pins(bounds, 8, &PinFilters::default())
                .unwrap_err()
                .is_client_error()
        );
    }
    assert!(
        snapshot
            .area_pins(good, 23, &PinFilters::default())
            .unwrap_err()
            .is_client_error()
    );
    assert!(snapshot.area_pins(good, 22, &PinFilters::default()).is_ok());
}

#[test]
fn empty_and_whitespace_queries_mean_no_text_filter() {
    let with_blank = SearchRequest {
        filters: SearchFilters {
            search_by_name: Some("  ".into()),
            ..SearchFilters::default()
        },
        ..denver()
    };
    assert_eq!(
        search(with_blank).unwrap().total_results,
        search(denver()).unwrap().total_results
    );
}
