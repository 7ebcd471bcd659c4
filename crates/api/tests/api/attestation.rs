//! Attestation reminders (docs/listings-contract.md) against the real SMTP server: the
//! background sweep (a `jobs` row) reminds an organisation whose listings went 90 days
//! unconfirmed, at most once a week, and stops once everything is confirmed. The server's clock
//! is moved forward, never waited for.

use std::time::Duration;

use api::clock::Clock;
use api::config::Secret;
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp};
use crate::smtp::{SmtpSink, checked_link};

const PROVIDER: &str = "dana@frontrange.example";
const WAIT: Duration = Duration::from_secs(20);

/// Reminder emails received by the provider.
fn reminders(sink: &SmtpSink) -> Vec<serde_json::Value> {
    sink.messages_to(PROVIDER)
        .into_iter()
        .filter(|message| {
            message["subject"]
                .as_str()
                .is_some_and(|subject| subject.starts_with("Please confirm"))
        })
        .collect()
}

/// Waits until `runs` more sweeps than `after` have finished.
async fn sweeps_after(app: &TestApp, after: i64, runs: i64) -> i64 {
    let started = std::time::Instant::now();
    loop {
        let done = sweeps_done(app).await;
        if done >= after + runs {
            return done;
        }
        assert!(
            started.elapsed() < WAIT,
            "{runs} sweeps expected after {after}; {done} done"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn sweeps_done(app: &TestApp) -> i64 {
    sqlx::query_scalar("select count(*) from jobs where kind = 'attestation_sweep' and state = 'done'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_organisation_is_reminded_after_90_days_at_most_weekly_until_it_confirms() {
    let sink = SmtpSink::start(&[]).await;
    let clock = Clock::system();
    let url = sink.url();
    let server_clock = clock.clone();
    let app = TestApp::spawn_with(60, move |config| {
        config.smtp_url = Some(Secret(url));
        config.attestation_sweep_secs = 1;
        config.clock = server_clock;
    })
    .await;
    // The seeded listings were confirmed over the last 200 days: all of them today, so that no
    // sweep reminds anyone while the provider signs in.
    for table in ["locations", "clinicians"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("update {table} set last_verified = now()")))
            .execute(&app.database.pool)
            .await
            .unwrap();
    }
    let (_, token) = app.provider_account(seed::demo::DENVER_ORGANISATION_ID, PROVIDER).await;
    // Everything confirmed today: sweeps run and nobody is reminded.
    let confirmed = app
        .post_as("/dpcproviders/listings/attest", &json!({}), Some(&token))
        .await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    let done = sweeps_after(&app, sweeps_done(&app).await, 2).await;
    assert!(reminders(&sink).is_empty());

    // 91 days later every listing is past due.
    clock.advance(chrono::Duration::days(91));
    let first = {
        let started = std::time::Instant::now();
        loop {
            if let Some(message) = reminders(&sink).first() {
                break message.clone();
            }
            assert!(started.elapsed() < WAIT, "a reminder within {WAIT:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    assert_eq!(
        first["subject"],
        format!("Please confirm {}'s listings", seed::demo::DENVER_ORGANISATION_NAME)
    );
    let base = app.address.clone();
    let link = checked_link(&first, &base);
    assert_eq!(
        link,
        format!("{base}/dpc-providers/listings"),
        "a link into the portal, not a password"
    );
    let text = first["text"].as_str().unwrap();
    let locations: Vec<(String, String)> =
        sqlx::query_as("select name, location_name from locations where organisation_id = $1 order by id")
            .bind(seed::demo::DENVER_ORGANISATION_ID)
            .fetch_all(&app.database.pool)
            .await
            .unwrap();
    for (name, location_name) in locations.iter().take(3) {
        assert!(text.contains(&format!("Location: {name} ({location_name})")), "{text}");
    }
    assert!(text.contains("not been confirmed in the last 90 days"), "{text}");
    let reminded: (i64, i32) =
        sqlx::query_as("select count(*), max(recipients) from attestation_reminders where organisation_id = $1")
            .bind(seed::demo::DENVER_ORGANISATION_ID)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(reminded, (1, 1));

    // Three days later: still due, but reminded this week.
    clock.advance(chrono::Duration::days(3));
    let done = sweeps_after(&app, done.max(sweeps_done(&app).await), 3).await;
    assert_eq!(reminders(&sink).len(), 1, "at most one reminder a week");

    // Eight days after the first: the second reminder.
    clock.advance(chrono::Duration::days(5));
    sink.wait_for(PROVIDER, sink.messages_to(PROVIDER).len() + 1, WAIT)
        .await;
    assert_eq!(reminders(&sink).len(), 2);

    // Confirmed: no more reminders, however long the sweeps go on within the 90 days. The
    // provider signs in again: 99 days on, the first session is long past its limits.
    let expired = app
        .post_as("/dpcproviders/listings/attest", &json!({}), Some(&token))
        .await;
    assert_eq!(expired.body["code"], "session_ended", "{:?}", expired.body);
    let login = app.login(PROVIDER, PASSWORD).await;
    assert_eq!(login.status, 200, "{:?}", login.body);
    let token = login.body["accessToken"].as_str().unwrap().to_owned();
    let confirmed = app
        .post_as("/dpcproviders/listings/attest", &json!({}), Some(&token))
        .await;
    assert_eq!(confirmed.body["due"], false, "{:?}", confirmed.body);
    clock.advance(chrono::Duration::days(30));
    sweeps_after(&app, done.max(sweeps_done(&app).await), 3).await;
    assert_eq!(reminders(&sink).len(), 2, "no reminder once everything is confirmed");
    let organisations_reminded: i64 =
        sqlx::query_scalar("select count(distinct organisation_id) from attestation_reminders")
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(
        organisations_reminded, 1,
        "only organisations with provider accounts are reminded"
    );
}
