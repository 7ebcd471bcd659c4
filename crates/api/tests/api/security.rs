//! Tokens that must not work, links that work once, members who only reach their own record,
//! text that stays text, rate limits, and bad input that writes nothing.

use api::error_codes as codes;
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, assert_error, jane_form};

/// Every call that needs a signed-in member, with a body that would otherwise be accepted.
fn protected_calls() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("GET", "/member/app/member/info", Value::Null),
        ("GET", "/member/app/home", Value::Null),
        ("GET", "/member/app/account", Value::Null),
        ("POST", "/member/app/confirm/info", jane_form()),
        ("PUT", "/member/app/personal/info", jane_form()),
        ("POST", "/member/app/eligibility", json!({})),
        (
            "POST",
            "/member/app/password/change",
            json!({ "currentPassword": PASSWORD, "password": "Newer!1234" }),
        ),
        (
            "POST",
            "/member/app/change/email",
            json!({ "email": "new@example.com" }),
        ),
        ("POST", "/member/app/family/member/1/market", json!({})),
        (
            "POST",
            "/member/app/set/provider",
            json!({ "providerId": 1, "locationId": 1 }),
        ),
        ("GET", "/member/app/provider/1/postenrollment", Value::Null),
        ("GET", "/member/app/family/members", Value::Null),
        ("POST", "/member/app/family/member", json!({})),
        ("GET", "/member/app/token/dependent/1", Value::Null),
    ]
}

async fn call(app: &TestApp, method: &str, path: &str, body: &Value, token: Option<&str>) -> crate::helpers::Answer {
    match method {
        "GET" => app.get_as(path, token).await,
        "PUT" => app.put_as(path, body, token).await,
        _ => app.post_as(path, body, token).await,
    }
}

fn token_with(secret: &[u8], member_id: i64, issued_seconds_ago: u64, lifetime: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = api::auth::Claims {
        sub: member_id.to_string(),
        iat: now - issued_seconds_ago,
        exp: now - issued_seconds_ago + lifetime,
        ..Default::default()
    };
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(secret),
    )
    .unwrap()
}

#[tokio::test]
async fn missing_forged_expired_and_unsigned_tokens_are_401_and_change_nothing() {
    let app = TestApp::spawn(30).await;
    let (member_id, good) = app.registered_member("jane@example.com").await;
    let secret = b"test-secret-not-for-production-use";
    let forged = token_with(b"another secret entirely", member_id, 0, 3600);
    let expired = token_with(secret, member_id, 7200, 3600);
    let unsigned = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOjEsImV4cCI6OTk5OTk5OTk5OX0.";
    let tampered = {
        let mut parts: Vec<String> = good.split('.').map(str::to_owned).collect();
        parts[1] = parts[1].chars().rev().collect();
        parts.join(".")
    };
    let vanished = token_with(secret, 999_999, 0, 3600);
    let before = app.account_rows().await;
    for (method, path, body) in protected_calls() {
        let anonymous = call(&app, method, path, &body, None).await;
        assert_error(&anonymous, 401, "unauthorized");
        for token in [
            forged.as_str(),
            expired.as_str(),
            unsigned,
            tampered.as_str(),
            "junk",
            vanished.as_str(),
        ] {
            if token == vanished && path.contains("/family/") {
                // A valid signature for a member that is gone manages no dependent: 404 below.
                continue;
            }
            let answer = call(&app, method, path, &body, Some(token)).await;
            assert_eq!(answer.status, 401, "{method} {path} with {token}: {:?}", answer.body);
            assert_eq!(answer.body["code"], "unauthorized");
        }
    }
    assert_eq!(app.account_rows().await, before, "nothing written");
    assert_eq!(app.member_info(&good).await.status, 200, "the real token still works");
}

