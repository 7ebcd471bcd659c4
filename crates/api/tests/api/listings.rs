//! Listings kept true by the clinics (docs/listings-contract.md): reading and editing a provider
//! organisation's locations and clinicians, every field valid and refused, the audit rows, the
//! edits reaching search, pins, filters and profiles without a rebuild, "Everything is correct",
//! and panel capacity with the race for the last place.

use std::time::Duration;

use serde_json::{Value, json};

use crate::enrolment::{choice, set_provider, signed_up};
use crate::helpers::{Answer, TestApp, assert_error};

const ORGANISATION: i64 = seed::demo::DENVER_ORGANISATION_ID;
const LOCATION: i64 = seed::demo::DENVER_LOCATION_ID;
const OTHER_ORGANISATION: i64 = seed::demo::NEW_YORK_ORGANISATION_ID;
const OTHER_LOCATION: i64 = seed::demo::NEW_YORK_LOCATION_ID;

impl TestApp {
    pub async fn patch_as(&self, path: &str, body: &Value, token: Option<&str>) -> Answer {
        let request = self.client.patch(format!("{}{path}", self.address)).json(body);
        let request = match token {
            Some(token) => request.header("x-access-token", token),
            None => request,
        };
        let response = request.send().await.expect("request sent");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("a body");
        Answer {
            status,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
            headers,
        }
    }

    pub async fn edit_location(&self, token: &str, id: i64, body: &Value) -> Answer {
        self.patch_as(&format!("/dpcproviders/locations/{id}"), body, Some(token))
            .await
    }

    pub async fn edit_clinician(&self, token: &str, id: i64, body: &Value) -> Answer {
        self.patch_as(&format!("/dpcproviders/clinicians/{id}"), body, Some(token))
            .await
    }

    /// `(actor, field, before, after)` of a listing's audit rows, oldest first.
    pub async fn listing_audit(&self, entity: &str, id: i64) -> Vec<(String, String, Value, Value)> {
        sqlx::query_as(
            "select actor, field, coalesce(before, 'null'), coalesce(after, 'null') from listing_edits
             where entity = $1 and entity_id = $2 order by id",
        )
        .bind(entity)
        .bind(id)
        .fetch_all(&self.database.pool)
        .await
        .unwrap()
    }

