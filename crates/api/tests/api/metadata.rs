//! The marketplace's search metadata record (analytics).

use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error};

const METADATA: &str = "/member/app/metadata";

fn record(number: Value) -> Value {
    json!({
        "addressSearched": "Denver, CO 80202",
        "filterSearch": { "newPatients": true, "searchDistance": 10 },
        "resultsReturned": true,
        "results": 12,
        "employer": "Acme Corporation",
        "addedtoWaitlist": false,
        "organizationWaitlisted": null,
        "email": "visitor@example.com",
        "number": number,
    })
}

impl TestApp {
    /// `(name, member_id, properties)` of every analytics event named search_metadata.
    async fn metadata_events(&self) -> Vec<(String, Option<i64>, Value)> {
        sqlx::query_as(
            "select name, member_id, properties from analytics_events where name = 'search_metadata' order by id",
        )
        .fetch_all(&self.database.pool)
        .await
        .unwrap()
    }
}

#[tokio::test]
async fn a_search_record_is_stored_with_the_member_when_signed_in() {
    let app = TestApp::spawn(50).await;
    let signed_out = app.post_as(METADATA, &record(json!(5)), None).await;
    assert_eq!(signed_out.status, 201, "{:?}", signed_out.body);
    assert!(signed_out.body["id"].is_i64());
    let (member_id, token) = app.registered_member("searcher@example.com").await;
    let mut with_extra = record(json!(5));
    with_extra["somethingElse"] = json!("dropped");
    let signed_in = app.post_as(METADATA, &with_extra, Some(&token)).await;
    assert_eq!(signed_in.status, 201, "{:?}", signed_in.body);
    assert_ne!(signed_in.body["id"], signed_out.body["id"]);
    let events = app.metadata_events().await;
    assert_eq!(
        events,
        vec![
            ("search_metadata".to_owned(), None, record(json!(5))),
            ("search_metadata".to_owned(), Some(member_id), record(json!(5))),
        ]
    );
    // Only `number` is required.
    let minimal = app.post_as(METADATA, &json!({ "number": 5 }), None).await;
    assert_eq!(minimal.status, 201);
}

#[tokio::test]
async fn a_record_whose_number_is_not_5_or_that_is_not_json_is_refused() {
    let app = TestApp::spawn(50).await;
    for number in [json!(4), json!(6), json!("five"), json!(null), json!(5.5)] {
        let refused = app.post_as(METADATA, &record(number.clone()), None).await;
        assert_error(&refused, 400, "invalid_field");
        assert_eq!(refused.body["field"], "number", "{number}");
    }
    let mut without_number = record(json!(5));
    without_number.as_object_mut().unwrap().remove("number");
    assert_error(
        &app.post_as(METADATA, &without_number, None).await,
        400,
        "invalid_field",
    );
    let broken = app
        .send_raw(
            reqwest::Method::POST,
            METADATA,
            "application/json",
            "{\"number\": 5".into(),
            None,
        )
        .await;
    assert_error(&broken, 400, "invalid_body");
    assert_error(&app.post_as(METADATA, &json!([5]), None).await, 400, "invalid_body");
    let untyped = app
        .send_raw(
            reqwest::Method::POST,
            METADATA,
            "text/plain",
            "{\"number\": 5}".into(),
            None,
        )
        .await;
    assert_error(&untyped, 400, "unsupported_media_type");
    assert_error(
        &app.post_as(METADATA, &record(json!(5)), Some("forged")).await,
        401,
        "unauthorized",
    );
    assert!(app.metadata_events().await.is_empty());
}
