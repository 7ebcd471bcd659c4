//! Sessions (docs/accounts-contract.md, "Sessions"): a session per sign-in, signing out and
//! ending sessions from another one, a password change or reset ending the others, the idle and
//! absolute limits (on a moved clock), switched family tokens living with the subscriber's
//! session, a change of email that asks for the password, and links bound to their address
//! and time.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::enrolment::confirmed_jane;
use crate::family::{added, confirm, emma_form, john_form, member_path, token_for};
use crate::helpers::{Answer, PASSWORD, TestApp, assert_error};

const DESKTOP: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const HOUR: Duration = Duration::from_secs(3600);

impl TestApp {
    /// Logs in with a user agent; answers the access token.
    pub async fn login_on_device(&self, email: &str, password: &str, user_agent: &str) -> String {
        let answer = self
            .client
            .post(format!("{}/member/app/login", self.address))
            .header("user-agent", user_agent)
            .json(&json!({ "email": email, "password": password }))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        let body: Value = answer.json().await.unwrap();
        body["accessToken"].as_str().unwrap().to_owned()
    }

    pub async fn sessions(&self, access: &str) -> Answer {
        self.get_as("/member/app/sessions", Some(access)).await
    }

    pub async fn logout(&self, access: &str) -> Answer {
        self.post_as("/member/app/logout", &json!({}), Some(access)).await
    }

    pub async fn end_session(&self, access: &str, id: i64) -> Answer {
        self.send_raw(
            reqwest::Method::DELETE,
            &format!("/member/app/sessions/{id}"),
            "application/json",
            String::new(),
            Some(access),
        )
        .await
    }

    pub async fn end_other_sessions(&self, access: &str) -> Answer {
        self.send_raw(
            reqwest::Method::DELETE,
            "/member/app/sessions",
            "application/json",
            String::new(),
            Some(access),
        )
        .await
    }

    pub async fn change_email_with_password(&self, access: &str, email: &str, current: &str) -> Answer {
        self.post_as(
            "/member/app/change/email",
            &json!({ "email": email, "currentPassword": current }),
            Some(access),
        )
        .await
    }

    /// A stored session's end reason (`None` while open).
    pub async fn end_reason(&self, id: i64) -> Option<String> {
        sqlx::query_scalar("select end_reason from sessions where id = $1")
            .bind(id)
            .fetch_one(&self.database.pool)
            .await
            .unwrap()
    }
}

/// The session id a token names.
pub fn session_of(token: &str) -> i64 {
    let claims = jsonwebtoken::dangerous::insecure_decode::<api::auth::Claims>(token)
        .unwrap()
        .claims;
    claims.sid.unwrap().parse().unwrap()
}

/// Asserts a 401 `session_ended` with its reason.
pub fn assert_ended(answer: &Answer, reason: &str) {
    assert_error(answer, 401, "session_ended");
    assert_eq!(answer.body["reason"], reason, "{:?}", answer.body);
}