    /// Asks `check` of successive answers of `ask` for up to 5 s; the answer that passed.
    pub async fn eventually(
        &self,
        what: &str,
        ask: impl AsyncFn() -> Answer,
        check: impl Fn(&Answer) -> bool,
    ) -> Answer {
        let started = std::time::Instant::now();
        loop {
            let answer = ask().await;
            if check(&answer) {
                return answer;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{what}: last answer {:?}",
                answer.body
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A provider account of the demo organisation (Front Range, Denver).
async fn denver_provider(app: &TestApp) -> (i64, String) {
    app.provider_account(ORGANISATION, "dana@frontrange.example").await
}

fn ids(answer: &Value, key: &str) -> Vec<i64> {
    answer[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_i64().unwrap())
        .collect()
}

fn has_location(answer: &Answer, location: i64) -> bool {
    answer.body["clinics"]
        .as_array()
        .is_some_and(|clinics| clinics.iter().any(|clinic| clinic["locationId"] == location))
}

#[tokio::test]
async fn a_provider_reads_its_own_organisations_listings_and_only_those() {
    let app = TestApp::spawn(60).await;
    let (_, token) = denver_provider(&app).await;
    let listings = app.get_as("/dpcproviders/listings", Some(&token)).await;
    assert_eq!(listings.status, 200, "{:?}", listings.body);
    assert_eq!(listings.body["organisation"]["id"], ORGANISATION);
    let own: Vec<i64> = sqlx::query_scalar("select id from locations where organisation_id = $1 order by id")
        .bind(ORGANISATION)
        .fetch_all(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(ids(&listings.body, "locations"), own);
    let clinicians: Vec<i64> = sqlx::query_scalar(
        "select distinct cl.clinician_id from clinician_locations cl join locations l on l.id = cl.location_id
         where l.organisation_id = $1 order by 1",
    )
    .bind(ORGANISATION)
    .fetch_all(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(ids(&listings.body, "clinicians"), clinicians);
    let location = &listings.body["locations"][0];
    for field in domain::listing::LOCATION_FIELDS
        .iter()
        .chain(&["panel", "lastVerified", "due"])
    {
        assert!(location.get(field).is_some(), "{field} in {location}");
    }
    assert_eq!(location["timeZone"], "America/Denver");

    let (_, member) = signed_up(&app, "member@example.com", None).await;
    assert_error(
        &app.get_as("/dpcproviders/listings", Some(&member)).await,
        403,
        "provider_only",
    );
    assert_error(&app.get_as("/dpcproviders/listings", None).await, 401, "unauthorized");
}

/// Seeded catalogues store `303-555-0149`; the listings editor, the profile and the member's
/// clinic all show the spec's `XXX XXX XXXX`, the form an edited phone is kept in.
#[tokio::test]
async fn a_clinic_phone_reads_the_same_in_the_spec_s_form_on_every_screen() {
    let app = TestApp::spawn(60).await;
    let (_, token) = denver_provider(&app).await;
    let stored: String = sqlx::query_scalar("select phone from locations where id = $1")
        .bind(LOCATION)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(stored.contains('-'), "the seeded phone is stored with dashes: {stored}");
    let spaced = stored.replace('-', " ");
    let listings = app.get_as("/dpcproviders/listings", Some(&token)).await.body;
    let listed = listings["locations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|location| location["id"] == LOCATION)
        .unwrap();
    assert_eq!(listed["phone"], spaced.as_str());
    let profile = app
        .get_as(
            &format!("/member/app/market/provider/{ORGANISATION}?locationId={LOCATION}"),
            None,
        )
        .await;
    assert_eq!(profile.body["contact"]["phone"], spaced.as_str(), "{:?}", profile.body);
}

#[tokio::test]
async fn every_location_field_is_edited_audited_and_confirms_the_listing() {
    let app = TestApp::spawn(60).await;
    let (account, token) = denver_provider(&app).await;
    let hours = json!({
        "mon": [{"opens": "08:00", "closes": "12:00"}, {"opens": "13:00", "closes": "17:30"}],
        "tue": [{"opens": "08:00", "closes": "17:00"}],
        "wed": [], "thu": [{"opens": "10:00", "closes": "19:00"}], "fri": [{"opens": "08:00", "closes": "12:00"}],
        "sat": [{"opens": "09:00", "closes": "24:00"}], "sun": [],
    });
    let edits = [
        ("acceptingNewPatients", json!(false)),
        ("panelCapacity", json!(450)),
        ("phone", json!("303-555-0142")),
        ("website", json!("https://frontrange.example/denver")),
        ("hours", hours.clone()),
        ("timeZone", json!("America/Phoenix")),
        ("languages", json!(["vi", "EN", "es"])),
        ("accessibility", json!(["pubtrans", "handiaccess"])),
        ("telehealth", json!(true)),
        ("services", json!(["30", "98", "BH", "MH"])),
        ("pediatricAges", json!({"min": 2, "max": 12})),
    ];
    let written = [
        json!(false),
        json!(450),
        json!("303 555 0142"),
        json!("https://frontrange.example/denver"),
        hours,
        json!("America/Phoenix"),
        json!(["en", "es", "vi"]),
        json!(["handiaccess", "pubtrans"]),
        json!(true),
        json!(["30", "98", "BH", "MH"]),
        json!({"min": 2, "max": 12}),
    ];
    let actor = format!("provider:{account}");
    for ((field, value), expected) in edits.iter().zip(&written) {
        let before: Option<chrono::DateTime<chrono::Utc>> =
            sqlx::query_scalar("select last_verified from locations where id = $1")
                .bind(LOCATION)
                .fetch_one(&app.database.pool)
                .await
                .unwrap();
        let answer = app.edit_location(&token, LOCATION, &json!({ *field: value })).await;
        assert_eq!(answer.status, 200, "{field}: {:?}", answer.body);
        assert_eq!(&answer.body[*field], expected, "{field}");
        let audit = app.listing_audit("location", LOCATION).await;
        let rows: Vec<_> = audit.iter().filter(|row| row.1 == *field).collect();
        assert_eq!(rows.len(), 1, "one audit row for {field}: {audit:?}");
        assert_eq!((rows[0].0.as_str(), &rows[0].3), (actor.as_str(), expected), "{field}");
        assert_ne!(&rows[0].2, expected, "{field}: the row keeps the value before");
        let after: chrono::DateTime<chrono::Utc> =
            sqlx::query_scalar("select last_verified from locations where id = $1")
                .bind(LOCATION)
                .fetch_one(&app.database.pool)
                .await
                .unwrap();
        assert!(
            before.is_none_or(|before| after > before),
            "{field} confirms the listing"
        );
        assert!(chrono::Utc::now() - after < chrono::Duration::seconds(30));
        assert_eq!(answer.body["due"], false);
    }
    // The same value again changes nothing and writes no row for it (it still confirms).
    let rows = app.listing_audit("location", LOCATION).await.len();
    let again = app.edit_location(&token, LOCATION, &json!({"telehealth": true})).await;
    assert_eq!(again.status, 200);
    let audit = app.listing_audit("location", LOCATION).await;
    assert_eq!(audit.len(), rows + 1, "only lastVerified: {:?}", &audit[rows..]);
    assert_eq!(audit[rows].1, "lastVerified");
    // Clearing: no hours, no capacity, no website; removing BH clears the pediatric ages.
    let cleared = app
        .edit_location(
            &token,
            LOCATION,
            &json!({"hours": null, "panelCapacity": null, "website": "", "services": ["30", "98"]}),
        )
        .await;
    assert_eq!(cleared.status, 200, "{:?}", cleared.body);
    assert_eq!(cleared.body["hours"], Value::Null);
    assert_eq!(cleared.body["panelCapacity"], Value::Null);
    assert_eq!(cleared.body["website"], "");
    assert_eq!(cleared.body["pediatricAges"], Value::Null);
    let stored: (Option<i16>, Option<Value>) =
        sqlx::query_as("select pediatric_min_age, hours from locations where id = $1")
            .bind(LOCATION)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(stored, (None, None));
}

#[tokio::test]
async fn a_refused_field_is_a_400_naming_it_and_writes_nothing() {
    let app = TestApp::spawn(60).await;
    let (_, token) = denver_provider(&app).await;
    let cases = [
        (json!({"name": "Renamed"}), "unknown_field", "name"),
        (
            json!({"acceptingNewPatients": "yes"}),
            "invalid_type",
            "acceptingNewPatients",
        ),
        (json!({"telehealth": null}), "invalid_type", "telehealth"),
        (json!({"panelCapacity": 0}), "out_of_range", "panelCapacity"),
        (json!({"panelCapacity": 100_001}), "out_of_range", "panelCapacity"),
        (json!({"panelCapacity": "40"}), "invalid_type", "panelCapacity"),
        (json!({"phone": "555-0100"}), "invalid_value", "phone"),
        (json!({"website": "not a website"}), "invalid_value", "website"),
        (json!({"timeZone": "Europe/Paris"}), "unknown_code", "timeZone"),
        (json!({"languages": ["es", "xx"]}), "unknown_code", "languages[1]"),
        (json!({"languages": "es"}), "invalid_type", "languages"),
        (json!({"accessibility": ["ramp"]}), "unknown_code", "accessibility[0]"),
        (json!({"services": ["30", "ZZ"]}), "unknown_code", "services[1]"),
        (
            json!({"pediatricAges": {"min": 0, "max": 21}}),
            "out_of_range",
            "pediatricAges.max",
        ),
        (
            json!({"pediatricAges": {"min": 9, "max": 2}}),
            "invalid_value",
            "pediatricAges",
        ),
        (
            json!({"hours": {"mon": [{"opens": "09:00", "closes": "12:00"}, {"opens": "11:00", "closes": "14:00"}]}}),
            "invalid_value",
            "hours.mon",
        ),
        (
            json!({"hours": {"tue": [{"opens": "09:00", "closes": "25:00"}]}}),
            "out_of_range",
            "hours.tue[0].closes",
        ),
        (json!({"hours": {"someday": []}}), "unknown_field", "hours.someday"),
        (json!({}), "nothing_to_change", ""),
    ];
    let before: Value = sqlx::query_scalar("select to_jsonb(l) - 'change_xid' from locations l where id = $1")
        .bind(LOCATION)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    for (body, code, field) in cases {
        let answer = app.edit_location(&token, LOCATION, &body).await;
        assert_error(&answer, 400, code);
        if !field.is_empty() {
            assert_eq!(answer.body["field"], field, "{body}: {:?}", answer.body);
            assert!(
                answer.body["message"].as_str().unwrap().starts_with(field),
                "{:?}",
                answer.body
            );
        }
    }
    // Pediatric ages need the pediatric service: the location offers no BH after this edit.
    let without = app.edit_location(&token, LOCATION, &json!({"services": ["30"]})).await;
    assert_eq!(without.status, 200);
    let ages = app
        .edit_location(&token, LOCATION, &json!({"pediatricAges": {"min": 0, "max": 5}}))
        .await;
    assert_error(&ages, 400, "invalid_value");
    assert_eq!(ages.body["field"], "pediatricAges");
    let audit = app.listing_audit("location", LOCATION).await;
    assert!(
        audit
            .iter()
            .all(|row| ["services", "pediatricAges", "lastVerified"].contains(&row.1.as_str())),
        "only the accepted edit wrote rows: {audit:?}"
    );
    let after: Value = sqlx::query_scalar(
        "select to_jsonb(l) - 'change_xid' - 'service_type_codes' - 'last_verified' - 'updated_at'
                - 'pediatric_min_age' - 'pediatric_max_age' from locations l where id = $1",
    )
    .bind(LOCATION)
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    let mut expected = before.clone();
    for key in [
        "service_type_codes",
        "last_verified",
        "updated_at",
        "pediatric_min_age",
        "pediatric_max_age",
    ] {
        expected.as_object_mut().unwrap().remove(key);
    }
    assert_eq!(after, expected, "refused edits wrote nothing");
}

#[tokio::test]
async fn another_organisations_listing_is_404_and_a_member_token_403() {
    let app = TestApp::spawn(60).await;
    let (_, token) = denver_provider(&app).await;
    let (_, member) = signed_up(&app, "member@example.com", None).await;
    let other_clinician: i64 = sqlx::query_scalar(
        "select cl.clinician_id from clinician_locations cl join locations l on l.id = cl.location_id
         where l.organisation_id = $1 limit 1",
    )
    .bind(OTHER_ORGANISATION)
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    let body = json!({"acceptingNewPatients": false});
    assert_error(
        &app.edit_location(&token, OTHER_LOCATION, &body).await,
        404,
        "listing_not_found",
    );
    assert_error(
        &app.edit_location(&token, 99_999_999, &body).await,
        404,
        "listing_not_found",
    );
    assert_error(
        &app.edit_clinician(&token, other_clinician, &body).await,
        404,
        "listing_not_found",
    );
    assert_error(&app.edit_location(&member, LOCATION, &body).await, 403, "provider_only");
    assert_error(
        &app.edit_clinician(&member, other_clinician, &body).await,
        403,
        "provider_only",
    );
    assert_error(
        &app.patch_as("/dpcproviders/locations/abc", &body, Some(&token)).await,
        400,
        "invalid_path",
    );
    let unchanged: bool = sqlx::query_scalar("select accepting_new_patients from locations where id = $1")
        .bind(OTHER_LOCATION)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(unchanged);
    assert!(app.listing_audit("location", OTHER_LOCATION).await.is_empty());
}

#[tokio::test]
async fn every_clinician_field_is_edited_and_audited_and_a_foreign_location_refused() {
    let app = TestApp::spawn(60).await;
    let (account, token) = denver_provider(&app).await;
    let listings = app.get_as("/dpcproviders/listings", Some(&token)).await.body;
    let clinician = listings["clinicians"][0]["id"].as_i64().unwrap();
    let locations = ids(&listings, "locations");
    assert!(locations.len() >= 2, "the demo organisation has several locations");
    let edits = [
        ("acceptingNewPatients", json!(false), json!(false)),
        ("languages", json!(["ko", "en"]), json!(["en", "ko"])),
        ("telehealth", json!(false), json!(false)),
        (
            "locationIds",
            json!([locations[1], locations[0]]),
            json!([locations[0], locations[1]]),
        ),
    ];
    for (field, value, expected) in edits {
        let before = app.get_as("/dpcproviders/listings", Some(&token)).await.body;
        let current = before["clinicians"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["id"] == clinician)
            .unwrap()[field]
            .clone();
        let answer = app.edit_clinician(&token, clinician, &json!({ field: value })).await;
        assert_eq!(answer.status, 200, "{field}: {:?}", answer.body);
        assert_eq!(answer.body[field], expected, "{field}");
        let audit = app.listing_audit("clinician", clinician).await;
        let rows: Vec<_> = audit.iter().filter(|row| row.1 == field).collect();
        if current == expected {
            assert!(rows.is_empty(), "{field} did not change: {audit:?}");
        } else {
            assert_eq!(rows.len(), 1, "{field}: {audit:?}");
            assert_eq!(rows[0].0, format!("provider:{account}"));
            assert_eq!((&rows[0].2, &rows[0].3), (&current, &expected), "{field}");
        }
    }
    let links: Vec<i64> =
        sqlx::query_scalar("select location_id from clinician_locations where clinician_id = $1 order by 1")
            .bind(clinician)
            .fetch_all(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(links, vec![locations[0], locations[1]]);
    let foreign = app
        .edit_clinician(
            &token,
            clinician,
            &json!({"locationIds": [locations[0], OTHER_LOCATION]}),
        )
        .await;
    assert_error(&foreign, 400, "invalid_value");
    assert_eq!(foreign.body["field"], "locationIds[1]");
    for (body, code, field) in [
        (json!({"locationIds": []}), "invalid_value", "locationIds"),
        (json!({"languages": ["zz"]}), "unknown_code", "languages[0]"),
        (json!({"telehealth": "no"}), "invalid_type", "telehealth"),
        (json!({"hours": {}}), "unknown_field", "hours"),
    ] {
        let answer = app.edit_clinician(&token, clinician, &body).await;
        assert_error(&answer, 400, code);
        assert_eq!(answer.body["field"], field);
    }
}

#[tokio::test]
async fn an_edit_reaches_search_filters_pins_and_profiles_without_a_rebuild() {
    let app = TestApp::spawn(200).await;
    let (_, token) = denver_provider(&app).await;
    let generation = app.get("/ready").await.body["generation"].clone();
    // Nobody near Denver speaks Esperanto, nor lists every accessibility code.
    let speaks = || {
        app.search(
            "page=1&limit=50",
            json!({ "zipCode": "80202", "selectedLanguages": ["eo"], "searchDistance": 1 }),
        )
    };
    let none = speaks().await;
    assert_eq!(none.status, 200, "{:?}", none.body);
    assert_eq!(none.body["totalResults"], 0);
    let every_code = json!([
        "handiaccess",
        "adacomp",
        "mobility",
        "cognitive",
        "cultcomp",
        "pubtrans",
        "anssrvc"
    ]);
    let edited = app
        .edit_location(
            &token,
            LOCATION,
            &json!({
                "languages": ["en", "eo"],
                "accessibility": every_code,
                "hours": {"mon": [{"opens": "07:00", "closes": "19:00"}]},
            }),
        )
        .await;
    assert_eq!(edited.status, 200, "{:?}", edited.body);
    let found = app
        .eventually("the language filter finds the clinic", speaks, |answer| {
            has_location(answer, LOCATION)
        })
        .await;
    assert_eq!(found.body["totalResults"], 1, "{:?}", found.body);
    let card = &found.body["clinics"][0];
    assert_eq!(
        card["lastVerified"],
        chrono::Utc::now().date_naive().to_string(),
        "the card carries today's confirmation"
    );
    // The clinicians list keeps only those who speak it: nobody there yet.
    assert_eq!(found.body["clinicians"], json!([]));
    let accessible = app
        .search(
            "page=1&limit=50",
            json!({ "zipCode": "80202", "selectedAccessibility": every_code, "searchDistance": 1 }),
        )
        .await;
    assert!(has_location(&accessible, LOCATION), "{:?}", accessible.body);
    assert_eq!(accessible.body["totalResults"], 1);
    // Pins and area pins take the same filters.
    let filters = json!({ "selectedLanguages": ["eo"] }).to_string();
    let query = format!(
        "/member/app/market/location/pins?nwLng=-105.2&nwLat=39.9&seLng=-104.7&seLat=39.6&filters={}",
        urlencode(&filters)
    );
    let pins = app.get(&query).await;
    assert_eq!(pins.status, 200, "{:?}", pins.body);
    let pinned: Vec<i64> = pins.body["pins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pin| pin["locationId"].as_i64().unwrap())
        .collect();
    assert_eq!(pinned, vec![LOCATION]);
    let area = app
        .get(&format!("{}&zoom=8", query.replace("/pins?", "/areapins?")))
        .await;
    assert_eq!(area.status, 200, "{:?}", area.body);
    assert_eq!(area.body["total"], 1);
    // The profile shows the facts.
    let profile = app
        .get(&format!(
            "/member/app/market/provider/{ORGANISATION}?locationId={LOCATION}"
        ))
        .await;
    assert_eq!(profile.status, 200);
    assert_eq!(
        profile.body["hours"]["mon"],
        json!([{"opens": "07:00", "closes": "19:00"}])
    );
    assert_eq!(profile.body["hours"]["sun"], json!([]));
    assert_eq!(profile.body["timeZone"], "America/Denver");
    assert_eq!(
        profile.body["languages"],
        json!([{"code": "en", "name": "English"}, {"code": "eo", "name": "Esperanto"}])
    );
    assert_eq!(profile.body["accessibility"].as_array().unwrap().len(), 7);
    assert!(profile.body["lastVerified"].as_str().is_some());
    // A clinician who learns Esperanto is listed under the filter.
    let clinician = edited_clinician(&app, &token).await;
    assert_eq!(
        app.edit_clinician(&token, clinician, &json!({"languages": ["en", "eo"]}))
            .await
            .status,
        200
    );
    let listed = app
        .eventually("the clinician list follows", speaks, |answer| {
            answer.body["clinicians"]
                .as_array()
                .is_some_and(|list| list.iter().any(|item| item["id"] == clinician))
        })
        .await;
    assert!(has_location(&listed, LOCATION));
    let doctor = app.get(&format!("/member/app/market/doctor/{clinician}")).await;
    assert_eq!(doctor.body["languages"][1]["code"], "eo");
    assert_eq!(
        app.get("/ready").await.body["generation"],
        generation,
        "no rebuild happened"
    );
    // The filter lists the language now.
    let spoken = app.get("/market/languages").await;
    assert!(
        spoken
            .body
            .as_array()
            .unwrap()
            .iter()
            .any(|language| language["code"] == "eo"),
        "{:?}",
        spoken.body
    );
    // The next rebuild reads the same rows.
    let index_dir = app.local_dir.join("rebuild");
    let (_, rebuilt) = snapshots::rebuild_to(
        &app.database.pool,
        &index_dir,
        &snapshots::GenerationStore::Postgres,
        |_, _, _| {},
    )
    .await
    .unwrap();
    let request = search::SearchRequest {
        filters: serde_json::from_value(
            json!({ "zipCode": "80202", "selectedLanguages": ["eo"], "searchDistance": 1 }),
        )
        .unwrap(),
        page: 1,
        limit: 50,
        ..search::SearchRequest::default()
    };
    let answer = rebuilt.search(&request, &gazetteer::Gazetteer::embedded()).unwrap();
    let rebuilt_clinics: Vec<i64> = answer.clinics.iter().map(|item| item.location_id).collect();
    let served = speaks().await;
    let served_clinics: Vec<i64> = served.body["clinics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["locationId"].as_i64().unwrap())
        .collect();
    assert_eq!(
        rebuilt_clinics, served_clinics,
        "the rebuild answers as the patched snapshot did"
    );
    assert!(rebuilt_clinics.contains(&LOCATION));
    // Where the clinician works, Esperanto is spoken now.
    let works_at: Vec<i64> = sqlx::query_scalar("select location_id from clinician_locations where clinician_id = $1")
        .bind(clinician)
        .fetch_all(&app.database.pool)
        .await
        .unwrap();
    assert!(
        rebuilt_clinics
            .iter()
            .all(|id| *id == LOCATION || works_at.contains(id)),
        "{rebuilt_clinics:?}"
    );
    assert!(answer.clinicians.iter().any(|item| item.id == clinician));
}

/// A clinician of the demo location.
async fn edited_clinician(app: &TestApp, token: &str) -> i64 {
    let listings = app.get_as("/dpcproviders/listings", Some(token)).await.body;
    listings["clinicians"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["locationIds"].as_array().unwrap().contains(&json!(LOCATION)))
        .expect("a clinician works at the demo location")["id"]
        .as_i64()
        .unwrap()
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (byte as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn a_clinician_moved_to_another_location_is_found_there_by_name_without_a_rebuild() {
    let app = TestApp::spawn(200).await;
    let (_, token) = denver_provider(&app).await;
    let listings = app.get_as("/dpcproviders/listings", Some(&token)).await.body;
    let locations = ids(&listings, "locations");
    let clinician = &listings["clinicians"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["locationIds"].as_array().unwrap().contains(&json!(LOCATION)))
        .expect("a clinician working at the demo location")
        .clone();
    let id = clinician["id"].as_i64().unwrap();
    let worked_at = clinician["locationIds"].as_array().unwrap().clone();
    let target = *locations
        .iter()
        .find(|location| !worked_at.contains(&json!(location)))
        .expect("a location of the organisation the clinician does not work at");
    let (first, last): (String, String) = sqlx::query_as("select first_name, last_name from clinicians where id = $1")
        .bind(id)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let moved = app.edit_clinician(&token, id, &json!({"locationIds": [target]})).await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    let doctor = app
        .eventually(
            "the clinician's profile lists the new clinic",
            async || app.get(&format!("/member/app/market/doctor/{id}")).await,
            |answer| {
                answer.body["clinics"]
                    .as_array()
                    .is_some_and(|clinics| clinics.len() == 1 && clinics[0]["locationId"] == target)
            },
        )
        .await;
    assert_eq!(doctor.status, 200);
    let by_name = app
        .search(
            "page=1&limit=50",
            json!({ "zipCode": "80202", "searchByName": format!("{first} {last}"), "searchDistance": 0 }),
        )
        .await;
    assert!(
        has_location(&by_name, target),
        "found where they work now: {:?}",
        by_name.body
    );
    assert!(
        by_name.body["clinicians"]
            .as_array()
            .unwrap()
            .iter()
            .any(|item| item["id"] == id && item["locationId"] == target),
        "{:?}",
        by_name.body
    );
    // The old clinic's profile no longer lists them; the new one does.
    let old = app
        .get(&format!(
            "/member/app/market/provider/{ORGANISATION}?locationId={LOCATION}"
        ))
        .await;
    assert!(
        old.body["clinicians"]
            .as_array()
            .unwrap()
            .iter()
            .all(|person| person["id"] != id)
    );
    let new = app
        .get(&format!(
            "/member/app/market/provider/{ORGANISATION}?locationId={target}"
        ))
        .await;
    assert!(
        new.body["clinicians"]
            .as_array()
            .unwrap()
            .iter()
            .any(|person| person["id"] == id)
    );
}

#[tokio::test]
async fn unknown_language_and_accessibility_codes_are_refused_by_search() {
    let app = TestApp::spawn(30).await;
    let language = app
        .search(
            "page=1",
            json!({ "zipCode": "80202", "selectedLanguages": ["es", "klingon"] }),
        )
        .await;
    assert_error(&language, 400, "invalid_filter");
    assert!(
        language.body["message"]
            .as_str()
            .unwrap()
            .contains("selectedLanguages[1]")
    );
    let access = app
        .search(
            "page=1",
            json!({ "zipCode": "80202", "selectedAccessibility": ["ramp"] }),
        )
        .await;
    assert_error(&access, 400, "invalid_filter");
    let codes = app.get("/market/listing-codes").await;
    assert_eq!(codes.status, 200);
    assert_eq!(codes.body["accessibility"].as_array().unwrap().len(), 7);
    assert!(codes.body["languages"].as_array().unwrap().len() > 180);
    assert_eq!(
        codes.body["services"][2],
        json!({"code": "BH", "label": "Pediatric care"})
    );
}

#[tokio::test]
async fn everything_is_correct_confirms_every_listing_of_the_organisation() {
    let app = TestApp::spawn(60).await;
    let (account, token) = denver_provider(&app).await;
    sqlx::query("update locations set last_verified = now() - interval '150 days'")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let before = app.get_as("/dpcproviders/listings", Some(&token)).await.body;
    assert_eq!(before["due"], true);
    let confirmed = app
        .post_as("/dpcproviders/listings/attest", &json!({}), Some(&token))
        .await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["due"], false);
    let listings = confirmed.body["locations"]
        .as_array()
        .unwrap()
        .iter()
        .chain(confirmed.body["clinicians"].as_array().unwrap());
    let mut count = 0;
    for listing in listings {
        count += 1;
        assert_eq!(listing["due"], false);
        let at: chrono::DateTime<chrono::Utc> = listing["lastVerified"].as_str().unwrap().parse().unwrap();
        assert!(chrono::Utc::now() - at < chrono::Duration::seconds(30));
    }
    let rows: i64 = sqlx::query_scalar(
        "select count(*) from listing_edits where organisation_id = $1 and field = 'lastVerified' and actor = $2",
    )
    .bind(ORGANISATION)
    .bind(format!("provider:{account}"))
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(rows, count, "one audit row per listing");
    let other: i64 = sqlx::query_scalar(
        "select count(*) from locations where organisation_id <> $1 and last_verified > now() - interval '1 day'",
    )
    .bind(ORGANISATION)
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(other, 0, "other organisations' listings are untouched");
    assert_error(
        &app.post_as("/dpcproviders/listings/attest", &json!({"all": true}), Some(&token))
            .await,
        400,
        "unknown_field",
    );
}

/// A member of Acme who enrols at `location` of `organisation`; the answer.
async fn enrol(app: &TestApp, email: &str, organisation: i64, location: i64) -> Answer {
    let (_, token) = signed_up(app, email, Some(seed::demo::ACME_EMPLOYER_ID)).await;
    set_provider(app, &token, &choice(organisation, location)).await
}

/// `(accepting new patients, closed by a full panel)` of a location.
pub async fn accepting(app: &TestApp, location: i64) -> (bool, bool) {
    sqlx::query_as("select accepting_new_patients, panel_full from locations where id = $1")
        .bind(location)
        .fetch_one(&app.database.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_full_panel_stops_accepting_and_a_departure_reopens_it_and_emails_the_waitlist() {
    let app = TestApp::spawn(60).await;
    let (_, token) = denver_provider(&app).await;
    assert_eq!(
        app.edit_location(
            &token,
            LOCATION,
            &json!({"panelCapacity": 2, "acceptingNewPatients": true})
        )
        .await
        .status,
        200
    );
    assert_eq!(enrol(&app, "one@example.com", ORGANISATION, LOCATION).await.status, 200);
    assert_eq!(accepting(&app, LOCATION).await, (true, false), "one place left");
    let (_, second) = signed_up(&app, "two@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    assert_eq!(
        set_provider(&app, &second, &choice(ORGANISATION, LOCATION))
            .await
            .status,
        200
    );
    assert_eq!(accepting(&app, LOCATION).await, (false, true), "full: closed by itself");
    let audit = app.listing_audit("location", LOCATION).await;
    let last = audit.last().unwrap();
    assert_eq!(
        (last.0.as_str(), last.1.as_str(), &last.3),
        ("capacity", "acceptingNewPatients", &json!(false))
    );
    let third = enrol(&app, "three@example.com", ORGANISATION, LOCATION).await;
    assert_error(&third, 409, "not_accepting");
    assert_eq!(
        third.body["message"],
        "This location is not accepting new patients at the moment"
    );
    // The search shows it closed, without a rebuild.
    app.eventually(
        "the closed clinic leaves the new-patients filter",
        || {
            app.search(
                "page=1&limit=50",
                json!({ "zipCode": "80202", "newPatients": true, "searchDistance": 1 }),
            )
        },
        |answer| answer.status == 200 && !has_location(answer, LOCATION),
    )
    .await;
    let listing = app.get_as("/dpcproviders/listings", Some(&token)).await.body["locations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|location| location["id"] == LOCATION)
        .unwrap()
        .clone();
    assert_eq!(listing["panel"], json!({"members": 2, "full": true}));
    // Accepting while full is refused; the clinic must raise its capacity.
    let refused = app
        .edit_location(&token, LOCATION, &json!({"acceptingNewPatients": true}))
        .await;
    assert_error(&refused, 409, "panel_full");
    assert!(refused.body["message"].as_str().unwrap().contains("2 of 2"));
    // Someone waits; a member moves away; the place opens and the waitlist is told.
    let joined = app
        .post(
            "/member/app/join/wait/list",
            &json!({ "email": "waiting@example.com", "location": LOCATION, "consent": true }),
        )
        .await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    let moved = set_provider(
        &app,
        &second,
        &json!({ "providerId": OTHER_ORGANISATION, "locationId": OTHER_LOCATION, "change": true }),
    )
    .await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    assert_eq!(
        accepting(&app, LOCATION).await,
        (true, false),
        "a place opened: accepting again"
    );
    let told: i64 = sqlx::query_scalar(
        "select count(*) from email_outbox where to_email = 'waiting@example.com' and kind = 'waitlist_open'",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(told, 1, "the waitlist is emailed");
    // A clinic that closes itself is not reopened by a departure.
    assert_eq!(
        app.edit_location(&token, LOCATION, &json!({"acceptingNewPatients": false}))
            .await
            .status,
        200
    );
    sqlx::query("update members set subscription_status = 'inactive' where email = 'one@example.com'")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let mut transaction = app.database.pool.begin().await.unwrap();
    store::capacity::lock(&mut transaction, &[LOCATION]).await.unwrap();
    store::capacity::after_change(&mut transaction, None, Some(LOCATION))
        .await
        .unwrap();
    transaction.commit().await.unwrap();
    assert_eq!(
        accepting(&app, LOCATION).await,
        (false, false),
        "closed by the clinic: stays closed"
    );
    // The clinic opens again; the panel fills up (closed by itself); raising the capacity above
    // the panel reopens it, as the panel's own doing.
    let reopened = app
        .edit_location(&token, LOCATION, &json!({"acceptingNewPatients": true}))
        .await;
    assert_eq!(reopened.status, 200, "{:?}", reopened.body);
    assert_eq!(
        enrol(&app, "four@example.com", ORGANISATION, LOCATION).await.status,
        200
    );
    assert_eq!(
        enrol(&app, "five@example.com", ORGANISATION, LOCATION).await.status,
        200
    );
    assert_eq!(accepting(&app, LOCATION).await, (false, true));
    let raised = app.edit_location(&token, LOCATION, &json!({"panelCapacity": 5})).await;
    assert_eq!(raised.status, 200, "{:?}", raised.body);
    assert_eq!(raised.body["acceptingNewPatients"], true);
    assert_eq!(raised.body["panel"], json!({"members": 2, "full": false}));
    let last = app.listing_audit("location", LOCATION).await;
    let reopening = last.iter().rev().find(|row| row.1 == "acceptingNewPatients").unwrap();
    assert_eq!((reopening.0.as_str(), &reopening.3), ("capacity", &json!(true)));
    // Lowering it to the panel closes it.
    let lowered = app.edit_location(&token, LOCATION, &json!({"panelCapacity": 2})).await;
    assert_eq!(lowered.body["acceptingNewPatients"], false, "{:?}", lowered.body);
    assert_eq!(lowered.body["panel"]["full"], true);
}

#[tokio::test]
async fn two_members_racing_for_the_last_place_one_is_enrolled_the_other_refused() {
    let app = TestApp::spawn(60).await;
    let (_, token) = denver_provider(&app).await;
    for round in 0..6 {
        let members: i64 = sqlx::query_scalar(
            "select count(*) from members where location_id = $1 and subscription_status in ('pending', 'active')",
        )
        .bind(LOCATION)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
        let opened = app
            .edit_location(
                &token,
                LOCATION,
                &json!({"panelCapacity": members + 1, "acceptingNewPatients": true}),
            )
            .await;
        assert_eq!(opened.status, 200, "round {round}: {:?}", opened.body);
        let (_, first) = signed_up(
            &app,
            &format!("a{round}@example.com"),
            Some(seed::demo::ACME_EMPLOYER_ID),
        )
        .await;
        let (_, second) = signed_up(
            &app,
            &format!("b{round}@example.com"),
            Some(seed::demo::ACME_EMPLOYER_ID),
        )
        .await;
        let denver = choice(ORGANISATION, LOCATION);
        let (one, two) = tokio::join!(
            set_provider(&app, &first, &denver),
            set_provider(&app, &second, &denver)
        );
        let statuses = [one.status, two.status];
        assert_eq!(
            statuses.iter().filter(|status| **status == 200).count(),
            1,
            "round {round}: {:?} {:?}",
            one.body,
            two.body
        );
        let refused = if one.status == 200 { &two } else { &one };
        assert_error(refused, 409, "not_accepting");
        assert_eq!(
            refused.body["message"],
            "This location is not accepting new patients at the moment"
        );
        assert_eq!(accepting(&app, LOCATION).await, (false, true), "round {round}");
        let after: i64 = sqlx::query_scalar(
            "select count(*) from members where location_id = $1 and subscription_status in ('pending', 'active')",
        )
        .bind(LOCATION)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
        assert_eq!(after, members + 1, "round {round}: never over capacity");
    }
}

/// The generation a server process is ready with, polled for up to 60 s.
async fn ready_process(client: &reqwest::Client, process: &crate::fleet::Process) -> i64 {
    let started = std::time::Instant::now();
    loop {
        let ready = async {
            let response = client.get(format!("{}/ready", process.address)).send().await.ok()?;
            let body: Value = response.json().await.ok()?;
            body["generation"].as_i64()
        }
        .await;
        if let Some(generation) = ready {
            return generation;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} became ready",
            process.address
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn post_json(client: &reqwest::Client, url: String, body: Value, token: Option<&str>) -> (u16, Value) {
    let request = client.post(url).json(&body);
    let request = match token {
        Some(token) => request.header("x-access-token", token),
        None => request,
    };
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or_default())
}

#[tokio::test]
async fn a_providers_edit_on_one_server_is_searched_on_another_within_two_seconds() {
    api::install_tls_provider();
    let database = crate::fleet::seeded_database(300, 240, 5).await;
    let root = crate::fleet::fleet_root("listings");
    let client = reqwest::Client::new();
    let editing = crate::fleet::spawn_process(&database.url, &root.join("a"));
    let generation = ready_process(&client, &editing).await;
    let searching = crate::fleet::spawn_process(&database.url, &root.join("b"));
    assert_eq!(ready_process(&client, &searching).await, generation);

    // The demo provider signs in on the first server as a person would: the invitation's link,
    // a password, a login.
    let email = "dana@frontrange.example";
    let mut transaction = database.pool.begin().await.unwrap();
    store::providers::invite(&mut transaction, ORGANISATION, email, "Dana", "Demo")
        .await
        .unwrap()
        .expect("invited");
    transaction.commit().await.unwrap();
    let link: String = sqlx::query_scalar(
        "select link from email_outbox where to_email = $1 and kind = 'provider_invite' order by id desc limit 1",
    )
    .bind(email)
    .fetch_one(&database.pool)
    .await
    .unwrap();
    let link_token = link
        .split_once("token=")
        .unwrap()
        .1
        .split('&')
        .next()
        .unwrap()
        .to_owned();
    let a = &editing.address;
    let (status, validated) = post_json(
        &client,
        format!("{a}/member/app/validate/token"),
        json!({"token": link_token}),
        None,
    )
    .await;
    assert_eq!(status, 200, "{validated}");
    let (status, reset) = post_json(
        &client,
        format!("{a}/member/app/password/reset"),
        json!({"password": crate::helpers::PASSWORD, "token": validated["newToken"]}),
        None,
    )
    .await;
    assert_eq!(status, 200, "{reset}");
    let (status, login) = post_json(
        &client,
        format!("{a}/member/app/login"),
        json!({"email": email, "password": crate::helpers::PASSWORD}),
        None,
    )
    .await;
    assert_eq!(status, 200, "{login}");
    let token = login["accessToken"].as_str().unwrap().to_owned();

    let search = json!({"search": {"filters": {"zipCode": "80202", "selectedLanguages": ["eo"], "searchDistance": 1}}});
    let b = &searching.address;
    let (status, before) = post_json(
        &client,
        format!("{b}/member/app/market/search?page=1"),
        search.clone(),
        None,
    )
    .await;
    assert_eq!((status, &before["totalResults"]), (200, &json!(0)), "{before}");

    let edited = client
        .patch(format!("{a}/dpcproviders/locations/{LOCATION}"))
        .header("x-access-token", &token)
        .json(&json!({"languages": ["en", "eo"], "hours": {"sat": [{"opens": "09:00", "closes": "13:00"}]}}))
        .send()
        .await
        .unwrap();
    assert_eq!(edited.status().as_u16(), 200);
    let committed = std::time::Instant::now();
    let seen_after = loop {
        let (status, answer) = post_json(
            &client,
            format!("{b}/member/app/market/search?page=1"),
            search.clone(),
            None,
        )
        .await;
        assert_eq!(status, 200);
        if answer["clinics"]
            .as_array()
            .is_some_and(|clinics| clinics.iter().any(|clinic| clinic["locationId"] == LOCATION))
        {
            break committed.elapsed();
        }
        assert!(
            committed.elapsed() < Duration::from_secs(2),
            "the second server did not show the edit within 2 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    eprintln!(
        "the edit reached the other server's search after {} ms",
        seen_after.as_millis()
    );
    let profile = client
        .get(format!(
            "{b}/member/app/market/provider/{ORGANISATION}?locationId={LOCATION}"
        ))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(profile["hours"]["sat"], json!([{"opens": "09:00", "closes": "13:00"}]));
    assert_eq!(ready_process(&client, &searching).await, generation, "no rebuild");
    drop(searching);
    drop(editing);
    let _ = std::fs::remove_dir_all(&root);
}
