//! Clinic, clinician, preview, vendor and solution profiles, and the categories.

use api::error_codes as codes;

use crate::helpers::{TestApp, assert_error};

#[tokio::test]
async fn a_clinic_profile_has_every_block_of_the_spec() {
    let app = TestApp::spawn(200).await;
    let organisation = seed::demo::DENVER_ORGANISATION_ID;
    let profile = app
        .get(&format!(
            "/member/app/market/provider/{organisation}?locationId={}",
            seed::demo::DENVER_LOCATION_ID
        ))
        .await;
    assert_eq!(profile.status, 200, "{:?}", profile.body);
    for field in [
        "companyName",
        "credentials",
        "details",
        "favorite",
        "contracted",
        "contact",
        "services",
        "clinicians",
        "careModality",
        "newPatients",
    ] {
        assert!(profile.body.get(field).is_some(), "missing {field}");
    }
    assert_eq!(profile.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert!(profile.body["contact"]["coordinates"]["lat"].is_number());
    assert!(!profile.body["clinicians"].as_array().unwrap().is_empty());
    assert!(
        profile.body["details"]["description"].as_str().unwrap().len() > 40,
        "descriptions come from PostgreSQL"
    );
    let without_location = app.get(&format!("/member/app/market/provider/{organisation}")).await;
    assert_eq!(without_location.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    let not_found = app.get("/member/app/market/provider/999999").await;
    assert_error(&not_found, 404, "not_found");
    assert_eq!(not_found.body["message"], codes::PROVIDER_NOT_FOUND.text());
    let foreign_location = app
        .get(&format!(
            "/member/app/market/provider/{organisation}?locationId={}",
            seed::demo::NEW_YORK_LOCATION_ID
        ))
        .await;
    assert_error(&foreign_location, 404, "not_found");
    assert_error(&app.get("/member/app/market/provider/abc").await, 400, "invalid_path");
}

#[tokio::test]
async fn clinician_preview_vendor_solution_and_categories() {
    let app = TestApp::spawn(200).await;
    let doctor = app.get("/member/app/market/doctor/1?lat=39.75&lng=-105.0").await;
    assert_eq!(doctor.status, 200);
    assert_eq!(doctor.body["details"]["NPI"].as_str().unwrap().len(), 10);
    assert!(!doctor.body["details"]["description"].as_str().unwrap().is_empty());
    assert!(doctor.body["clinics"][0]["distance"].is_number());
    assert_error(&app.get("/member/app/market/doctor/0").await, 404, "not_found");
    let preview = app
        .get(&format!(
            "/member/app/market/location/{}/preview",
            seed::demo::DENVER_LOCATION_ID
        ))
        .await;
    assert_eq!(preview.body["entity"], "location");
    assert_error(
        &app.get("/member/app/market/location/424242/preview").await,
        404,
        "not_found",
    );
    let categories = app.get("/member/app/market").await;
    let categories = categories.body["categories"].as_array().unwrap().clone();
    assert!(!categories.is_empty());
    let vendor_id = categories
        .iter()
        .flat_map(|c| c["items"].as_array().unwrap().clone())
        .find(|i| i["entity"] == "vendor")
        .unwrap()["id"]
        .clone();
    let vendor = app.get(&format!("/dpcproviders/market/vendor/{vendor_id}")).await;
    assert!(vendor.body["contact"]["email"].as_str().unwrap().contains('@'));
    let solution_id = categories
        .iter()
        .flat_map(|c| c["items"].as_array().unwrap().clone())
        .find(|i| i["entity"] == "solution")
        .unwrap()["id"]
        .clone();
    let solution = app.get(&format!("/dpcproviders/market/solution/{solution_id}")).await;
    assert!(solution.body["details"]["description"].is_string());
    assert_error(&app.get("/dpcproviders/market/vendor/999999").await, 404, "not_found");
    assert_error(&app.get("/dpcproviders/market/solution/999999").await, 404, "not_found");
}

#[tokio::test]
async fn a_dependent_search_needs_a_signed_in_subscriber() {
    let app = TestApp::spawn(100).await;
    let anonymous = app
        .post("/member/app/family/member/1/market", &serde_json::json!({}))
        .await;
    assert_error(&anonymous, 401, "unauthorized");
    let forged = app.get_with_token("/member/app/market/provider/1", "not-a-token").await;
    assert_error(&forged, 401, "unauthorized");
}

#[tokio::test]
async fn a_clinicians_profile_lists_the_ways_of_care_its_cards_show() {
    let app = TestApp::spawn(200).await;
    let found = app
        .search("lat=39.7392&lng=-104.9903&page=1&limit=6", serde_json::json!({}))
        .await;
    let cards = found.body["clinicians"].as_array().unwrap().clone();
    assert!(!cards.is_empty(), "{:?}", found.body);
    for card in cards {
        let profile = app.get(&format!("/member/app/market/doctor/{}", card["id"])).await;
        assert_eq!(profile.status, 200, "{:?}", profile.body);
        let ways = &profile.body["careModality"];
        for (way, offered) in card["careModality"].as_object().unwrap() {
            if offered == true {
                assert_eq!(
                    ways[way], true,
                    "{way} is on the card of clinician {} but not on the profile: {ways}",
                    card["id"]
                );
            }
        }
        if profile.body["clinics"].as_array().unwrap().len() == 1 {
            assert_eq!(ways, &card["careModality"], "one place: the same ways as the card");
        }
    }
}
