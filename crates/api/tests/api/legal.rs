//! The legal pages the sign-up and the footer link to: served from the operator's folder (the
//! shipped texts where it lacks a file), and each sign-up keeps the version of the Terms of Use
//! it agreed to, with the time.

use serde_json::json;

use crate::helpers::{TestApp, assert_error};

#[tokio::test]
async fn each_page_is_served_and_an_unknown_one_is_a_json_404() {
    let app = TestApp::spawn(0).await;
    for (document, title) in [
        ("terms", "Terms of Use"),
        ("privacy", "Privacy Policy"),
        ("cookies", "Cookie Policy"),
    ] {
        let answer = app.get(&format!("/legal/{document}")).await;
        assert_eq!(answer.status, 200, "{document}: {:?}", answer.body);
        assert_eq!(answer.body["document"], document);
        assert_eq!(answer.body["title"], title);
        assert!(
            answer.body["text"]
                .as_str()
                .unwrap()
                .starts_with(&format!("# {title}\n"))
        );
        assert_eq!(answer.body["version"].as_str().unwrap().len(), 16);
    }
    assert_error(&app.get("/legal/imprint").await, 404, "not_found");
}

#[tokio::test]
async fn an_operators_folder_replaces_the_text_it_holds() {
    let folder = std::env::temp_dir().join(format!("nearcare-legal-test-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("terms.md"), "# Acme Health Terms\n\nUse it kindly.\n").unwrap();
    let operator_folder = folder.clone();
    let app = TestApp::spawn_with(0, move |config| config.legal_dir = operator_folder).await;
    let terms = app.get("/legal/terms").await;
    let privacy = app.get("/legal/privacy").await;
    std::fs::remove_dir_all(&folder).unwrap();
    assert_eq!(terms.body["title"], "Acme Health Terms");
    assert_eq!(terms.body["text"], "# Acme Health Terms\n\nUse it kindly.\n");
    assert_eq!(
        privacy.body["title"], "Privacy Policy",
        "a file the folder lacks is the shipped one"
    );
}

#[tokio::test]
async fn sign_up_keeps_the_version_agreed_and_refuses_a_stale_one() {
    let app = TestApp::spawn(0).await;
    let version = app.get("/legal/terms").await.body["version"]
        .as_str()
        .unwrap()
        .to_owned();

    let stale = app
        .signup(&json!({
            "email": "stale@example.com",
            "employerId": seed::demo::ACME_EMPLOYER_ID,
            "terms_and_conditions": true,
            "termsVersion": "0123456789abcdef",
        }))
        .await;
    assert_error(&stale, 409, "terms_changed");
    assert_eq!(stale.body["field"], "termsVersion");
    let accounts: i64 = sqlx::query_scalar("select count(*) from members where email = 'stale@example.com'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(accounts, 0, "a refused sign-up creates nothing");

    let before = chrono::Utc::now();
    let signed_up = app
        .signup(&json!({
            "email": "agreed@example.com",
            "employerId": seed::demo::ACME_EMPLOYER_ID,
            "terms_and_conditions": true,
            "termsVersion": version,
        }))
        .await;
    assert_eq!(signed_up.status, 200, "{:?}", signed_up.body);
    let member: i64 = sqlx::query_scalar("select id from members where email = 'agreed@example.com'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let agreement = store::terms_agreements::latest(&app.database.pool, member)
        .await
        .unwrap()
        .expect("the agreement is kept");
    assert_eq!(agreement.version, version);
    assert!(agreement.agreed_at >= before - chrono::Duration::seconds(5));

    // Without the box (Notify Me's sign-up), nothing is recorded as agreed.
    let unticked = app
        .signup(&json!({ "email": "quiet@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID }))
        .await;
    assert_eq!(unticked.status, 200, "{:?}", unticked.body);
    let agreements: i64 = sqlx::query_scalar(
        "select count(*) from terms_agreements a join members m on m.id = a.member_id where m.email = 'quiet@example.com'",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    assert_eq!(agreements, 0);
}
