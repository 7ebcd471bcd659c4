//! Email delivery against a real SMTP server (aiosmtpd, `scripts/smtp-sink.py`): every kind of
//! message arrives with both parts and working absolute links; an SMTP server that is down
//! delays messages without losing or doubling them; a 550 fails a message after one try; two
//! senders share the outbox without sending anything twice.

use std::collections::HashSet;
use std::time::Duration;

use api::config::Secret;
use api::mail::{Delivery, Mailer, Sender, SenderSettings};
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp};
use crate::smtp::{SmtpSink, checked_link, token_in};

const WAIT: Duration = Duration::from_secs(20);

pub(crate) async fn app_with(sink: &SmtpSink, clinics: usize) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(clinics, move |config| {
        config.smtp_url = Some(Secret(url));
        config.mail_retry_base_ms = 200;
        config.mail_max_attempts = 50;
    })
    .await
}

/// `(state, attempts, link kept, last_error)` of the newest message to `email`.
async fn outbox_row(app: &TestApp, email: &str) -> (String, i32, bool, Option<String>) {
    sqlx::query_as(
        "select state, attempts, link is not null, last_error from email_outbox where to_email = $1 order by id desc limit 1",
    )
    .bind(email)
    .fetch_one(&app.database.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn every_message_arrives_over_smtp_with_both_parts_and_working_absolute_links() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink, 50).await;
    let base = app.address.clone();
    let email = "flow@example.com";

    // Sign-up: the verification link sets the password.
    let signup = app
        .signup(&json!({ "email": email, "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    let message = sink.wait_for(email, 1, WAIT).await;
    assert_eq!(message["subject"], "Verify your e-mail address");
    let link = checked_link(&message, &base);
    assert!(
        link.starts_with(&format!("{base}/auth/reset-password?token=")),
        "{link}"
    );
    let validated = app.validate_token(&token_in(&link)).await;
    assert_eq!(validated.status, 200, "{:?}", validated.body);
    let saved = app
        .password_reset(PASSWORD, validated.body["newToken"].as_str().unwrap())
        .await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    let (state, attempts, link_kept, _) = outbox_row(&app, email).await;
    assert_eq!(
        (state.as_str(), attempts, link_kept),
        ("sent", 1, false),
        "sent once, the link no longer stored"
    );
    let message_id: String = sqlx::query_scalar("select message_id from email_outbox where to_email = $1")
        .bind(email)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(message["message_id"], message_id.as_str());

    // Magic link.
    assert_eq!(app.request_magic_link(email).await.status, 200);
    let message = sink.wait_for(email, 2, WAIT).await;
    assert_eq!(message["subject"], "Your one-time login link");
    let link = checked_link(&message, &base);
    assert!(link.starts_with(&format!("{base}/login?magicLink=")), "{link}");
    assert!(link.ends_with("&email=flow%40example.com"), "{link}");
    let login = app.login_with_magic_link(&token_in(&link), Some(email)).await;
    assert_eq!(login.status, 200, "{:?}", login.body);
    let access = login.body["accessToken"].as_str().unwrap().to_owned();

    // Password reset.
    assert_eq!(app.request_password_reset(email).await.status, 200);
    let message = sink.wait_for(email, 3, WAIT).await;
    assert_eq!(message["subject"], "Reset your password");
    let link = checked_link(&message, &base);
    assert_eq!(app.validate_token(&token_in(&link)).await.status, 200);

    // Change of email: the link goes to the new address and confirms it.
    let changed = app.change_email(&access, "flow.new@example.com").await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    let message = sink.wait_for("flow.new@example.com", 1, WAIT).await;
    assert_eq!(message["subject"], "Confirm your new e-mail address");
    let link = checked_link(&message, &base);
    assert!(link.starts_with(&format!("{base}/auth/confirm?token=")), "{link}");
    let confirmed = app.confirm_account(&token_in(&link)).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(app.login("flow.new@example.com", PASSWORD).await.status, 200);

    // Waitlist reopening: written by the trigger, rendered by the server.
    let location = seed::demo::DENVER_WAITLIST_LOCATION_ID;
    let joined = app
        .post(
            "/member/app/join/wait/list",
            &json!({
                "email": "waiting@example.com", "member": null, "consent": true, "location": location,
                "search": { "location": { "lat": 39.72, "lng": -104.95 }, "address": "Denver, CO 80206", "filters": {} },
            }),
        )
        .await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    assert!(
        store::catalogue::set_accepting_new_patients(&app.database.pool, location, true)
            .await
            .unwrap()
    );
    let message = sink.wait_for("waiting@example.com", 1, WAIT).await;
    assert!(
        message["subject"]
            .as_str()
            .unwrap()
            .ends_with("is accepting new patients"),
        "{message}"
    );
    let link = checked_link(&message, &base);
    assert_eq!(
        link,
        format!(
            "{base}/marketplace/provider/details/{}?location={location}",
            seed::demo::DENVER_ORGANISATION_ID
        )
    );
    let profile = app
        .get(&format!(
            "/member/app/provider/details/{}?location={location}",
            seed::demo::DENVER_ORGANISATION_ID
        ))
        .await;
    assert!(profile.status < 500);

    // Nothing was sent twice, and the development mailbox is not served with SMTP configured.
    let ids: Vec<String> = sink
        .messages()
        .iter()
        .map(|message| message["message_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), ids.iter().collect::<HashSet<_>>().len(), "{ids:?}");
    assert_eq!(app.get("/dev/mailbox").await.status, 404);
}

#[tokio::test]
async fn messages_wait_while_the_smtp_server_is_down_and_arrive_once_when_it_returns() {
    let mut sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink, 30).await;
    sink.stop().await;
    for index in 0..3 {
        let signup = app
            .signup(&json!({ "email": format!("down{index}@example.com") }))
            .await;
        assert_eq!(signup.status, 200, "{:?}", signup.body);
    }
    // Refused connections are temporary: retried with backoff, not failed.
    let mut retried = false;
    for _ in 0..100 {
        let (state, attempts, link_kept, error) = outbox_row(&app, "down0@example.com").await;
        assert_eq!(state, "pending");
        assert!(link_kept);
        if attempts >= 2 {
            assert!(error.is_some());
            retried = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(retried, "the sender retries while the server is down");
    sink.resume().await;
    for index in 0..3 {
        sink.wait_for(&format!("down{index}@example.com"), 1, WAIT).await;
    }
    // Give a duplicate the time to show up.
    tokio::time::sleep(Duration::from_secs(2)).await;
    for index in 0..3 {
        let address = format!("down{index}@example.com");
        assert_eq!(sink.messages_to(&address).len(), 1, "{address} got one message");
        let (state, _, link_kept, _) = outbox_row(&app, &address).await;
        assert_eq!((state.as_str(), link_kept), ("sent", false));
    }
}

#[tokio::test]
async fn a_550_fails_the_message_after_one_try_and_an_operator_retry_sends_it() {
    let sink = SmtpSink::start(&["refused@example.com"]).await;
    let app = app_with(&sink, 30).await;
    assert_eq!(app.signup(&json!({ "email": "refused@example.com" })).await.status, 200);
    assert_eq!(
        app.signup(&json!({ "email": "accepted@example.com" })).await.status,
        200
    );
    sink.wait_for("accepted@example.com", 1, WAIT).await;
    let mut row = outbox_row(&app, "refused@example.com").await;
    for _ in 0..100 {
        if row.0 != "pending" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        row = outbox_row(&app, "refused@example.com").await;
    }
    let (state, attempts, _, error) = row;
    assert_eq!((state.as_str(), attempts), ("failed", 1), "{error:?}");
    assert!(error.as_deref().unwrap_or_default().contains("550"), "{error:?}");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(outbox_row(&app, "refused@example.com").await.1, 1, "not tried again");
    assert!(sink.messages_to("refused@example.com").is_empty());

    // What `indexer mail status` lists and `indexer mail retry ID` does.
    let failed = store::outbox::failed(&app.database.pool, 10).await.unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].to_email, "refused@example.com");
    let counts = store::outbox::counts(&app.database.pool).await.unwrap();
    assert_eq!(
        counts,
        vec![("pending".into(), 0), ("sent".into(), 1), ("failed".into(), 1)]
    );
    assert!(store::outbox::retry(&app.database.pool, failed[0].id).await.unwrap());
    assert!(!store::outbox::retry(&app.database.pool, failed[0].id).await.unwrap());
}

#[tokio::test]
async fn a_451_answer_is_retried_with_backoff_and_delivered_once() {
    let sink = SmtpSink::start_with(&[], &["deferred@example.com"], 2).await;
    let app = app_with(&sink, 30).await;
    assert_eq!(
        app.signup(&json!({ "email": "deferred@example.com" })).await.status,
        200
    );
    let message = sink.wait_for("deferred@example.com", 1, WAIT).await;
    checked_link(&message, &app.address);
    let mut row = outbox_row(&app, "deferred@example.com").await;
    for _ in 0..50 {
        if row.0 == "sent" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        row = outbox_row(&app, "deferred@example.com").await;
    }
    assert_eq!((row.0.as_str(), row.1), ("sent", 3), "two 451 answers, then accepted");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.messages_to("deferred@example.com").len(), 1);
}

#[tokio::test]
async fn two_senders_drain_200_messages_without_a_duplicate() {
    let sink = SmtpSink::start(&[]).await;
    let database = testkit::database().await.expect("a test database");
    let mut transaction = database.pool.begin().await.unwrap();
    for index in 0..200 {
        let address = format!("bulk{index}@example.com");
        store::outbox::enqueue(
            &mut transaction,
            &store::outbox::NewEmail {
                to_email: &address,
                kind: "magic_link",
                link: Some(&format!("http://127.0.0.1:1/login?magicLink=T{index}&email=x")),
                facts: json!({}),
            },
        )
        .await
        .unwrap();
    }
    transaction.commit().await.unwrap();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let started = std::time::Instant::now();
    let mut senders = Vec::new();
    for _ in 0..2 {
        // Two pools, as two servers would have.
        let pool = store::PgPool::connect(&database.url).await.unwrap();
        let settings = mail::SmtpSettings::from_url(&sink.url(), None, None).unwrap();
        let smtp = mail::Smtp::new(&settings, "Nearcare <no-reply@nearcare.example>").unwrap();
        let sender = Sender {
            pool,
            mailer: Mailer::new("http://127.0.0.1:1"),
            delivery: Delivery::Smtp(Box::new(smtp)),
            settings: SenderSettings {
                batch: 5,
                poll: Duration::from_millis(50),
                ..SenderSettings::default()
            },
            domain: "nearcare.example".into(),
        };
        senders.push(tokio::spawn(sender.run(stopped.clone())));
    }
    let messages = sink.wait_for_total(200, Duration::from_secs(120)).await;
    let elapsed = started.elapsed();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let _ = stop.send(true);
    for sender in senders {
        tokio::time::timeout(Duration::from_secs(10), sender)
            .await
            .expect("a sender stops when told")
            .unwrap();
    }
    let messages_after = sink.messages();
    assert_eq!(messages_after.len(), 200, "200 received, none twice");
    let ids: HashSet<&str> = messages_after
        .iter()
        .map(|message| message["message_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 200, "no duplicate Message-ID");
    let by_sender: Vec<(i64,)> = sqlx::query_as("select count(*) from email_outbox where state = 'sent'")
        .fetch_all(&database.pool)
        .await
        .unwrap();
    assert_eq!(by_sender, vec![(200,)]);
    eprintln!("two senders delivered {} messages in {elapsed:?}", messages.len());
}

/// An app whose eligibility retries run every few hundred milliseconds, emailing through `sink`.
async fn app_retrying_eligibility(sink: &SmtpSink) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(30, move |config| {
        config.smtp_url = Some(Secret(url));
        config.eligibility_retry_base_ms = 300;
    })
    .await
}

/// Takes the roster away (every check then finds it down) or gives it back.
async fn roster_readable(app: &TestApp, readable: bool) {
    let rename = if readable {
        "alter table eligibility_roster_offline rename to eligibility_roster"
    } else {
        "alter table eligibility_roster rename to eligibility_roster_offline"
    };
    sqlx::query(rename).execute(&app.database.pool).await.unwrap();
}

/// A member signed up from the Denver clinic's page (the clinic chosen at sign-up): the token.
async fn signed_up_at_denver(app: &TestApp, email: &str) -> String {
    let signup = app
        .signup(&json!({
            "email": email,
            "employerId": seed::demo::ACME_EMPLOYER_ID,
            "providerId": seed::demo::DENVER_ORGANISATION_ID,
            "locationId": seed::demo::DENVER_LOCATION_ID,
        }))
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    signup.body["accessToken"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_pending_eligibility_is_confirmed_in_the_background_when_the_roster_returns() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_retrying_eligibility(&sink).await;
    let email = "pending@example.com";
    let access = signed_up_at_denver(&app, email).await;
    roster_readable(&app, false).await;
    let down = app.confirm_info(&access, &crate::helpers::jane_form()).await;
    assert_eq!(down.status, 500, "{:?}", down.body);
    assert_eq!(down.body["eligibility"]["err"]["chcDown"], true);
    // The retry runs while the roster is unreadable and keeps the member pending.
    let mut tried = false;
    for _ in 0..100 {
        let attempts: Option<i32> =
            sqlx::query_scalar("select attempts from jobs where kind = 'eligibility_retry' and state = 'pending'")
                .fetch_optional(&app.database.pool)
                .await
                .unwrap();
        if attempts.is_some_and(|attempts| attempts >= 2) {
            tried = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(tried, "the check is retried while the roster is down");
    assert_eq!(app.member_info(&access).await.body["eligibility"]["status"], "pending");
    roster_readable(&app, true).await;
    // Nothing more from the member: the next retry confirms and emails them.
    let message = sink.wait_for(email, 2, WAIT).await;
    assert_eq!(message["subject"], "Your eligibility is confirmed", "{message}");
    let link = checked_link(&message, &app.address);
    assert_eq!(link, format!("{}/", app.address));
    let info = app.member_info(&access).await;
    assert_eq!(info.body["eligibility"]["status"], "active", "{:?}", info.body);
    let state: String = sqlx::query_scalar("select state from jobs where kind = 'eligibility_retry'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(state, "done");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        sink.messages_to(email).len(),
        2,
        "the verification email and one outcome"
    );
}

#[tokio::test]
async fn a_retry_that_confirms_after_the_chosen_clinic_filled_up_emails_the_clinic_and_the_way_to_another() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_retrying_eligibility(&sink).await;
    let email = "late@example.com";
    let chosen = seed::demo::DENVER_LOCATION_ID;
    let access = signed_up_at_denver(&app, email).await;
    roster_readable(&app, false).await;
    let down = app.confirm_info(&access, &crate::helpers::jane_form()).await;
    assert_eq!(down.status, 500, "{:?}", down.body);
    // While the check waits, the clinic stops taking new members.
    assert!(
        store::catalogue::set_accepting_new_patients(&app.database.pool, chosen, false)
            .await
            .unwrap()
    );
    roster_readable(&app, true).await;
    let message = sink.wait_for(email, 2, WAIT).await;
    assert_eq!(
        message["subject"], "Your eligibility is confirmed: please choose another clinic",
        "{message}"
    );
    let (name, location_name): (String, String) =
        sqlx::query_as("select name, location_name from locations where id = $1")
            .bind(chosen)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    let text = message["text"].as_str().unwrap();
    let told = format!("{name} ({location_name}), the clinic chosen at sign-up, is no longer taking new members");
    assert!(text.contains(&told), "{text}");
    assert!(
        message["html"].as_str().unwrap().contains("Choose another clinic"),
        "{message}"
    );
    let link = checked_link(&message, &app.address);
    assert_eq!(link, format!("{}/marketplace?selectProvider=true", app.address));
    // The email tells the truth: confirmed, no membership, the member chooses again.
    let info = app.member_info(&access).await.body;
    assert_eq!(info["eligibility"]["status"], "active", "{info}");
    assert!(info["subscription"]["status"].is_null(), "{info}");
    assert!(info["locationId"].is_null(), "{info}");
    assert_eq!(info["nextStep"], "selectDPC", "{info}");
}

#[tokio::test]
async fn a_new_name_checked_while_the_roster_is_down_is_refused_in_the_background_with_a_way_forward() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_retrying_eligibility(&sink).await;
    let email = "renamed@example.com";
    let access = crate::eligibility::member_with_provider(&app, email).await;
    let confirmed = app.confirm_info(&access, &crate::helpers::jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    roster_readable(&app, false).await;
    let mut record = app.member_info(&access).await.body;
    record["firstName"] = json!("Mariah");
    let saved = app.personal_info(&access, &record).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!(saved.body["eligibilityCheck"]["eligibility"]["err"]["chcDown"], true);
    assert_eq!(saved.body["eligibility"]["status"], "pending");
    roster_readable(&app, true).await;
    // The retry finds nobody called Mariah: the member is told, and is no longer pending.
    let message = sink.wait_for(email, 2, WAIT).await;
    assert_eq!(message["subject"], "We could not confirm your eligibility", "{message}");
    let info = app.member_info(&access).await.body;
    assert!(info["eligibility"]["status"].is_null(), "{info}");
    assert_eq!(info["nextStep"], "confirmPlan", "Home offers Confirm Eligibility");
    assert_eq!(info["location"]["id"], seed::demo::DENVER_LOCATION_ID);
}

#[tokio::test]
async fn notify_me_for_an_area_emails_once_when_a_clinic_inside_opens_or_is_added() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink, 50).await;
    let nearby = seed::demo::DENVER_HIGHLANDS_LOCATION_ID;
    let set_accepting = |accepting: bool| {
        let pool = app.database.pool.clone();
        async move {
            assert!(
                store::catalogue::set_accepting_new_patients(&pool, nearby, accepting)
                    .await
                    .unwrap()
            );
        }
    };
    set_accepting(false).await;
    for (email, lat, lng, distance) in [
        ("area.denver@example.com", 39.72, -104.95, None),
        ("area.tight@example.com", 40.5, -104.95, Some(1)),
        ("area.newyork@example.com", 40.75, -73.99, None),
    ] {
        let mut filters = json!({});
        if let Some(distance) = distance {
            filters["searchDistance"] = json!(distance);
        }
        let joined = app
            .post(
                "/member/app/join/wait/list",
                &json!({
                    "email": email, "member": null, "consent": true,
                    "search": { "location": { "lat": lat, "lng": lng }, "address": "Denver, CO 80206", "filters": filters },
                }),
            )
            .await;
        assert_eq!(joined.status, 201, "{:?}", joined.body);
    }
    set_accepting(true).await;
    let message = sink.wait_for("area.denver@example.com", 1, WAIT).await;
    assert_eq!(
        message["subject"], "A clinic near Denver, CO 80206 is accepting new patients",
        "{message}"
    );
    let organisation: i64 = sqlx::query_scalar("select organisation_id from locations where id = $1")
        .bind(nearby)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let link = checked_link(&message, &app.address);
    assert_eq!(
        link,
        format!(
            "{}/marketplace/provider/details/{organisation}?location={nearby}",
            app.address
        )
    );
    // Closed and opened again: not told twice.
    set_accepting(false).await;
    set_accepting(true).await;
    // A clinic added accepting, next to the searched place.
    sqlx::query(
        "insert into locations (organisation_id, name, location_name, address1, city, state, zip, lat, lng)
         values ($1, 'Added Clinic', 'Cherry Creek', '1 Added Street', 'Denver', 'CO', '80206', 39.721, -104.951)",
    )
    .bind(organisation)
    .execute(&app.database.pool)
    .await
    .unwrap();
    let added = sink.wait_for("area.denver@example.com", 2, WAIT).await;
    assert!(
        added["subject"].as_str().unwrap().starts_with("A clinic near"),
        "{added}"
    );
    assert!(added["text"].as_str().unwrap().contains("Added Clinic"), "{added}");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(sink.messages_to("area.denver@example.com").len(), 2, "once per clinic");
    assert!(
        sink.messages_to("area.tight@example.com").is_empty(),
        "10 miles around a place 50 miles north"
    );
    assert!(sink.messages_to("area.newyork@example.com").is_empty());
}

#[tokio::test]
async fn a_crashed_senders_messages_are_claimed_again_when_the_lease_runs_out() {
    let database = testkit::database().await.expect("a test database");
    let mut connection = database.pool.acquire().await.unwrap();
    let id = store::outbox::enqueue(
        &mut connection,
        &store::outbox::NewEmail {
            to_email: "lease@example.com",
            kind: "magic_link",
            link: Some("http://127.0.0.1:1/login?magicLink=T&email=x"),
            facts: json!({}),
        },
    )
    .await
    .unwrap();
    drop(connection);
    let lease = Duration::from_millis(600);
    // A sender claims it and dies without recording anything.
    let first = store::outbox::claim(&database.pool, 10, lease, "nearcare.example", "first")
        .await
        .unwrap();
    assert_eq!(first.iter().map(|email| email.id).collect::<Vec<_>>(), vec![id]);
    let message_id = first[0].message_id.clone().unwrap();
    assert!(message_id.starts_with(&format!("<outbox-{id}.")), "{message_id}");
    // While the lease holds, nobody else takes it.
    assert!(
        store::outbox::claim(&database.pool, 10, lease, "nearcare.example", "first")
            .await
            .unwrap()
            .is_empty()
    );
    tokio::time::sleep(lease + Duration::from_millis(200)).await;
    let second = store::outbox::claim(&database.pool, 10, lease, "other.example", "second")
        .await
        .unwrap();
    assert_eq!(second.len(), 1, "taken again after the lease");
    assert_eq!(second[0].attempts, 2);
    assert_eq!(
        second[0].message_id.as_deref(),
        Some(message_id.as_str()),
        "the same Message-ID"
    );
}

#[tokio::test]
async fn the_server_stops_its_sender_and_job_runner_cleanly_on_sigterm() {
    let database = testkit::database().await.expect("a test database");
    let local_dir = std::env::temp_dir().join(format!("nearcare-sigterm-{}", database.name));
    let log_path = local_dir.with_extension("log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_nearcare-server"))
        .env("DATABASE_URL", &database.url)
        .env("PORT", "0")
        .env("NEARCARE_LOCAL_DIR", &local_dir)
        .env("NEARCARE_SEED_CLINICS", "0")
        .env("NEARCARE_MAIL_POLL_MS", "20")
        .env("NEARCARE_JWT_SECRET", "test-secret-not-for-production-use")
        .env("NEARCARE_DEV_MAILBOX", "true")
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("the server starts");
    let read_log = || std::fs::read_to_string(&log_path).unwrap_or_default();
    let started = std::time::Instant::now();
    while !read_log().contains("listening") {
        assert!(started.elapsed() < Duration::from_secs(60), "{}", read_log());
        assert!(
            server.try_wait().unwrap().is_none(),
            "the server exited: {}",
            read_log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        read_log().contains("/dev/mailbox"),
        "the start-up log names the mailbox: {}",
        read_log()
    );
    // Let the sender and the job runner poll a few times, then stop the server.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let stopped = std::time::Instant::now();
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopped.elapsed() < Duration::from_secs(30),
            "still running: {}",
            read_log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let output = read_log();
    let _ = std::fs::remove_file(&log_path);
    let _ = std::fs::remove_dir_all(&local_dir);
    assert!(status.success(), "{status:?}: {output}");
    assert!(output.contains("shutting down"), "{output}");
    for complaint in [
        "outbox delivery failed",
        "running background jobs failed",
        "PoolClosed",
        "pool closed",
    ] {
        assert!(!output.contains(complaint), "{complaint}: {output}");
    }
}
