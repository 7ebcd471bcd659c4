//! Search, pins, area pins, filter lists, alias, geocoding and employers.

use serde_json::json;

use crate::helpers::{TestApp, assert_error};

#[tokio::test]
async fn search_answers_pages_of_six_nearest_first() {
    let app = TestApp::spawn(800).await;
    let first = app
        .search("page=1&limit=6", json!({ "zipCode": "80202", "searchDistance": 0 }))
        .await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    let clinics = first.body["clinics"].as_array().unwrap();
    assert_eq!(clinics.len(), 6);
    assert_eq!(clinics[0]["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(first.body["currentPage"], 1);
    let total_pages = first.body["totalPages"].as_u64().unwrap();
    assert!(total_pages >= 2);
    let distances: Vec<f64> = clinics.iter().filter_map(|c| c["distance"].as_f64()).collect();
    assert!(distances.windows(2).all(|pair| pair[0] <= pair[1]));
    for field in [
        "entity",
        "id",
        "locationId",
        "name",
        "credentials",
        "address",
        "city",
        "state",
        "zipCode",
        "logo",
        "coordinates",
        "newPatients",
        "isVirtualLocation",
        "homeCare",
        "careModality",
        "speciality",
        "category",
        "services",
    ] {
        assert!(clinics[0].get(field).is_some(), "missing {field}");
    }
    let second = app
        .search("page=2&limit=6", json!({ "zipCode": "80202", "searchDistance": 0 }))
        .await;
    assert_eq!(second.body["currentPage"], 2);
    assert!(second.body["clinics"][0]["distance"].as_f64().unwrap() >= *distances.last().unwrap());
    let beyond = app
        .search(
            &format!("page={}", total_pages + 1),
            json!({ "zipCode": "80202", "searchDistance": 0 }),
        )
        .await;
    assert_eq!(beyond.status, 200);
    assert!(beyond.body["clinics"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn search_takes_the_origin_from_lat_lng_then_user_zip_then_zip() {
    let app = TestApp::spawn(300).await;
    let by_point = app
        .search("lat=40.7506&lng=-73.9972", json!({ "zipCode": "80202" }))
        .await;
    assert_eq!(
        by_point.body["clinics"][0]["locationId"],
        seed::demo::NEW_YORK_LOCATION_ID
    );
    let by_user_zip = app.search("userZipCode=10001", json!({ "zipCode": "80202" })).await;
    assert_eq!(
        by_user_zip.body["clinics"][0]["locationId"],
        seed::demo::NEW_YORK_LOCATION_ID
    );
    let none = app.search("", json!({})).await;
    assert_error(&none, 400, "no_origin");
    let unknown = app.search("", json!({ "zipCode": "00000" })).await;
    assert_error(&unknown, 400, "unknown_zip_code");
}

#[tokio::test]
async fn filters_narrow_the_search() {
    let app = TestApp::spawn(800).await;
    let all = app
        .search("", json!({ "zipCode": "80202", "searchDistance": 0 }))
        .await
        .body["totalResults"]
        .as_u64()
        .unwrap();
    let accepting = app
        .search(
            "",
            json!({ "zipCode": "80202", "searchDistance": 0, "newPatients": true }),
        )
        .await;
    let accepting_total = accepting.body["totalResults"].as_u64().unwrap();
    assert!(accepting_total < all);
    assert!(
        accepting.body["clinics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["newPatients"] == true)
    );
    let women = app
        .search(
            "",
            json!({ "zipCode": "80202", "searchDistance": 0, "selectedGenders": ["F"] }),
        )
        .await;
    assert!(
        women.body["clinicians"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["gender"] == "F")
    );
    let named = app
        .search(
            "",
            json!({ "zipCode": "80202", "searchDistance": 0, "searchByName": "front range" }),
        )
        .await;
    assert_eq!(named.body["clinics"][0]["name"], seed::demo::DENVER_ORGANISATION_NAME);
    let northwind = app
        .search("company=northwind", json!({ "zipCode": "80202", "searchDistance": 0 }))
        .await;
    let allowed = seed::demo::NORTHWIND_NETWORK_ORGANISATION_IDS;
    assert!(
        northwind.body["clinics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| allowed.contains(&c["id"].as_i64().unwrap()))
    );
}

#[tokio::test]
async fn the_new_patients_filter_lists_only_clinicians_accepting_new_patients() {
    let app = TestApp::spawn(800).await;
    let everyone = app.search("", json!({ "zipCode": "80202", "searchDistance": 0 })).await;
    let clinicians = everyone.body["clinicians"].as_array().unwrap();
    assert!(
        clinicians.iter().any(|c| c["newPatients"] == false),
        "Denver's clinicians include some not accepting new patients"
    );
    let accepting = app
        .search(
            "",
            json!({ "zipCode": "80202", "searchDistance": 0, "newPatients": true }),
        )
        .await;
    let clinicians = accepting.body["clinicians"].as_array().unwrap();
    assert!(!clinicians.is_empty());
    assert!(clinicians.iter().all(|c| c["newPatients"] == true), "{clinicians:?}");
}

#[tokio::test]
async fn pins_and_area_pins_cover_a_box() {
    let app = TestApp::spawn(800).await;
    let bounds = "nwLng=-105.3&nwLat=40.1&seLng=-104.6&seLat=39.5";
    let pins = app.get(&format!("/member/app/market/location/pins?{bounds}")).await;
    assert_eq!(pins.status, 200, "{:?}", pins.body);
    let count = pins.body["pins"].as_array().unwrap().len();
    assert!(count > 0 && pins.body["overLimit"] == false);
    let pin = &pins.body["pins"][0];
    for field in ["id", "locationId", "name", "coordinates", "newPatients"] {
        assert!(pin.get(field).is_some(), "missing {field}");
    }
    let areas = app
        .get(&format!("/member/app/market/location/areapins?{bounds}&zoom=8"))
        .await;
    assert_eq!(areas.status, 200, "{:?}", areas.body);
    let summed: u64 = areas.body["areas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["count"].as_u64().unwrap())
        .sum();
    assert_eq!(summed as usize, count, "area pins add up to the pins");
    let accepting = app
        .get(&format!(
            "/member/app/market/location/pins?{bounds}&newPatients=true&serviceTypes=BH"
        ))
        .await;
    assert!(
        accepting.body["pins"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["newPatients"] == true)
    );
    let world = app
        .get("/member/app/market/location/pins?nwLng=-180&nwLat=85&seLng=180&seLat=-85")
        .await;
    assert!(world.body["overLimit"] == false || world.body["pins"].as_array().unwrap().is_empty());
}

/// Percent-encodes a query value.
fn encoded(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (byte as char).to_string(),
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

const DENVER_BOX: &str = "nwLng=-105.3&nwLat=40.1&seLng=-104.6&seLat=39.5";

/// The location ids the search lists (every page, nearest Denver, no distance limit) inside
/// the Denver box.
async fn listed_in_denver_box(app: &TestApp, filters: &serde_json::Value) -> Vec<i64> {
    let mut body = filters.clone();
    body["zipCode"] = json!("80202");
    body["searchDistance"] = json!(0);
    let mut ids = Vec::new();
    for page in 1.. {
        let answer = app.search(&format!("page={page}&limit=50"), body.clone()).await;
        assert_eq!(answer.status, 200, "{:?}", answer.body);
        let clinics = answer.body["clinics"].as_array().unwrap();
        ids.extend(
            clinics
                .iter()
                .filter(|clinic| clinic["isVirtualLocation"] == false)
                .filter(|clinic| {
                    let (lat, lng) = (
                        clinic["coordinates"]["lat"].as_f64().unwrap(),
                        clinic["coordinates"]["lng"].as_f64().unwrap(),
                    );
                    (39.5..=40.1).contains(&lat) && (-105.3..=-104.6).contains(&lng)
                })
                .map(|clinic| clinic["locationId"].as_i64().unwrap()),
        );
        if page >= answer.body["totalPages"].as_u64().unwrap() {
            break;
        }
    }
    ids.sort_unstable();
    ids
}

async fn pins_in_denver_box(app: &TestApp, filters: &serde_json::Value) -> Vec<i64> {
    let path = format!(
        "/member/app/market/location/pins?{DENVER_BOX}&filters={}",
        encoded(&filters.to_string())
    );
    let answer = app.get(&path).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert_eq!(answer.body["overLimit"], false);
    let mut ids: Vec<i64> = answer.body["pins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pin| pin["locationId"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    let areas = app
        .get(
            &path
                .replace("/pins?", "/areapins?")
                .replace("&filters", "&zoom=8&filters"),
        )
        .await;
    assert_eq!(areas.status, 200, "{:?}", areas.body);
    assert_eq!(
        areas.body["total"].as_u64().unwrap() as usize,
        ids.len(),
        "area pins count the same"
    );
    ids
}

#[tokio::test]
async fn pins_and_area_pins_answer_the_search_filters_of_the_list() {
    let app = TestApp::spawn(800).await;
    let everything = pins_in_denver_box(&app, &json!({})).await;
    assert!(everything.len() > 5, "Denver has clinics");
    for filters in [
        json!({ "searchByName": "front range" }),
        json!({ "selectedGenders": ["F"] }),
        json!({ "selectedGroupAndOrganizations": [seed::demo::DENVER_ORGANISATION_NAME] }),
        json!({ "selectedGenders": ["M"], "newPatients": true, "searchDistance": 1 }),
        json!({ "searchByName": "zzzzqqqq" }),
    ] {
        let pins = pins_in_denver_box(&app, &filters).await;
        assert_eq!(pins, listed_in_denver_box(&app, &filters).await, "{filters}");
        assert!(pins.len() < everything.len(), "{filters} narrows the map");
    }
    assert!(
        pins_in_denver_box(&app, &json!({ "searchByName": "zzzzqqqq" }))
            .await
            .is_empty(),
        "no results, no pins"
    );
    assert!(
        pins_in_denver_box(&app, &json!({ "searchByName": "front range" }))
            .await
            .contains(&seed::demo::DENVER_LOCATION_ID)
    );

    // With `filters`, the older parameters are ignored.
    let older = app
        .get(&format!(
            "/member/app/market/location/pins?{DENVER_BOX}&newPatients=true&filters={}",
            encoded("{}")
        ))
        .await;
    assert_eq!(older.body["pins"].as_array().unwrap().len(), everything.len());
}

#[tokio::test]
async fn bad_pin_filters_are_refused_naming_the_field() {
    let app = TestApp::spawn(60).await;
    for (filters, named) in [
        ("{\"newPatients\":\"yes\"}", "filters.newPatients"),
        ("{\"selectedGender\":[\"F\"]}", "filters.selectedGender"),
        ("{\"searchDistance\":12}", "filters.searchDistance"),
        ("{\"selectedGenders\":[\"X\"]}", "selectedGenders"),
        ("not json", "filters"),
    ] {
        for path in ["pins", "areapins"] {
            let answer = app
                .get(&format!(
                    "/member/app/market/location/{path}?{DENVER_BOX}&zoom=8&filters={}",
                    encoded(filters)
                ))
                .await;
            assert_error(&answer, 400, "invalid_filter");
            let message = answer.body["message"].as_str().unwrap();
            assert!(message.contains(named), "{path} {filters}: {message}");
        }
    }
    let conflicting = app
        .get(&format!(
            "/member/app/market/location/pins?{DENVER_BOX}&company=northwind&alias=acme"
        ))
        .await;
    assert_error(&conflicting, 400, "invalid_parameter");
}

#[tokio::test]
async fn filter_lists_and_the_company_alias() {
    let app = TestApp::spawn(400).await;
    let credentials = app.get("/market/credentials/provider").await;
    assert!(credentials.body.as_array().unwrap().iter().any(|c| c == "MD"));
    let specialities = app.get("/market/specialities").await;
    assert!(
        specialities
            .body
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "Family Medicine")
    );
    let names = app.get("/market/organization/company/name?limit=5").await;
    assert_eq!(names.body.as_array().unwrap().len(), 5);
    let restricted = app
        .get("/market/organization/company/name?alias=northwind&limit=500")
        .await;
    assert!(restricted.body.as_array().unwrap().len() <= 3);
    assert_error(
        &app.get("/market/organization/company/name?limit=0").await,
        400,
        "invalid_parameter",
    );
    assert_error(
        &app.get("/market/credentials/provider?alias=nobody-here").await,
        400,
        "invalid_filter",
    );

    let acme = app
        .post("/market/organization/from/alias", &json!({ "company": "acme" }))
        .await;
    assert_eq!(acme.status, 200);
    assert_eq!(acme.body["companyName"], seed::demo::ACME_NAME);
    assert_eq!(acme.body["alias"], "acme");
    assert_error(
        &app.post(
            "/market/organization/from/alias",
            &json!({ "company": "no-such-company" }),
        )
        .await,
        404,
        "not_found",
    );
}

#[tokio::test]
async fn employers_match_exactly_or_by_prefix_and_unknown_names_are_inactive() {
    let app = TestApp::spawn(100).await;
    let prefix = app.get("/member/app/potential/employers?search=acm").await;
    assert_eq!(prefix.body[0]["companyName"], seed::demo::ACME_NAME);
    assert_eq!(prefix.body[0]["status"], "active");
    let exact = app
        .get("/member/app/potential/employers?search=ACME%20CORPORATION")
        .await;
    assert_eq!(exact.body[0]["companyName"], seed::demo::ACME_NAME);
    let unknown = app
        .get("/member/app/potential/employers?search=Vandelay%20Industries")
        .await;
    assert_eq!(
        unknown.body,
        json!([{ "id": null, "companyName": "Vandelay Industries", "status": "inactive" }])
    );
    let all = app.get("/member/app/potential/employers").await;
    assert!(all.body.as_array().unwrap().iter().any(|e| e["status"] == "pending"));
    let sneaky = app.get("/member/app/potential/employers?search=%25").await;
    assert_eq!(
        sneaky.body[0]["id"],
        serde_json::Value::Null,
        "a % is a character, not a wildcard"
    );
}

#[tokio::test]
async fn geocoding_and_autocomplete_work_offline() {
    let app = TestApp::spawn(100).await;
    let address = app
        .post(
            "/member/app/market/locations/geocode",
            &json!({ "address": "1 Main St, Denver, CO 80202" }),
        )
        .await;
    assert_eq!(address.status, 200);
    let location = &address.body["results"][0]["geometry"]["location"];
    assert!((location["lat"].as_f64().unwrap() - 39.75).abs() < 0.05);
    assert_eq!(address.body["results"][0]["formatted_address"], "Denver, CO 80202, USA");
    let reverse = app
        .post(
            "/member/app/market/locations/geocode",
            &json!({ "lat": 40.7506, "lng": -73.9973 }),
        )
        .await;
    assert!(
        reverse.body["results"][0]["formatted_address"]
            .as_str()
            .unwrap()
            .contains("10001")
    );
    assert_error(
        &app.post("/member/app/market/locations/geocode", &json!({ "address": "Qwxyzzy" }))
            .await,
        404,
        "not_found",
    );
    assert_error(
        &app.post("/member/app/market/locations/geocode", &json!({})).await,
        400,
        "invalid_parameter",
    );
    assert_error(
        &app.post("/member/app/market/locations/geocode", &json!({ "lat": 95, "lng": 0 }))
            .await,
        400,
        "invalid_parameter",
    );
    let suggestions = app.get("/member/app/market/locations/autocomplete?input=den").await;
    assert_eq!(suggestions.body["predictions"][0]["description"], "Denver, CO");
    let clinics = app
        .get("/member/app/market/locations/autocomplete?input=front%20ran")
        .await;
    assert!(
        clinics.body["predictions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["kind"] == "clinic")
    );
}

#[tokio::test]
async fn favourites_flag_cards_and_pins_and_the_favourites_filter_keeps_only_them() {
    let app = TestApp::spawn(60).await;
    let signup = app
        .signup(&json!({ "email": "fav@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    let token = signup.body["accessToken"].as_str().unwrap().to_owned();
    let denver = seed::demo::DENVER_LOCATION_ID;
    let marked = app
        .post_as(
            "/member/app/market/favorite",
            &json!({ "entity": "location", "location": denver, "favorite": true }),
            Some(&token),
        )
        .await;
    assert_eq!(marked.status, 200, "{:?}", marked.body);
    let search = |filters: serde_json::Value, token: Option<String>| {
        let app = &app;
        async move {
            app.post_as(
                "/member/app/market/search?page=1&limit=6",
                &json!({ "search": { "filters": filters } }),
                token.as_deref(),
            )
            .await
        }
    };
    let denver_area = json!({ "zipCode": seed::demo::DENVER_ZIP });

    let signed_in = search(denver_area.clone(), Some(token.clone())).await;
    assert_eq!(signed_in.status, 200, "{:?}", signed_in.body);
    let clinics = signed_in.body["clinics"].as_array().unwrap();
    assert!(clinics.len() > 1, "Denver has several clinics");
    for clinic in clinics {
        assert_eq!(clinic["favorite"], clinic["locationId"] == denver, "{clinic}");
    }
    let signed_out = search(denver_area.clone(), None).await;
    assert!(
        signed_out.body["clinics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|clinic| clinic["favorite"] == false)
    );

    let only = search(
        json!({ "zipCode": seed::demo::DENVER_ZIP, "favorites": true }),
        Some(token.clone()),
    )
    .await;
    let ids: Vec<&serde_json::Value> = only.body["clinics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["locationId"])
        .collect();
    assert_eq!(ids, [&json!(denver)]);
    assert_eq!(only.body["totalResults"], 1);
    let nobody = search(json!({ "zipCode": seed::demo::DENVER_ZIP, "favorites": true }), None).await;
    assert_eq!(nobody.body["totalResults"], 0, "signed out, there are no favourites");

    let bounds = "nwLng=-105.3&nwLat=39.95&seLng=-104.7&seLat=39.55";
    let pins = app
        .get_as(&format!("/member/app/market/location/pins?{bounds}"), Some(&token))
        .await;
    assert_eq!(pins.status, 200, "{:?}", pins.body);
    let pins = pins.body["pins"].as_array().unwrap();
    assert!(
        pins.iter()
            .any(|pin| pin["locationId"] == denver && pin["favorite"] == true)
    );
    assert!(pins.iter().filter(|pin| pin["favorite"] == true).count() == 1);
    let favourite_pins = app
        .get_as(
            &format!(
                "/member/app/market/location/pins?{bounds}&filters={}",
                encoded(r#"{"favorites":true}"#)
            ),
            Some(&token),
        )
        .await;
    let ids: Vec<&serde_json::Value> = favourite_pins.body["pins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pin| &pin["locationId"])
        .collect();
    assert_eq!(
        ids,
        [&json!(denver)],
        "the favourites filter keeps the favourite pin alone"
    );
}

#[tokio::test]
async fn a_joined_waitlist_flags_the_members_cards_and_profile_and_nobody_elses() {
    let app = TestApp::spawn(60).await;
    let token_of = |answer: crate::helpers::Answer| answer.body["accessToken"].as_str().unwrap().to_owned();
    let waiting = token_of(
        app.signup(&json!({ "email": "waiting@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID }))
            .await,
    );
    let other = token_of(
        app.signup(&json!({ "email": "other@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID }))
            .await,
    );
    let cherry_creek = seed::demo::DENVER_WAITLIST_LOCATION_ID;
    let joined = app
        .post_as(
            "/member/app/join/wait/list",
            &json!({ "location": cherry_creek, "search": { "address": "Denver, CO 80206", "filters": {} } }),
            Some(&waiting),
        )
        .await;
    assert!(joined.status == 200 || joined.status == 201, "{:?}", joined.body);

    let clinics = |token: Option<String>| {
        let app = &app;
        async move {
            let answer = app
                .post_as(
                    "/member/app/market/search?page=1&limit=50",
                    &json!({ "search": { "filters": { "zipCode": seed::demo::DENVER_WAITLIST_ZIP } } }),
                    token.as_deref(),
                )
                .await;
            assert_eq!(answer.status, 200, "{:?}", answer.body);
            answer.body["clinics"].as_array().unwrap().clone()
        }
    };
    let mine = clinics(Some(waiting.clone())).await;
    assert!(mine.iter().any(|clinic| clinic["locationId"] == cherry_creek));
    for clinic in &mine {
        assert_eq!(clinic["waitlisted"], clinic["locationId"] == cherry_creek, "{clinic}");
    }
    for token in [Some(other.clone()), None] {
        let theirs = clinics(token).await;
        assert!(theirs.iter().all(|clinic| clinic["waitlisted"] == false));
    }

    let profile = |token: Option<String>| {
        let app = &app;
        async move {
            let path = format!(
                "/member/app/market/provider/{}?locationId={cherry_creek}",
                seed::demo::DENVER_ORGANISATION_ID
            );
            let answer = app.get_as(&path, token.as_deref()).await;
            assert_eq!(answer.status, 200, "{:?}", answer.body);
            answer.body["waitlisted"].clone()
        }
    };
    assert_eq!(profile(Some(waiting)).await, true);
    assert_eq!(profile(Some(other)).await, false);
    assert_eq!(profile(None).await, false);
}

const DENVER: &str = "lat=39.7392&lng=-104.9903&page=1&limit=6";

fn location_ids(answer: &crate::helpers::Answer) -> Vec<i64> {
    answer.body["clinics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|clinic| clinic["locationId"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_search_body_with_anything_but_search_filters_is_refused_naming_the_field() {
    let app = TestApp::spawn(300).await;
    for (body, named) in [
        (json!({ "search": { "distance": 5 } }), "search.distance"),
        (json!({ "search": { "searchByName": "zzzz" } }), "search.searchByName"),
        (json!({ "searchDistance": 1 }), "searchDistance"),
        (
            json!({ "search": { "filters": { "distance": 5 } } }),
            "search.filters.distance",
        ),
        (
            json!({ "search": { "filters": { "newPatients": "yes" } } }),
            "search.filters.newPatients",
        ),
        (
            json!({ "search": { "filters": { "employer": 999_999 } } }),
            "search.filters.employer",
        ),
        (json!({ "search": [] }), "search"),
        (json!({ "search": { "filters": 1 } }), "search.filters"),
    ] {
        let answer = app.post(&format!("/member/app/market/search?{DENVER}"), &body).await;
        assert_error(&answer, 400, "invalid_filter");
        let message = answer.body["message"].as_str().unwrap();
        assert!(message.contains(named), "{body}: {message}");
        for rust in ["struct", "i64", "u32", "u8", "SearchFilters", "DistanceSlider"] {
            assert!(
                !message.contains(rust),
                "{body}: the message names a Rust type: {message}"
            );
        }
    }
    // Each level may be left out: an empty body is a search with no filters.
    let unfiltered = app
        .post(&format!("/member/app/market/search?{DENVER}"), &json!({}))
        .await;
    assert_eq!(unfiltered.status, 200, "{:?}", unfiltered.body);
    assert_eq!(
        location_ids(&unfiltered),
        location_ids(&app.search(DENVER, json!({})).await)
    );

    let unknown_parameter = app
        .post(&format!("/member/app/market/search?{DENVER}&distance=5"), &json!({}))
        .await;
    assert_error(&unknown_parameter, 400, "invalid_query");
    assert!(unknown_parameter.body["message"].as_str().unwrap().contains("distance"));
    let pins = app
        .get(&format!("/member/app/market/location/pins?{DENVER_BOX}&distance=5"))
        .await;
    assert_error(&pins, 400, "invalid_query");
    assert!(pins.body["message"].as_str().unwrap().contains("distance"));
    // The origin a pin call may carry is accepted (and needs nothing of it).
    let with_origin = app
        .get(&format!(
            "/member/app/market/location/pins?{DENVER_BOX}&lat=39.7&lng=-104.9&userZipCode=80202&zipCode=80202"
        ))
        .await;
    assert_eq!(with_origin.status, 200, "{:?}", with_origin.body);
}

#[tokio::test]
async fn an_employer_given_by_id_is_that_employer() {
    let app = TestApp::spawn(300).await;
    let northwind = app
        .post("/market/organization/from/alias", &json!({ "company": "northwind" }))
        .await;
    let (id, name) = (
        northwind.body["id"].as_i64().unwrap(),
        northwind.body["companyName"].clone(),
    );
    let by_name = app.search(DENVER, json!({ "employer": name })).await;
    let by_id = app.search(DENVER, json!({ "employer": id })).await;
    assert_eq!(by_id.status, 200, "{:?}", by_id.body);
    assert_eq!(location_ids(&by_id), location_ids(&by_name));
    assert_eq!(by_id.body["totalResults"], by_name.body["totalResults"]);
    let everyone = app.search(DENVER, json!({})).await;
    assert_ne!(
        by_id.body["totalResults"], everyone.body["totalResults"],
        "Northwind's restricted network narrows the answer, so the id was read"
    );
    let pins_by_id = app
        .get(&format!(
            "/member/app/market/location/pins?{DENVER_BOX}&filters={}",
            encoded(&json!({ "employer": id }).to_string())
        ))
        .await;
    let pins_by_name = app
        .get(&format!(
            "/member/app/market/location/pins?{DENVER_BOX}&filters={}",
            encoded(&json!({ "employer": name }).to_string())
        ))
        .await;
    assert_eq!(pins_by_id.status, 200, "{:?}", pins_by_id.body);
    assert_eq!(pins_by_id.body, pins_by_name.body);
}
