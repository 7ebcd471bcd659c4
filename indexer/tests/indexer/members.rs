//! `indexer members list` and `indexer members activate`, as processes against a real
//! PostgreSQL: the operator's view of a clinic panel and an activation for a clinic that does
//! not use the portal (audit row `operator`, the member emailed).

use chrono::{Days, Utc};
use store::memberships::{SeededMember, SeededOutcome};

use crate::{index_dir, indexer_command, seeded};

fn demo_member(first_name: &'static str, member_id: &'static str, email: &'static str) -> SeededMember<'static> {
    SeededMember {
        first_name,
        last_name: "Operator",
        dob: chrono::NaiveDate::from_ymd_opt(1980, 5, 17).unwrap(),
        member_id,
        relation: "Self",
        subscriber_id: None,
        email: Some(email),
        phone: None,
        employer_id: seed::demo::ACME_EMPLOYER_ID,
        company_name: seed::demo::ACME_NAME,
        payer_id: seed::demo::PAYER_ID,
        plan_id: seed::demo::ACME_PLAN_ID,
        group_id: seed::demo::ACME_GROUP_NUMBER,
        location_id: seed::demo::DENVER_LOCATION_ID,
        enrolled_on: Utc::now().date_naive() - Days::new(3),
        outcome: SeededOutcome::Pending,
    }
}

#[tokio::test]
async fn the_cli_lists_an_organisations_members_and_activates_one() {
    let database = seeded(50).await;
    let directory = index_dir("members-cli");
    let run = |args: &[&str]| indexer_command(&database.url, &directory).args(args).output().unwrap();
    let mut transaction = database.pool.begin().await.unwrap();
    let waiting = store::memberships::seed_member(
        &mut transaction,
        &demo_member("Wanda", "600-000001", "wanda@example.com"),
    )
    .await
    .unwrap()
    .unwrap();
    let mut active = demo_member("Abel", "600-000002", "abel@example.com");
    active.outcome = SeededOutcome::Active {
        first_visit: Utc::now().date_naive() - Days::new(1),
    };
    let abel = store::memberships::seed_member(&mut transaction, &active)
        .await
        .unwrap()
        .unwrap();
    transaction.commit().await.unwrap();

    let listed = run(&["members", "list", "--organisation", "1"]);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let stdout = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        stdout.starts_with("organisation 1: 1 new, 1 active, 0 past"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Wanda Operator") && stdout.contains("600-000001"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Abel"),
        "the active member is not in the New tab: {stdout}"
    );
    let active_tab = run(&["members", "list", "--organisation", "1", "--status", "active"]);
    assert!(String::from_utf8_lossy(&active_tab.stdout).contains(&format!("{abel:>8}  active")));

    let activated = run(&["members", "activate", &waiting.to_string()]);
    assert!(
        activated.status.success(),
        "{}",
        String::from_utf8_lossy(&activated.stderr)
    );
    assert!(
        String::from_utf8_lossy(&activated.stdout).starts_with(&format!(
            "Wanda Operator (member {waiting}) is now an active member of organisation 1 since {}",
            Utc::now().date_naive()
        )),
        "{}",
        String::from_utf8_lossy(&activated.stdout)
    );
    let events: Vec<(String, String, Option<i64>)> =
        sqlx::query_as("select kind, actor, acted_by from enrolment_events where member_id = $1 order by id")
            .bind(waiting)
            .fetch_all(&database.pool)
            .await
            .unwrap();
    assert_eq!(
        events,
        [
            ("enrolled".to_owned(), "member".to_owned(), Some(waiting)),
            ("activated".to_owned(), "operator".to_owned(), None),
        ]
    );
    let emailed: i64 = sqlx::query_scalar(
        "select count(*) from email_outbox where to_email = 'wanda@example.com' and kind = 'membership_activated'",
    )
    .fetch_one(&database.pool)
    .await
    .unwrap();
    assert_eq!(emailed, 1);

    for (args, error) in [
        (
            vec!["members", "activate", &abel.to_string()],
            "is already an active member",
        ),
        (
            vec!["members", "activate", "424242"],
            "member 424242 has no pending or active membership",
        ),
        (
            vec!["members", "activate", &waiting.to_string(), "--first-visit", "soon"],
            "--first-visit must be a day",
        ),
        (
            vec!["members", "list", "--organisation", "1", "--status", "asleep"],
            "--status must be",
        ),
        (
            vec!["members", "list", "--organisation", "999999"],
            "no organisation has id 999999",
        ),
    ] {
        let output = run(&args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(error), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&directory);
}
