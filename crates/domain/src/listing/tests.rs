use chrono::{Duration, TimeZone as _, Utc};
use serde_json::json;

use super::*;

fn object(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().expect("an object").clone()
}

#[test]
fn languages_are_the_iso_639_list_found_by_code_in_any_case() {
    assert!(languages().len() > 180);
    assert!(
        languages().windows(2).all(|pair| pair[0].code < pair[1].code),
        "sorted by code"
    );
    let spanish = Language::parse("ES").expect("Spanish");
    assert_eq!((spanish.code(), spanish.name()), ("es", "Spanish"));
    assert_eq!(Language::parse("hmn").map(Language::name), Some("Hmong"));
    assert_eq!(
        Language::parse("ase").map(Language::name),
        Some("American Sign Language")
    );
    assert_eq!(Language::parse("ht").map(Language::name), Some("Haitian Creole"));
    assert_eq!(Language::parse("xx"), None);
    assert_eq!(Language::from_index(spanish.index()), Some(spanish));
}

#[test]
fn a_language_set_is_sorted_and_unique_and_names_an_unknown_code() {
    let set = LanguageSet::parse_codes("languages", ["zh", "en", "es", "en"]).unwrap();
    assert_eq!(set.codes(), ["en", "es", "zh"]);
    let error = LanguageSet::parse_codes("languages", ["en", "klingon"]).unwrap_err();
    assert_eq!(error.field, "languages[1]");
    assert_eq!(error.code(), "unknown_code");
    let json = serde_json::to_string(&set).unwrap();
    assert_eq!(json, r#"["en","es","zh"]"#);
    assert_eq!(serde_json::from_str::<LanguageSet>(&json).unwrap(), set);
}

#[test]
fn accessibility_codes_are_plan_nets() {
    let codes: Vec<&str> = Accessibility::ALL.iter().map(|code| code.code()).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [
            "adacomp",
            "anssrvc",
            "cognitive",
            "cultcomp",
            "handiaccess",
            "mobility",
            "pubtrans"
        ]
    );
    let set = AccessibilitySet::parse_codes("accessibility", ["pubtrans", "handiaccess"]).unwrap();
    assert_eq!(set.codes(), ["handiaccess", "pubtrans"]);
    assert!(set.contains(Accessibility::PublicTransit) && !set.contains(Accessibility::Mobility));
    let error = AccessibilitySet::parse_codes("accessibility", ["ramp"]).unwrap_err();
    assert_eq!(
        (error.field.as_str(), error.code()),
        ("accessibility[0]", "unknown_code")
    );
}

#[test]
fn time_zones_default_to_the_states_main_zone() {
    assert_eq!(TimeZone::for_state("CO"), TimeZone::Denver);
    assert_eq!(TimeZone::for_state("AZ").as_str(), "America/Phoenix");
    assert_eq!(TimeZone::for_state("NY"), TimeZone::NewYork);
    assert_eq!(TimeZone::parse("America/Chicago"), Some(TimeZone::Chicago));
    assert_eq!(TimeZone::parse("Europe/Paris"), None);
}

#[test]
fn hours_parse_with_several_ranges_and_closed_days() {
    let hours = WeeklyHours::from_json(&json!({
        "mon": [{"opens": "13:00", "closes": "17:30"}, {"opens": "08:00", "closes": "12:00"}],
        "sat": [{"opens": "09:00", "closes": "24:00"}],
        "sun": [],
    }))
    .unwrap();
    let monday: Vec<String> = hours
        .on(Weekday::Mon)
        .map(|range| format!("{}-{}", range.opens, range.closes))
        .collect();
    assert_eq!(monday, ["08:00-12:00", "13:00-17:30"]);
    assert_eq!(hours.on(Weekday::Tue).count(), 0, "a day not named is closed");
    assert!(hours.is_open(Weekday::Mon, ClockTime::new(8, 0).unwrap()));
    assert!(!hours.is_open(Weekday::Mon, ClockTime::new(12, 30).unwrap()));
    assert!(
        !hours.is_open(Weekday::Mon, ClockTime::new(17, 30).unwrap()),
        "closing time is excluded"
    );
    let written = hours.to_json();
    assert_eq!(written["tue"], json!([]));
    assert_eq!(written["sat"], json!([{"opens": "09:00", "closes": "24:00"}]));
    assert_eq!(WeeklyHours::from_json(&written).unwrap(), hours, "round trip");
}

