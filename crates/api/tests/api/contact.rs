//! How to reach a member: the phone alone (`/account/edit-contact`) and a request to be called
//! back (`/confirm-info`), which support hears of by email at a real SMTP server.

use std::time::Duration;

use api::config::Secret;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error};
use crate::smtp::SmtpSink;

const WAIT: Duration = Duration::from_secs(20);
const SUPPORT: &str = "care-team@nearcare.example";

async fn app_with(sink: &SmtpSink) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(30, move |config| {
        config.smtp_url = Some(Secret(url));
        config.support_email = SUPPORT.into();
    })
    .await
}

/// A member who has just signed up: an email and an employer, nothing else (no gender, no date
/// of birth, no member id): the audience of `/confirm-info`.
async fn new_member(app: &TestApp, email: &str) -> String {
    let signup = app
        .signup(&json!({ "email": email, "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    signup.body["accessToken"].as_str().unwrap().to_owned()
}

async fn request(app: &TestApp, access: &str, body: Value) -> crate::helpers::Answer {
    app.post_as("/member/app/contact/request", &body, Some(access)).await
}

#[tokio::test]
async fn a_new_member_asks_to_be_called_back_with_only_a_name_and_a_phone_and_support_is_emailed() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink).await;
    let access = new_member(&app, "maria@example.com").await;

    // What the page sent before (the whole member through PUT personal/info) was refused for a
    // gender the form never asks; the form's own call needs only what it shows.
    let answer = request(
        &app,
        &access,
        json!({ "firstName": "Maria", "lastName": "Lopez", "phone": "+1 303 555 0123" }),
    )
    .await;
    assert_eq!(answer.status, 201, "{:?}", answer.body);
    assert_eq!(answer.body["message"], "A representative will contact you shortly.");
    assert!(answer.body["eligibilityCheck"].is_null(), "nothing to check yet");
    let info = app.member_info(&access).await.body;
    assert_eq!(info["firstName"], "Maria");
    assert_eq!(info["lastName"], "Lopez");
    assert_eq!(info["phone"], "+13035550123", "the number as typed, in E.164");
    assert!(info["gender"].is_null(), "nothing the form did not ask is invented");

    let stored: (i64, String, String, String, Option<String>) =
        sqlx::query_as("select member_id, first_name, last_name, phone, email from contact_requests where id = $1")
            .bind(answer.body["id"].as_i64().unwrap())
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(stored.0, info["id"].as_i64().unwrap());
    assert_eq!((stored.1.as_str(), stored.2.as_str()), ("Maria", "Lopez"));
    assert_eq!(stored.3, "+13035550123");
    assert_eq!(stored.4.as_deref(), Some("maria@example.com"));

    let message = sink.wait_for(SUPPORT, 1, WAIT).await;
    assert_eq!(message["subject"], "Please call Maria Lopez back", "{message}");
    assert_eq!(message["content_type"], "multipart/alternative");
    let text = message["text"].as_str().unwrap();
    assert!(text.contains("Phone: +13035550123"), "{text}");
    assert!(text.contains("maria@example.com"), "{text}");
    assert!(
        message["html"].as_str().unwrap().contains("tel:+13035550123"),
        "{message}"
    );
}

#[tokio::test]
async fn a_contact_request_refuses_what_it_does_not_ask_and_numbers_that_are_not_phones() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink).await;
    let access = new_member(&app, "pat@example.com").await;
    let good = json!({ "firstName": "Pat", "lastName": "Lee", "phone": "303 555 0123" });
    for (change, field, code) in [
        (json!({ "phone": null }), "phone", "required"),
        (json!({ "firstName": "" }), "firstName", "required"),
        // What the old mask made of "+1 303 555 0123": no area code starts with 1.
        (json!({ "phone": "130 355 5012" }), "phone", "invalid_phone"),
        (json!({ "phone": ["303 555 0123"] }), "phone", "invalid_field"),
    ] {
        let mut body = good.clone();
        for (key, value) in change.as_object().unwrap() {
            body[key] = value.clone();
        }
        let refused = request(&app, &access, body).await;
        assert_error(&refused, 400, code);
        assert_eq!(refused.body["field"], field, "{:?}", refused.body);
    }
    let mut extra = good.clone();
    extra["gender"] = json!("f");
    let refused = request(&app, &access, extra).await;
    assert_error(&refused, 400, "invalid_body");
    assert!(
        refused.body["message"].as_str().unwrap().contains("gender"),
        "{:?}",
        refused.body
    );
    assert_error(
        &app.post_as("/member/app/contact/request", &good, None).await,
        401,
        "unauthorized",
    );
    let count: i64 = sqlx::query_scalar("select count(*) from contact_requests")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(count, 0, "nothing refused is recorded");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(sink.messages_to(SUPPORT).is_empty());
}

#[tokio::test]
async fn the_contact_screen_saves_the_phone_alone() {
    let app = TestApp::spawn(30).await;
    let access = new_member(&app, "sam@example.com").await;
    let saved = app
        .put_as(
            "/member/app/personal/contact",
            &json!({ "phone": "720.555.0100" }),
            Some(&access),
        )
        .await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!(saved.body["phone"], "+17205550100");
    assert!(saved.body["gender"].is_null());
    assert_eq!(app.member_info(&access).await.body["phone"], "+17205550100");
    assert_error(
        &app.put_as(
            "/member/app/personal/contact",
            &json!({ "phone": "720 555 0100", "email": "x@example.com" }),
            Some(&access),
        )
        .await,
        400,
        "invalid_body",
    );
    let refused = app
        .put_as(
            "/member/app/personal/contact",
            &json!({ "phone": "555 0100" }),
            Some(&access),
        )
        .await;
    assert_error(&refused, 400, "invalid_phone");
    assert_eq!(refused.body["field"], "phone");
}
