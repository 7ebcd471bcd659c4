//! Listing edits patched into a snapshot (docs/listings-contract.md): languages, accessibility
//! and clinicians moved to other locations answer exactly as a snapshot rebuilt from the same
//! rows does, in searches (with the language, accessibility, name and clinician filters), pins,
//! area pins and the cards' JSON.

use domain::listing::{Accessibility, AccessibilitySet, Language, LanguageSet};
use domain::{DistanceSlider, LatLng, SearchFilters};
use search::{Bounds, CatalogueVersion, PinFilters, SearchRequest, Snapshot, SnapshotInput};

use crate::fixture::{fixture, gazetteer, input};

/// A deterministic pseudo-random sequence (the test's edits).
struct Picks(u64);

impl Picks {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % below as u64) as usize
    }
}

fn language(code: &str) -> Language {
    Language::parse(code).unwrap()
}

/// Edits of the input's rows: some locations' languages and accessibility, some clinicians'
/// languages and where they work (another location of the same organisation). Returns the
/// edited rows (locations, clinicians) and the whole edited input.
fn edited(
    input: &SnapshotInput,
    picks: &mut Picks,
    edits: usize,
) -> (Vec<domain::Location>, Vec<domain::Clinician>, SnapshotInput) {
    let mut after = input.clone();
    let mut locations = Vec::new();
    let mut clinicians = Vec::new();
    let rare = [language("eo"), language("is"), language("mi")];
    for _ in 0..edits {
        let position = picks.next(after.locations.len());
        let location = &mut after.locations[position];
        location.languages = LanguageSet::new([language("en"), rare[picks.next(rare.len())]]);
        location.accessibility = AccessibilitySet::new(Accessibility::ALL.into_iter().filter(|_| picks.next(2) == 0));
        locations.push(location.clone());
    }
    for _ in 0..edits {
        let position = picks.next(after.clinicians.len());
        let Some(first) = after.clinicians[position].location_ids.first().copied() else {
            continue;
        };
        let organisation = after.locations.iter().find(|l| l.id == first).unwrap().organisation_id;
        let siblings: Vec<i64> = after
            .locations
            .iter()
            .filter(|l| l.organisation_id == organisation)
            .map(|l| l.id)
            .collect();
        let clinician = &mut after.clinicians[position];
        let mut ids = vec![siblings[picks.next(siblings.len())]];
        if picks.next(2) == 0 {
            let another = siblings[picks.next(siblings.len())];
            if !ids.contains(&another) {
                ids.push(another);
            }
        }
        ids.sort_unstable();
        clinician.location_ids = ids;
        clinician.languages = LanguageSet::new([language("en"), rare[picks.next(rare.len())]]);
        clinicians.push(clinician.clone());
    }
    (locations, clinicians, after)
}

fn request(origin: LatLng, filters: SearchFilters) -> SearchRequest {
    SearchRequest {
        filters: SearchFilters {
            search_distance: DistanceSlider::new(0).unwrap(),
            ..filters
        },
        origin: Some(origin),
        company_alias: None,
        page: 1,
        limit: 6,
    }
}

/// The questions asked of both snapshots around one origin.
fn questions(snapshot: &Snapshot, ordinal: usize, clinician_name: &str) -> Vec<SearchFilters> {
    let location = snapshot.location(ordinal);
    let mut asked = vec![
        SearchFilters::default(),
        SearchFilters {
            selected_languages: vec!["eo".into()],
            ..SearchFilters::default()
        },
        SearchFilters {
            selected_languages: vec!["is".into(), "mi".into()],
            new_patients: true,
            ..SearchFilters::default()
        },
        SearchFilters {
            selected_accessibility: vec!["pubtrans".into(), "cognitive".into()],
            ..SearchFilters::default()
        },
        SearchFilters {
            selected_credentials: vec!["MD".into()],
            ..SearchFilters::default()
        },
        SearchFilters {
            selected_credentials: vec!["NP".into()],
            selected_genders: vec!["F".into()],
            ..SearchFilters::default()
        },
        SearchFilters {
            search_by_name: Some(clinician_name.to_owned()),
            ..SearchFilters::default()
        },
    ];
    asked.push(SearchFilters {
        search_by_name: Some(location.name.split_whitespace().next().unwrap_or("care").to_owned()),
        selected_languages: vec!["en".into()],
        ..SearchFilters::default()
    });
    asked
}