#[test]
fn hours_name_the_field_at_fault() {
    let cases = [
        (
            json!({"mon": [{"opens": "17:00", "closes": "08:00"}]}),
            "hours.mon",
            "invalid_value",
        ),
        (
            json!({"tue": [{"opens": "08:00", "closes": "12:00"}, {"opens": "11:00", "closes": "13:00"}]}),
            "hours.tue",
            "invalid_value",
        ),
        (
            json!({"wed": [{"opens": "08:00", "closes": "25:00"}]}),
            "hours.wed[0].closes",
            "out_of_range",
        ),
        (
            json!({"thu": [{"opens": "8:00", "closes": "12:00"}]}),
            "hours.thu[0].opens",
            "out_of_range",
        ),
        (
            json!({"fri": [{"opens": 8, "closes": "12:00"}]}),
            "hours.fri[0].opens",
            "invalid_type",
        ),
        (
            json!({"fri": [{"opens": "08:00"}]}),
            "hours.fri[0].closes",
            "invalid_value",
        ),
        (
            json!({"fri": [{"opens": "08:00", "closes": "09:00", "note": "x"}]}),
            "hours.fri[0].note",
            "unknown_field",
        ),
        (json!({"funday": []}), "hours.funday", "unknown_field"),
        (json!({"mon": "9-5"}), "hours.mon", "invalid_type"),
        (json!("9-5"), "hours", "invalid_type"),
    ];
    for (value, field, code) in cases {
        let error = WeeklyHours::from_json(&value).unwrap_err();
        assert_eq!((error.field.as_str(), error.code()), (field, code), "{value}: {error}");
        assert!(error.to_string().starts_with(field), "{error}");
    }
    let five = json!({"mon": [
        {"opens": "01:00", "closes": "02:00"}, {"opens": "03:00", "closes": "04:00"},
        {"opens": "05:00", "closes": "06:00"}, {"opens": "07:00", "closes": "08:00"},
        {"opens": "09:00", "closes": "10:00"}
    ]});
    assert_eq!(WeeklyHours::from_json(&five).unwrap_err().code(), "out_of_range");
}

#[test]
fn a_location_patch_keeps_only_what_was_sent() {
    let patch = LocationPatch::parse(&object(json!({
        "acceptingNewPatients": false,
        "panelCapacity": 400,
        "phone": "303-555-0199",
        "languages": ["es", "en"],
        "hours": null,
        "pediatricAges": {"min": 0, "max": 17},
        "services": ["30", "bh", "30"],
    })))
    .unwrap();
    assert_eq!(patch.accepting_new_patients, Some(false));
    assert_eq!(patch.panel_capacity, Some(Some(400)));
    assert_eq!(patch.phone.as_deref(), Some("303 555 0199"));
    assert_eq!(patch.languages.unwrap().codes(), ["en", "es"]);
    assert_eq!(patch.hours, Some(None), "null clears the hours");
    assert_eq!(patch.pediatric_ages, Some(Some(PediatricAges { min: 0, max: 17 })));
    assert_eq!(patch.services.as_deref(), Some(&["30".to_owned(), "BH".to_owned()][..]));
    assert_eq!(patch.website, None);
    assert_eq!(patch.telehealth, None);
    let cleared = LocationPatch::parse(&object(json!({"panelCapacity": null, "website": ""}))).unwrap();
    assert_eq!(cleared.panel_capacity, Some(None));
    assert_eq!(cleared.website.as_deref(), Some(""));
}