#[tokio::test]
async fn one_time_links_work_once_expire_and_keep_to_their_purpose() {
    let app = TestApp::spawn(30).await;
    app.registered_member("links@example.com").await;

    // Reuse.
    app.request_password_reset("links@example.com").await;
    let reset = app.link_token("links@example.com", "password_reset").await;
    assert_eq!(app.validate_token(&reset).await.status, 200);
    assert_error(&app.validate_token(&reset).await, 401, "link_expired");

    // Expiry, moved back in SQL.
    app.request_password_reset("links@example.com").await;
    let reset = app.link_token("links@example.com", "password_reset").await;
    app.request_magic_link("links@example.com").await;
    let magic = app.link_token("links@example.com", "magic_link").await;
    sqlx::query("update one_time_tokens set expires_at = now() - interval '1 second' where used_at is null")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let expired = app.validate_token(&reset).await;
    assert_error(&expired, 401, "link_expired");
    assert_eq!(expired.body["message"], codes::LINK_NOT_VALID.text());
    assert_error(&app.password_reset("Fresh!1234", &reset).await, 403, "link_expired");
    assert_error(&app.set_password("Fresh!1234", &reset).await, 403, "link_expired");
    assert_error(
        &app.login_with_magic_link(&magic, None).await,
        403,
        "magic_link_expired",
    );

    // Purposes do not mix.
    app.request_magic_link("links@example.com").await;
    let magic = app.link_token("links@example.com", "magic_link").await;
    assert_error(&app.validate_token(&magic).await, 401, "link_expired");
    assert_error(&app.password_reset("Fresh!1234", &magic).await, 403, "link_expired");
    assert_error(&app.confirm_account(&magic).await, 403, "link_expired");
    app.request_password_reset("links@example.com").await;
    let reset = app.link_token("links@example.com", "password_reset").await;
    assert_error(
        &app.login_with_magic_link(&reset, None).await,
        403,
        "magic_link_expired",
    );
    // The refused attempts did not spend them.
    assert_eq!(app.login_with_magic_link(&magic, None).await.status, 200);
    assert_eq!(app.validate_token(&reset).await.status, 200);

    // Tokens nobody issued, of every shape.
    for forged in [
        "",
        "x",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "' or '1'='1",
        &"A".repeat(5000),
    ] {
        assert_error(&app.validate_token(forged).await, 401, "link_expired");
        assert_error(
            &app.login_with_magic_link(forged, None).await,
            403,
            "magic_link_expired",
        );
        assert_error(&app.password_reset("Fresh!1234", forged).await, 403, "link_expired");
        if !forged.is_empty() && forged.len() < 100 && !forged.contains('\'') {
            assert_error(&app.confirm_account(forged).await, 403, "link_expired");
        }
    }
    // The stored hashes are not the tokens.
    let stored: Vec<Vec<u8>> = sqlx::query_scalar("select token_hash from one_time_tokens")
        .fetch_all(&app.database.pool)
        .await
        .unwrap();
    assert!(
        stored
            .iter()
            .all(|hash| hash.len() == 32 && hash.as_slice() != reset.as_bytes())
    );
}

#[tokio::test]
async fn a_password_change_ends_outstanding_links() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("ends@example.com").await;
    app.request_password_reset("ends@example.com").await;
    let reset = app.link_token("ends@example.com", "password_reset").await;
    assert_eq!(app.password_change(&access, PASSWORD, "Newer!1234").await.status, 200);
    assert_error(&app.validate_token(&reset).await, 401, "link_expired");
}

#[tokio::test]
async fn members_reach_only_their_own_records() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = app.registered_member("jane@example.com").await;
    let (bob_id, bob) = app.registered_member("bob@example.com").await;
    assert_eq!(app.confirm_info(&jane, &jane_form()).await.status, 200);
    let emma = app.signup(&json!({ "email": "emma@example.com" })).await;
    let emma_id = emma.body["id"].as_i64().unwrap();
    let emma = emma.body["accessToken"].as_str().unwrap().to_owned();
    let confirmed = app
        .confirm_info(
            &emma,
            &json!({
                "firstName": "Emma", "lastName": "Doe", "dob": seed::demo::CHILD_DATE_OF_BIRTH, "gender": "f",
                "memberId": seed::demo::CHILD_MEMBER_ID, "planId": seed::demo::ACME_PLAN_ID,
                "subscriberRelation": "Dependent", "subscriberMemberId": seed::demo::SUBSCRIBER_MEMBER_ID,
            }),
        )
        .await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);

    // Ids in bodies are ignored: each call acts on the caller.
    let bob_before = app.member_info(&bob).await.body;
    let mut hijack = jane_form();
    hijack["id"] = json!(bob_id);
    hijack["email"] = json!("jane@example.com");
    hijack["firstName"] = json!("Hijacked");
    let saved = app.personal_info(&jane, &hijack).await;
    assert_eq!(saved.body["id"], jane_id);
    assert_eq!(app.member_info(&bob).await.body, bob_before, "Bob is untouched");
    assert_eq!(app.member_info(&bob).await.body["id"], bob_id);

    // A subscriber may act for their own dependent, nobody else's: another member's id is
    // forbidden, an id nobody has is not found.
    let search = json!({ "search": { "filters": { "zipCode": "80202" } } });
    let path = format!("/member/app/family/member/{emma_id}/market");
    assert_eq!(app.post_as(&path, &search, Some(&jane)).await.status, 200);
    assert_error(&app.post_as(&path, &search, Some(&bob)).await, 403, "forbidden");
    let jane_path = format!("/member/app/family/member/{jane_id}/market");
    assert_error(&app.post_as(&jane_path, &search, Some(&emma)).await, 403, "forbidden");
    assert_error(
        &app.get_as(
            &format!("/member/app/family/member/{emma_id}/market/provider/1"),
            Some(&bob),
        )
        .await,
        403,
        "forbidden",
    );
    let nobody = app
        .post_as("/member/app/family/member/999999/market", &search, Some(&jane))
        .await;
    assert_error(&nobody, 404, "not_found");
    assert_eq!(nobody.body["message"], codes::NO_DEPENDENT.text());
}

