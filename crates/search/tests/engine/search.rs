//! Search answers against the brute force.

use std::collections::HashSet;

use domain::{DistanceSlider, LatLng, SearchFilters};
use proptest::prelude::*;
use search::SearchRequest;

use crate::brute::Brute;
use crate::fixture::{fixture, gazetteer};

const TOLERANCE_MILES: f64 = 1e-6;

fn request(origin: LatLng, filters: SearchFilters, page: u32) -> SearchRequest {
    SearchRequest {
        filters,
        origin: Some(origin),
        company_alias: None,
        page,
        limit: 6,
    }
}

fn origin_state(origin: LatLng) -> String {
    gazetteer().nearest_zip(origin).unwrap().state.clone()
}

/// Compares one search with the brute force: totals, and page 1's distances in order.
fn assert_search_agrees(origin: LatLng, filters: SearchFilters, alias: Option<&str>) {
    let fixture = fixture();
    let brute = Brute::new(fixture);
    let (physical, virtual_ids) = brute.search(origin, &filters, alias, &origin_state(origin));
    let mut search_request = request(origin, filters.clone(), 1);
    search_request.company_alias = alias.map(str::to_owned);
    let answer = fixture.snapshot.search(&search_request, gazetteer()).unwrap();
    assert_written_json_matches_serde(answer.clone());
    assert_json_for_agrees(&search_request, None);
    let radius = filters.search_distance.radius_miles();
    let near_edge = physical
        .iter()
        .filter(|(_, d)| (d - radius).abs() < TOLERANCE_MILES)
        .count();
    let expected_total = physical.len() + virtual_ids.len();
    assert!(
        answer.total_results.abs_diff(expected_total) <= near_edge,
        "total {} vs brute {expected_total} for {filters:?}",
        answer.total_results
    );
    assert_eq!(answer.total_pages as usize, answer.total_results.div_ceil(6));
    let expected_page: Vec<f64> = physical.iter().take(6).map(|(_, d)| *d).collect();
    let got_page: Vec<f64> = answer.clinics.iter().filter_map(|item| item.distance).collect();
    assert_eq!(got_page.len(), expected_page.len().min(6), "page size for {filters:?}");
    for (got, expected) in got_page.iter().zip(&expected_page) {
        assert!((got - expected).abs() < TOLERANCE_MILES, "distance {got} vs {expected}");
    }
    for item in answer.clinics.iter().filter(|item| item.distance.is_some()) {
        let location = fixture
            .input
            .locations
            .iter()
            .find(|l| l.id == item.location_id)
            .unwrap();
        assert!(
            brute.matches(location, &filters, alias),
            "{} should not match {filters:?}",
            item.location_id
        );
    }
    if physical.len() < 6 {
        let virtual_on_page: Vec<i64> = answer
            .clinics
            .iter()
            .filter(|item| item.distance.is_none())
            .map(|item| item.location_id)
            .collect();
        assert!(virtual_on_page.iter().all(|id| virtual_ids.contains(id)));
        assert_eq!(virtual_on_page.len(), (6 - physical.len()).min(virtual_ids.len()));
    }
}

/// The handler's path, which reads a card's rows only to render it, writes the same bytes as
/// the answer's own JSON, with its cards rendered, cached, or past the cache's budget.
fn assert_json_for_agrees(request: &SearchRequest, favourites: Option<&search::Favourites>) {
    let snapshot = &fixture().snapshot;
    let expected = snapshot.search_json(&snapshot.search_for(request, gazetteer(), favourites).unwrap());
    let expected = String::from_utf8(expected).unwrap();
    let uncached = snapshot.with_card_budget(0);
    for written in [
        uncached.search_json_for(request, gazetteer(), favourites).unwrap(),
        snapshot.search_json_for(request, gazetteer(), favourites).unwrap(),
        snapshot
            .with_card_budget(1 << 20)
            .search_json_for(request, gazetteer(), favourites)
            .unwrap(),
    ] {
        assert_eq!(String::from_utf8(written).unwrap(), expected);
    }
}

