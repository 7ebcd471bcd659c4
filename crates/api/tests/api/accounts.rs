//! Sign-up, login, one-time links, passwords, the login email and email notifications.

use api::error_codes as codes;
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp, assert_error};

#[tokio::test]
async fn sign_up_answers_a_token_and_emails_a_verification_link_to_set_the_password() {
    let app = TestApp::spawn(30).await;
    let signup = app
        .signup(&json!({ "email": "  Jane.Doe@Example.com ", "employerId": seed::demo::ACME_EMPLOYER_ID, "firstName": "Jane", "lastName": "Doe", "phone": "303-555-0123" }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    assert_eq!(signup.body["accountExists"], false);
    assert_eq!(signup.body["nextStep"], "selectDPC");
    assert_eq!(signup.body["type"], "dpc-member");
    assert_eq!(signup.body["filterMarket"]["company"], seed::demo::ACME_ALIAS);
    let access = signup.body["accessToken"].as_str().unwrap().to_owned();
    let info = app.member_info(&access).await;
    assert_eq!(info.status, 200, "{:?}", info.body);
    assert_eq!(info.body["email"], "jane.doe@example.com");
    assert_eq!(info.body["phone"], "+13035550123", "stored in E.164");
    assert_eq!(info.body["companyName"], seed::demo::ACME_NAME);
    assert_eq!(info.body["setup"], "incomplete");
    assert_eq!(info.body["password"], false);
    assert_eq!(info.body["emailVerified"], false);
    assert!(info.body["eligibility"]["status"].is_null());

    let link = app.link_token("jane.doe@example.com", "verify_email").await;
    let outbox_link: String = sqlx::query_scalar("select link from email_outbox where kind = 'verify_email'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(outbox_link.contains("/auth/reset-password?token="), "{outbox_link}");
    let validated = app.validate_token(&link).await;
    assert_eq!(validated.status, 200, "{:?}", validated.body);
    assert_eq!(validated.body["password"], false);
    assert_eq!(validated.body["valid"], true);
    let new_token = validated.body["newToken"].as_str().unwrap();
    let saved = app.password_reset(PASSWORD, new_token).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!(
        saved.body["message"],
        "Password saved successfully! Please continue to login."
    );

    let login = app.login("JANE.DOE@example.com", PASSWORD).await;
    assert_eq!(login.status, 200, "{:?}", login.body);
    assert_eq!(login.body["nextStep"], "selectDPC");
    assert!(
        login.body["accessToken"]
            .as_str()
            .is_some_and(|token| !token.is_empty())
    );
    let info = app.member_info(login.body["accessToken"].as_str().unwrap()).await;
    assert_eq!(info.body["password"], true);
    assert_eq!(info.body["emailVerified"], true);
}

#[tokio::test]
async fn sign_up_with_a_chosen_provider_asks_to_confirm_the_plan() {
    let app = TestApp::spawn(30).await;
    let query = format!(
        "company={}&location={}",
        seed::demo::DENVER_ORGANISATION_ID,
        seed::demo::DENVER_LOCATION_ID
    );
    let signup = app
        .signup_with_query(
            &query,
            &json!({ "email": "pick@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID }),
        )
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    assert_eq!(signup.body["nextStep"], "confirmPlan");
    let access = signup.body["accessToken"].as_str().unwrap();
    let home = app.home(access).await;
    assert_eq!(home.body["providerId"], seed::demo::DENVER_ORGANISATION_ID);
    assert_eq!(home.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(home.body["setup"], "incomplete");
    let info = app.member_info(access).await;
    assert_eq!(info.body["location"]["id"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(info.body["location"]["name"], seed::demo::DENVER_ORGANISATION_NAME);

    // A location of another provider, or one that does not exist, is refused.
    let wrong = app
        .signup(&json!({ "email": "wrong@example.com", "providerId": seed::demo::NEW_YORK_ORGANISATION_ID, "locationId": seed::demo::DENVER_LOCATION_ID }))
        .await;
    assert_error(&wrong, 400, "unknown_provider");
    assert_error(
        &app.signup(&json!({ "email": "wrong@example.com", "locationId": 999_999 }))
            .await,
        400,
        "unknown_provider",
    );
    // An employer alias in the query names the employer.
    let by_alias = app
        .signup_with_query("company=northwind", &json!({ "email": "alias@example.com" }))
        .await;
    assert_eq!(by_alias.body["filterMarket"]["company"], seed::demo::NORTHWIND_ALIAS);
}

#[tokio::test]
async fn an_unknown_employer_keeps_its_typed_name_and_notify_me_is_stored() {
    let app = TestApp::spawn(30).await;
    let signup = app
        .signup(&json!({ "email": "wait@example.com", "companyName": "Hooli", "notify": true }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    let info = app.member_info(signup.body["accessToken"].as_str().unwrap()).await;
    assert_eq!(info.body["companyName"], "Hooli");
    assert!(info.body["employerId"].is_null());
    assert_eq!(info.body["notify"], true);
    assert_error(
        &app.signup(&json!({ "email": "x@example.com", "employerId": 999_999 }))
            .await,
        400,
        "unknown_employer",
    );
}

#[tokio::test]
async fn a_registered_email_is_reported_and_not_signed_up_again() {
    let app = TestApp::spawn(30).await;
    app.registered_member("taken@example.com").await;
    let before = app.account_rows().await;
    let again = app.signup(&json!({ "email": "Taken@Example.com" })).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["accountExists"], true);
    assert!(again.body["accessToken"].is_null());
    assert_eq!(again.body["message"], codes::EMAIL_TAKEN.text());
    assert_eq!(app.account_rows().await, before, "nothing written");

    let taken = app.validate_email("taken@example.com").await;
    assert_eq!(taken.status, 200);
    assert_eq!(taken.body["valid"], false);
    assert_eq!(taken.body["reason"], "email");
    assert_eq!(taken.body["message"], codes::EMAIL_TAKEN.text());
    let free = app.validate_email("free@example.com").await;
    assert_eq!(free.body["valid"], true);
    let malformed = app.validate_email("not an email").await;
    assert_error(&malformed, 400, "invalid_email");
    assert_eq!(malformed.body["message"], "E-mail must be valid");
}

#[tokio::test]
async fn the_older_sign_up_with_a_password_needs_the_email_verified_before_login() {
    let app = TestApp::spawn(30).await;
    let weak = app
        .signup(&json!({ "email": "old@example.com", "password": "short", "confirmPassword": "short" }))
        .await;
    assert_error(&weak, 400, "weak_password");
    assert_eq!(weak.body["message"], "Password does not meet the security requirements");
    let mismatch = app
        .signup(&json!({ "email": "old@example.com", "password": PASSWORD, "confirmPassword": "Other!123" }))
        .await;
    assert_error(&mismatch, 400, "password_mismatch");
    assert_eq!(mismatch.body["message"], "Password must match");
    let terms = app
        .signup(&json!({ "email": "old@example.com", "password": PASSWORD, "terms_and_conditions": false }))
        .await;
    assert_error(&terms, 400, "required");
    let signup = app
        .signup(&json!({ "email": "old@example.com", "firstName": "Old", "lastName": "Flow", "password": PASSWORD, "confirmPassword": PASSWORD, "terms_and_conditions": true }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    let pending = app.login("old@example.com", PASSWORD).await;
    assert_error(&pending, 403, "email_not_verified");
    assert_eq!(pending.body["message"], codes::EMAIL_NOT_VERIFIED.text());
    let status = app.verify("old@example.com").await;
    assert_eq!(status.body, json!({ "exist": true, "verified": false }));
    let link = app.link_token("old@example.com", "verify_email").await;
    let validated = app.validate_token(&link).await;
    assert_eq!(validated.body["password"], true, "the confirmed-email dialog shows");
    assert_eq!(app.verify("old@example.com").await.body["verified"], true);
    assert_eq!(app.login("old@example.com", PASSWORD).await.status, 200);
    assert_eq!(
        app.verify("nobody@example.com").await.body,
        json!({ "exist": false, "verified": false })
    );
}

#[tokio::test]
async fn a_wrong_password_or_unknown_email_gets_the_same_answer() {
    let app = TestApp::spawn(30).await;
    app.registered_member("jane@example.com").await;
    let wrong = app.login("jane@example.com", "Wrong!1234").await;
    assert_error(&wrong, 401, "invalid_credentials");
    assert_eq!(wrong.body["message"], codes::INVALID_CREDENTIALS.text());
    let unknown = app.login("nobody@example.com", "Wrong!1234").await;
    assert_eq!(unknown.status, wrong.status);
    assert_eq!(unknown.body, wrong.body);
    assert_error(&app.login("jane@example.com", "").await, 400, "required");
    assert_eq!(
        app.login("jane@example.com", "").await.body["message"],
        "Password is required"
    );
    assert_error(&app.login("", PASSWORD).await, 400, "required");
    assert_eq!(app.login("", PASSWORD).await.body["message"], "E-mail is required");
}

#[tokio::test]
async fn a_magic_link_logs_in_once() {
    let app = TestApp::spawn(30).await;
    app.registered_member("magic@example.com").await;
    let asked = app.request_magic_link("magic@example.com").await;
    assert_eq!(asked.status, 200);
    assert_eq!(
        asked.body["message"],
        "If there is an account associated to this e-mail, you will receive a link."
    );
    let token = app.link_token("magic@example.com", "magic_link").await;
    let link: String = sqlx::query_scalar("select link from email_outbox where kind = 'magic_link'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(link.contains("/login?magicLink="), "{link}");
    assert!(link.ends_with("&email=magic%40example.com"), "{link}");
    let wrong_email = app.login_with_magic_link(&token, Some("other@example.com")).await;
    assert_error(&wrong_email, 403, "magic_link_expired");
    let login = app.login_with_magic_link(&token, Some("magic@example.com")).await;
    assert_eq!(login.status, 200, "{:?}", login.body);
    assert!(login.body["accessToken"].is_string());
    assert_eq!(login.body["nextStep"], "selectDPC");
    let again = app.login_with_magic_link(&token, None).await;
    assert_error(&again, 403, "magic_link_expired");
    assert_eq!(again.body["message"], codes::MAGIC_LINK_EXPIRED.text());
    // An unknown email gets the same answer and no email.
    let unknown = app.request_magic_link("nobody@example.com").await;
    assert_eq!(unknown.status, asked.status);
    assert_eq!(unknown.body, asked.body);
    app.settle_link_requests().await;
    assert_eq!(app.emails_to("nobody@example.com").await, 0);
}

#[tokio::test]
async fn a_newer_link_revokes_the_older_one() {
    let app = TestApp::spawn(30).await;
    app.registered_member("two@example.com").await;
    app.request_magic_link("two@example.com").await;
    let first = app.link_token("two@example.com", "magic_link").await;
    app.request_magic_link("two@example.com").await;
    let second = app.link_token("two@example.com", "magic_link").await;
    assert_ne!(first, second);
    assert_error(
        &app.login_with_magic_link(&first, None).await,
        403,
        "magic_link_expired",
    );
    assert_eq!(app.login_with_magic_link(&second, None).await.status, 200);
}

#[tokio::test]
async fn forgot_password_resets_through_the_emailed_link() {
    let app = TestApp::spawn(30).await;
    app.registered_member("forgot@example.com").await;
    let asked = app.request_password_reset("forgot@example.com").await;
    assert_eq!(asked.status, 200);
    let link = app.link_token("forgot@example.com", "password_reset").await;
    let validated = app.validate_token(&link).await;
    assert_eq!(validated.status, 200);
    assert_eq!(validated.body["password"], true);
    let new_token = validated.body["newToken"].as_str().unwrap();
    let same = app.password_reset(PASSWORD, new_token).await;
    assert_error(&same, 400, "password_reused");
    assert_eq!(
        same.body["message"],
        "For security reasons, your new password cannot be the same as your old one."
    );
    let weak = app.password_reset("weakpass", new_token).await;
    assert_error(&weak, 400, "weak_password");
    let saved = app.password_reset("Changed!456", new_token).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_error(
        &app.login("forgot@example.com", PASSWORD).await,
        401,
        "invalid_credentials",
    );
    assert_eq!(app.login("forgot@example.com", "Changed!456").await.status, 200);
    // The exchanged token and the link are spent.
    assert_error(&app.password_reset("Again!789x", new_token).await, 403, "link_expired");
    assert_error(&app.validate_token(&link).await, 401, "link_expired");

    // The GET variant from the confirm-email screen sends a link too.
    let by_query = app.reset_password_by_email("forgot@example.com").await;
    assert_eq!(by_query.status, 200);
    assert_eq!(by_query.body["message"], asked.body["message"]);
    let link = app.link_token("forgot@example.com", "password_reset").await;
    // set/password takes the link token in the header.
    let set = app.set_password("Header!789", &link).await;
    assert_eq!(set.status, 200, "{:?}", set.body);
    assert_eq!(app.login("forgot@example.com", "Header!789").await.status, 200);
}

#[tokio::test]
async fn a_password_reset_request_answers_the_same_for_unknown_emails() {
    let app = TestApp::spawn(30).await;
    app.registered_member("known@example.com").await;
    let known = app.request_password_reset("known@example.com").await;
    app.settle_link_requests().await;
    let before = app.account_rows().await;
    let unknown = app.request_password_reset("unknown@example.com").await;
    assert_eq!(known.status, unknown.status);
    assert_eq!(known.body, unknown.body);
    assert_eq!(
        known.headers.get("content-length"),
        unknown.headers.get("content-length")
    );
    app.settle_link_requests().await;
    assert_eq!(app.account_rows().await, before, "nothing kept for an unknown email");
    assert_error(&app.request_password_reset("nope").await, 400, "invalid_email");
}

#[tokio::test]
async fn a_signed_in_member_changes_their_password() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("change@example.com").await;
    let wrong = app.password_change(&access, "Wrong!1234", "Newer!1234").await;
    assert_error(&wrong, 400, "invalid_password");
    assert_eq!(wrong.body["message"], codes::INVALID_PASSWORD.text());
    assert_eq!(wrong.body["msg"], codes::INVALID_PASSWORD.text());
    let same = app.password_change(&access, PASSWORD, PASSWORD).await;
    assert_error(&same, 400, "password_reused");
    assert_eq!(same.body["msg"], same.body["message"]);
    let weak = app.password_change(&access, PASSWORD, "weak").await;
    assert_error(&weak, 400, "weak_password");
    let missing = app
        .post_as(
            "/member/app/password/change",
            &json!({ "password": "Newer!1234" }),
            Some(&access),
        )
        .await;
    assert_error(&missing, 400, "required");
    assert_eq!(missing.body["field"], "currentPassword");
    let changed = app.password_change(&access, PASSWORD, "Newer!1234").await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    assert_eq!(app.login("change@example.com", "Newer!1234").await.status, 200);
    assert_error(
        &app.password_change("not-a-token", PASSWORD, "Newer!1234").await,
        401,
        "unauthorized",
    );
}

#[tokio::test]
async fn a_member_without_a_password_sets_one_from_settings() {
    let app = TestApp::spawn(30).await;
    let signup = app.signup(&json!({ "email": "first@example.com" })).await;
    let access = signup.body["accessToken"].as_str().unwrap().to_owned();
    let set = app
        .post_as(
            "/member/app/password/reset",
            &json!({ "password": PASSWORD }),
            Some(&access),
        )
        .await;
    assert_eq!(set.status, 200, "{:?}", set.body);
    assert_eq!(app.member_info(&access).await.body["password"], true);
    let again = app
        .post_as(
            "/member/app/password/reset",
            &json!({ "password": "Other!1234" }),
            Some(&access),
        )
        .await;
    assert_error(&again, 403, "password_already_set");
    let anonymous = app
        .post_as("/member/app/password/reset", &json!({ "password": PASSWORD }), None)
        .await;
    assert_error(&anonymous, 403, "link_expired");
}

#[tokio::test]
async fn the_password_policy_can_be_checked_alone() {
    let app = TestApp::spawn(30).await;
    assert_eq!(app.password_validate(PASSWORD).await.body["valid"], true);
    let weak = app.password_validate("password").await;
    assert_eq!(weak.status, 200);
    assert_eq!(weak.body["valid"], false);
    assert_eq!(weak.body["message"], "Password does not meet the security requirements");
    assert_eq!(app.password_validate("").await.body["message"], "Password is required");
}

#[tokio::test]
async fn a_new_login_email_is_confirmed_by_its_link() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("old.address@example.com").await;
    app.registered_member("someone.else@example.com").await;
    let taken = app.change_email(&access, "someone.else@example.com").await;
    assert_error(&taken, 400, "email_taken");
    assert_eq!(taken.body["message"], codes::EMAIL_TAKEN.text());
    assert_error(
        &app.change_email(&access, "old.address@example.com").await,
        400,
        "same_email",
    );
    assert_error(&app.change_email(&access, "bad address").await, 400, "invalid_email");
    let sent = app.change_email(&access, "New.Address@example.com").await;
    assert_eq!(sent.status, 200, "{:?}", sent.body);
    assert_eq!(
        sent.body["message"],
        "Verification link sent to email new.address@example.com"
    );
    // Nothing changes until the link is opened.
    assert_eq!(app.login("old.address@example.com", PASSWORD).await.status, 200);
    let link: String = sqlx::query_scalar("select link from email_outbox where kind = 'change_email'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(link.contains("/auth/confirm?token="), "{link}");
    let token = app.link_token("new.address@example.com", "change_email").await;
    let confirmed = app.confirm_account(&token).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["message"], "Great job! Your account is verified.");
    assert_eq!(confirmed.body["email"], "new.address@example.com");
    assert_eq!(app.login("new.address@example.com", PASSWORD).await.status, 200);
    assert_error(
        &app.login("old.address@example.com", PASSWORD).await,
        401,
        "invalid_credentials",
    );
    assert_error(&app.confirm_account(&token).await, 403, "link_expired");
}

#[tokio::test]
async fn verification_links_are_resent_on_request() {
    let app = TestApp::spawn(30).await;
    app.signup(&json!({ "email": "resend@example.com" })).await;
    let first = app.link_token("resend@example.com", "verify_email").await;
    let sent = app.send_verification("resend@example.com").await;
    assert_eq!(sent.status, 200, "{:?}", sent.body);
    assert_eq!(
        sent.body["message"],
        "Verification link sent to email resend@example.com"
    );
    let second = app.link_token("resend@example.com", "verify_email").await;
    assert_ne!(first, second);
    let missing = app.send_verification("nobody@example.com").await;
    assert_error(&missing, 404, "not_found");
    assert_eq!(missing.body["message"], codes::NO_MEMBER.text());
    // From an old (revoked) link, the expired page asks for a new one.
    let renewed = app.request_verification(&first).await;
    assert_eq!(renewed.status, 200);
    let third = app.link_token("resend@example.com", "verify_email").await;
    assert_ne!(third, second);
    assert_eq!(app.validate_token(&third).await.status, 200);
    // A token nobody issued gets the same answer and sends nothing.
    let before = app.account_rows().await;
    let forged = app
        .request_verification("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        .await;
    assert_eq!(forged.body, renewed.body);
    assert_eq!(app.account_rows().await, before);
}

#[tokio::test]
async fn the_outbox_is_delivered_in_the_background() {
    let app = TestApp::spawn(30).await;
    app.signup(&json!({ "email": "outbox@example.com" })).await;
    let mut delivered = false;
    for _ in 0..50 {
        let sent: Option<chrono::DateTime<chrono::Utc>> =
            sqlx::query_scalar("select sent_at from email_outbox where to_email = 'outbox@example.com'")
                .fetch_one(&app.database.pool)
                .await
                .unwrap();
        if sent.is_some() {
            delivered = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(delivered, "the sender stamps sent_at");
}

#[tokio::test]
async fn set_password_finds_the_link_token_beside_an_access_token() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("both@example.com").await;
    app.request_password_reset("both@example.com").await;
    let link = app.link_token("both@example.com", "password_reset").await;
    let set = app
        .post_as(
            "/member/app/set/password",
            &json!({ "password": "Beside!123", "token": link }),
            Some(&access),
        )
        .await;
    assert_eq!(set.status, 200, "{:?}", set.body);
    assert_eq!(app.login("both@example.com", "Beside!123").await.status, 200);
}

#[tokio::test]
async fn a_signed_in_member_turns_email_notifications_on_and_off() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("notify@example.com").await;
    let (other_id, other) = app.registered_member("other@example.com").await;
    assert_eq!(app.member_info(&access).await.body["notify"], false);

    let on = app.set_notifications(&json!({ "notify": true }), Some(&access)).await;
    assert_eq!(on.status, 200, "{:?}", on.body);
    assert_eq!(on.body, json!({ "notify": true }));
    assert_eq!(app.member_info(&access).await.body["notify"], true);
    assert_eq!(
        app.member_info(&other).await.body["notify"],
        false,
        "another member is unaffected"
    );

    let off = app.set_notifications(&json!({ "notify": false }), Some(&access)).await;
    assert_eq!(off.status, 200, "{:?}", off.body);
    assert_eq!(off.body, json!({ "notify": false }));
    assert_eq!(app.member_info(&access).await.body["notify"], false);

    // Only the caller's row is written, whatever id the body names.
    let own = app
        .set_notifications(&json!({ "notify": true, "id": other_id }), Some(&access))
        .await;
    assert_eq!(own.status, 200, "{:?}", own.body);
    assert_eq!(app.member_info(&other).await.body["notify"], false);
}

#[tokio::test]
async fn the_notification_setting_needs_a_signed_in_member_and_a_boolean() {
    let app = TestApp::spawn(30).await;
    let (id, access) = app.registered_member("strict@example.com").await;
    assert_error(
        &app.set_notifications(&json!({ "notify": true }), None).await,
        401,
        "unauthorized",
    );
    assert_error(
        &app.set_notifications(&json!({ "notify": true }), Some("not-a-token"))
            .await,
        401,
        "unauthorized",
    );
    for body in [
        json!({}),
        json!({ "notify": null }),
        json!({ "notify": "true" }),
        json!({ "notify": 1 }),
        json!({ "notify": [true] }),
        json!(true),
    ] {
        assert_error(&app.set_notifications(&body, Some(&access)).await, 400, "invalid_body");
    }
    let text = app
        .send_raw(
            reqwest::Method::PUT,
            "/member/app/notifications",
            "text/plain",
            "notify=true".into(),
            Some(&access),
        )
        .await;
    assert_error(&text, 400, "unsupported_media_type");
    let broken = app
        .send_raw(
            reqwest::Method::PUT,
            "/member/app/notifications",
            "application/json",
            "{\"notify\": tru".into(),
            Some(&access),
        )
        .await;
    assert_error(&broken, 400, "invalid_body");
    assert_eq!(
        app.member_info(&access).await.body["notify"],
        false,
        "nothing was stored"
    );

    // A token whose account is gone: its sessions ended with it.
    sqlx::query("delete from members where id = $1")
        .bind(id)
        .execute(&app.database.pool)
        .await
        .unwrap();
    app.wait_until_refused(&access).await;
    crate::sessions::assert_ended(
        &app.set_notifications(&json!({ "notify": true }), Some(&access)).await,
        "account_deleted",
    );
}
