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
    let signed_in = app.post_as(METADATA, &record(json!(5)), Some(&token)).await;
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

#[tokio::test]
async fn a_record_holds_only_the_specs_fields_at_the_sizes_they_need() {
    let app = TestApp::spawn_with(30, |config| config.metadata_per_minute = 1000).await;
    let mut with_extra = record(json!(5));
    with_extra["somethingElse"] = json!("x");
    let unknown = app.post_as(METADATA, &with_extra, None).await;
    assert_error(&unknown, 400, "invalid_field");
    assert_eq!(unknown.body["field"], "somethingElse");
    for (field, value) in [
        ("addressSearched", json!("a".repeat(301))),
        ("addressSearched", json!(["Denver"])),
        ("filterSearch", json!("f".repeat(1001))),
        ("filterSearch", json!({ "long": "f".repeat(1000) })),
        ("resultsReturned", json!("yes")),
        ("results", json!(-1)),
        ("results", json!(2.5)),
        ("employer", json!({ "name": "Acme" })),
        ("email", json!("e".repeat(255))),
        ("organizationWaitlisted", json!(7)),
    ] {
        let mut body = record(json!(5));
        body[field] = value;
        let refused = app.post_as(METADATA, &body, None).await;
        assert_error(&refused, 400, "invalid_field");
        assert_eq!(refused.body["field"], field, "{:?}", refused.body);
    }
    // The SPA's record, filters as the chips' text, at its longest: accepted.
    let mut longest = record(json!(5));
    longest["addressSearched"] = json!("a".repeat(300));
    longest["filterSearch"] = json!("f".repeat(1000));
    longest["email"] = json!("e".repeat(254));
    assert_eq!(app.post_as(METADATA, &longest, None).await.status, 201);
    // A body past the record's size is refused before it is read.
    let huge = format!("{{\"number\":5,\"addressSearched\":\"{}\"}}", "a".repeat(5000));
    let too_large = app
        .send_raw(reqwest::Method::POST, METADATA, "application/json", huge, None)
        .await;
    assert_error(&too_large, 413, "payload_too_large");
    assert_eq!(app.metadata_events().await.len(), 1);
}

#[tokio::test]
async fn one_client_may_send_a_limited_number_of_records_a_minute() {
    let app = TestApp::spawn_with(30, |config| {
        config.metadata_per_minute = 5;
        config.client_ip_header = Some("x-forwarded-for".into());
    })
    .await;
    let send = |client: String| {
        app.client
            .post(format!("{}{METADATA}", app.address))
            .header("x-forwarded-for", client)
            .json(&json!({ "number": 5, "addressSearched": "Denver, CO" }))
            .send()
    };
    let minute = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            / 60
    };
    // Counts restart with each minute: a run that straddles one is tried again.
    for attempt in 0..3 {
        let client = format!("198.51.100.{attempt}");
        let started = minute();
        let mut statuses = Vec::new();
        for _ in 0..8 {
            statuses.push(send(client.clone()).await.unwrap().status().as_u16());
        }
        if minute() != started {
            continue;
        }
        assert_eq!(statuses, [201, 201, 201, 201, 201, 429, 429, 429]);
        let other = send("203.0.113.8".to_owned()).await.unwrap();
        assert_eq!(other.status(), 201, "another client is counted apart");
        return;
    }
    panic!("three runs each straddled a minute");
}

#[tokio::test]
async fn old_events_are_counted_by_day_and_deleted() {
    let app = TestApp::spawn_with(30, |config| config.analytics_retention_days = 30).await;
    let pool = &app.database.pool;
    for (days_ago, member) in [(40, None), (40, Some(1_i64)), (40, None), (35, None), (2, None)] {
        sqlx::query(
            "insert into analytics_events (name, member_id, properties, created_at)
             values ('search_metadata', $1, '{}', now() - make_interval(days => $2))",
        )
        .bind(member)
        .bind(days_ago)
        .execute(pool)
        .await
        .unwrap();
    }
    // What the job runner does at start and then hourly.
    store::analytics::expire(pool, std::time::Duration::from_secs(30 * 86_400))
        .await
        .unwrap();
    let remaining: i64 = sqlx::query_scalar("select count(*) from analytics_events")
        .fetch_one(pool)
        .await
        .unwrap();
    let daily: Vec<(i64, i64)> =
        sqlx::query_as("select events, signed_in from analytics_daily where name = 'search_metadata' order by day")
            .fetch_all(pool)
            .await
            .unwrap();
    assert_eq!(remaining, 1, "only the recent event is kept");
    assert_eq!(daily, vec![(3, 1), (1, 0)], "each old day counted once");
    // Expiring again changes nothing.
    assert_eq!(
        store::analytics::expire(pool, std::time::Duration::from_secs(30 * 86_400))
            .await
            .unwrap(),
        0
    );
}