/// The answer written from cached cards reads back as serde's rendering of it, on first use
/// of the cards and from the cache, with favourite and waitlist flags as the items carry them
/// (every pair of the two).
fn assert_written_json_matches_serde(mut answer: search::SearchResponse<'_>) {
    let snapshot = &fixture().snapshot;
    for round in 0..4 {
        for (position, item) in answer
            .clinics
            .iter_mut()
            .chain(answer.clinicians.iter_mut())
            .enumerate()
        {
            item.favorite = (position + round) % 2 == 0;
            item.waitlisted = (position + round / 2) % 2 == 0;
        }
        let written: serde_json::Value = serde_json::from_slice(&snapshot.search_json(&answer)).unwrap();
        assert_eq!(written, serde_json::to_value(&answer).unwrap());
        // Every card carries both flags, signed in or out.
        for card in written["clinics"]
            .as_array()
            .unwrap()
            .iter()
            .chain(written["clinicians"].as_array().unwrap())
        {
            assert!(
                card["favorite"].is_boolean() && card["waitlisted"].is_boolean(),
                "{card}"
            );
        }
    }
}

/// Past its budget the card cache keeps nothing more, and answers are written the same.
#[test]
fn answers_past_the_card_budget_are_written_the_same() {
    let budget = 4_000;
    let snapshot = fixture().snapshot.with_card_budget(budget);
    let origin = fixture().input.locations[0].clone();
    let request = SearchRequest {
        origin: Some(LatLng {
            lat: origin.lat,
            lng: origin.lng,
        }),
        page: 1,
        limit: 6,
        ..SearchRequest::default()
    };
    let answer = snapshot.search(&request, gazetteer()).unwrap();
    assert!(
        answer.clinics.len() + answer.clinicians.len() > 10,
        "the page needs more cards than fit"
    );
    for _ in 0..2 {
        let written: serde_json::Value = serde_json::from_slice(&snapshot.search_json(&answer)).unwrap();
        assert_eq!(written, serde_json::to_value(&answer).unwrap());
        let kept = snapshot.cached_card_bytes();
        assert!(
            kept > 0 && kept <= budget,
            "kept {kept} bytes of a {budget}-byte budget"
        );
    }
}

fn origins() -> impl Strategy<Value = LatLng> {
    let anchored = (0usize..3_000, -0.3f64..0.3, -0.3f64..0.3).prop_map(|(position, dlat, dlng)| {
        let location = &fixture().input.locations[position];
        LatLng {
            lat: (location.lat + dlat).clamp(-89.0, 89.0),
            lng: (location.lng + dlng).clamp(-179.9, 179.9),
        }
    });
    let anywhere = (24.0f64..49.0, -125.0f64..-67.0).prop_map(|(lat, lng)| LatLng { lat, lng });
    prop_oneof![3 => anchored, 1 => anywhere]
}

fn name_queries() -> impl Strategy<Value = Option<String>> {
    let from_data = (0usize..3_000, 0usize..4, any::<bool>(), 1usize..6).prop_map(|(position, word, typo, prefix)| {
        let fixture = fixture();
        let brute = Brute::new(fixture);
        let text = brute.searchable_text(&fixture.input.locations[position]);
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut chosen = words[word % words.len()].to_lowercase();
        if typo && chosen.len() > 5 {
            chosen.remove(1);
        }
        let cut: String = chosen
            .chars()
            .take(chosen.chars().count().saturating_sub(prefix % 3))
            .collect();
        Some(cut)
    });
    prop_oneof![2 => Just(None), 2 => from_data, 1 => Just(Some("family medicine".to_owned()))]
}