#[tokio::test]
async fn each_sign_in_is_a_session_and_ending_one_leaves_the_other_working() {
    let app = TestApp::spawn(30).await;
    let (_, first) = app.registered_member("two@example.com").await;
    let desktop = app.login_on_device("two@example.com", PASSWORD, DESKTOP).await;
    let phone = app.login_on_device("two@example.com", PASSWORD, PHONE).await;
    assert_ne!(session_of(&desktop), session_of(&phone));

    let listed = app.sessions(&desktop).await;
    assert_eq!(listed.status, 200, "{:?}", listed.body);
    assert_eq!(listed.body["idleLimit"], "12 hours");
    assert_eq!(listed.body["absoluteLimit"], "30 days");
    let sessions = listed.body["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 3, "registration's login, the desktop and the phone");
    assert_eq!(sessions[0]["id"], session_of(&desktop), "the current one first");
    assert_eq!(sessions[0]["current"], true);
    assert_eq!(sessions[0]["device"], "Chrome on macOS");
    assert_eq!(sessions[0]["network"], "127.0.0.0/24", "a prefix, never the address");
    assert!(sessions[1..].iter().all(|session| session["current"] == false));
    let phone_row = sessions
        .iter()
        .find(|session| session["id"] == session_of(&phone))
        .unwrap();
    assert_eq!(phone_row["device"], "Safari on iPhone");
    for field in ["createdAt", "lastActiveAt", "expiresAt"] {
        assert!(phone_row[field].is_string(), "{field}: {phone_row}");
    }

    let ended = app.end_session(&desktop, session_of(&phone)).await;
    assert_eq!(ended.status, 200, "{:?}", ended.body);
    // The ended one is refused on every call, signed-in only or not.
    assert_ended(&app.member_info(&phone).await, "ended_elsewhere");
    assert_ended(
        &app.post_as(
            "/member/app/market/search",
            &json!({ "search": { "filters": { "zipCode": "80202" } } }),
            Some(&phone),
        )
        .await,
        "ended_elsewhere",
    );
    assert_eq!(
        app.get_with_token("/member/app/member/info", &phone).await.body["message"],
        "This session was signed out from another device. Please log in again."
    );
    // The others keep working.
    assert_eq!(app.member_info(&desktop).await.status, 200);
    assert_eq!(app.member_info(&first).await.status, 200);
    let listed = app.sessions(&desktop).await;
    assert_eq!(listed.body["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(
        app.end_reason(session_of(&phone)).await.as_deref(),
        Some("ended_elsewhere")
    );

    // Ended already, or not this account's: 404.
    assert_error(
        &app.end_session(&desktop, session_of(&phone)).await,
        404,
        "session_not_found",
    );
    let (_, stranger) = app.registered_member("stranger@example.com").await;
    assert_error(
        &app.end_session(&stranger, session_of(&desktop)).await,
        404,
        "session_not_found",
    );
    assert_eq!(app.member_info(&desktop).await.status, 200, "a stranger ends nothing");
    assert_error(
        &app.get_as("/member/app/sessions/abc", Some(&desktop)).await,
        405,
        "method_not_allowed",
    );
    assert_error(
        &app.send_raw(
            reqwest::Method::DELETE,
            "/member/app/sessions/abc",
            "application/json",
            String::new(),
            Some(&desktop),
        )
        .await,
        400,
        "invalid_path",
    );
    assert_error(&app.sessions("").await, 401, "unauthorized");
}

#[tokio::test]
async fn signing_out_ends_the_session_on_the_server_and_only_it() {
    let app = TestApp::spawn(30).await;
    let (_, first) = app.registered_member("out@example.com").await;
    let second = app.login_on_device("out@example.com", PASSWORD, PHONE).await;
    let signed_out = app.logout(&first).await;
    assert_eq!(signed_out.status, 200, "{:?}", signed_out.body);
    assert_eq!(signed_out.body["message"], "You are signed out.");
    // A copy of the token is refused from now on.
    assert_ended(&app.member_info(&first).await, "signed_out");
    assert_ended(&app.logout(&first).await, "signed_out");
    assert_eq!(app.member_info(&second).await.status, 200);
    assert_error(
        &app.post_as("/member/app/logout", &json!({}), None).await,
        401,
        "unauthorized",
    );
    // The caller's own id in DELETE sessions/{id} signs out too.
    let own = app.end_session(&second, session_of(&second)).await;
    assert_eq!(own.status, 200);
    assert_ended(&app.member_info(&second).await, "signed_out");
}

#[tokio::test]
async fn sign_out_of_all_other_devices_keeps_only_the_callers_session() {
    let app = TestApp::spawn(30).await;
    let (_, first) = app.registered_member("all@example.com").await;
    let phone = app.login_on_device("all@example.com", PASSWORD, PHONE).await;
    let desktop = app.login_on_device("all@example.com", PASSWORD, DESKTOP).await;
    let answer = app.end_other_sessions(&desktop).await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    assert_ended(&app.member_info(&first).await, "ended_elsewhere");
    assert_ended(&app.member_info(&phone).await, "ended_elsewhere");
    assert_eq!(app.member_info(&desktop).await.status, 200);
    let listed = app.sessions(&desktop).await;
    let sessions = listed.body["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["current"], true);
}

#[tokio::test]
async fn a_password_change_ends_every_other_session_and_a_reset_ends_them_all() {
    let app = TestApp::spawn(30).await;
    let (_, thief) = app.registered_member("owner@example.com").await;
    let owner = app.login_on_device("owner@example.com", PASSWORD, DESKTOP).await;
    let changed = app.password_change(&owner, PASSWORD, "Changed!234").await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    let refused = app.member_info(&thief).await;
    assert_ended(&refused, "password_changed");
    assert_eq!(
        refused.body["message"],
        "Your password was changed, so this session was signed out. Please log in again."
    );
    assert_eq!(
        app.member_info(&owner).await.status,
        200,
        "the changer's own session stays"
    );

    // A reset through the emailed link ends every session, the one that asked included.
    let phone = app.login_on_device("owner@example.com", "Changed!234", PHONE).await;
    assert_eq!(app.request_password_reset("owner@example.com").await.status, 200);
    let link = app.link_token("owner@example.com", "password_reset").await;
    let reset = app.password_reset("Reset!2345", &link).await;
    assert_eq!(reset.status, 200, "{:?}", reset.body);
    assert_ended(&app.member_info(&owner).await, "password_changed");
    assert_ended(&app.member_info(&phone).await, "password_changed");
    assert_eq!(app.login("owner@example.com", "Reset!2345").await.status, 200);
}

#[tokio::test]
async fn a_session_ends_after_the_idle_limit_without_a_request() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("idle@example.com").await;
    let other = app.login_on_device("idle@example.com", PASSWORD, PHONE).await;
    // Requests within the limit keep it open, well past the limit since signing in.
    for _ in 0..3 {
        app.move_clock(11 * HOUR);
        assert_eq!(app.member_info(&token).await.status, 200);
    }
    // The other session made no request for 33 hours: not listed, and refused.
    let listed = app.sessions(&token).await;
    let ids: Vec<i64> = listed.body["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|session| session["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [session_of(&token)], "idle sessions are not listed");
    let refused = app.member_info(&other).await;
    assert_ended(&refused, "idle");
    assert_eq!(
        refused.body["message"],
        "You were signed out after 12 hours without activity. Please log in again."
    );
    assert_eq!(app.end_reason(session_of(&other)).await.as_deref(), Some("idle"));

    app.move_clock(12 * HOUR + Duration::from_secs(120));
    assert_ended(&app.member_info(&token).await, "idle");
    // Once ended, it stays ended: coming back in time changes nothing.
    assert_ended(&app.home(&token).await, "idle");
}

#[tokio::test]
async fn a_session_served_by_another_server_is_not_idle_here() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("elsewhere@example.com").await;
    app.move_clock(13 * HOUR);
    // Another server served it an hour ago and wrote that (its batch of last-active times).
    sqlx::query("update sessions set last_active_at = $2 where id = $1")
        .bind(session_of(&token))
        .bind(app.clock_now() - chrono::TimeDelta::hours(1))
        .execute(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(app.member_info(&token).await.status, 200);
}

#[tokio::test]
async fn a_session_ends_at_the_absolute_limit_however_active() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("absolute@example.com").await;
    let mut elapsed = Duration::ZERO;
    while elapsed + 11 * HOUR < 30 * 24 * HOUR {
        app.move_clock(11 * HOUR);
        elapsed += 11 * HOUR;
        assert_eq!(app.home(&token).await.status, 200, "{elapsed:?} after signing in");
    }
    app.move_clock(11 * HOUR);
    let refused = app.member_info(&token).await;
    assert_ended(&refused, "expired");
    assert_eq!(
        refused.body["message"],
        "You were signed out: a session lasts at most 30 days after you log in. Please log in again."
    );
    // A new sign-in is a new session with a new limit.
    let again = app.login("absolute@example.com", PASSWORD).await;
    assert_eq!(again.status, 200);
    assert_eq!(
        app.member_info(again.body["accessToken"].as_str().unwrap())
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn activity_is_written_in_batches_not_per_request() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("batch@example.com").await;
    let stored = || async {
        sqlx::query_scalar::<_, chrono::DateTime<chrono::Utc>>("select last_active_at from sessions where id = $1")
            .bind(session_of(&token))
            .fetch_one(&app.database.pool)
            .await
            .unwrap()
    };
    let before = stored().await;
    app.move_clock(HOUR);
    for _ in 0..5 {
        assert_eq!(app.home(&token).await.status, 200);
    }
    assert_eq!(stored().await, before, "no write per request");
    app.state.sessions.flush().await;
    let after = stored().await;
    assert!(after - before >= chrono::TimeDelta::minutes(59), "{before} -> {after}");
}

#[tokio::test]
async fn a_switched_family_token_lives_and_dies_with_the_subscribers_session() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    assert_eq!(confirm(&app, &jane, emma, &emma_form()).await.body["eligible"], true);
    let john = added(&app, &jane, &john_form()).await;
    let as_emma = token_for(&app, &jane, emma).await.body["accessToken"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.member_info(&as_emma).await.body["id"], emma);

    // A switched token switches back only, never to a sibling.
    let sibling = token_for(&app, &as_emma, john).await;
    assert_error(&sibling, 403, "switched_account");
    assert_eq!(
        sibling.body["message"],
        "Switch back to your own account before switching to another family member."
    );
    // The sessions calls act on the subscriber's sessions: Emma's account has none.
    let listed = app.sessions(&as_emma).await;
    assert_eq!(listed.body["sessions"][0]["id"], session_of(&jane));
    assert_eq!(listed.body["sessions"][0]["current"], true);

    // Switching back closes the switched session.
    let back = token_for(&app, &as_emma, jane_id).await;
    assert_eq!(back.status, 200, "{:?}", back.body);
    let jane_again = back.body["accessToken"].as_str().unwrap().to_owned();
    assert_eq!(
        session_of(&jane_again),
        session_of(&jane),
        "the subscriber's own session"
    );
    assert_ended(&app.member_info(&as_emma).await, "switched_back");

    // A new switch, then the subscriber signs out: the switched token is refused too.
    let as_emma = token_for(&app, &jane, emma).await.body["accessToken"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.member_info(&as_emma).await.status, 200);
    assert_eq!(app.logout(&jane).await.status, 200);
    assert_ended(&app.member_info(&as_emma).await, "signed_out");
    assert_ended(&app.member_info(&jane_again).await, "signed_out");

    // Signing out under a switched token signs the subscriber out. (Jane signed up without a
    // password: her next sign-ins are minted as a login would.)
    let jane = app.session_token(jane_id).await;
    let as_emma = token_for(&app, &jane, emma).await.body["accessToken"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.logout(&as_emma).await.status, 200);
    assert_ended(&app.member_info(&jane).await, "signed_out");

    // A family member removed from the family: the switch into them ends with it.
    let jane = app.session_token(jane_id).await;
    let as_john = token_for(&app, &jane, john).await.body["accessToken"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.member_info(&as_john).await.status, 200);
    assert_eq!(crate::family::delete(&app, &jane, &member_path(john)).await.status, 200);
    let refused = app.wait_until_refused(&as_john).await;
    assert_ended(&refused, "account_deleted");
    assert_eq!(
        app.member_info(&jane).await.status,
        200,
        "the subscriber stays signed in"
    );
}

#[tokio::test]
async fn changing_the_email_asks_for_the_current_password() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("mover@example.com").await;
    let before = app.account_rows().await;
    let missing = app
        .post_as(
            "/member/app/change/email",
            &json!({ "email": "new.home@example.com" }),
            Some(&token),
        )
        .await;
    assert_error(&missing, 400, "required");
    assert_eq!(missing.body["field"], "currentPassword");
    assert_eq!(missing.body["message"], "Password is required");
    let wrong = app
        .change_email_with_password(&token, "new.home@example.com", "Wrong!1234")
        .await;
    assert_error(&wrong, 400, "invalid_password");
    assert_eq!(wrong.body["field"], "currentPassword");
    assert_eq!(app.account_rows().await, before, "nothing sent");
    let sent = app
        .change_email_with_password(&token, "new.home@example.com", PASSWORD)
        .await;
    assert_eq!(sent.status, 200, "{:?}", sent.body);
    assert_eq!(app.emails_to("new.home@example.com").await, 1);
    // Wrong passwords count towards the member's limit (5 in 15 minutes), then 429.
    for _ in 0..4 {
        let again = app
            .change_email_with_password(&token, "other@example.com", "Wrong!1234")
            .await;
        assert_error(&again, 400, "invalid_password");
    }
    assert_error(
        &app.change_email_with_password(&token, "other@example.com", PASSWORD)
            .await,
        429,
        "too_many_requests",
    );

    // An account without a password (signed up, never set one) is asked to set one first.
    let signup = app
        .signup(&json!({ "email": "nopass@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    let no_password = signup.body["accessToken"].as_str().unwrap();
    let refused = app
        .change_email_with_password(no_password, "elsewhere@example.com", "Anything!1")
        .await;
    assert_error(&refused, 403, "password_not_set");
    assert_eq!(app.emails_to("elsewhere@example.com").await, 0);
}

#[tokio::test]
async fn a_change_of_email_link_from_before_a_password_change_or_reset_no_longer_works() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("victim@example.com").await;
    // A thief with the token (and, now, the password) asks to move the account.
    let sent = app
        .change_email_with_password(&token, "thief@example.com", PASSWORD)
        .await;
    assert_eq!(sent.status, 200, "{:?}", sent.body);
    let link = app.link_token("thief@example.com", "change_email").await;
    // The owner changes the password: the thief's link dies with the thief's session.
    let owner = app.login_on_device("victim@example.com", PASSWORD, DESKTOP).await;
    assert_eq!(app.password_change(&owner, PASSWORD, "Mine!2345").await.status, 200);
    assert_error(&app.confirm_account(&link).await, 403, "link_expired");
    assert_eq!(app.member_info(&owner).await.body["email"], "victim@example.com");

    // The same through a reset link.
    let sent = app
        .change_email_with_password(&owner, "thief2@example.com", "Mine!2345")
        .await;
    assert_eq!(sent.status, 200);
    let link = app.link_token("thief2@example.com", "change_email").await;
    assert_eq!(app.request_password_reset("victim@example.com").await.status, 200);
    let reset = app.link_token("victim@example.com", "password_reset").await;
    assert_eq!(app.password_reset("Mine!3456", &reset).await.status, 200);
    assert_error(&app.confirm_account(&link).await, 403, "link_expired");
    let login = app.login("victim@example.com", "Mine!3456").await;
    assert_eq!(login.status, 200, "the owner keeps the account");
}

#[tokio::test]
async fn magic_links_live_ten_minutes_and_only_for_the_address_they_were_sent_to() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("magic@example.com").await;
    assert_eq!(app.request_magic_link("magic@example.com").await.status, 200);
    // The link is issued by the outbox sender after the answer.
    let magic = app.link_token("magic@example.com", "magic_link").await;
    let lifetime: f64 = sqlx::query_scalar(
        "select extract(epoch from expires_at - created_at)::float8 from one_time_tokens
          where purpose = 'magic_link' order by id desc limit 1",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert!((lifetime - 600.0).abs() < 1.0, "{lifetime} s");
    assert_eq!(app.request_password_reset("magic@example.com").await.status, 200);
    let reset = app.link_token("magic@example.com", "password_reset").await;

    // The login moves to another address: links sent to the old one stop working.
    assert_eq!(
        app.change_email_with_password(&token, "moved@example.com", PASSWORD)
            .await
            .status,
        200
    );
    let confirm_link = app.link_token("moved@example.com", "change_email").await;
    assert_eq!(app.confirm_account(&confirm_link).await.status, 200);
    assert_error(
        &app.login_with_magic_link(&magic, None).await,
        403,
        "magic_link_expired",
    );
    assert_error(&app.password_reset("Other!2345", &reset).await, 403, "link_expired");
    // A link sent to the new address works, once, and signs in a new session.
    assert_eq!(app.request_magic_link("moved@example.com").await.status, 200);
    let fresh = app.link_token("moved@example.com", "magic_link").await;
    let signed_in = app.login_with_magic_link(&fresh, Some("moved@example.com")).await;
    assert_eq!(signed_in.status, 200, "{:?}", signed_in.body);
    let magic_token = signed_in.body["accessToken"].as_str().unwrap();
    assert_ne!(session_of(magic_token), session_of(&token));
    assert_error(
        &app.login_with_magic_link(&fresh, None).await,
        403,
        "magic_link_expired",
    );
}

#[tokio::test]
async fn provider_logins_have_sessions_too() {
    let app = TestApp::spawn(30).await;
    let (_, provider) = app
        .provider_account(seed::demo::DENVER_ORGANISATION_ID, "clinic.admin@example.com")
        .await;
    assert_eq!(app.get_as("/dpcproviders/me", Some(&provider)).await.status, 200);
    let listed = app.sessions(&provider).await;
    assert_eq!(listed.body["sessions"][0]["current"], true, "{:?}", listed.body);
    assert_eq!(app.logout(&provider).await.status, 200);
    assert_ended(&app.get_as("/dpcproviders/me", Some(&provider)).await, "signed_out");
}

#[tokio::test]
async fn a_session_ended_without_a_notification_is_refused_after_the_next_resync() {
    let app = TestApp::spawn(30).await;
    let (_, token) = app.registered_member("quiet@example.com").await;
    assert_eq!(app.member_info(&token).await.status, 200, "known to this server");
    // Ended by a transaction that sent no NOTIFY (a notification lost on the way).
    sqlx::query(
        "update sessions set ended_at = now(), end_reason = 'ended_elsewhere', end_xid = pg_current_xact_id()
          where id = $1",
    )
    .bind(session_of(&token))
    .execute(&app.database.pool)
    .await
    .unwrap();
    let started = Instant::now();
    let refused = app.wait_until_refused(&token).await;
    assert_ended(&refused, "ended_elsewhere");
    println!("refused {:?} after the silent end", started.elapsed());
}

impl TestApp {
    /// Polls member info with `token` until its session is refused (at most 10 s; the resync
    /// runs every second) and answers the refusal. (A deleted member's calls may answer 401
    /// `unauthorized` for the moment before the notification arrives.)
    pub async fn wait_until_refused(&self, token: &str) -> Answer {
        self.wait_until_refused_at("/member/app/member/info", token).await
    }

    /// [`TestApp::wait_until_refused`] on another call (a provider's).
    pub async fn wait_until_refused_at(&self, path: &str, token: &str) -> Answer {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let answer = self.get_as(path, Some(token)).await;
            if answer.body["code"] == "session_ended" || Instant::now() > deadline {
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Moves the app's clock forward by `by`.
    pub fn move_clock(&self, by: Duration) {
        self.clock
            .advance(chrono::TimeDelta::from_std(by).expect("a duration in range"));
    }

    /// The app's clock now.
    pub fn clock_now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
    }
}
