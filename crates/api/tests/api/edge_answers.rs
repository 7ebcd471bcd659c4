//! What every answer says about itself (issue 25, items 7 and 9): personal answers are not
//! stored by caches, a 413 closes a kept-alive connection, two access tokens are refused, and
//! the map's preview card carries the signed-in member's flags.

use std::time::Duration;

use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::hardening::read_until_closed;
use crate::helpers::{Answer, PASSWORD, TestApp, assert_error};

fn cache_control(answer: &Answer) -> Option<&str> {
    answer.headers.get("cache-control").map(|value| value.to_str().unwrap())
}

#[tokio::test]
async fn answers_with_personal_data_or_a_token_are_never_stored_by_caches() {
    let app = TestApp::spawn(30).await;
    let (_, member) = app.registered_member("private@example.com").await;
    let (_, provider) = app
        .provider_account(seed::demo::DENVER_ORGANISATION_ID, "private.provider@clinic.example")
        .await;
    let signed_up = app.signup(&json!({ "email": "fresh@example.com" })).await;
    let answers = [
        ("login", app.login("private@example.com", PASSWORD).await),
        ("signup", signed_up),
        ("member info", app.member_info(&member).await),
        ("account", app.account(&member).await),
        ("home", app.home(&member).await),
        ("provider", app.get_as("/dpcproviders/me", Some(&provider)).await),
        ("refused login", app.login("private@example.com", "Wrong!1234").await),
        (
            "search with a token",
            app.post_as(
                "/member/app/market/search",
                &json!({ "search": { "filters": { "zipCode": "80202" } } }),
                Some(&member),
            )
            .await,
        ),
    ];
    for (name, answer) in &answers {
        assert!(answer.status < 500, "{name}: {}", answer.status);
        assert_eq!(cache_control(answer), Some("no-store"), "{name}");
    }
    assert!(answers[0].1.body["accessToken"].is_string());
    // Public catalogue answers are left to the usual rules.
    assert_eq!(cache_control(&app.get("/market/specialities").await), None);
}

/// A login whose declared body is over the default 64 KiB limit (refused before routing).
pub(crate) async fn login_over_the_body_limit(client: &reqwest::Client, app: &TestApp) -> reqwest::Response {
    client
        .post(format!("{}/member/app/login", app.address))
        .header("content-type", "application/json")
        .body(format!("{{\"email\":\"{}\"}}", "a".repeat(70 * 1024)))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_413_tells_a_kept_alive_client_the_connection_closes() {
    let app = TestApp::spawn(30).await;
    let host = app.address.trim_start_matches("http://").to_owned();
    // Declared over the limit: refused before the body is read, so what follows on the
    // connection is body, not a next request.
    let mut declared = TcpStream::connect(&host).await.unwrap();
    declared
        .write_all(
            b"POST /member/app/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100000\r\n\r\n{\"email\":\"",
        )
        .await
        .unwrap();
    let (answer, closed) = read_until_closed(&mut declared, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("\r\nconnection: close\r\n"),
        "{answer}"
    );
    assert!(closed, "the server closes the connection");
    // Over the limit without a declared length (chunked): refused while reading, the same.
    let mut chunked = TcpStream::connect(&host).await.unwrap();
    let chunk = "a".repeat(70 * 1024);
    let request = format!(
        "POST /member/app/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n{:x}\r\n{chunk}\r\n",
        chunk.len()
    );
    chunked.write_all(request.as_bytes()).await.unwrap();
    let (answer, closed) = read_until_closed(&mut chunked, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("\r\nconnection: close\r\n"),
        "{answer}"
    );
    assert!(closed);
    // A client that keeps its connection for the next request after a 413 is told not to.
    let client = reqwest::Client::new();
    let refused = login_over_the_body_limit(&client, &app).await;
    assert_eq!(refused.status(), 413);
    assert_eq!(refused.headers()["connection"], "close");
    let next = client.get(format!("{}/health", app.address)).send().await.unwrap();
    assert_eq!(next.status(), 200);
}

#[tokio::test]
async fn two_access_tokens_are_refused_rather_than_one_guessed() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = app.registered_member("jane@example.com").await;
    let (_, bob) = app.registered_member("bob@example.com").await;
    let before = app.account_rows().await;
    for tokens in [
        [jane.as_str(), bob.as_str()],
        [jane.as_str(), "junk"],
        [jane.as_str(), jane.as_str()],
    ] {
        let response = app
            .client
            .get(format!("{}/member/app/member/info", app.address))
            .header("x-access-token", tokens[0])
            .header("x-access-token", tokens[1])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400);
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], "duplicate_access_token", "{body}");
        let changed = app
            .client
            .post(format!("{}/member/app/change/email", app.address))
            .header("x-access-token", tokens[0])
            .header("x-access-token", tokens[1])
            .json(&json!({ "email": "taken.over@example.com" }))
            .send()
            .await
            .unwrap();
        assert_eq!(changed.status(), 400);
    }
    assert_eq!(app.account_rows().await, before, "nothing written");
    assert_eq!(app.member_info(&jane).await.status, 200, "one token is fine");
}

#[tokio::test]
async fn the_preview_card_carries_the_signed_in_members_heart_and_waitlist() {
    let app = TestApp::spawn(50).await;
    let (_, member) = app.registered_member("flags@example.com").await;
    let location = seed::demo::DENVER_WAITLIST_LOCATION_ID;
    let preview = format!("/member/app/market/location/{location}/preview");
    let before = app.get_as(&preview, Some(&member)).await;
    assert_eq!(before.status, 200, "{:?}", before.body);
    assert_eq!(
        (before.body["favorite"].clone(), before.body["waitlisted"].clone()),
        (json!(false), json!(false))
    );

    assert_eq!(
        app.favourite("location", location, true, Some(&member)).await.status,
        200
    );
    let joined = app
        .post_as(
            "/member/app/join/wait/list",
            &json!({ "location": location, "search": { "location": { "lat": 39.72, "lng": -104.95 }, "address": "Denver, CO 80206" } }),
            Some(&member),
        )
        .await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    let after = app.get_as(&preview, Some(&member)).await;
    assert_eq!(after.body["favorite"], true, "{:?}", after.body);
    assert_eq!(after.body["waitlisted"], true, "{:?}", after.body);
    // The same card signed out, or for another member, has neither.
    let signed_out = app.get_as(&preview, None).await;
    assert_eq!(
        (
            signed_out.body["favorite"].clone(),
            signed_out.body["waitlisted"].clone()
        ),
        (json!(false), json!(false))
    );
    let (_, other) = app.registered_member("other.flags@example.com").await;
    let others = app.get_as(&preview, Some(&other)).await;
    assert_eq!(others.body["favorite"], false);
    assert_error(&app.get_as(&preview, Some("junk")).await, 401, "unauthorized");
}