fn answers(snapshot: &Snapshot, origin: LatLng, filters: &SearchFilters) -> (serde_json::Value, Vec<u8>) {
    let request = request(origin, filters.clone());
    let answer = snapshot.search(&request, gazetteer()).unwrap();
    let as_serde = serde_json::to_value(&answer).unwrap();
    let written = snapshot.search_json_for(&request, gazetteer(), None).unwrap();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&written).unwrap(),
        as_serde,
        "the handler's JSON is serde's rendering"
    );
    (as_serde, written)
}

fn pin_answers(snapshot: &Snapshot, origin: LatLng, filters: &SearchFilters) -> (serde_json::Value, serde_json::Value) {
    let bounds = Bounds {
        nw_lng: origin.lng - 0.6,
        nw_lat: (origin.lat + 0.4).min(85.0),
        se_lng: origin.lng + 0.6,
        se_lat: (origin.lat - 0.4).max(-85.0),
    };
    let filters = PinFilters {
        filters: filters.clone(),
        company_alias: None,
    };
    (
        serde_json::to_value(snapshot.pins(bounds, &filters).unwrap()).unwrap(),
        serde_json::to_value(snapshot.area_pins(bounds, 9, &filters).unwrap()).unwrap(),
    )
}

#[test]
fn listing_edits_patched_in_answer_as_a_rebuilt_snapshot_does() {
    let original = &fixture().snapshot;
    let base = input();
    let mut picks = Picks(23);
    // Two patches in a row: the second builds on the first's overlay.
    let (locations, clinicians, first_rows) = edited(&base, &mut picks, 40);
    let first = original
        .with_changes(&locations, &clinicians, CatalogueVersion::default())
        .unwrap();
    let (locations, clinicians, second_rows) = edited(&first_rows, &mut picks, 40);
    let patched = first
        .with_changes(&locations, &clinicians, CatalogueVersion::default())
        .unwrap();
    let rebuilt = Snapshot::build(second_rows.clone(), None).unwrap();

    let moved: Vec<&domain::Clinician> = second_rows
        .clinicians
        .iter()
        .filter(|clinician| {
            base.clinicians
                .iter()
                .find(|before| before.id == clinician.id)
                .is_some_and(|before| before.location_ids != clinician.location_ids)
        })
        .collect();
    assert!(moved.len() > 10, "the edits moved clinicians: {}", moved.len());
    let mut compared = 0;
    for clinician in moved.iter().take(25) {
        let location_id = clinician.location_ids[0];
        let ordinal = rebuilt.location_ordinal(location_id).unwrap();
        let at = rebuilt.location(ordinal);
        let origin = LatLng {
            lat: at.lat,
            lng: at.lng,
        };
        for filters in questions(&rebuilt, ordinal, &clinician.display_name()) {
            let (expected, _) = answers(&rebuilt, origin, &filters);
            let (got, _) = answers(&patched, origin, &filters);
            assert_eq!(got, expected, "{filters:?} near location {location_id}");
            if filters.search_by_name.is_none() {
                assert_eq!(
                    pin_answers(&patched, origin, &filters),
                    pin_answers(&rebuilt, origin, &filters),
                    "pins for {filters:?}"
                );
            }
            compared += 1;
        }
        // Profiles read the same relations.
        let patched_ordinal = patched.location_ordinal(location_id).unwrap();
        let people = |snapshot: &Snapshot, ordinal: usize| -> Vec<i64> {
            snapshot
                .clinicians_at(ordinal)
                .iter()
                .map(|c| snapshot.clinician(*c as usize).id)
                .collect()
        };
        assert_eq!(people(&patched, patched_ordinal), people(&rebuilt, ordinal));
        assert_eq!(
            patched.location_credentials(patched_ordinal),
            rebuilt.location_credentials(ordinal)
        );
        assert_eq!(
            patched.location_speciality(patched_ordinal),
            rebuilt.location_speciality(ordinal)
        );
        let works = |snapshot: &Snapshot| -> Vec<i64> {
            let ordinal = snapshot.clinician_ordinal(clinician.id).unwrap();
            snapshot
                .locations_of(ordinal)
                .iter()
                .map(|l| snapshot.location(*l as usize).id)
                .collect()
        };
        assert_eq!(works(&patched), works(&rebuilt));
        assert_eq!(works(&patched), clinician.location_ids);
    }
    assert!(compared > 100);
    assert_eq!(
        patched.language_list(None).unwrap(),
        rebuilt.language_list(None).unwrap()
    );
    assert_eq!(
        patched.credential_list(None).unwrap(),
        rebuilt.credential_list(None).unwrap()
    );
}

