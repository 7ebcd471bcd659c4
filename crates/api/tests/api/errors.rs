//! Bad input gets a clear 4xx JSON error, never a 5xx; the API is documented.

use serde_json::json;

use crate::helpers::{TestApp, assert_error};

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let app = TestApp::spawn(100).await;
    assert_error(
        &app.search("page=0", json!({ "zipCode": "80202" })).await,
        400,
        "invalid_parameter",
    );
    assert_error(
        &app.search("limit=1000", json!({ "zipCode": "80202" })).await,
        400,
        "invalid_parameter",
    );
    assert_error(
        &app.search("page=abc", json!({ "zipCode": "80202" })).await,
        400,
        "invalid_query",
    );
    assert_error(&app.search("lat=40", json!({})).await, 400, "invalid_parameter");
    assert_error(&app.search("lat=91&lng=0", json!({})).await, 400, "invalid_parameter");
    assert_error(
        &app.search("", json!({ "zipCode": "80202", "searchDistance": 12 }))
            .await,
        400,
        "invalid_filter",
    );
    assert_error(
        &app.search("", json!({ "zipCode": "80202", "selectedGenders": ["X"] }))
            .await,
        400,
        "invalid_filter",
    );
    assert_error(
        &app.search("", json!({ "zipCode": "80202", "searchByName": "x".repeat(300) }))
            .await,
        400,
        "invalid_filter",
    );
    let broken = app
        .post_raw("/member/app/market/search", "application/json", "{\"search\": ")
        .await;
    assert_error(&broken, 400, "invalid_body");
    let not_json = app.post_raw("/member/app/market/search", "text/plain", "hello").await;
    assert_error(&not_json, 400, "unsupported_media_type");
    let huge = format!(
        "{{\"search\":{{\"filters\":{{\"searchByName\":\"{}\"}}}}}}",
        "a".repeat(200_000)
    );
    assert_error(
        &app.post_raw("/member/app/market/search", "application/json", huge)
            .await,
        413,
        "payload_too_large",
    );
    for bounds in [
        "nwLng=abc&nwLat=1&seLng=2&seLat=0",
        "nwLng=-105&nwLat=39&seLng=-104&seLat=40",
        "nwLng=-105&nwLat=NaN&seLng=-104&seLat=39",
        "nwLng=-105",
    ] {
        let answer = app.get(&format!("/member/app/market/location/pins?{bounds}")).await;
        assert_eq!(answer.status, 400, "{bounds}: {:?}", answer.body);
    }
    assert_error(
        &app.get("/member/app/market/location/areapins?nwLng=-105&nwLat=40&seLng=-104&seLat=39")
            .await,
        400,
        "invalid_query",
    );
    assert_error(
        &app.get("/member/app/market/location/areapins?nwLng=-105&nwLat=40&seLng=-104&seLat=39&zoom=99")
            .await,
        400,
        "invalid_parameter",
    );
    let sql = app
        .search(
            "",
            json!({ "zipCode": "80202", "searchByName": "'; drop table locations; --", "employer": "x' or '1'='1" }),
        )
        .await;
    assert_eq!(sql.status, 200);
    assert_eq!(
        app.search("", json!({ "zipCode": "80202" })).await.status,
        200,
        "nothing was dropped"
    );
}

#[tokio::test]
async fn unknown_api_paths_are_json_and_other_paths_are_the_web_app() {
    let app = TestApp::spawn(50).await;
    assert_error(&app.get("/member/app/no-such-call").await, 404, "not_found");
    let page = app.get("/marketplace/provider/details/1").await;
    let content_type = page.headers.get("content-type").unwrap().to_str().unwrap().to_owned();
    assert!(content_type.starts_with("text/html"), "{content_type}");
}

