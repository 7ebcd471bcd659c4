//! Requests to have an employer offer the benefit: Notify Me and an enrolment refused for an
//! inactive employer are recorded and emailed to the sales address ("A representative will
//! contact the company"); when the operator makes the employer active (`indexer employers
//! set-status`), each consenting address is emailed once with a link to sign up ("We will email
//! you when {employer} offers the benefit"). Emails arrive at a real SMTP server.

use std::time::Duration;

use api::config::Secret;
use serde_json::json;

use crate::enrolment::{denver, set_provider, signed_up};
use crate::helpers::{TestApp, assert_error};
use crate::smtp::{SmtpSink, checked_link};

const WAIT: Duration = Duration::from_secs(20);
const SALES: &str = "leads@nearcare.example";
const GLOBEX: i64 = seed::demo::GLOBEX_EMPLOYER_ID;

async fn app_with(sink: &SmtpSink) -> TestApp {
    let url = sink.url();
    TestApp::spawn_with(30, move |config| {
        config.smtp_url = Some(Secret(url));
        config.sales_email = SALES.into();
    })
    .await
}

type RequestRow = (String, String, Option<i64>, bool, String, bool);

async fn requests(app: &TestApp) -> Vec<RequestRow> {
    sqlx::query_as(
        "select email, company_name, employer_id, consent, source, notified_at is not null
         from benefit_requests order by id",
    )
    .fetch_all(&app.database.pool)
    .await
    .unwrap()
}

fn row(email: &str, company: &str, employer: Option<i64>, consent: bool, source: &str, told: bool) -> RequestRow {
    (email.into(), company.into(), employer, consent, source.into(), told)
}

