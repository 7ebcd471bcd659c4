//! The OpenAPI document and the server agree (issue 25, item 8): every call answers a provider
//! token with a status its operation documents, and an error code its schema allows; nullable
//! filters take null, the levels of a search body that are objects refuse it; the pin calls'
//! ignored `lat`/`lng` are still numbers; the facilitator's review link without its token is a
//! malformed request.

use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error};

/// Statuses any call may answer, documented once for all (the `Error` schema's description).
const ANY_CALL: [u16; 6] = [405, 408, 413, 414, 500, 503];

/// `#/components/schemas/X` resolved, once (enough for the response schemas here).
fn resolved<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix("#/")
            .map(|path| path.split('/').fold(document, |node, key| &node[key]))
            .unwrap_or(schema),
        None => schema,
    }
}

#[tokio::test]
async fn every_answer_to_a_provider_token_is_documented_with_its_code() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app
        .provider_account(seed::demo::DENVER_ORGANISATION_ID, "documented@clinic.example")
        .await;
    let document = app.get("/openapi.json").await.body;
    let mut undocumented = Vec::new();
    let mut member_only = 0;
    let mut calls: Vec<(&String, &String, &Value)> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, operations)| {
            operations
                .as_object()
                .unwrap()
                .iter()
                .map(move |(method, operation)| (path, method, operation))
        })
        .collect();
    // Signing out ends the token's session (every later call would be 401 session_ended): last.
    calls.sort_by_key(|(path, method, _)| (path.as_str(), method.as_str()) == ("/member/app/logout", "post"));
    for (path, method, operation) in calls {
        let concrete = path
            .replace("{dependentId}", "1")
            .replace("{id}", "1")
            .replace("{memberId}", "1")
            .replace("{planID}", "PLN-1001");
        let url = format!("{}{concrete}", app.address);
        let request = match method.as_str() {
            "get" => app.client.get(&url),
            "post" => app.client.post(&url).json(&json!({})),
            "put" => app.client.put(&url).json(&json!({})),
            "patch" => app.client.patch(&url).json(&json!({})),
            "delete" => app.client.delete(&url),
            other => panic!("undocumented method {other}"),
        };
        let response = request.header("x-access-token", &provider).send().await.unwrap();
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or_default();
        let code = body["code"].as_str().unwrap_or_default().to_owned();
        if code == "member_only" {
            member_only += 1;
        }
        if ANY_CALL.contains(&status) {
            continue;
        }
        let Some(documented) = operation["responses"].get(status.to_string()) else {
            undocumented.push(format!("{method} {path}: {status} {code} is not documented"));
            continue;
        };
        if code.is_empty() {
            continue;
        }
        let schema = resolved(&document, &documented["content"]["application/json"]["schema"]);
        let allowed = resolved(&document, &schema["properties"]["code"]);
        if let Some(codes) = allowed.get("enum").and_then(Value::as_array)
            && !codes.iter().any(|allowed| allowed == code.as_str())
        {
            undocumented.push(format!("{method} {path}: {status} {code} is not in the schema's codes"));
        }
        let said = documented["description"].as_str().unwrap_or_default();
        if code == "member_only" && !said.contains("`member_only`") {
            undocumented.push(format!("{method} {path}: 403 member_only is not described"));
        }
    }
    assert!(undocumented.is_empty(), "{undocumented:#?}");
    assert!(member_only >= 9, "the member-only calls were reached ({member_only})");
}

#[tokio::test]
async fn nullable_filters_take_null_and_the_search_bodys_objects_do_not() {
    let app = TestApp::spawn(50).await;
    let all_null = json!({ "search": { "filters": {
        "searchByName": null, "newPatients": null, "pediatrics": null, "searchDistance": null,
        "employer": null, "zipCode": "80202", "userZipCode": null, "favorites": null,
    } } });
    let answer = app.post("/member/app/market/search", &all_null).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    let plain = app
        .post(
            "/member/app/market/search",
            &json!({ "search": { "filters": { "zipCode": "80202" } } }),
        )
        .await;
    assert_eq!(
        answer.body["totalResults"], plain.body["totalResults"],
        "null reads as left out"
    );
    for refused in [
        json!({ "search": null }),
        json!({ "search": { "filters": null } }),
        json!({ "search": { "filters": { "zipCode": "80202", "selectedGenders": null } } }),
    ] {
        assert_error(
            &app.post("/member/app/market/search", &refused).await,
            400,
            "invalid_filter",
        );
    }
    // The pin calls' filters are read alike.
    let box_query = "nwLat=40.1&nwLng=-105.3&seLat=39.5&seLng=-104.6";
    let filters = api::mail::percent_encode(r#"{"newPatients":null,"searchDistance":null}"#);
    let pins = app
        .get(&format!(
            "/member/app/market/location/pins?{box_query}&filters={filters}"
        ))
        .await;
    assert_eq!(pins.status, 200, "{:?}", pins.body);
    // `lat` and `lng` are ignored by the pin calls but documented as numbers.
    for call in ["pins", "areapins"] {
        let answer = app
            .get(&format!(
                "/member/app/market/location/{call}?{box_query}&zoom=9&lat=false"
            ))
            .await;
        assert_error(&answer, 400, "invalid_query");
        let fine = app
            .get(&format!(
                "/member/app/market/location/{call}?{box_query}&zoom=9&lat=39.7&lng=-105"
            ))
            .await;
        assert_eq!(fine.status, 200, "{call}: {:?}", fine.body);
    }
}

#[tokio::test]
async fn the_review_link_without_its_token_is_a_malformed_request() {
    let app = TestApp::spawn(30).await;
    let review = "/dpcproviders/participations/review";
    let missing = app.post(review, &json!({ "decision": "approve" })).await;
    assert_error(&missing, 400, "required");
    assert_eq!(missing.body["field"], "token");
    assert_error(
        &app.post(review, &json!({ "decision": "approve", "token": " " })).await,
        400,
        "required",
    );
    assert_error(&app.get(review).await, 400, "invalid_query");
    // A token nobody issued is still an expired link.
    let unknown = json!({ "decision": "approve", "token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    assert_error(&app.post(review, &unknown).await, 410, "review_link_expired");
}