/// Search filters of every kind but the organisations and favourites (pins use them too).
pub fn filters() -> impl Strategy<Value = SearchFilters> {
    let credentials = prop::sample::subsequence(vec!["MD", "DO", "NP", "PA"], 0..=2);
    let specialities = prop::sample::subsequence(vec!["Family Medicine", "Internal Medicine", "Pediatrics"], 0..=1);
    let genders = prop::sample::subsequence(vec!["F", "M"], 0..=1);
    (
        any::<bool>(),
        any::<bool>(),
        credentials,
        specialities,
        genders,
        0i64..=9,
        name_queries(),
        prop::option::of(0usize..8),
    )
        .prop_map(
            |(new_patients, pediatrics, credentials, specialities, genders, slider, name, employer)| SearchFilters {
                search_by_name: name,
                new_patients,
                pediatrics,
                selected_credentials: credentials.into_iter().map(str::to_owned).collect(),
                selected_specialities: specialities.into_iter().map(str::to_owned).collect(),
                selected_genders: genders.into_iter().map(str::to_owned).collect(),
                search_distance: DistanceSlider::new(slider).unwrap(),
                employer: employer.map(|position| {
                    fixture().input.employers[position % fixture().input.employers.len()]
                        .company_name
                        .clone()
                }),
                ..SearchFilters::default()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn search_page_one_equals_a_brute_force_scan(origin in origins(), filters in filters()) {
        assert_search_agrees(origin, filters, None);
    }
}

#[test]
fn paging_visits_every_match_exactly_once() {
    let fixture = fixture();
    for position in [0, 10, 500] {
        let location = &fixture.input.locations[position];
        let origin = LatLng {
            lat: location.lat,
            lng: location.lng,
        };
        let filters = SearchFilters {
            search_distance: DistanceSlider::new(0).unwrap(),
            ..SearchFilters::default()
        };
        let first = fixture
            .snapshot
            .search(&request(origin, filters.clone(), 1), gazetteer())
            .unwrap();
        assert!(
            first.total_pages >= 2,
            "the fixture should give several pages near {}",
            location.city
        );
        let mut seen = HashSet::new();
        let mut last_distance = 0.0;
        for page in 1..=first.total_pages {
            let answer = fixture
                .snapshot
                .search(&request(origin, filters.clone(), page), gazetteer())
                .unwrap();
            assert_eq!(answer.current_page, page);
            for item in &answer.clinics {
                assert!(
                    seen.insert(item.location_id),
                    "location {} seen twice",
                    item.location_id
                );
                if let Some(distance) = item.distance {
                    assert!(distance + 1e-9 >= last_distance, "pages are ordered by distance");
                    last_distance = distance;
                }
            }
        }
        assert_eq!(seen.len(), first.total_results);
        let past_the_end = fixture
            .snapshot
            .search(&request(origin, filters, first.total_pages + 1), gazetteer())
            .unwrap();
        assert!(past_the_end.clinics.is_empty());
        assert_eq!(past_the_end.total_results, first.total_results);
    }
}

#[test]
fn every_filter_narrows_as_specified() {
    let fixture = fixture();
    let location = &fixture.input.locations[1];
    let origin = LatLng {
        lat: location.lat,
        lng: location.lng,
    };
    let base = SearchFilters {
        search_distance: DistanceSlider::new(0).unwrap(),
        ..SearchFilters::default()
    };
    let all = fixture
        .snapshot
        .search(&request(origin, base.clone(), 1), gazetteer())
        .unwrap()
        .total_results;
    let narrowed = [
        SearchFilters {
            new_patients: true,
            ..base.clone()
        },
        SearchFilters {
            pediatrics: true,
            ..base.clone()
        },
        SearchFilters {
            selected_credentials: vec!["DO".into()],
            ..base.clone()
        },
        SearchFilters {
            selected_specialities: vec!["Pediatrics".into()],
            ..base.clone()
        },
        SearchFilters {
            selected_genders: vec!["M".into()],
            ..base.clone()
        },
        SearchFilters {
            search_by_name: Some("family".into()),
            ..base.clone()
        },
        SearchFilters {
            search_distance: DistanceSlider::new(1).unwrap(),
            ..base.clone()
        },
        SearchFilters {
            service_types: vec!["MH".into()],
            ..base.clone()
        },
        SearchFilters {
            selected_group_and_organizations: vec![fixture.snapshot.organisation_of(0).name.clone()],
            ..base.clone()
        },
    ];
    for filters in narrowed {
        let answer = fixture
            .snapshot
            .search(&request(origin, filters.clone(), 1), gazetteer())
            .unwrap();
        assert!(
            answer.total_results < all,
            "{filters:?} should narrow {all} results, got {}",
            answer.total_results
        );
        assert_search_agrees(origin, filters, None);
    }
    let unknown_service = SearchFilters {
        service_types: vec!["ZZ".into()],
        ..base
    };
    assert_eq!(
        fixture
            .snapshot
            .search(&request(origin, unknown_service, 1), gazetteer())
            .unwrap()
            .total_results,
        0
    );
}

#[test]
fn an_employer_network_and_a_company_alias_restrict_results() {
    let fixture = fixture();
    let restricted = fixture
        .input
        .employers
        .iter()
        .find(|e| !e.network_organisation_ids.is_empty() && e.alias.is_some())
        .unwrap();
    let first_in_network = fixture
        .input
        .locations
        .iter()
        .find(|l| restricted.network_organisation_ids.contains(&l.organisation_id))
        .unwrap();
    let origin = LatLng {
        lat: first_in_network.lat,
        lng: first_in_network.lng,
    };
    let filters = SearchFilters {
        search_distance: DistanceSlider::new(0).unwrap(),
        ..SearchFilters::default()
    };
    assert_search_agrees(origin, filters.clone(), restricted.alias.as_deref());
    let by_name = SearchFilters {
        employer: Some(restricted.company_name.to_uppercase()),
        ..filters.clone()
    };
    assert_search_agrees(origin, by_name.clone(), None);
    let answer = fixture
        .snapshot
        .search(&request(origin, by_name, 1), gazetteer())
        .unwrap();
    assert!(answer.clinics.iter().all(|item| {
        let location = fixture
            .input
            .locations
            .iter()
            .find(|l| l.id == item.location_id)
            .unwrap();
        restricted.network_organisation_ids.contains(&location.organisation_id)
    }));
    let prefix: String = restricted.company_name.chars().take(4).collect();
    assert!(fixture.snapshot.employer_by_name(&prefix.to_lowercase()).is_some());
    assert!(fixture.snapshot.employer_by_name("No Such Employer Inc").is_none());
}

#[test]
fn the_origin_falls_back_from_coordinates_to_user_zip_to_zip() {
    let fixture = fixture();
    let filters = SearchFilters {
        user_zip_code: Some("80202".into()),
        zip_code: Some("10001".into()),
        ..SearchFilters::default()
    };
    let by_user_zip = SearchRequest {
        filters: filters.clone(),
        origin: None,
        company_alias: None,
        page: 1,
        limit: 6,
    };
    let answer = fixture.snapshot.search(&by_user_zip, gazetteer()).unwrap();
    assert!((answer.origin.lat - 39.75).abs() < 0.1, "userZipCode wins over zipCode");
    let by_zip = SearchRequest {
        filters: SearchFilters {
            user_zip_code: None,
            ..filters.clone()
        },
        ..by_user_zip.clone()
    };
    assert!((fixture.snapshot.search(&by_zip, gazetteer()).unwrap().origin.lat - 40.75).abs() < 0.1);
    let by_point = SearchRequest {
        origin: Some(LatLng { lat: 30.0, lng: -97.0 }),
        ..by_user_zip
    };
    assert_eq!(
        fixture.snapshot.search(&by_point, gazetteer()).unwrap().origin.lat,
        30.0
    );
}

#[test]
fn clinicians_are_bounded_nearest_first_and_honour_clinician_filters() {
    let fixture = fixture();
    let location = &fixture.input.locations[0];
    let origin = LatLng {
        lat: location.lat,
        lng: location.lng,
    };
    let filters = SearchFilters {
        search_distance: DistanceSlider::new(0).unwrap(),
        selected_genders: vec!["F".into()],
        ..SearchFilters::default()
    };
    let answer = fixture
        .snapshot
        .search(&request(origin, filters, 1), gazetteer())
        .unwrap();
    assert!(!answer.clinicians.is_empty() && answer.clinicians.len() <= search::MAX_CLINICIANS);
    assert!(
        answer
            .clinicians
            .iter()
            .all(|item| item.gender == Some("F") && item.entity == "provider")
    );
    let distances: Vec<f64> = answer.clinicians.iter().filter_map(|item| item.distance).collect();
    assert!(distances.windows(2).all(|pair| pair[0] <= pair[1] + 1e-9));
    let unique: HashSet<i64> = answer.clinicians.iter().map(|item| item.id).collect();
    assert_eq!(unique.len(), answer.clinicians.len());
}

#[test]
fn virtual_locations_follow_physical_ones_for_the_states_they_serve() {
    let fixture = fixture();
    let virtual_location = fixture
        .input
        .locations
        .iter()
        .find(|l| l.is_virtual)
        .expect("the generator makes virtual locations");
    let state = &virtual_location.virtual_states[0];
    let zip = gazetteer().zips().iter().find(|z| &z.state == state).unwrap();
    let filters = SearchFilters {
        search_distance: DistanceSlider::new(1).unwrap(),
        ..SearchFilters::default()
    };
    let first = fixture
        .snapshot
        .search(&request(zip.position, filters.clone(), 1), gazetteer())
        .unwrap();
    let last = fixture
        .snapshot
        .search(&request(zip.position, filters, first.total_pages), gazetteer())
        .unwrap();
    let virtual_items: Vec<_> = last.clinics.iter().filter(|item| item.is_virtual_location).collect();
    assert!(
        !virtual_items.is_empty(),
        "the last page ends with virtual locations serving {state}"
    );
    assert!(
        virtual_items
            .iter()
            .all(|item| item.distance.is_none() && !item.care_modality.at_clinic && item.care_modality.in_home)
    );
    let first_virtual = last.clinics.iter().position(|item| item.is_virtual_location).unwrap();
    assert!(
        last.clinics[first_virtual..]
            .iter()
            .all(|item| item.is_virtual_location)
    );
}

#[test]
fn favourites_flag_cards_and_the_favourites_filter_keeps_only_them() {
    let fixture = fixture();
    let snapshot = &fixture.snapshot;
    let busiest = fixture.input.locations.iter().find(|l| !l.is_virtual).unwrap();
    let origin = LatLng {
        lat: busiest.lat,
        lng: busiest.lng,
    };
    let plain = snapshot
        .search(&request(origin, SearchFilters::default(), 1), gazetteer())
        .unwrap();
    assert!(
        plain.clinics.len() >= 3 && plain.clinicians.len() >= 2,
        "a busy enough origin"
    );
    assert!(plain.clinics.iter().chain(&plain.clinicians).all(|item| !item.favorite));
    let favourites = search::Favourites {
        location_ids: [plain.clinics[0].location_id, plain.clinics[2].location_id].into(),
        clinician_ids: [plain.clinicians[1].id].into(),
        ..search::Favourites::default()
    };

    let flagged = snapshot
        .search_for(
            &request(origin, SearchFilters::default(), 1),
            gazetteer(),
            Some(&favourites),
        )
        .unwrap();
    assert_eq!(flagged.total_results, plain.total_results, "flags do not filter");
    let flags: Vec<bool> = flagged.clinics.iter().map(|item| item.favorite).collect();
    assert_eq!(&flags[..3], [true, false, true]);
    for clinician in &flagged.clinicians {
        assert_eq!(clinician.favorite, clinician.id == plain.clinicians[1].id);
    }

    let only = SearchFilters {
        favorites: true,
        ..SearchFilters::default()
    };
    let kept = snapshot
        .search_for(&request(origin, only.clone(), 1), gazetteer(), Some(&favourites))
        .unwrap();
    let kept_ids: Vec<i64> = kept.clinics.iter().map(|item| item.location_id).collect();
    assert_eq!(kept_ids, [plain.clinics[0].location_id, plain.clinics[2].location_id]);
    assert_eq!(kept.total_results, 2);
    assert!(kept.clinics.iter().all(|item| item.favorite));
    assert!(!kept.clinicians.is_empty());
    assert!(
        kept.clinicians
            .iter()
            .all(|item| item.id == plain.clinicians[1].id && item.favorite)
    );
    assert_written_json_matches_serde(kept.clone());
    assert_json_for_agrees(&request(origin, only.clone(), 1), Some(&favourites));
    assert_json_for_agrees(&request(origin, SearchFilters::default(), 1), Some(&favourites));

    let signed_out = snapshot.search(&request(origin, only, 1), gazetteer()).unwrap();
    assert_eq!(signed_out.total_results, 0, "signed out, there are no favourites");
    assert!(signed_out.clinics.is_empty() && signed_out.clinicians.is_empty());
}

#[test]
fn the_new_patients_filter_lists_only_clinicians_accepting_at_clinics_accepting() {
    let fixture = fixture();
    let snapshot = &fixture.snapshot;
    let accepting_clinician: std::collections::HashMap<i64, bool> = fixture
        .input
        .clinicians
        .iter()
        .map(|clinician| (clinician.id, clinician.accepting_new_patients))
        .collect();
    let mut refused_unfiltered = 0;
    for location in fixture
        .input
        .locations
        .iter()
        .filter(|l| !l.is_virtual)
        .step_by(97)
        .take(30)
    {
        let origin = LatLng {
            lat: location.lat,
            lng: location.lng,
        };
        let everyone = SearchFilters {
            search_distance: DistanceSlider::new(0).unwrap(),
            ..SearchFilters::default()
        };
        let unfiltered = snapshot
            .search(&request(origin, everyone.clone(), 1), gazetteer())
            .unwrap();
        refused_unfiltered += unfiltered.clinicians.iter().filter(|item| !item.new_patients).count();
        let only_new = SearchFilters {
            new_patients: true,
            ..everyone
        };
        let answer = snapshot.search(&request(origin, only_new, 1), gazetteer()).unwrap();
        for item in &answer.clinicians {
            assert!(
                accepting_clinician[&item.id],
                "clinician {} does not accept new patients",
                item.id
            );
            assert!(
                item.new_patients,
                "clinician {} is listed at a clinic not accepting",
                item.id
            );
        }
        // Nobody accepting is lost: a short list holds every one the unfiltered list showed.
        if answer.clinicians.len() < search::MAX_CLINICIANS {
            let listed: HashSet<i64> = answer.clinicians.iter().map(|item| item.id).collect();
            for item in unfiltered.clinicians.iter().filter(|item| item.new_patients) {
                assert!(
                    listed.contains(&item.id),
                    "clinician {} accepts and is left out",
                    item.id
                );
            }
        }
    }
    assert!(
        refused_unfiltered > 0,
        "the fixture lists clinicians not accepting new patients"
    );
}

#[test]
fn waitlisted_flags_the_cards_of_the_callers_waitlisted_clinics_without_filtering() {
    let fixture = fixture();
    let snapshot = &fixture.snapshot;
    let clinic = fixture.input.locations.iter().find(|l| !l.is_virtual).unwrap();
    let origin = LatLng {
        lat: clinic.lat,
        lng: clinic.lng,
    };
    let plain = snapshot
        .search(&request(origin, SearchFilters::default(), 1), gazetteer())
        .unwrap();
    assert!(
        plain
            .clinics
            .iter()
            .chain(&plain.clinicians)
            .all(|item| !item.waitlisted)
    );
    let waiting = plain.clinics[1].location_id;
    let marks = search::Favourites {
        waitlisted_location_ids: [waiting].into(),
        ..search::Favourites::default()
    };
    let flagged = snapshot
        .search_for(&request(origin, SearchFilters::default(), 1), gazetteer(), Some(&marks))
        .unwrap();
    assert_eq!(flagged.total_results, plain.total_results, "flags do not filter");
    for item in flagged.clinics.iter().chain(&flagged.clinicians) {
        assert_eq!(item.waitlisted, item.location_id == waiting, "{}", item.location_id);
        assert!(!item.favorite);
    }
    assert!(flagged.clinics[1].waitlisted);
    assert_json_for_agrees(&request(origin, SearchFilters::default(), 1), Some(&marks));
    let written: serde_json::Value = serde_json::from_slice(&snapshot.search_json(&flagged)).unwrap();
    assert_eq!(written["clinics"][1]["waitlisted"], true);
    assert_eq!(written["clinics"][0]["waitlisted"], false);
}