#[tokio::test]
async fn the_openapi_document_lists_every_route() {
    let app = TestApp::spawn(50).await;
    let document = app.get("/openapi.json").await;
    assert_eq!(document.status, 200);
    assert_eq!(document.body["openapi"], "3.1.0");
    let paths = document.body["paths"].as_object().unwrap();
    for (path, operations) in paths {
        for method in operations.as_object().unwrap().keys() {
            let concrete = path
                .replace("{dependentId}", "1")
                .replace("{id}", "1")
                .replace("{planID}", "PLN-1001");
            let url = format!("{}{concrete}", app.address);
            let response = match method.as_str() {
                "get" => app.client.get(&url).send().await.unwrap(),
                "post" => app.client.post(&url).json(&json!({})).send().await.unwrap(),
                "put" => app.client.put(&url).json(&json!({})).send().await.unwrap(),
                "patch" => app.client.patch(&url).json(&json!({})).send().await.unwrap(),
                "delete" => app.client.delete(&url).send().await.unwrap(),
                other => panic!("undocumented method {other}"),
            };
            let status = response.status().as_u16();
            let body: serde_json::Value = response.json().await.unwrap_or_default();
            let message = body["message"].as_str().unwrap_or_default();
            assert!(
                !message.starts_with("No route for"),
                "{method} {path} is documented but not served"
            );
            assert!(status < 500, "{method} {path} answered {status}");
        }
    }
    assert!(paths.len() >= 45);
}

#[tokio::test]
async fn answers_are_compressed_when_asked() {
    let app = TestApp::spawn(200).await;
    let response = app
        .client
        .post(format!("{}/member/app/market/search?page=1", app.address))
        .header("accept-encoding", "gzip")
        .json(&json!({ "search": { "filters": { "zipCode": "80202", "searchDistance": 0 } } }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers().get("content-encoding").unwrap(), "gzip");
}

/// The error table and the OpenAPI document name the same codes: each code of the table is
/// documented on an error answer, and each code the document gives an error answer (in a
/// `code` schema, or in backticks with an underscore in the answer's description) is in the table.
#[test]
fn the_openapi_document_and_the_error_table_name_the_same_codes() {
    use std::collections::BTreeSet;

    let document: serde_json::Value = serde_json::from_str(api::routes::health::OPENAPI).unwrap();
    let table: BTreeSet<&str> = api::error_codes::ALL.iter().map(|entry| entry.code).collect();
    let mut documented = BTreeSet::new();
    let mut error_text = String::new();
    collect_error_codes(&document, false, &mut documented, &mut error_text);
    for code in &table {
        let whole_word = error_text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word == *code);
        assert!(
            whole_word,
            "`{code}` is in the error table but no error answer documents it"
        );
    }
    let undocumented: Vec<_> = documented
        .iter()
        .filter(|code| !table.contains(code.as_str()))
        .collect();
    assert!(
        undocumented.is_empty(),
        "documented but not in the error table: {undocumented:?}"
    );
}

/// Walks the document; `in_error` is true under a 4xx/5xx response or an error schema.
fn collect_error_codes(
    value: &serde_json::Value,
    in_error: bool,
    codes: &mut std::collections::BTreeSet<String>,
    text: &mut String,
) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let child_in_error = in_error
                    || key.starts_with('4')
                    || key.starts_with('5')
                    || ["Error", "FieldError", "EnrolmentRefusal", "EligibilityError"].contains(&key.as_str());
                if child_in_error && key == "code" {
                    for code in child.get("enum").and_then(Value::as_array).into_iter().flatten() {
                        codes.extend(code.as_str().map(str::to_owned));
                    }
                    codes.extend(child.get("const").and_then(Value::as_str).map(str::to_owned));
                }
                if child_in_error
                    && key == "description"
                    && let Some(description) = child.as_str()
                {
                    text.push_str(description);
                    text.push('\n');
                    codes.extend(
                        description
                            .split('`')
                            .skip(1)
                            .step_by(2)
                            .filter(|word| {
                                word.contains('_') && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                            })
                            .map(str::to_owned),
                    );
                }
                if child_in_error
                    && let Value::String(code) = child
                    && key == "const"
                {
                    text.push_str(code);
                    text.push('\n');
                }
                collect_error_codes(child, child_in_error, codes, text);
            }
        }
        Value::Array(items) => {
            for item in items {
                if in_error && let Some(word) = item.as_str() {
                    text.push_str(word);
                    text.push('\n');
                }
                collect_error_codes(item, in_error, codes, text);
            }
        }
        _ => {}
    }
}
