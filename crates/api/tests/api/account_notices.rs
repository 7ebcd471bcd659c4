//! The owner hears of every change to their password or login e-mail, at the address the
//! account had (issue 25, item 9): sent through a real SMTP server, with what to do if the
//! change was not theirs.

use std::time::Duration;

use serde_json::json;

use crate::email::app_with;
use crate::helpers::PASSWORD;
use crate::smtp::{SmtpSink, checked_link, token_in};

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn the_owner_is_told_at_the_old_address_when_the_password_or_the_login_email_changes() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink, 30).await;
    let base = app.address.clone();
    let email = "owner@example.com";
    let subjects = || {
        sink.messages_to(email)
            .iter()
            .map(|message| message["subject"].as_str().unwrap_or_default().to_owned())
            .collect::<Vec<_>>()
    };

    // Sign-up and a first password: not a change, no notice.
    app.signup(&json!({ "email": email, "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    let verification = sink.wait_for(email, 1, WAIT).await;
    let validated = app.validate_token(&token_in(&checked_link(&verification, &base))).await;
    let first = app
        .password_reset(PASSWORD, validated.body["newToken"].as_str().unwrap())
        .await;
    assert_eq!(first.status, 200, "{:?}", first.body);
    let login = app.login(email, PASSWORD).await;
    let access = login.body["accessToken"].as_str().unwrap().to_owned();

    // A signed-in change.
    assert_eq!(app.password_change(&access, PASSWORD, "Newer!1234").await.status, 200);
    let notice = sink.wait_for(email, 2, WAIT).await;
    assert_eq!(notice["subject"], "Your Nearcare password was changed");
    let text = notice["text"].as_str().unwrap();
    assert!(text.contains("If it was not you"), "{text}");
    assert!(text.contains("support@nearcare.example"), "{text}");
    assert_eq!(checked_link(&notice, &base), format!("{base}/forgot-password"));

    // A reset through the emailed link.
    assert_eq!(app.request_password_reset(email).await.status, 200);
    let reset = sink.wait_for(email, 3, WAIT).await;
    assert_eq!(reset["subject"], "Reset your password");
    let validated = app.validate_token(&token_in(&checked_link(&reset, &base))).await;
    let saved = app
        .password_reset("Reset!12345", validated.body["newToken"].as_str().unwrap())
        .await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    let notice = sink.wait_for(email, 4, WAIT).await;
    assert_eq!(notice["subject"], "Your Nearcare password was changed");

    // A new login e-mail: the old address is told, with the new one.
    let access = app.login(email, "Reset!12345").await.body["accessToken"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.change_email_with_password(&access, "owner.new@example.com", "Reset!12345")
            .await
            .status,
        200
    );
    let confirmation = sink.wait_for("owner.new@example.com", 1, WAIT).await;
    assert_eq!(sink.messages_to(email).len(), 4, "asking for a change tells nobody yet");
    let confirmed = app
        .confirm_account(&token_in(&checked_link(&confirmation, &base)))
        .await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    let notice = sink.wait_for(email, 5, WAIT).await;
    assert_eq!(notice["subject"], "Your Nearcare login e-mail was changed");
    let text = notice["text"].as_str().unwrap();
    assert!(text.contains("owner.new@example.com"), "{text}");
    assert!(text.contains("support@nearcare.example"), "{text}");
    assert_eq!(checked_link(&notice, &base), format!("{base}/login"));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        sink.messages_to("owner.new@example.com").len(),
        1,
        "the new address gets only its confirmation"
    );
    assert_eq!(
        subjects(),
        [
            "Verify your e-mail address",
            "Your Nearcare password was changed",
            "Reset your password",
            "Your Nearcare password was changed",
            "Your Nearcare login e-mail was changed",
        ]
    );
}
