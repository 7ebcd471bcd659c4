//! Pins and area pins against a brute-force box filter.

use domain::SearchFilters;
use proptest::prelude::*;
use search::{Bounds, PinFilters};

use crate::brute::Brute;
use crate::fixture::fixture;

fn boxes() -> impl Strategy<Value = Bounds> {
    let ordinary =
        (-60.0f64..75.0, 0.05f64..30.0, -180.0f64..180.0, 0.05f64..60.0).prop_map(|(south, height, west, width)| {
            Bounds {
                nw_lng: west,
                nw_lat: (south + height).min(90.0),
                se_lng: if west + width > 180.0 {
                    west + width - 360.0
                } else {
                    west + width
                },
                se_lat: south,
            }
        });
    let antimeridian = (160.0f64..179.95, -179.95f64..-150.0, 40.0f64..60.0).prop_map(|(west, east, south)| Bounds {
        nw_lng: west,
        nw_lat: south + 15.0,
        se_lng: east,
        se_lat: south,
    });
    let edges = prop_oneof![
        Just(Bounds {
            nw_lng: -180.0,
            nw_lat: 90.0,
            se_lng: 180.0,
            se_lat: -90.0
        }),
        Just(Bounds {
            nw_lng: 179.9,
            nw_lat: 51.8,
            se_lng: -179.9,
            se_lat: 51.8
        }),
        Just(Bounds {
            nw_lng: -125.0,
            nw_lat: 49.0,
            se_lng: -66.0,
            se_lat: 24.0
        }),
        Just(Bounds {
            nw_lng: 0.0,
            nw_lat: 0.0,
            se_lng: 0.0,
            se_lat: 0.0
        }),
    ];
    prop_oneof![4 => ordinary, 2 => antimeridian, 1 => edges]
}

fn pin_filters() -> impl Strategy<Value = (PinFilters, SearchFilters)> {
    (any::<bool>(), any::<bool>()).prop_map(|(new_patients, pediatrics)| {
        let service_types: Vec<String> = if pediatrics { vec!["BH".into()] } else { Vec::new() };
        (
            PinFilters {
                new_patients,
                service_types: service_types.clone(),
                ..PinFilters::default()
            },
            SearchFilters {
                new_patients,
                service_types,
                ..SearchFilters::default()
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn pins_equal_a_brute_force_box_filter(bounds in boxes(), (pin_filters, filters) in pin_filters()) {
        let fixture = fixture();
        let expected = Brute::new(fixture).in_box(bounds, &filters);
        let answer = fixture.snapshot.pins(bounds, &pin_filters).unwrap();
        if expected.len() > search::MAX_PINS {
            prop_assert!(answer.over_limit && answer.pins.is_empty());
        } else {
            prop_assert!(!answer.over_limit);
            let mut got: Vec<i64> = answer.pins.iter().map(|pin| pin.location_id).collect();
            got.sort_unstable();
            prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn area_pin_counts_add_up_to_the_pin_count(bounds in boxes(), zoom in 0u32..=16, (pin_filters, filters) in pin_filters()) {
        let fixture = fixture();
        let expected = Brute::new(fixture).in_box(bounds, &filters);
        let answer = fixture.snapshot.area_pins(bounds, zoom, &pin_filters).unwrap();
        let sum: usize = answer.areas.iter().map(|area| area.count).sum();
        prop_assert_eq!(sum, expected.len());
        prop_assert_eq!(answer.total, expected.len());
        prop_assert!(answer.areas.len() as f64 <= search::MAX_AREA_CELLS * 2.0);
        for area in &answer.areas {
            prop_assert!(area.count > 0 && area.new_patients <= area.count);
            let b = &area.bounds;
            prop_assert!(area.coordinates.lat <= b.nw_lat + 1e-9 && area.coordinates.lat >= b.se_lat - 1e-9);
        }
    }
}

#[test]
fn a_crowded_box_says_it_is_over_the_limit() {
    let fixture = fixture();
    let whole_world = Bounds {
        nw_lng: -180.0,
        nw_lat: 90.0,
        se_lng: 180.0,
        se_lat: -90.0,
    };
    let answer = fixture.snapshot.pins(whole_world, &PinFilters::default()).unwrap();
    assert!(answer.over_limit && answer.pins.is_empty() && answer.limit == search::MAX_PINS);
    let areas = fixture
        .snapshot
        .area_pins(whole_world, 3, &PinFilters::default())
        .unwrap();
    assert!(
        areas.areas.len() < 300,
        "a zoomed-out map gets a few hundred clusters, not thousands of pins"
    );
}

#[test]
fn pins_flag_the_callers_favourite_locations_and_nothing_else() {
    let fixture = fixture();
    let clinic = fixture.input.locations.iter().find(|l| !l.is_virtual).unwrap();
    let around = Bounds {
        nw_lng: clinic.lng - 0.5,
        nw_lat: clinic.lat + 0.5,
        se_lng: clinic.lng + 0.5,
        se_lat: clinic.lat - 0.5,
    };
    let signed_out = fixture.snapshot.pins(around, &PinFilters::default()).unwrap();
    assert!(!signed_out.over_limit && signed_out.pins.iter().all(|pin| !pin.favorite));
    let favourites = search::Favourites {
        location_ids: [clinic.id].into(),
        clinician_ids: Default::default(),
    };

    let flagged = fixture
        .snapshot
        .pins_for(around, &PinFilters::default(), Some(&favourites))
        .unwrap();
    assert_eq!(flagged.pins.len(), signed_out.pins.len(), "flags do not filter");
    assert!(flagged.pins.iter().any(|pin| pin.location_id == clinic.id));
    for pin in &flagged.pins {
        assert_eq!(pin.favorite, pin.location_id == clinic.id);
    }
}