#[test]
fn a_location_patch_refuses_bad_fields_by_name() {
    let cases = [
        (json!({}), "", "nothing_to_change"),
        (json!({"name": "New name"}), "name", "unknown_field"),
        (
            json!({"acceptingNewPatients": "yes"}),
            "acceptingNewPatients",
            "invalid_type",
        ),
        (
            json!({"acceptingNewPatients": null}),
            "acceptingNewPatients",
            "invalid_type",
        ),
        (json!({"panelCapacity": 0}), "panelCapacity", "out_of_range"),
        (json!({"panelCapacity": 100_001}), "panelCapacity", "out_of_range"),
        (json!({"panelCapacity": 12.5}), "panelCapacity", "invalid_type"),
        (json!({"panelCapacity": "40"}), "panelCapacity", "invalid_type"),
        (json!({"phone": "555"}), "phone", "invalid_value"),
        (json!({"phone": 3035550199_i64}), "phone", "invalid_type"),
        (json!({"website": "not a site"}), "website", "invalid_value"),
        (
            json!({"website": format!("https://{}.com", "a".repeat(200))}),
            "website",
            "out_of_range",
        ),
        (json!({"timeZone": "Mars/Olympus"}), "timeZone", "unknown_code"),
        (json!({"languages": "es"}), "languages", "invalid_type"),
        (json!({"languages": ["es", 4]}), "languages[1]", "invalid_type"),
        (json!({"languages": ["es", "elvish"]}), "languages[1]", "unknown_code"),
        (
            json!({"accessibility": ["wheelchair"]}),
            "accessibility[0]",
            "unknown_code",
        ),
        (json!({"telehealth": 1}), "telehealth", "invalid_type"),
        (json!({"services": ["30", "XX"]}), "services[1]", "unknown_code"),
        (
            json!({"pediatricAges": {"min": 0, "max": 18}}),
            "pediatricAges.max",
            "out_of_range",
        ),
        (
            json!({"pediatricAges": {"min": 9, "max": 3}}),
            "pediatricAges",
            "invalid_value",
        ),
        (
            json!({"pediatricAges": {"min": 0}}),
            "pediatricAges.max",
            "invalid_value",
        ),
        (
            json!({"pediatricAges": {"min": 0, "max": 5, "note": 1}}),
            "pediatricAges.note",
            "unknown_field",
        ),
        (json!({"pediatricAges": 5}), "pediatricAges", "invalid_type"),
        (
            json!({"hours": {"mon": [{"opens": "09:00", "closes": "08:00"}]}}),
            "hours.mon",
            "invalid_value",
        ),
    ];
    for (body, field, code) in cases {
        let error = LocationPatch::parse(&object(body.clone())).unwrap_err();
        assert_eq!((error.field.as_str(), error.code()), (field, code), "{body}: {error}");
    }
}

#[test]
fn a_clinician_patch_needs_somewhere_to_work() {
    let patch = ClinicianPatch::parse(&object(json!({"locationIds": [3, 1, 3], "telehealth": true}))).unwrap();
    assert_eq!(patch.location_ids, Some(vec![3, 1]));
    assert_eq!(patch.telehealth, Some(true));
    let cases = [
        (json!({"locationIds": []}), "locationIds", "invalid_value"),
        (json!({"locationIds": [1, "2"]}), "locationIds[1]", "invalid_type"),
        (json!({"locationIds": [0]}), "locationIds[0]", "invalid_type"),
        (json!({"hours": {}}), "hours", "unknown_field"),
        (json!({"languages": ["vi", "zz"]}), "languages[1]", "unknown_code"),
        (json!({}), "", "nothing_to_change"),
    ];
    for (body, field, code) in cases {
        let error = ClinicianPatch::parse(&object(body.clone())).unwrap_err();
        assert_eq!((error.field.as_str(), error.code()), (field, code), "{body}: {error}");
    }
}

#[test]
fn freshness_is_due_after_90_days_and_shown_stale_after_120() {
    let now = Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap();
    assert!(attestation_due(None, now));
    assert!(!attestation_due(Some(now - Duration::days(90)), now));
    assert!(attestation_due(
        Some(now - Duration::days(90) - Duration::seconds(1)),
        now
    ));
    assert!(!verified_recently(None, now));
    assert!(verified_recently(Some(now - Duration::days(120)), now));
    assert!(!verified_recently(Some(now - Duration::days(121)), now));
}

#[test]
fn websites_are_hosts_with_optional_scheme_and_path() {
    for good in [
        "www.example.com",
        "https://clinic.example/about",
        "http://a.b:8080/x?y=1",
    ] {
        assert_eq!(parse_website("website", good).unwrap(), good);
    }
    assert_eq!(parse_website("website", "  ").unwrap(), "");
    for bad in ["example", "https://", "java script:alert(1)", "<a>.com", ".example.com"] {
        assert!(parse_website("website", bad).is_err(), "{bad}");
    }
}