#[tokio::test]
async fn sql_metacharacters_are_stored_literally() {
    let app = TestApp::spawn(30).await;
    let nasty = "Robert'); drop table members; --";
    let quoted = "x' or '1'='1";
    let signup = app
        .signup(&json!({
            "email": "o'brien+tag@example.com",
            "firstName": nasty,
            "lastName": quoted,
            "companyName": "Acme'; delete from employers; --",
            "phone": "303 555 0123",
        }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    let access = signup.body["accessToken"].as_str().unwrap().to_owned();
    let info = app.member_info(&access).await;
    assert_eq!(info.body["firstName"], nasty);
    assert_eq!(info.body["lastName"], quoted);
    assert_eq!(info.body["companyName"], "Acme'; delete from employers; --");
    assert_eq!(info.body["email"], "o'brien+tag@example.com");

    let form = json!({
        "firstName": quoted, "lastName": nasty, "dob": "1985-04-12", "gender": "f", "memberId": "123-456789",
        "planId": seed::demo::ACME_PLAN_ID, "subscriberRelation": "Self",
    });
    assert_error(&app.confirm_info(&access, &form).await, 400, "eligibility_not_verified");
    assert_eq!(app.member_info(&access).await.body["firstName"], quoted);
    let mut bad_id = form.clone();
    bad_id["memberId"] = json!("1' or '1'='1");
    assert_error(&app.confirm_info(&access, &bad_id).await, 400, "special_characters");

    for email in ["' or '1'='1", "a@b.com' --", "x@example.com; drop table members"] {
        assert_eq!(app.login(email, quoted).await.status, 400, "{email}");
        assert_eq!(app.request_password_reset(email).await.status, 400, "{email}");
        assert_eq!(app.verify(&email.replace(' ', "%20")).await.status, 400, "{email}");
    }
    assert_error(
        &app.login("o'brien+tag@example.com", quoted).await,
        401,
        "invalid_credentials",
    );
    assert_eq!(app.validate_email("o'brien+tag@example.com").await.body["valid"], false);

    // Everything is still there.
    let counts: (i64, i64, i64) = sqlx::query_as(
        "select (select count(*) from members), (select count(*) from employers), (select count(*) from eligibility_roster)",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(counts.0, 1);
    assert!(counts.1 >= 4 && counts.2 >= 7, "{counts:?}");
}

#[tokio::test]
async fn repeated_failures_are_refused_with_429() {
    let app = TestApp::spawn(30).await;
    app.registered_member("limited@example.com").await;
    for _ in 0..5 {
        assert_error(
            &app.login("limited@example.com", "Wrong!1234").await,
            401,
            "invalid_credentials",
        );
    }
    let limited = app.login("limited@example.com", "Wrong!1234").await;
    assert_error(&limited, 429, "too_many_requests");
    assert_eq!(limited.body["message"], codes::TOO_MANY_REQUESTS.text());
    assert_error(
        &app.login("limited@example.com", PASSWORD).await,
        429,
        "too_many_requests",
    );
    // A link request is never refused for its address (it only mails the owner's inbox); the
    // address's own budget still counts it.
    for _ in 0..6 {
        assert_eq!(app.request_password_reset("limited@example.com").await.status, 200);
    }
    app.settle_link_requests().await;
    assert_eq!(
        app.emails_to("limited@example.com").await,
        7,
        "one verification and six resets (this server has no link interval)"
    );
    // Other emails are not affected by this one's limits.
    assert_eq!(app.request_magic_link("other@example.com").await.status, 200);
}

#[tokio::test]
async fn a_client_that_tries_many_emails_is_limited() {
    let app = TestApp::spawn_with(30, |config| {
        config.rate_limit_per_client = 3;
        config.rate_limit_per_email = 100;
    })
    .await;
    for n in 0..3 {
        let answer = app.request_password_reset(&format!("probe{n}@example.com")).await;
        assert_eq!(answer.status, 200);
    }
    assert_error(
        &app.request_password_reset("probe9@example.com").await,
        429,
        "too_many_requests",
    );
    assert_error(
        &app.login("probe9@example.com", "Wrong!1234").await,
        429,
        "too_many_requests",
    );
}

#[tokio::test]
async fn the_client_address_can_come_from_a_proxy_header() {
    let app = TestApp::spawn_with(30, |config| {
        config.rate_limit_per_client = 1;
        config.client_ip_header = Some("x-forwarded-for".into());
    })
    .await;
    let ask = |address: &'static str| {
        app.client
            .post(format!("{}/member/app/request/magic/link", app.address))
            .header("x-forwarded-for", address)
            .json(&json!({ "email": "proxy@example.com" }))
            .send()
    };
    // The proxy appended 203.0.113.7; the entry left of it is the client's own writing.
    assert_eq!(ask("198.51.100.9, 203.0.113.7").await.unwrap().status(), 200);
    assert_eq!(ask("203.0.113.7").await.unwrap().status(), 429);
    assert_eq!(ask("10.0.0.1, 203.0.113.7").await.unwrap().status(), 429);
    assert_eq!(ask("198.51.100.2").await.unwrap().status(), 200);
}

#[tokio::test]
async fn bad_bodies_get_json_4xx_and_write_nothing() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("bodies@example.com").await;
    let before = app.account_rows().await;
    let huge = format!("{{\"email\":\"{}\"}}", "a".repeat(100_000));
    let posts = [
        "/member/app/signup",
        "/member/app/validate/email",
        "/member/app/login",
        "/member/app/request/magic/link",
        "/member/app/login/magic/link",
        "/member/app/validate/token",
        "/member/app/request/password/reset",
        "/member/app/password/reset",
        "/member/app/set/password",
        "/member/app/password/validate",
        "/member/app/password/change",
        "/member/app/change/email",
        "/member/app/request/verification",
        "/member/app/confirm/info",
    ];
    for path in posts {
        let bodies: [(&str, String); 5] = [
            ("application/json", "{\"email\": ".into()),
            ("application/json", "[1, 2]".into()),
            (
                "application/json",
                "{\"email\": 5, \"password\": [], \"token\": {}, \"firstName\": {}}".into(),
            ),
            ("text/plain", "email=a@b.co".into()),
            ("application/json", huge.clone()),
        ];
        for (content_type, body) in bodies {
            let answer = app
                .send_raw(reqwest::Method::POST, path, content_type, body.clone(), Some(&access))
                .await;
            assert!(
                (400..500).contains(&answer.status),
                "{path} {content_type} {}: {} {:?}",
                &body[..body.len().min(40)],
                answer.status,
                answer.body
            );
            assert!(answer.body["code"].is_string(), "{path}: {:?}", answer.body);
        }
        let empty = app.post_as(path, &json!({}), Some(&access)).await;
        assert!(
            empty.status < 500,
            "{path} with {{}}: {} {:?}",
            empty.status,
            empty.body
        );
    }
    let put = app
        .send_raw(
            reqwest::Method::PUT,
            "/member/app/personal/info",
            "application/json",
            "{\"firstName\": ".into(),
            Some(&access),
        )
        .await;
    assert_error(&put, 400, "invalid_body");
    assert_error(&app.personal_info(&access, &json!({})).await, 400, "required");
    assert_eq!(app.account_rows().await, before, "no member, token or email written");
    for query in ["email=", "email=not-an-email", ""] {
        assert_eq!(
            app.get_as(&format!("/member/app/verify?{query}"), None).await.status,
            400
        );
        assert_eq!(
            app.get_as(&format!("/member/app/send/verification?{query}"), None)
                .await
                .status,
            400
        );
        assert_eq!(
            app.get_as(&format!("/member/app/reset/password?{query}"), None)
                .await
                .status,
            400
        );
    }
    assert_error(
        &app.get_as("/member/app/plans?employerId=abc", None).await,
        400,
        "invalid_query",
    );
}
