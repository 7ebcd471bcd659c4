//! A shared snapshot over generated rows plus a few hand-placed locations at the map's edges.

use std::sync::OnceLock;

use domain::{CareModalities, Location};
use gazetteer::Gazetteer;
use search::{Snapshot, SnapshotInput};

pub struct Fixture {
    pub input: SnapshotInput,
    pub snapshot: Snapshot,
}

pub fn gazetteer() -> &'static Gazetteer {
    static GAZETTEER: OnceLock<Gazetteer> = OnceLock::new();
    GAZETTEER.get_or_init(Gazetteer::embedded)
}

pub fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let input = input();
        let snapshot = Snapshot::build(input.clone(), None).expect("snapshot builds");
        Fixture { input, snapshot }
    })
}

pub fn input() -> SnapshotInput {
    let config = seed::SeedConfig {
        clinics: 3_000,
        clinicians: 2_400,
        seed: 7,
    };
    let catalogue = seed::generate(&config, gazetteer());
    let mut locations = catalogue.locations;
    let template = locations[0].clone();
    let next_id = locations.iter().map(|location| location.id).max().unwrap_or(0) + 1;
    // Locations on both sides of the antimeridian and at the Mercator limits.
    for (offset, (lat, lng)) in [
        (51.8, 179.9),
        (51.8, -179.9),
        (52.0, 179.99),
        (-14.3, -170.7),
        (71.29, -156.79),
    ]
    .into_iter()
    .enumerate()
    {
        locations.push(Location {
            id: next_id + offset as i64,
            name: format!("Edge Clinic {offset}"),
            lat,
            lng,
            is_virtual: false,
            virtual_states: Vec::new(),
            modalities: CareModalities {
                at_clinic: true,
                ..CareModalities::default()
            },
            ..template.clone()
        });
    }
    SnapshotInput {
        organisations: catalogue.organisations,
        locations,
        clinicians: catalogue.clinicians,
        employers: catalogue.employers,
        networks: catalogue.networks,
        insurance_plans: catalogue.insurance_plans,
        hours_patterns: Vec::new(),
        version: search::CatalogueVersion {
            watermark_micros: 1,
            cursor: String::new(),
        },
    }
}
