//! Pins and area pins against a brute-force box filter.

use domain::{DistanceSlider, Location, SearchFilters};
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

/// A search's filters as pins get them, sometimes naming an organisation.
fn pin_filters() -> impl Strategy<Value = (PinFilters, SearchFilters)> {
    let organisations = prop::option::of(0usize..10_000);
    (crate::search::filters(), organisations).prop_map(|(mut filters, organisation)| {
        if let Some(position) = organisation {
            let organisations = &fixture().input.organisations;
            filters.selected_group_and_organizations = vec![organisations[position % organisations.len()].name.clone()];
        }
        (
            PinFilters {
                filters: filters.clone(),
                company_alias: None,
            },
            filters,
        )
    })
}

/// A box of about `degrees` around a location.
fn around(location: &Location, degrees: f64) -> Bounds {
    Bounds {
        nw_lng: location.lng - degrees,
        nw_lat: location.lat + degrees,
        se_lng: location.lng + degrees,
        se_lat: location.lat - degrees,
    }
}

fn pin_ids(answer: &search::PinsResponse<'_>) -> Vec<i64> {
    assert!(!answer.over_limit);
    let mut ids: Vec<i64> = answer.pins.iter().map(|pin| pin.location_id).collect();
    ids.sort_unstable();
    ids
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
    fn pins_json_is_the_json_of_the_pins_answer(
        bounds in boxes(), (pin_filters, _) in pin_filters(), favourite_positions in prop::collection::vec(0usize..100_000, 0..40),
    ) {
        let fixture = fixture();
        prop_assert!(fixture.snapshot.make_pin_records(), "written from the records, not the rows");
        let physical: Vec<&Location> = fixture.input.locations.iter().filter(|l| !l.is_virtual).collect();
        let favourites = search::Favourites {
            location_ids: favourite_positions.iter().map(|position| physical[position % physical.len()].id).collect(),
            ..search::Favourites::default()
        };
        for favourites in [None, Some(&favourites)] {
            let answer = fixture.snapshot.pins_for(bounds, &pin_filters, favourites).unwrap();
            let (json, pins) = fixture.snapshot.pins_json_for(bounds, &pin_filters, favourites).unwrap();
            prop_assert_eq!(pins, answer.pins.len());
            prop_assert_eq!(String::from_utf8(json).unwrap(), String::from_utf8(serde_json::to_vec(&answer).unwrap()).unwrap());
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
    let around = around(clinic, 0.5);
    let signed_out = fixture.snapshot.pins(around, &PinFilters::default()).unwrap();
    assert!(!signed_out.over_limit && signed_out.pins.iter().all(|pin| !pin.favorite));
    let favourites = search::Favourites {
        location_ids: [clinic.id].into(),
        ..search::Favourites::default()
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

#[test]
fn pins_under_name_gender_and_organisation_filters_are_what_the_search_lists_in_the_box() {
    let fixture = fixture();
    let brute = Brute::new(fixture);
    let mut checked = 0;
    for clinic in fixture
        .input
        .locations
        .iter()
        .filter(|l| !l.is_virtual)
        .step_by(211)
        .take(12)
    {
        let organisation = fixture
            .input
            .organisations
            .iter()
            .find(|o| o.id == clinic.organisation_id)
            .unwrap();
        let first_word = clinic.name.split_whitespace().next().unwrap().to_owned();
        let bounds = around(clinic, 1.0);
        let narrowed = [
            SearchFilters {
                search_by_name: Some(first_word.clone()),
                ..SearchFilters::default()
            },
            SearchFilters {
                selected_genders: vec!["F".into()],
                ..SearchFilters::default()
            },
            SearchFilters {
                selected_group_and_organizations: vec![organisation.name.clone()],
                ..SearchFilters::default()
            },
            SearchFilters {
                search_by_name: Some(first_word),
                selected_genders: vec!["M".into()],
                selected_credentials: vec!["MD".into()],
                new_patients: true,
                ..SearchFilters::default()
            },
            SearchFilters {
                search_by_name: Some("zzzzqqqq".into()),
                ..SearchFilters::default()
            },
        ];
        let everything = fixture.snapshot.pins(bounds, &PinFilters::default()).unwrap();
        for (position, filters) in narrowed.into_iter().enumerate() {
            // The search's distance limit does not bound pins.
            let filters = SearchFilters {
                search_distance: DistanceSlider::new(1).unwrap(),
                ..filters
            };
            let pin_filters = PinFilters {
                filters: filters.clone(),
                company_alias: None,
            };
            let answer = fixture.snapshot.pins(bounds, &pin_filters).unwrap();
            assert_eq!(pin_ids(&answer), brute.in_box(bounds, &filters), "{filters:?}");
            if position == 0 || position == 2 {
                assert!(
                    pin_ids(&answer).contains(&clinic.id),
                    "the clinic answers its own name and organisation"
                );
            }
            if position == 4 {
                assert!(answer.pins.is_empty() && !answer.over_limit, "no results, no pins");
            }
            let areas = fixture.snapshot.area_pins(bounds, 9, &pin_filters).unwrap();
            assert_eq!(areas.total, answer.pins.len(), "{filters:?}");
            if !everything.over_limit {
                assert!(answer.pins.len() <= everything.pins.len());
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn the_favourites_filter_keeps_only_the_callers_favourite_pins_and_none_signed_out() {
    let fixture = fixture();
    let clinic = fixture.input.locations.iter().find(|l| !l.is_virtual).unwrap();
    let bounds = around(clinic, 0.5);
    let favourites = search::Favourites {
        location_ids: [clinic.id].into(),
        ..search::Favourites::default()
    };
    let only = PinFilters {
        filters: SearchFilters {
            favorites: true,
            ..SearchFilters::default()
        },
        company_alias: None,
    };
    let kept = fixture.snapshot.pins_for(bounds, &only, Some(&favourites)).unwrap();
    assert_eq!(pin_ids(&kept), [clinic.id]);
    assert!(kept.pins[0].favorite);
    let areas = fixture
        .snapshot
        .area_pins_for(bounds, 8, &only, Some(&favourites))
        .unwrap();
    assert_eq!(areas.total, 1);
    assert!(pin_ids(&fixture.snapshot.pins(bounds, &only).unwrap()).is_empty());
    assert_eq!(fixture.snapshot.area_pins(bounds, 8, &only).unwrap().total, 0);
}

/// Names that JSON must escape, and a new-patients flag changed by a patch, are written by
/// `pins_json_for` as serde writes the answer.
#[test]
fn pins_json_escapes_names_and_follows_patched_flags() {
    let mut input = crate::fixture::input();
    let odd = [
        "Dr. \"Joe\" O'Neil",
        "Back\\slash",
        "Tab\there\nand\u{1}control",
        "Café Ñandú 診所 🩺",
        "",
    ];
    let physical: Vec<&Location> = input.locations.iter().filter(|l| !l.is_virtual).collect();
    let neighbours = |clinic: &Location| {
        let bounds = around(clinic, 0.5);
        physical
            .iter()
            .filter(|l| bounds.contains(domain::LatLng { lat: l.lat, lng: l.lng }))
            .count()
    };
    let clinic = (*physical.iter().max_by_key(|clinic| neighbours(clinic)).unwrap()).clone();
    let bounds = around(&clinic, 0.5);
    let mut renamed = 0;
    for location in input
        .locations
        .iter_mut()
        .filter(|l| !l.is_virtual && bounds.contains(domain::LatLng { lat: l.lat, lng: l.lng }))
    {
        location.name = odd[renamed % odd.len()].to_owned();
        location.location_name = odd[(renamed + 2) % odd.len()].to_owned();
        renamed += 1;
    }
    assert!(renamed >= odd.len(), "the box holds every odd name");
    let snapshot = search::Snapshot::build(input, None).unwrap();
    let ordinal = snapshot.location_ordinal(clinic.id).unwrap();
    let mut changed = snapshot.location(ordinal).clone();
    changed.accepting_new_patients = !changed.accepting_new_patients;
    let version = search::CatalogueVersion {
        watermark_micros: 99,
        cursor: "cursor-99".into(),
    };
    let patched = snapshot.with_changes(&[changed], &[], version).unwrap();
    assert!(snapshot.make_pin_records(), "the patched snapshot shares them");
    for snapshot in [&snapshot, &patched] {
        let answer = snapshot.pins(bounds, &PinFilters::default()).unwrap();
        assert!(!answer.over_limit && answer.pins.len() >= renamed);
        let (json, pins) = snapshot.pins_json_for(bounds, &PinFilters::default(), None).unwrap();
        assert_eq!(pins, answer.pins.len());
        assert_eq!(
            String::from_utf8(json).unwrap(),
            String::from_utf8(serde_json::to_vec(&answer).unwrap()).unwrap()
        );
    }
    let flag = |snapshot: &search::Snapshot| {
        let (json, _) = snapshot.pins_json_for(bounds, &PinFilters::default(), None).unwrap();
        let answer: serde_json::Value = serde_json::from_slice(&json).unwrap();
        answer["pins"]
            .as_array()
            .unwrap()
            .iter()
            .find(|pin| pin["locationId"] == clinic.id)
            .unwrap()["newPatients"]
            .as_bool()
            .unwrap()
    };
    assert_eq!(flag(&patched), !flag(&snapshot));
}

/// Ids past 32 bits do not fit the pin records: pins are then written from the rows, with the
/// same bytes.
#[test]
fn pins_json_with_ids_past_32_bits_is_the_json_of_the_pins_answer() {
    let mut input = crate::fixture::input();
    let clinic = input.locations.iter().find(|l| !l.is_virtual).unwrap().clone();
    let bounds = around(&clinic, 0.5);
    let far = input.locations.iter_mut().find(|l| l.id == clinic.id).unwrap();
    far.id = i64::from(u32::MAX) + 7;
    let snapshot = search::Snapshot::build(input, None).unwrap();
    assert!(!snapshot.make_pin_records(), "no records for such ids");
    let answer = snapshot.pins(bounds, &PinFilters::default()).unwrap();
    assert!(answer.pins.iter().any(|pin| pin.location_id == i64::from(u32::MAX) + 7));
    let (json, pins) = snapshot.pins_json_for(bounds, &PinFilters::default(), None).unwrap();
    assert_eq!(pins, answer.pins.len());
    assert_eq!(
        String::from_utf8(json).unwrap(),
        String::from_utf8(serde_json::to_vec(&answer).unwrap()).unwrap()
    );
}

/// The first pins answer of a snapshot is written from the rows while the records are made on
/// their own thread, and the answers written from the records once made are the same bytes.
#[test]
fn the_first_pins_answers_come_from_the_rows_while_the_records_are_made() {
    let input = crate::fixture::input();
    let clinic = input.locations.iter().find(|l| !l.is_virtual).unwrap().clone();
    let bounds = around(&clinic, 0.5);
    let snapshot = search::Snapshot::build(input, None).unwrap();
    let answer = serde_json::to_vec(&snapshot.pins(bounds, &PinFilters::default()).unwrap()).unwrap();
    let (first, _) = snapshot.pins_json_for(bounds, &PinFilters::default(), None).unwrap();
    // Waits for the records' thread if it is still making them.
    assert!(snapshot.make_pin_records());
    let (from_records, _) = snapshot.pins_json_for(bounds, &PinFilters::default(), None).unwrap();
    assert_eq!(
        String::from_utf8(first).unwrap(),
        String::from_utf8(answer.clone()).unwrap()
    );
    assert_eq!(
        String::from_utf8(from_records).unwrap(),
        String::from_utf8(answer).unwrap()
    );
}