#[test]
fn the_language_filter_keeps_clinics_where_someone_speaks_it_and_the_clinicians_who_do() {
    let snapshot = &fixture().snapshot;
    let rows = &fixture().input;
    let spanish = language("es");
    let origin = LatLng {
        lat: 39.7392,
        lng: -104.9903,
    };
    let filters = SearchFilters {
        selected_languages: vec!["es".into()],
        ..SearchFilters::default()
    };
    let answer = snapshot.search(&request(origin, filters), gazetteer()).unwrap();
    assert!(answer.total_results > 0, "somebody near Denver speaks Spanish");
    for card in &answer.clinics {
        let location = rows.locations.iter().find(|l| l.id == card.location_id).unwrap();
        let staff_speaks = rows
            .clinicians
            .iter()
            .any(|c| c.location_ids.contains(&location.id) && c.languages.contains(spanish));
        assert!(
            location.languages.contains(spanish) || staff_speaks,
            "location {} speaks Spanish",
            location.id
        );
    }
    for card in &answer.clinicians {
        let clinician = rows.clinicians.iter().find(|c| c.id == card.id).unwrap();
        assert!(
            clinician.languages.contains(spanish),
            "clinician {} speaks Spanish",
            clinician.id
        );
    }
    let accessible = SearchFilters {
        selected_accessibility: vec!["handiaccess".into(), "pubtrans".into()],
        ..SearchFilters::default()
    };
    let answer = snapshot.search(&request(origin, accessible), gazetteer()).unwrap();
    for card in &answer.clinics {
        let location = rows.locations.iter().find(|l| l.id == card.location_id).unwrap();
        assert!(
            location.accessibility.contains(Accessibility::HandicapAccessible)
                && location.accessibility.contains(Accessibility::PublicTransit),
            "location {} lists both",
            location.id
        );
    }
}

/// Filters together (a language and new patients) are answered from sets a snapshot combines
/// once and keeps: a patch makes new ones, so the next search sees the edit through them, and
/// the snapshot before the patch still answers as it did.
#[test]
fn a_patched_listing_is_seen_by_the_next_search_through_the_combined_filter_sets() {
    let original = &fixture().snapshot;
    let esperanto = language("eo");
    let (location, clinician) = (0..original.location_count())
        .filter(|ordinal| original.is_physical(*ordinal) && original.location(*ordinal).accepting_new_patients)
        .find_map(|ordinal| {
            let accepting = original
                .clinicians_at(ordinal)
                .iter()
                .map(|clinician| *clinician as usize)
                .find(|clinician| original.clinician(*clinician).accepting_new_patients)?;
            Some((ordinal, accepting))
        })
        .expect("the generator makes clinics taking new patients with clinicians who do");
    let at = original.location(location).clone();
    let origin = LatLng {
        lat: at.lat,
        lng: at.lng,
    };
    let filters = SearchFilters {
        new_patients: true,
        selected_languages: vec!["eo".into()],
        ..SearchFilters::default()
    };
    let listed = |snapshot: &Snapshot| {
        let answer = snapshot.search(&request(origin, filters.clone()), gazetteer()).unwrap();
        let clinic = answer.clinics.iter().any(|card| card.location_id == at.id);
        let person = snapshot.clinician(clinician).id;
        let clinician = answer.clinicians.iter().any(|card| card.id == person);
        (clinic, clinician)
    };
    assert_eq!(listed(original), (false, false), "nobody there speaks Esperanto yet");
    assert_eq!(listed(original), (false, false), "asked again, from the kept sets");

    let mut speaks = original.clinician(clinician).clone();
    speaks.languages = LanguageSet::new(speaks.languages.iter().chain([esperanto]));
    let patched = original
        .with_changes(&[], &[speaks.clone()], CatalogueVersion::default())
        .unwrap();
    assert_eq!(listed(&patched), (true, true), "the clinician's new language");
    assert_eq!(
        listed(original),
        (false, false),
        "the snapshot before the patch is unchanged"
    );

    let mut stopped = speaks;
    stopped.accepting_new_patients = false;
    let stopped = patched
        .with_changes(&[], &[stopped], CatalogueVersion::default())
        .unwrap();
    assert_eq!(
        listed(&stopped),
        (true, false),
        "the clinic still speaks it through them, but they take no new patients"
    );
    assert_eq!(listed(&patched), (true, true));
}
