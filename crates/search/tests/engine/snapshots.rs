//! Writing, opening and patching snapshots.

use domain::{DistanceSlider, LatLng, SearchFilters};
use search::{CatalogueVersion, SearchRequest, Snapshot, SnapshotHandle};

use crate::fixture::{fixture, gazetteer, input};

fn version(watermark_micros: i64) -> CatalogueVersion {
    CatalogueVersion {
        watermark_micros,
        cursor: format!("cursor-{watermark_micros}"),
    }
}

fn new_patients_near(snapshot: &Snapshot, origin: LatLng) -> usize {
    let filters = SearchFilters {
        new_patients: true,
        search_distance: DistanceSlider::new(0).unwrap(),
        ..SearchFilters::default()
    };
    let request = SearchRequest {
        filters,
        origin: Some(origin),
        company_alias: None,
        page: 1,
        limit: 6,
    };
    snapshot.search(&request, gazetteer()).unwrap().total_results
}

#[test]
fn a_written_snapshot_opens_with_the_same_answers() {
    let directory = std::env::temp_dir().join(format!("nearcare-snapshot-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    Snapshot::build(input(), Some(&directory)).unwrap();
    let opened = Snapshot::open(&directory, 7).unwrap();
    assert_eq!(opened.generation, 7);
    let original = &fixture().snapshot;
    for position in [0, 100, 2_000] {
        let location = original.location(position);
        let origin = LatLng {
            lat: location.lat,
            lng: location.lng,
        };
        let filters = SearchFilters {
            search_by_name: Some("health".into()),
            ..SearchFilters::default()
        };
        let request = SearchRequest {
            filters,
            origin: Some(origin),
            company_alias: None,
            page: 1,
            limit: 6,
        };
        assert_eq!(
            opened.search(&request, gazetteer()).unwrap(),
            original.search(&request, gazetteer()).unwrap()
        );
    }
    std::fs::remove_file(directory.join("READY")).unwrap();
    assert!(
        Snapshot::open(&directory, 7).is_err(),
        "an unfinished directory is never opened"
    );
    std::fs::remove_dir_all(&directory).unwrap();
}

/// The new-patients total counts the virtual locations serving the origin's state once per
/// snapshot; a patched snapshot counts them again.
#[test]
fn a_virtual_clinic_that_stops_taking_new_patients_leaves_its_states_new_patient_totals() {
    let original = &fixture().snapshot;
    let ordinal = (0..original.location_count())
        .find(|o| !original.is_physical(*o) && original.location(*o).accepting_new_patients)
        .expect("the generator makes virtual locations taking new patients");
    let mut changed = original.location(ordinal).clone();
    let state = &changed.virtual_states[0];
    let origin = gazetteer()
        .zips()
        .iter()
        .find(|zip| &zip.state == state)
        .unwrap()
        .position;
    let before = new_patients_near(original, origin);
    changed.accepting_new_patients = false;
    let patched = original.with_changes(&[changed.clone()], &[], version(98)).unwrap();
    assert_eq!(new_patients_near(&patched, origin), before - 1);
    assert_eq!(new_patients_near(original, origin), before);
    changed.accepting_new_patients = true;
    let restored = patched.with_changes(&[changed], &[], version(99)).unwrap();
    assert_eq!(new_patients_near(&restored, origin), before);
}

#[test]
fn a_clinic_that_stops_taking_new_patients_is_patched_in_without_a_rebuild() {
    let original = &fixture().snapshot;
    let ordinal = (0..original.location_count())
        .find(|o| original.is_physical(*o) && original.location(*o).accepting_new_patients)
        .unwrap();
    let mut changed = original.location(ordinal).clone();
    let origin = LatLng {
        lat: changed.lat,
        lng: changed.lng,
    };
    let before = new_patients_near(original, origin);
    changed.accepting_new_patients = false;
    let patched = original.with_changes(&[changed.clone()], &[], version(99)).unwrap();
    assert_eq!(new_patients_near(&patched, origin), before - 1);
    assert_eq!(
        new_patients_near(original, origin),
        before,
        "the old snapshot is unchanged"
    );
    assert!(!patched.location(ordinal).accepting_new_patients);
    assert_eq!(patched.version, version(99));

    let handle = SnapshotHandle::new(original.clone());
    let in_flight = handle.load().unwrap();
    handle.replace(patched);
    assert_eq!(
        new_patients_near(&in_flight, origin),
        before,
        "a query in flight keeps its snapshot"
    );
    assert_eq!(new_patients_near(&handle.load().unwrap(), origin), before - 1);

    changed.lat += 1.0;
    assert!(
        original.with_changes(&[changed], &[], version(100)).is_err(),
        "a moved clinic needs a rebuild"
    );
}

/// Whether a clinician is listed under the new-patients filter follows a patch of their flag,
/// both ways, in the answer and in its JSON.
#[test]
fn a_clinician_who_stops_or_starts_taking_new_patients_is_listed_accordingly() {
    let original = &fixture().snapshot;
    let (location, clinician) = (0..original.location_count())
        .filter(|location| original.is_physical(*location) && original.location(*location).accepting_new_patients)
        .find_map(|location| {
            original
                .clinicians_at(location)
                .iter()
                .map(|clinician| *clinician as usize)
                .find(|clinician| original.clinician(*clinician).accepting_new_patients)
                .map(|clinician| (location, clinician))
        })
        .expect("an accepting clinician at an accepting clinic");
    let place = original.location(location);
    let request = SearchRequest {
        filters: SearchFilters {
            new_patients: true,
            ..SearchFilters::default()
        },
        origin: Some(LatLng {
            lat: place.lat,
            lng: place.lng,
        }),
        company_alias: None,
        page: 1,
        limit: 6,
    };
    let id = original.clinician(clinician).id;
    let listed = |snapshot: &Snapshot| {
        let in_answer = snapshot
            .search(&request, gazetteer())
            .unwrap()
            .clinicians
            .iter()
            .any(|item| item.id == id);
        let written: serde_json::Value =
            serde_json::from_slice(&snapshot.search_json_for(&request, gazetteer(), None).unwrap()).unwrap();
        let in_json = written["clinicians"]
            .as_array()
            .unwrap()
            .iter()
            .any(|card| card["id"] == id);
        assert_eq!(in_answer, in_json);
        in_answer
    };
    assert!(listed(original), "nearest to their own clinic, they are listed");
    let mut changed = original.clinician(clinician).clone();
    changed.accepting_new_patients = false;
    let stopped = original.with_changes(&[], &[changed.clone()], version(99)).unwrap();
    assert!(!listed(&stopped));
    assert!(listed(original), "the old snapshot is unchanged");
    changed.accepting_new_patients = true;
    let restarted = stopped.with_changes(&[], &[changed], version(100)).unwrap();
    assert!(listed(&restarted));
}

/// Opening hours are kept once per distinct week (a week per location would be some 64 MB at a
/// million): a written snapshot opens with every location's week, the weeks shared, and a patch
/// gives one location a week no other keeps without touching the rest.
#[test]
fn a_written_snapshot_keeps_every_locations_hours_in_shared_weeks() {
    use std::collections::{HashMap, HashSet};

    use domain::listing::{ClockTime, OpeningRange, Weekday, WeeklyHours};

    let rows = input();
    let expected: HashMap<i64, Option<WeeklyHours>> = rows
        .locations
        .iter()
        .map(|location| (location.id, location.hours.clone()))
        .collect();
    let with_hours = expected.values().filter(|hours| hours.is_some()).count();
    assert!(with_hours > 2_500, "seeded clinics mostly give hours: {with_hours}");
    let directory = std::env::temp_dir().join(format!("nearcare-hours-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    Snapshot::build(rows, Some(&directory)).unwrap();
    let opened = Snapshot::open(&directory, 1).unwrap();
    std::fs::remove_dir_all(&directory).unwrap();

    assert_eq!(opened.location_count(), expected.len());
    for ordinal in 0..opened.location_count() {
        let id = opened.location(ordinal).id;
        assert_eq!(opened.location_hours(ordinal), expected[&id].as_ref(), "location {id}");
        assert_eq!(
            opened.location(ordinal).hours,
            None,
            "location {id}'s row keeps no week of its own"
        );
    }
    let distinct: HashSet<&WeeklyHours> = expected.values().flatten().collect();
    assert_eq!(opened.hours_pattern_count(), distinct.len());
    assert!(
        distinct.len() * 100 < with_hours,
        "{} weeks for {with_hours} locations",
        distinct.len()
    );

    let ordinal = (0..opened.location_count())
        .find(|ordinal| opened.location_hours(*ordinal).is_some())
        .unwrap();
    let neighbour_hours = opened.location_hours(ordinal + 1).cloned();
    let sunday_dawn = WeeklyHours::new([OpeningRange {
        day: Weekday::Sun,
        opens: ClockTime::new(5, 0).unwrap(),
        closes: ClockTime::new(6, 30).unwrap(),
    }])
    .unwrap();
    assert!(!distinct.contains(&sunday_dawn));
    let mut changed = opened.location(ordinal).clone();
    changed.hours = Some(sunday_dawn.clone());
    let patched = opened.with_changes(&[changed], &[], version(2)).unwrap();
    assert_eq!(patched.location_hours(ordinal), Some(&sunday_dawn));
    assert_eq!(patched.location_hours(ordinal + 1), neighbour_hours.as_ref());
    let id = opened.location(ordinal).id;
    assert_eq!(
        opened.location_hours(ordinal),
        expected[&id].as_ref(),
        "the snapshot patched is unchanged"
    );
}