#[tokio::test]
async fn notify_me_reaches_sales_at_once_and_each_person_is_emailed_once_when_the_employer_becomes_active() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink).await;
    for body in [
        // Register's Notify Me for an employer that does not offer the benefit.
        json!({ "email": "ana@example.com", "employerId": GLOBEX, "companyName": seed::demo::GLOBEX_NAME, "notify": true }),
        // The same person again (the account exists now): the same request, sales hears once.
        json!({ "email": "Ana@Example.com", "employerId": GLOBEX, "notify": true }),
        // A company the member typed, spelled in other case: matched by name when it is active.
        json!({ "email": "ben@example.com", "companyName": "globex industries", "notify": true }),
        // Another employer, still pending.
        json!({ "email": "cy@example.com", "employerId": seed::demo::INITECH_EMPLOYER_ID, "notify": true }),
        // No Notify Me: no request.
        json!({ "email": "dee@example.com", "employerId": GLOBEX }),
        // An employer that already offers it: nothing to ask for.
        json!({ "email": "eve@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID, "notify": true }),
    ] {
        let answer = app.signup(&body).await;
        assert_eq!(answer.status, 200, "{body}: {:?}", answer.body);
    }
    assert_eq!(
        requests(&app).await,
        vec![
            row(
                "ana@example.com",
                "Globex Industries",
                Some(GLOBEX),
                true,
                "notify_me",
                false
            ),
            row("ben@example.com", "globex industries", None, true, "notify_me", false),
            row(
                "cy@example.com",
                "Initech",
                Some(seed::demo::INITECH_EMPLOYER_ID),
                true,
                "notify_me",
                false
            ),
        ]
    );
    sink.wait_for(SALES, 3, WAIT).await;
    let leads = sink.messages_to(SALES);
    let subjects: Vec<&str> = leads
        .iter()
        .map(|message| message["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        [
            "Lead: someone asked for the benefit at Globex Industries",
            "Lead: someone asked for the benefit at globex industries",
            "Lead: someone asked for the benefit at Initech",
        ]
    );
    let text = leads[0]["text"].as_str().unwrap();
    assert!(text.contains("Email: ana@example.com"), "{text}");
    assert!(text.contains("(employer 3)"), "{text}");
    assert!(text.contains("Consent to be emailed: yes"), "{text}");
    assert!(leads[1]["text"].as_str().unwrap().contains("not in the catalogue"));

    // The operator makes Globex active: Ana and Ben are told, once each; Cy waits for Initech.
    let change = store::benefit_requests::set_employer_status(&app.database.pool, GLOBEX, "active")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(change.previous, "inactive");
    assert_eq!(change.notified, ["ana@example.com", "ben@example.com"]);
    for address in ["ana@example.com", "ben@example.com"] {
        // The first message is the sign-up's verification link.
        let told = sink.wait_for(address, 2, WAIT).await;
        assert_eq!(
            told["subject"], "Globex Industries now offers the direct primary care benefit",
            "{told}"
        );
        assert_eq!(
            checked_link(&told, &app.address),
            format!("{}/register?company=Globex%20Industries", app.address)
        );
    }
    assert_eq!(
        requests(&app).await,
        vec![
            row(
                "ana@example.com",
                "Globex Industries",
                Some(GLOBEX),
                true,
                "notify_me",
                true
            ),
            row(
                "ben@example.com",
                "globex industries",
                Some(GLOBEX),
                true,
                "notify_me",
                true
            ),
            row(
                "cy@example.com",
                "Initech",
                Some(seed::demo::INITECH_EMPLOYER_ID),
                true,
                "notify_me",
                false
            ),
        ]
    );
    // Off and on again: nobody is told twice.
    for status in ["inactive", "active"] {
        let again = store::benefit_requests::set_employer_status(&app.database.pool, GLOBEX, status)
            .await
            .unwrap()
            .unwrap();
        assert!(again.notified.is_empty(), "{status}: {:?}", again.notified);
    }
    assert!(
        store::benefit_requests::set_employer_status(&app.database.pool, 999_999, "active")
            .await
            .unwrap()
            .is_none()
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    for (address, count) in [
        ("ana@example.com", 2),
        ("ben@example.com", 2),
        ("cy@example.com", 1),
        ("dee@example.com", 1),
    ] {
        assert_eq!(sink.messages_to(address).len(), count, "{address}");
    }
    assert_eq!(sink.messages_to(SALES).len(), 3);
}

#[tokio::test]
async fn an_enrolment_refused_for_an_inactive_employer_is_told_to_sales_once_and_never_emails_the_member() {
    let sink = SmtpSink::start(&[]).await;
    let app = app_with(&sink).await;
    let (member_id, globex) = signed_up(&app, "sam@example.com", Some(GLOBEX)).await;
    let (_, nobody) = signed_up(&app, "nobody@example.com", None).await;
    for _ in 0..2 {
        assert_error(&set_provider(&app, &globex, &denver()).await, 403, "employer_inactive");
    }
    // No company named at all: nothing to ask a representative to contact.
    assert_error(&set_provider(&app, &nobody, &denver()).await, 403, "employer_inactive");
    assert_eq!(
        requests(&app).await,
        vec![row(
            "sam@example.com",
            "Globex Industries",
            Some(GLOBEX),
            false,
            "enrolment",
            false
        )]
    );
    let lead = sink.wait_for(SALES, 1, WAIT).await;
    let text = lead["text"].as_str().unwrap();
    assert!(text.contains("their enrolment was refused"), "{text}");
    assert!(text.contains(&format!("Member: {member_id}")), "{text}");
    assert!(text.contains("Consent to be emailed: no"), "{text}");

    // Active later: Sam never asked to be emailed, so is not.
    let change = store::benefit_requests::set_employer_status(&app.database.pool, GLOBEX, "active")
        .await
        .unwrap()
        .unwrap();
    assert!(change.notified.is_empty());
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(sink.messages_to(SALES).len(), 1, "asked twice, one lead");
    assert_eq!(
        sink.messages_to("sam@example.com").len(),
        1,
        "the verification link only"
    );
}
