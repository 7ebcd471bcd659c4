//! The clinic panel (docs/clinic-panel-contract.md): a member's enrolment reaching the clinic
//! (list, detail, the clinic's email), activate / decline / end with their audit rows and the
//! member's side, every refusal, the authorization matrix, the race between a member's provider
//! change and the old clinic's activation, a family member's removal, a full location reopened
//! by a decline or an end, the operator's view and the monthly roster read back with Python's
//! csv module.

use std::process::Stdio;

use chrono::{Days, NaiveDate, Utc};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::enrolment::{choice, denver, new_york, set_provider, signed_up};
use crate::helpers::{Answer, TestApp, assert_error};
use crate::listings::accepting;

const DENVER: i64 = seed::demo::DENVER_ORGANISATION_ID;
const NEW_YORK: i64 = seed::demo::NEW_YORK_ORGANISATION_ID;
const LODO: i64 = seed::demo::DENVER_LOCATION_ID;
const HIGHLANDS: i64 = seed::demo::DENVER_HIGHLANDS_LOCATION_ID;

fn today() -> NaiveDate {
    Utc::now().date_naive()
}

/// A signed-up Acme member enrolled at `body`'s clinic (pending); their id and token.
async fn enrolled(app: &TestApp, email: &str, body: &Value) -> (i64, String) {
    let (id, token) = signed_up(app, email, Some(seed::demo::ACME_EMPLOYER_ID)).await;
    let chosen = set_provider(app, &token, body).await;
    assert_eq!(chosen.status, 200, "{:?}", chosen.body);
    (id, token)
}

impl TestApp {
    /// Gives a member a name, an insurance member id, a birth date and a phone (the personal
    /// info form's fields, written directly: these tests are about the panel).
    async fn name_member(&self, member_id: i64, first: &str, last: &str, insurance_id: &str) {
        sqlx::query(
            "update members set first_name = $2, last_name = $3, member_id = $4, dob = '1988-02-14',
                                phone = '+13035550141', gender = 'f'
             where id = $1",
        )
        .bind(member_id)
        .bind(first)
        .bind(last)
        .bind(insurance_id)
        .execute(&self.database.pool)
        .await
        .unwrap();
    }

    /// Dates the member's enrolment `days` back, so that a first visit may be before today.
    async fn enrolled_days_ago(&self, member_id: i64, days: i32) {
        sqlx::query(
            "update memberships set enrolled_at = enrolled_at - make_interval(days => $2) where member_id = $1",
        )
        .bind(member_id)
        .bind(days)
        .execute(&self.database.pool)
        .await
        .unwrap();
    }

    /// Activates a member with their first visit on `day`.
    async fn activate_on(&self, token: &str, member_id: i64, day: NaiveDate) -> Answer {
        self.decide(
            Some(token),
            member_id,
            "activate",
            &json!({ "firstVisit": day.to_string() }),
        )
        .await
    }

    async fn panel(&self, token: Option<&str>, query: &str) -> Answer {
        self.get_as(&format!("/dpcproviders/members{query}"), token).await
    }

    async fn panel_member(&self, token: Option<&str>, member_id: i64) -> Answer {
        self.get_as(&format!("/dpcproviders/members/{member_id}"), token).await
    }

    async fn decide(&self, token: Option<&str>, member_id: i64, decision: &str, body: &Value) -> Answer {
        self.post_as(&format!("/dpcproviders/members/{member_id}/{decision}"), body, token)
            .await
    }

    async fn roster_csv(&self, token: Option<&str>, query: &str) -> Answer {
        self.get_as(&format!("/dpcproviders/roster.csv{query}"), token).await
    }

    /// `(kind, actor, acted_by)` of the member's audit rows, oldest first.
    async fn member_events(&self, member_id: i64) -> Vec<(String, String, Option<i64>)> {
        sqlx::query_as("select kind, actor, acted_by from enrolment_events where member_id = $1 order by id")
            .bind(member_id)
            .fetch_all(&self.database.pool)
            .await
            .unwrap()
    }

    /// `(recipient, facts)` of every message of `kind`, oldest first.
    async fn outbox_of(&self, kind: &str) -> Vec<(String, Value)> {
        sqlx::query_as("select to_email, facts from email_outbox where kind = $1 order by id")
            .bind(kind)
            .fetch_all(&self.database.pool)
            .await
            .unwrap()
    }

    /// The member's newest membership `(status, location, active_from, active_until, reason)`.
    async fn membership_row(
        &self,
        member_id: i64,
    ) -> (String, i64, Option<NaiveDate>, Option<NaiveDate>, Option<String>) {
        sqlx::query_as(
            "select status, location_id, active_from, active_until, reason from memberships
             where member_id = $1 order by id desc limit 1",
        )
        .bind(member_id)
        .fetch_one(&self.database.pool)
        .await
        .unwrap()
    }
}

fn ids(answer: &Answer) -> Vec<i64> {
    answer.body["members"]
        .as_array()
        .unwrap_or_else(|| panic!("{:?}", answer.body))
        .iter()
        .map(|member| member["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_new_enrolment_reaches_the_panel_and_every_provider_account_of_the_organisation() {
    let app = TestApp::spawn(50).await;
    let (_, front_desk) = app.provider_account(DENVER, "front.desk@frontrange.example").await;
    app.provider_account(DENVER, "doctor@frontrange.example").await;
    let (_, other_clinic) = app.provider_account(NEW_YORK, "desk@hudson.example").await;
    // Named before choosing the clinic: the clinic's email carries the facts of that moment.
    let (member, member_token) = signed_up(&app, "maria@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    app.name_member(member, "Maria", "Garcia", "900-100001").await;
    assert_eq!(set_provider(&app, &member_token, &denver()).await.status, 200);

    let new = app.panel(Some(&front_desk), "").await;
    assert_eq!(new.status, 200, "{:?}", new.body);
    assert_eq!(new.body["status"], "pending");
    assert_eq!(new.body["counts"], json!({ "pending": 1, "active": 0, "past": 0 }));
    assert_eq!(ids(&new), [member]);
    let row = &new.body["members"][0];
    assert_eq!(row["firstName"], "Maria");
    assert_eq!(row["dob"], "1988-02-14");
    assert_eq!(row["employer"], seed::demo::ACME_NAME);
    assert_eq!(row["location"]["id"], LODO);
    assert_eq!(row["location"]["name"], seed::demo::DENVER_LOCATION_NAME);
    assert_eq!(row["membership"]["status"], "pending");
    assert!(
        new.body["locations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|location| location["id"] == HIGHLANDS)
    );
    // The other organisation sees nobody.
    let elsewhere = app.panel(Some(&other_clinic), "").await;
    assert_eq!(
        elsewhere.body["counts"],
        json!({ "pending": 0, "active": 0, "past": 0 })
    );

    let detail = app.panel_member(Some(&front_desk), member).await;
    assert_eq!(detail.status, 200, "{:?}", detail.body);
    assert_eq!(detail.body["member"]["email"], "maria@example.com");
    assert_eq!(detail.body["member"]["phone"], "+13035550141");
    assert_eq!(
        detail.body["membership"]["location"]["name"],
        seed::demo::DENVER_LOCATION_NAME
    );
    assert!(
        detail.body["membership"]["location"]["address"]
            .as_str()
            .unwrap()
            .ends_with(seed::demo::DENVER_ZIP)
    );
    assert_eq!(detail.body["history"][0]["kind"], "enrolled");
    assert_eq!(detail.body["history"][0]["by"]["actor"], "member");

    // Both accounts of the organisation are told, with the member's facts and a link to them.
    let told = app.outbox_of("clinic_member").await;
    let recipients: Vec<&str> = told.iter().map(|(to, _)| to.as_str()).collect();
    assert_eq!(
        recipients,
        ["front.desk@frontrange.example", "doctor@frontrange.example"]
    );
    let (_, facts) = &told[0];
    assert_eq!(facts["event"], "enrolled");
    assert_eq!(facts["member"]["firstName"], "Maria");
    assert_eq!(facts["clinic"]["location_name"], seed::demo::DENVER_LOCATION_NAME);
    let link: String = sqlx::query_scalar("select link from email_outbox where kind = 'clinic_member' limit 1")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(link, format!("/dpc-providers/members/{member}"));
    assert_eq!(
        app.member_events(member).await,
        [("enrolled".into(), "member".into(), Some(member))]
    );
}

#[tokio::test]
async fn every_panel_call_is_for_the_provider_accounts_of_the_members_organisation() {
    let app = TestApp::spawn(50).await;
    let (_, own) = app.provider_account(DENVER, "own@frontrange.example").await;
    let (_, other) = app.provider_account(NEW_YORK, "other@hudson.example").await;
    let (member, member_token) = enrolled(&app, "matrix@example.com", &denver()).await;
    let month = today().format("?month=%Y-%m").to_string();
    let reads = [
        "/dpcproviders/members".to_owned(),
        format!("/dpcproviders/members/{member}"),
        format!("/dpcproviders/roster.csv{month}"),
    ];
    for path in &reads {
        assert_error(&app.get_as(path, None).await, 401, "unauthorized");
        assert_error(&app.get_as(path, Some(&member_token)).await, 403, "provider_only");
    }
    for decision in ["activate", "decline", "end"] {
        let body = json!({ "reason": "A reason" });
        let body = if decision == "activate" { json!({}) } else { body };
        assert_error(&app.decide(None, member, decision, &body).await, 401, "unauthorized");
        assert_error(
            &app.decide(Some(&member_token), member, decision, &body).await,
            403,
            "provider_only",
        );
        // Another organisation's provider learns nothing: the same 404 as an unknown id.
        let refused = app.decide(Some(&other), member, decision, &body).await;
        assert_error(&refused, 404, "not_found");
        assert_eq!(
            refused.body["message"],
            "This member is not enrolled with your organisation"
        );
        assert_error(
            &app.decide(Some(&own), 999_999, decision, &body).await,
            404,
            "not_found",
        );
    }
    assert_error(&app.panel_member(Some(&other), member).await, 404, "not_found");
    assert_error(&app.panel_member(Some(&own), 999_999).await, 404, "not_found");
    // A provider account's own id is not a member of anyone's panel.
    let own_account: i64 = sqlx::query_scalar("select id from members where email = 'own@frontrange.example'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_error(&app.panel_member(Some(&own), own_account).await, 404, "not_found");
    assert!(ids(&app.panel(Some(&other), "").await).is_empty());
    let other_roster = app.roster_csv(Some(&other), &month).await;
    assert_eq!(other_roster.status, 200);
    // Nothing was decided by the refused calls.
    assert_eq!(app.membership_row(member).await.0, "pending");
    assert_eq!(app.panel(Some(&own), "").await.status, 200);
    assert_eq!(app.panel_member(Some(&own), member).await.status, 200);
    assert_eq!(app.decide(Some(&own), member, "activate", &json!({})).await.status, 200);
}

#[tokio::test]
async fn activation_makes_the_membership_active_on_the_members_screens_and_is_audited() {
    let app = TestApp::spawn(50).await;
    let (account, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (member, member_token) = enrolled(&app, "active@example.com", &denver()).await;
    app.enrolled_days_ago(member, 3).await;
    let first_visit = today() - Days::new(1);
    let activated = app.activate_on(&provider, member, first_visit).await;
    assert_eq!(activated.status, 200, "{:?}", activated.body);
    assert_eq!(activated.body["membership"]["status"], "active");
    assert_eq!(activated.body["membership"]["activeFrom"], first_visit.to_string());
    // A member who never gave their name is named by their email.
    assert_eq!(
        activated.body["message"],
        format!(
            "active@example.com is now an active member (first visit {}).",
            domain::clinic_panel::long_date(first_visit)
        )
    );
    // The member's own screens.
    let info = app.member_info(&member_token).await;
    assert_eq!(info.body["subscription"]["status"], "active");
    assert_eq!(
        info.body["subscription"]["expire"],
        domain::membership::one_year_after(first_visit).to_string()
    );
    assert_eq!(info.body["membership"]["status"], "active");
    assert_eq!(info.body["membership"]["activeFrom"], first_visit.to_string());
    assert_eq!(info.body["membership"]["clinic"]["id"], LODO);
    // An active member cannot move; the clinic's panel lists them as Active.
    assert_error(
        &set_provider(
            &app,
            &member_token,
            &json!({ "providerId": NEW_YORK, "locationId": seed::demo::NEW_YORK_LOCATION_ID, "change": true }),
        )
        .await,
        409,
        "active_membership",
    );
    let active = app.panel(Some(&provider), "?status=active").await;
    assert_eq!(ids(&active), [member]);
    assert_eq!(active.body["counts"], json!({ "pending": 0, "active": 1, "past": 0 }));
    assert!(ids(&app.panel(Some(&provider), "?status=pending").await).is_empty());
    // Audit: who and when.
    assert_eq!(
        app.member_events(member).await,
        [
            ("enrolled".into(), "member".into(), Some(member)),
            ("activated".into(), "provider".into(), Some(account)),
        ]
    );
    let effective: Option<NaiveDate> =
        sqlx::query_scalar("select effective_on from enrolment_events where member_id = $1 and kind = 'activated'")
            .bind(member)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(effective, Some(first_visit));
    let history = app.panel_member(Some(&provider), member).await.body["history"].clone();
    assert_eq!(history[1]["kind"], "activated");
    assert_eq!(history[1]["by"], json!({ "actor": "provider", "name": "Pat Lee" }));
    assert_eq!(history[1]["date"], first_visit.to_string());
    // The member is emailed.
    let emailed = app.outbox_of("membership_activated").await;
    assert_eq!(emailed.len(), 1);
    assert_eq!(emailed[0].0, "active@example.com");
    // Again: 409 saying what happened; nothing more is written.
    let again = app.decide(Some(&provider), member, "activate", &json!({})).await;
    assert_error(&again, 409, "membership_state");
    assert!(
        again.body["message"].as_str().unwrap().ends_with(&format!(
            "is already an active member (first visit {}).",
            domain::clinic_panel::long_date(first_visit)
        )),
        "{:?}",
        again.body
    );
    assert_error(
        &app.decide(Some(&provider), member, "decline", &json!({ "reason": "Too late" }))
            .await,
        409,
        "membership_state",
    );
    assert_eq!(app.member_events(member).await.len(), 2);
}

#[tokio::test]
async fn a_declined_member_reads_why_and_chooses_another_clinic() {
    let app = TestApp::spawn(50).await;
    let (account, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (_, hudson) = app.provider_account(NEW_YORK, "desk@hudson.example").await;
    let (member, member_token) = enrolled(&app, "declined@example.com", &denver()).await;
    let reason = "We cannot take new patients under 2 years old";
    let declined = app
        .decide(
            Some(&provider),
            member,
            "decline",
            &json!({ "reason": format!("  {reason}\n") }),
        )
        .await;
    assert_eq!(declined.status, 200, "{:?}", declined.body);
    assert_eq!(declined.body["membership"]["status"], "declined");
    assert_eq!(declined.body["membership"]["reason"], reason);
    assert!(
        declined.body["message"]
            .as_str()
            .unwrap()
            .contains("We emailed them your reason")
    );

    let info = app.member_info(&member_token).await;
    assert_eq!(info.body["nextStep"], "selectDPC");
    assert_eq!(info.body["locationId"], Value::Null);
    assert_eq!(info.body["subscription"]["status"], Value::Null);
    assert_eq!(info.body["membership"]["status"], "declined");
    assert_eq!(info.body["membership"]["reason"], reason);
    assert_eq!(
        info.body["membership"]["clinic"]["name"],
        seed::demo::DENVER_ORGANISATION_NAME
    );
    let emailed = app.outbox_of("membership_declined").await;
    assert_eq!(emailed.len(), 1);
    assert_eq!(emailed[0].1["reason"], reason);
    let link: String = sqlx::query_scalar("select link from email_outbox where kind = 'membership_declined'")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(link, "/marketplace");

    // The clinic: Past, with the reason and who declined.
    let past = app.panel(Some(&provider), "?status=past").await;
    assert_eq!(ids(&past), [member]);
    assert_eq!(past.body["members"][0]["membership"]["reason"], reason);
    assert_eq!(
        app.member_events(member).await,
        [
            ("enrolled".into(), "member".into(), Some(member)),
            ("declined".into(), "provider".into(), Some(account)),
        ]
    );
    assert_error(
        &app.decide(Some(&provider), member, "activate", &json!({})).await,
        409,
        "membership_state",
    );

    // The member enrols elsewhere as a new member (no change to confirm), and the notice goes.
    let again = set_provider(&app, &member_token, &new_york()).await;
    assert_eq!(again.status, 200, "{:?}", again.body);
    assert_eq!(again.body["changed"], false);
    let info = app.member_info(&member_token).await;
    assert_eq!(info.body["membership"]["status"], "pending");
    assert_eq!(info.body["membership"]["clinic"]["providerId"], NEW_YORK);
    assert_eq!(ids(&app.panel(Some(&hudson), "").await), [member]);
    // Front Range still shows its own decision, not where the member went.
    let detail = app.panel_member(Some(&provider), member).await;
    assert_eq!(detail.body["membership"]["status"], "declined");
    let kinds: Vec<&str> = detail.body["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| event["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["enrolled", "declined"]);
}

#[tokio::test]
async fn an_ended_membership_keeps_its_dates_and_lets_the_member_choose_again() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (member, member_token) = enrolled(&app, "ended@example.com", &denver()).await;
    // Not active yet: ending is refused.
    let early = app
        .decide(Some(&provider), member, "end", &json!({ "reason": "Moved away" }))
        .await;
    assert_error(&early, 409, "membership_state");
    assert!(
        early.body["message"]
            .as_str()
            .unwrap()
            .contains("has not had a first visit yet")
    );
    // Dated back, so the first visit and the end can differ.
    app.enrolled_days_ago(member, 10).await;
    let first_visit = today() - Days::new(8);
    assert_eq!(app.activate_on(&provider, member, first_visit).await.status, 200);
    let before_visit = app
        .decide(
            Some(&provider),
            member,
            "end",
            &json!({ "reason": "Moved away", "endDate": (first_visit - Days::new(1)).to_string() }),
        )
        .await;
    assert_error(&before_visit, 400, "invalid_date");
    assert_eq!(before_visit.body["field"], "endDate");
    let tomorrow = app
        .decide(
            Some(&provider),
            member,
            "end",
            &json!({ "reason": "Moved away", "endDate": (today() + Days::new(1)).to_string() }),
        )
        .await;
    assert_error(&tomorrow, 400, "invalid_date");
    assert_eq!(tomorrow.body["message"], "The end date cannot be in the future");
    let last_day = today() - Days::new(2);
    let ended = app
        .decide(
            Some(&provider),
            member,
            "end",
            &json!({ "reason": "Moved to Boston", "endDate": last_day.to_string() }),
        )
        .await;
    assert_eq!(ended.status, 200, "{:?}", ended.body);
    assert_eq!(ended.body["membership"]["status"], "ended");
    assert_eq!(ended.body["membership"]["activeUntil"], last_day.to_string());
    let info = app.member_info(&member_token).await;
    assert_eq!(info.body["subscription"]["status"], "inactive");
    assert_eq!(info.body["subscription"]["expire"], last_day.to_string());
    assert_eq!(info.body["nextStep"], "selectDPC");
    assert_eq!(info.body["membership"]["status"], "ended");
    assert_eq!(info.body["membership"]["reason"], "Moved to Boston");
    assert_eq!(app.outbox_of("membership_ended").await.len(), 1);
    assert_error(
        &app.decide(Some(&provider), member, "end", &json!({ "reason": "Again" }))
            .await,
        409,
        "membership_state",
    );
    // The member may enrol again, here or elsewhere.
    let again = set_provider(&app, &member_token, &choice(DENVER, HIGHLANDS)).await;
    assert_eq!(again.status, 200, "{:?}", again.body);
    let kinds: Vec<String> = app
        .member_events(member)
        .await
        .into_iter()
        .map(|(kind, ..)| kind)
        .collect();
    assert_eq!(kinds, ["enrolled", "activated", "ended", "enrolled"]);
    assert_eq!(
        app.panel(Some(&provider), "").await.body["counts"],
        json!({ "pending": 1, "active": 0, "past": 1 })
    );
}

#[tokio::test]
async fn a_clinics_decline_or_end_at_a_full_location_reopens_it_and_emails_the_waitlist() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let panel: i64 = sqlx::query_scalar(
        "select count(*) from members where location_id = $1 and subscription_status in ('pending', 'active')",
    )
    .bind(LODO)
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    let capacity = panel + 2;
    let limited = app
        .edit_location(
            &provider,
            LODO,
            &json!({ "panelCapacity": capacity, "acceptingNewPatients": true }),
        )
        .await;
    assert_eq!(limited.status, 200, "{:?}", limited.body);
    let (first, _) = enrolled(&app, "first@example.com", &denver()).await;
    let (second, _) = enrolled(&app, "second@example.com", &denver()).await;
    assert_eq!(accepting(&app, LODO).await, (false, true), "full: closed by itself");
    let (_, late) = signed_up(&app, "late@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    assert_error(&set_provider(&app, &late, &denver()).await, 409, "not_accepting");
    let waiting = app
        .post(
            "/member/app/join/wait/list",
            &json!({ "email": "waiting@example.com", "location": LODO, "consent": true }),
        )
        .await;
    assert_eq!(waiting.status, 201, "{:?}", waiting.body);

    // The clinic declines the last member in: a place opens, the waitlist is told, and the
    // member who was turned away may enrol.
    let declined = app
        .decide(
            Some(&provider),
            second,
            "decline",
            &json!({ "reason": "We cannot take new patients under 2 years old" }),
        )
        .await;
    assert_eq!(declined.status, 200, "{:?}", declined.body);
    assert_eq!(accepting(&app, LODO).await, (true, false), "a decline frees a place");
    let audit = app.listing_audit("location", LODO).await;
    let reopening = audit.last().unwrap();
    assert_eq!(
        (reopening.0.as_str(), reopening.1.as_str(), &reopening.3),
        ("capacity", "acceptingNewPatients", &json!(true))
    );
    let told = app.outbox_of("waitlist_open").await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].0, "waiting@example.com");
    assert_eq!(set_provider(&app, &late, &denver()).await.status, 200);
    assert_eq!(accepting(&app, LODO).await, (false, true), "full again");

    // Ending an active membership frees a place too.
    app.enrolled_days_ago(first, 10).await;
    assert_eq!(
        app.activate_on(&provider, first, today() - Days::new(5)).await.status,
        200
    );
    assert_eq!(
        accepting(&app, LODO).await,
        (false, true),
        "an activation changes no head count"
    );
    let ended = app
        .decide(Some(&provider), first, "end", &json!({ "reason": "Moved to Boston" }))
        .await;
    assert_eq!(ended.status, 200, "{:?}", ended.body);
    assert_eq!(accepting(&app, LODO).await, (true, false), "an end frees a place");
}

#[tokio::test]
async fn malformed_decisions_are_refused_naming_the_field_and_write_nothing() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (member, _) = enrolled(&app, "fields@example.com", &denver()).await;
    let cases = [
        (
            "activate",
            json!({ "firstVisit": "2026-13-01" }),
            "invalid_date",
            Some("firstVisit"),
        ),
        (
            "activate",
            json!({ "firstVisit": "26-11-01" }),
            "invalid_date",
            Some("firstVisit"),
        ),
        (
            "activate",
            json!({ "firstVisit": 20261101 }),
            "invalid_field",
            Some("firstVisit"),
        ),
        (
            "activate",
            json!({ "firstVisit": (today() + Days::new(1)).to_string() }),
            "invalid_date",
            Some("firstVisit"),
        ),
        (
            "activate",
            json!({ "firstVisit": (today() - Days::new(1)).to_string() }),
            "invalid_date",
            Some("firstVisit"),
        ),
        ("activate", json!({ "firstvisit": "2026-11-01" }), "invalid_body", None),
        ("decline", json!({}), "required", Some("reason")),
        ("decline", json!({ "reason": "   " }), "required", Some("reason")),
        (
            "decline",
            json!({ "reason": "x".repeat(501) }),
            "too_long",
            Some("reason"),
        ),
        ("decline", json!({ "reason": 42 }), "invalid_field", Some("reason")),
        (
            "decline",
            json!({ "reason": "ok", "why": "extra" }),
            "invalid_body",
            None,
        ),
        ("end", json!({ "endDate": "2026-11-01" }), "required", Some("reason")),
        (
            "end",
            json!({ "reason": "Moved", "endDate": "yesterday" }),
            "invalid_date",
            Some("endDate"),
        ),
    ];
    for (decision, body, code, field) in cases {
        let answer = app.decide(Some(&provider), member, decision, &body).await;
        assert_error(&answer, 400, code);
        if let Some(field) = field {
            assert_eq!(answer.body["field"], field, "{decision} {body}: {:?}", answer.body);
        }
    }
    let before_enrolment = app
        .decide(
            Some(&provider),
            member,
            "activate",
            &json!({ "firstVisit": (today() - Days::new(1)).to_string() }),
        )
        .await;
    assert!(
        before_enrolment.body["message"]
            .as_str()
            .unwrap()
            .starts_with("The first visit cannot be before"),
        "{:?}",
        before_enrolment.body
    );
    let not_json = app
        .send_raw(
            reqwest::Method::POST,
            &format!("/dpcproviders/members/{member}/decline"),
            "application/json",
            "{\"reason\":".into(),
            Some(&provider),
        )
        .await;
    assert_error(&not_json, 400, "invalid_body");
    assert_error(
        &app.get_as("/dpcproviders/members/abc", Some(&provider)).await,
        400,
        "invalid_path",
    );
    // A reason of exactly 500 characters is fine.
    assert_eq!(
        app.decide(
            Some(&provider),
            member,
            "decline",
            &json!({ "reason": "é".repeat(500) })
        )
        .await
        .status,
        200
    );
    assert_eq!(app.member_events(member).await.len(), 2);
}

#[tokio::test]
async fn the_list_filters_by_tab_location_and_words_and_pages_newest_first() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let mut created = Vec::new();
    for index in 0..25 {
        let location = if index % 5 == 0 { HIGHLANDS } else { LODO };
        let (id, _) = enrolled(&app, &format!("member{index}@example.com"), &choice(DENVER, location)).await;
        let (first, last) = match index {
            3 => ("Anne-Marie", "O'Neil"),
            7 => ("Zoë", "van Dyke"),
            _ => ("Member", "Number"),
        };
        app.name_member(id, first, last, &format!("700-{index:06}")).await;
        created.push(id);
    }
    let first = app.panel(Some(&provider), "").await;
    assert_eq!(first.body["total"], 25);
    assert_eq!(first.body["pageSize"], 20);
    let mut newest_first = created.clone();
    newest_first.reverse();
    assert_eq!(ids(&first), newest_first[..20]);
    let second = app.panel(Some(&provider), "?page=2").await;
    assert_eq!(ids(&second), newest_first[20..]);
    assert!(ids(&app.panel(Some(&provider), "?page=3").await).is_empty());

    let highlands = app.panel(Some(&provider), &format!("?location={HIGHLANDS}")).await;
    assert_eq!(highlands.body["total"], 5);
    assert!(
        highlands.body["members"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["location"]["id"] == HIGHLANDS)
    );
    // Words start words of the names, any case and accent as typed; or a member id.
    for (query, expected) in [
        ("?q=marie", vec![created[3]]),
        ("?q=o%27neil", vec![created[3]]),
        ("?q=ANNE%20neil", vec![created[3]]),
        ("?q=dyke%20zo%C3%AB", vec![created[7]]),
        ("?q=700-000007", vec![created[7]]),
        (&format!("?q={}", created[3]), vec![created[3]]),
        ("?q=nobody", vec![]),
        ("?q=arie", vec![]),
    ] {
        assert_eq!(ids(&app.panel(Some(&provider), query).await), expected, "{query}");
    }
    let searched = app.panel(Some(&provider), "?q=number").await;
    assert_eq!(
        searched.body["counts"],
        json!({ "pending": 23, "active": 0, "past": 0 })
    );

    // Newest first is by the last transition: an activation moves a member to the top of Active.
    for member in [created[0], created[1]] {
        assert_eq!(
            app.decide(Some(&provider), member, "activate", &json!({})).await.status,
            200
        );
    }
    assert_eq!(
        ids(&app.panel(Some(&provider), "?status=active").await),
        [created[1], created[0]]
    );
    assert_eq!(
        app.panel(Some(&provider), "").await.body["counts"],
        json!({ "pending": 23, "active": 2, "past": 0 })
    );

    for (query, field) in [
        ("?status=new", "status"),
        ("?page=0", "page"),
        ("?page=10001", "page"),
        ("?page=x", "page"),
        ("?location=999999", "location"),
        (&format!("?location={}", seed::demo::NEW_YORK_LOCATION_ID), "location"),
        (&format!("?q={}", "a".repeat(101)), "q"),
        ("?q=a%20b%20c%20d%20e%20f%20g%20h%20i", "q"),
    ] {
        let answer = app.panel(Some(&provider), query).await;
        assert_error(&answer, 400, "invalid_parameter");
        assert_eq!(answer.body["field"], field, "{query}");
    }
    assert_error(&app.panel(Some(&provider), "?sort=name").await, 400, "invalid_query");
}

/// Whichever of a member's provider change and the old clinic's activation locks the member
/// first wins; the other sees what it did and is refused, and one audit row records the winner.
#[tokio::test]
async fn a_provider_change_racing_the_old_clinics_activation_ends_with_one_winner() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let moved_to = json!({ "providerId": NEW_YORK, "locationId": seed::demo::NEW_YORK_LOCATION_ID, "change": true });
    let (mut activations_won, mut changes_won) = (0, 0);
    for round in 0..16 {
        let (member, member_token) = enrolled(&app, &format!("race{round}@example.com"), &denver()).await;
        let no_body = json!({});
        let (change, activation) = tokio::join!(
            set_provider(&app, &member_token, &moved_to),
            app.decide(Some(&provider), member, "activate", &no_body),
        );
        let events: Vec<String> = app
            .member_events(member)
            .await
            .into_iter()
            .map(|(kind, ..)| kind)
            .collect();
        let (status, location, ..) = app.membership_row(member).await;
        let info = app.member_info(&member_token).await;
        let live: i64 = sqlx::query_scalar(
            "select count(*) from memberships where member_id = $1 and status in ('pending', 'active')",
        )
        .bind(member)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
        assert_eq!(live, 1, "round {round}: one live membership");
        match (change.status, activation.status) {
            (409, 200) => {
                activations_won += 1;
                assert_eq!(change.body["code"], "active_membership", "{:?}", change.body);
                assert_eq!(events, ["enrolled", "activated"], "round {round}");
                assert_eq!((status.as_str(), location), ("active", LODO));
                assert_eq!(info.body["subscription"]["status"], "active");
                assert_eq!(info.body["locationId"], LODO);
            }
            (200, 409) => {
                changes_won += 1;
                assert_eq!(activation.body["code"], "membership_state", "{:?}", activation.body);
                assert!(
                    activation.body["message"]
                        .as_str()
                        .unwrap()
                        .contains("moved to another clinic"),
                    "{:?}",
                    activation.body
                );
                assert_eq!(events, ["enrolled", "provider_changed"], "round {round}");
                assert_eq!(
                    (status.as_str(), location),
                    ("pending", seed::demo::NEW_YORK_LOCATION_ID)
                );
                assert_eq!(info.body["subscription"]["status"], "pending");
                assert_eq!(info.body["locationId"], seed::demo::NEW_YORK_LOCATION_ID);
                let old: String =
                    sqlx::query_scalar("select status from memberships where member_id = $1 and organisation_id = $2")
                        .bind(member)
                        .bind(DENVER)
                        .fetch_one(&app.database.pool)
                        .await
                        .unwrap();
                assert_eq!(old, "moved");
            }
            other => panic!(
                "round {round}: not one winner: {other:?} {:?} {:?}",
                change.body, activation.body
            ),
        }
    }
    println!("activation won {activations_won}, the change won {changes_won} of 16");
}

#[tokio::test]
async fn a_member_who_moves_leaves_the_old_panel_without_naming_the_new_clinic() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (_, hudson) = app.provider_account(NEW_YORK, "desk@hudson.example").await;
    let (member, member_token) = enrolled(&app, "mover@example.com", &denver()).await;
    // Within the organisation: the same membership, another location.
    let within = set_provider(
        &app,
        &member_token,
        &json!({ "providerId": DENVER, "locationId": HIGHLANDS, "change": true }),
    )
    .await;
    assert_eq!(within.status, 200, "{:?}", within.body);
    let detail = app.panel_member(Some(&provider), member).await;
    assert_eq!(detail.body["membership"]["location"]["id"], HIGHLANDS);
    assert_eq!(detail.body["history"][1]["kind"], "location_changed");
    assert_eq!(detail.body["history"][1]["fromLocation"]["id"], LODO);
    // To another organisation.
    let away = set_provider(
        &app,
        &member_token,
        &json!({ "providerId": NEW_YORK, "locationId": seed::demo::NEW_YORK_LOCATION_ID, "change": true }),
    )
    .await;
    assert_eq!(away.status, 200, "{:?}", away.body);
    let past = app.panel(Some(&provider), "?status=past").await;
    assert_eq!(ids(&past), [member]);
    assert_eq!(past.body["members"][0]["membership"]["status"], "moved");
    let detail = app.panel_member(Some(&provider), member).await;
    let last = detail.body["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["kind"], "moved_away");
    assert_eq!(
        last["location"]["id"], HIGHLANDS,
        "the location left, never the new one"
    );
    assert!(!detail.body.to_string().contains(seed::demo::NEW_YORK_ORGANISATION_NAME));
    let moved = app.decide(Some(&provider), member, "activate", &json!({})).await;
    assert_error(&moved, 409, "membership_state");
    assert!(
        moved.body["message"]
            .as_str()
            .unwrap()
            .contains("moved to another clinic on")
    );
    let arrived = app.panel_member(Some(&hudson), member).await;
    assert_eq!(arrived.body["history"][0]["kind"], "moved_in");
    assert!(!arrived.body.to_string().contains(seed::demo::DENVER_ORGANISATION_NAME));
    let events: Vec<String> = app
        .outbox_of("clinic_member")
        .await
        .into_iter()
        .map(|(to, facts)| format!("{to} {}", facts["event"].as_str().unwrap()))
        .collect();
    assert_eq!(
        events,
        [
            "desk@frontrange.example enrolled",
            "desk@frontrange.example location_changed",
            "desk@frontrange.example moved_away",
            "desk@hudson.example moved_in",
        ]
    );
}

#[tokio::test]
async fn a_family_members_removal_cancels_their_membership_and_keeps_them_on_the_panel() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (subscriber, token) = crate::enrolment::confirmed_jane(&app).await;
    assert_eq!(set_provider(&app, &token, &denver()).await.status, 200);
    let added = app
        .post_as(
            "/member/app/family/member",
            &json!({
                "subscriberRelation": "Spouse", "firstName": seed::demo::SPOUSE_FIRST_NAME,
                "lastName": seed::demo::SPOUSE_LAST_NAME, "dob": seed::demo::SPOUSE_DATE_OF_BIRTH, "gender": "m",
                "memberId": seed::demo::SPOUSE_MEMBER_ID, "planId": seed::demo::ACME_PLAN_ID, "useMyContact": true,
            }),
            Some(&token),
        )
        .await;
    assert_eq!(added.status, 201, "{:?}", added.body);
    let spouse = added.body["id"].as_i64().unwrap();
    let enrolled = app
        .post_as(
            &format!("/member/app/family/member/{spouse}/set/provider"),
            &denver(),
            Some(&token),
        )
        .await;
    assert_eq!(enrolled.status, 200, "{:?}", enrolled.body);
    // Jane's detail lists her spouse, enrolled at the same organisation.
    let family = app.panel_member(Some(&provider), subscriber).await.body["family"].clone();
    assert_eq!(family[0]["id"], spouse);
    assert_eq!(family[0]["relation"], "Spouse");
    assert_eq!(
        app.decide(Some(&provider), spouse, "activate", &json!({})).await.status,
        200
    );

    let removed = app
        .client
        .delete(format!("{}/member/app/family/member/{spouse}", app.address))
        .header("x-access-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 200);
    let (status, _, active_from, active_until, _) = app.membership_row(spouse).await;
    assert_eq!(status, "cancelled");
    assert_eq!((active_from, active_until), (Some(today()), Some(today())));
    // The panel still names them, in Past.
    let past = app.panel(Some(&provider), "?status=past").await;
    assert_eq!(ids(&past), [spouse]);
    assert_eq!(past.body["members"][0]["firstName"], seed::demo::SPOUSE_FIRST_NAME);
    let detail = app.panel_member(Some(&provider), spouse).await;
    assert_eq!(detail.body["member"]["memberId"], seed::demo::SPOUSE_MEMBER_ID);
    assert_eq!(
        detail.body["history"].as_array().unwrap().last().unwrap()["kind"],
        "cancelled"
    );
    let refused = app
        .decide(Some(&provider), spouse, "end", &json!({ "reason": "x" }))
        .await;
    assert_error(&refused, 409, "membership_state");
    assert!(
        refused.body["message"]
            .as_str()
            .unwrap()
            .contains("taken off their family's account")
    );
    let told: Vec<String> = app
        .outbox_of("clinic_member")
        .await
        .into_iter()
        .map(|(_, facts)| facts["event"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(told, ["enrolled", "enrolled", "cancelled"]);
    assert!(ids(&app.panel(Some(&provider), "?status=active").await).is_empty());
}

/// Jane signs up from LoDo's page (the clinic chosen before sign-up): her id and token.
async fn signed_up_having_chosen_lodo(app: &TestApp) -> (i64, String) {
    let signup = app
        .signup(
            &json!({ "email": "jane@example.com", "employerId": seed::demo::ACME_EMPLOYER_ID,
                         "providerId": DENVER, "locationId": LODO }),
        )
        .await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    let member = signup.body["id"].as_i64().unwrap();
    (member, signup.body["accessToken"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn eligibility_confirmed_after_choosing_a_clinic_at_sign_up_enrols_the_member_there() {
    let app = TestApp::spawn(50).await;
    app.provider_account(DENVER, "desk@frontrange.example").await;
    let (member, token) = signed_up_having_chosen_lodo(&app).await;
    assert!(
        app.member_events(member).await.is_empty(),
        "choosing before sign-up enrols nobody yet"
    );
    let confirmed = app.confirm_info(&token, &crate::helpers::jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["nextStep"], "complete");
    assert_eq!(app.membership_row(member).await.0, "pending");
    assert_eq!(
        app.member_events(member).await,
        [("enrolled".into(), "member".into(), Some(member))]
    );
    let told = app.outbox_of("clinic_member").await;
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].1["member"]["memberId"], seed::demo::SUBSCRIBER_MEMBER_ID);
    assert_eq!(told[0].1["member"]["plan"], seed::demo::ACME_PLAN_NAME);
    let info = app.member_info(&token).await;
    assert_eq!(info.body["subscription"]["status"], "pending");
}

#[tokio::test]
async fn eligibility_confirmed_after_the_clinic_chosen_at_sign_up_filled_up_enrols_nobody_there_and_offers_its_waitlist()
 {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let (member, token) = signed_up_having_chosen_lodo(&app).await;
    // Meanwhile the clinic's panel fills up: one place, taken by another member.
    let capacity = app
        .edit_location(
            &provider,
            LODO,
            &json!({"panelCapacity": 1, "acceptingNewPatients": true}),
        )
        .await;
    assert_eq!(capacity.status, 200, "{:?}", capacity.body);
    enrolled(&app, "first@example.com", &denver()).await;
    assert_eq!(accepting(&app, LODO).await, (false, true), "full: closed by itself");

    let confirmed = app.confirm_info(&token, &crate::helpers::jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["eligible"], true, "the eligibility is confirmed");
    assert_eq!(confirmed.body["eligibility"]["status"], "active");
    assert_eq!(confirmed.body["nextStep"], "selectDPC", "the member chooses a provider");
    assert!(confirmed.body["providerId"].is_null() && confirmed.body["locationId"].is_null());
    assert!(confirmed.body["subscription"]["status"].is_null());
    let told = &confirmed.body["notEnrolled"];
    assert_eq!(told["code"], "not_accepting");
    assert_eq!(told["location"]["id"], LODO);
    assert_eq!(told["location"]["providerId"], DENVER);
    let name = crate::enrolment::clinic_name(&app, LODO).await;
    assert_eq!(
        told["message"],
        format!(
            "{name} stopped accepting new patients, so you were not enrolled there. Your eligibility is confirmed: \
             choose another provider, or join its waitlist to be emailed when it accepts new patients again."
        )
    );
    assert!(
        app.member_events(member).await.is_empty(),
        "no enrolment at the full clinic"
    );
    assert_eq!(
        app.outbox_of("clinic_member").await.len(),
        1,
        "the clinic hears of the member who took the place only"
    );
    let info = app.member_info(&token).await;
    assert!(info.body["subscription"]["status"].is_null());
    assert_eq!(info.body["eligibility"]["status"], "active");
    let home = app.home(&token).await;
    assert_eq!(home.body["nextStep"], "selectDPC");
    assert!(home.body["providerId"].is_null());

    // Nothing is lost: the member joins the clinic's waitlist, or chooses another clinic.
    let waitlist = app
        .post_as(
            "/member/app/join/wait/list",
            &json!({"location": LODO, "search": {"location": {"lat": 39.75, "lng": -105.0}, "address": "Denver, CO 80202", "filters": {}}}),
            Some(&token),
        )
        .await;
    assert_eq!(waitlist.status, 201, "{:?}", waitlist.body);
    let other = set_provider(&app, &token, &choice(DENVER, HIGHLANDS)).await;
    assert_eq!(other.status, 200, "{:?}", other.body);
    assert_eq!(app.membership_row(member).await.0, "pending");
}

/// Reads CSV the way a spreadsheet importer would: Python's csv module, in a real process.
async fn python_csv(text: &str) -> Vec<Vec<String>> {
    let mut child = tokio::process::Command::new("python3")
        .args([
            "-c",
            "import csv, io, json, sys; data = sys.stdin.buffer.read().decode('utf-8'); \
             print(json.dumps(list(csv.reader(io.StringIO(data, newline='')))))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(text.as_bytes()).await.unwrap();
    let output = child.wait_with_output().await.unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test]
async fn the_monthly_roster_is_csv_that_a_spreadsheet_reads_as_text() {
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let this_month = domain::clinic_panel::Month::of(today());
    let last_month = domain::clinic_panel::Month::of(this_month.first_day() - Days::new(1));
    let names = [
        ("Doe, Jane", "Smith"),
        ("Anna \"Nan\"", "Lee"),
        ("=HYPERLINK(\"http://evil.example\")", "Formula"),
        ("Pending", "Only"),
    ];
    let mut members = Vec::new();
    for (index, (first, last)) in names.iter().enumerate() {
        let (member, _) = enrolled(&app, &format!("roster{index}@example.com"), &denver()).await;
        sqlx::query(
            "update members set first_name = $2, last_name = $3, member_id = $4, dob = '1980-01-02' where id = $1",
        )
        .bind(member)
        .bind(first)
        .bind(last)
        .bind(format!("800-{index:06}"))
        .execute(&app.database.pool)
        .await
        .unwrap();
        members.push(member);
    }
    // Smith started last month and is still active; Lee started last month and ended on its
    // last day; Formula started this month; Only is still pending.
    sqlx::query("update memberships set enrolled_at = $2 where member_id = any($1)")
        .bind(&members[..3])
        .bind(last_month.first_day().and_hms_opt(9, 0, 0).unwrap().and_utc())
        .execute(&app.database.pool)
        .await
        .unwrap();
    for (member, first_visit) in [
        (members[0], last_month.first_day() + Days::new(9)),
        (members[1], last_month.first_day()),
        (members[2], this_month.first_day()),
    ] {
        let answer = app.activate_on(&provider, member, first_visit).await;
        assert_eq!(answer.status, 200, "{:?}", answer.body);
    }
    let ended = app
        .decide(
            Some(&provider),
            members[1],
            "end",
            &json!({ "reason": "Moved", "endDate": last_month.last_day().to_string() }),
        )
        .await;
    assert_eq!(ended.status, 200, "{:?}", ended.body);

    let previous = app.roster_csv(Some(&provider), &format!("?month={last_month}")).await;
    assert_eq!(previous.status, 200, "{:?}", previous.body);
    assert_eq!(
        previous.headers["content-type"].to_str().unwrap(),
        "text/csv; charset=utf-8"
    );
    assert_eq!(
        previous.headers["content-disposition"].to_str().unwrap(),
        format!("attachment; filename=\"roster-{DENVER}-{last_month}.csv\"")
    );
    let text = previous.body.as_str().unwrap();
    assert!(text.ends_with("\r\n") && text.split("\r\n").count() == 4, "{text:?}");
    let rows = python_csv(text).await;
    assert_eq!(rows[0], api::routes::clinic_panel::ROSTER_COLUMNS);
    let month_days = (last_month.last_day() - last_month.first_day()).num_days() + 1;
    assert_eq!(
        rows[1],
        [
            "800-000001",
            "Anna \"Nan\" Lee",
            "1980-01-02",
            "Subscriber",
            seed::demo::ACME_NAME,
            "",
            seed::demo::DENVER_LOCATION_NAME,
            &last_month.first_day().to_string(),
            &last_month.last_day().to_string(),
            &month_days.to_string(),
        ]
    );
    assert_eq!(rows[2][1], "Doe, Jane Smith");
    assert_eq!(rows[2][8], "");
    assert_eq!(rows[2][9], (month_days - 9).to_string());

    let current = app.roster_csv(Some(&provider), &format!("?month={this_month}")).await;
    let rows = python_csv(current.body.as_str().unwrap()).await;
    let names: Vec<&str> = rows[1..].iter().map(|row| row[1].as_str()).collect();
    // By last name; the formula is written as text, the pending member is not billed.
    assert_eq!(
        names,
        ["'=HYPERLINK(\"http://evil.example\") Formula", "Doe, Jane Smith"]
    );
    let days_so_far = (today() - this_month.first_day()).num_days() + 1;
    assert_eq!(rows[1][9], days_so_far.to_string());
    assert_eq!(rows[2][9], days_so_far.to_string());
    // The raw bytes: every field quoted, the quote doubled, the formula behind a '.
    assert!(
        current
            .body
            .as_str()
            .unwrap()
            .contains("\"'=HYPERLINK(\"\"http://evil.example\"\") Formula\"")
    );

    let next_month = domain::clinic_panel::Month::of(this_month.last_day() + Days::new(1));
    for query in ["", "?month=", "?month=2026-13", "?month=2026-1", "?month=november"] {
        let answer = app.roster_csv(Some(&provider), query).await;
        assert_error(&answer, 400, "invalid_parameter");
        assert_eq!(answer.body["field"], "month");
    }
    let future = app.roster_csv(Some(&provider), &format!("?month={next_month}")).await;
    assert_error(&future, 400, "invalid_parameter");
    assert_error(
        &app.roster_csv(Some(&provider), "?month=2026-01&x=1").await,
        400,
        "invalid_query",
    );
}

/// The clinic's "new member" message and the member's activation and decline messages, as a
/// real SMTP server receives them: both parts, the member's facts, working absolute links.
#[tokio::test]
async fn the_clinic_and_the_member_are_emailed_over_smtp() {
    use std::time::Duration;

    use crate::smtp::{SmtpSink, checked_link};

    let sink = SmtpSink::start(&[]).await;
    let url = sink.url();
    let app = TestApp::spawn_with(50, move |config| {
        config.smtp_url = Some(api::config::Secret(url));
        config.mail_retry_base_ms = 200;
    })
    .await;
    let wait = Duration::from_secs(20);
    let base = app.address.clone();
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    // Named before choosing the clinic: the message carries the facts of that moment.
    let (maria, maria_token) = signed_up(&app, "maria.smtp@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    app.name_member(maria, "Maria", "Garcia", "900-100001").await;
    sqlx::query("update members set plan_id = $2 where id = $1")
        .bind(maria)
        .bind(seed::demo::ACME_PLAN_ID)
        .execute(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(set_provider(&app, &maria_token, &denver()).await.status, 200);

    // The first message to the clinic's account was its invitation.
    let message = sink.wait_for("desk@frontrange.example", 2, wait).await;
    assert_eq!(
        message["subject"],
        format!("New member: Maria Garcia chose {}", seed::demo::DENVER_LOCATION_NAME)
    );
    let link = checked_link(&message, &base);
    assert_eq!(link, format!("{base}/dpc-providers/members/{maria}"));
    let text = message["text"].as_str().unwrap();
    for fact in [
        "Name: Maria Garcia".to_owned(),
        "Date of birth: Feb 14, 1988".to_owned(),
        "Phone: +13035550141".to_owned(),
        "E-mail: maria.smtp@example.com".to_owned(),
        "Member ID: 900-100001".to_owned(),
        format!("Employer: {}", seed::demo::ACME_NAME),
        format!("Plan: {}", seed::demo::ACME_PLAN_NAME),
        "Subscriber or dependent: Subscriber".to_owned(),
        format!("Location: {}, ", seed::demo::DENVER_LOCATION_NAME),
        "When: ".to_owned(),
        "the clinic will reach out to schedule it".to_owned(),
    ] {
        assert!(text.contains(&fact), "{fact:?} in {text}");
    }
    assert!(message["html"].as_str().unwrap().contains(">Maria Garcia</td>"));

    // Activation: the member is told, with the first visit.
    assert_eq!(
        app.decide(Some(&provider), maria, "activate", &json!({})).await.status,
        200
    );
    // The member's first message was the sign-up's verification.
    let activated = sink.wait_for("maria.smtp@example.com", 2, wait).await;
    assert_eq!(
        activated["subject"],
        format!(
            "Your membership with {} is active",
            seed::demo::DENVER_ORGANISATION_NAME
        )
    );
    assert_eq!(checked_link(&activated, &base), format!("{base}/membership"));
    assert!(
        activated["text"]
            .as_str()
            .unwrap()
            .contains(&format!("first visit on {}", domain::clinic_panel::long_date(today()))),
        "{activated}"
    );

    // Decline: the reason and the marketplace.
    let (leo, _) = enrolled(&app, "leo.smtp@example.com", &denver()).await;
    let reason = "We cannot take new patients under 2 years old";
    assert_eq!(
        app.decide(Some(&provider), leo, "decline", &json!({ "reason": reason }))
            .await
            .status,
        200
    );
    let declined = sink.wait_for("leo.smtp@example.com", 2, wait).await;
    assert_eq!(
        declined["subject"],
        format!(
            "{} could not accept leo.smtp@example.com's enrolment",
            seed::demo::DENVER_ORGANISATION_NAME
        )
    );
    assert!(
        declined["text"].as_str().unwrap().contains(&format!("\"{reason}\"")),
        "{declined}"
    );
    assert!(declined["html"].as_str().unwrap().contains(reason));
    assert_eq!(checked_link(&declined, &base), format!("{base}/marketplace"));
}

/// The panel's speed at an organisation of 20,000 members (README, "The clinic panel at 20,000
/// members"). Not a check: it prints medians. Run it with
/// `cargo test --release -p api --test api clinic_panel::panel_speed -- --ignored --nocapture`.
#[tokio::test]
#[ignore = "a measurement, run by hand"]
async fn panel_speed_at_twenty_thousand_members() {
    use std::time::Instant;

    const MEMBERS: usize = 20_000;
    let app = TestApp::spawn(50).await;
    let (_, provider) = app.provider_account(DENVER, "desk@frontrange.example").await;
    let names = |csv: &'static str, take: usize| -> Vec<&'static str> {
        csv.lines()
            .skip(1)
            .filter_map(|line| line.split_once(',').map(|(name, _)| name))
            .take(take)
            .collect()
    };
    let surnames = names(include_str!("../../../../data/names/surnames.csv"), 2_000);
    let first_names = names(include_str!("../../../../data/names/female.csv"), 400);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let today = today();
    let (mut firsts, mut lasts, mut dobs, mut ids) = (vec![], vec![], vec![], vec![]);
    let (mut locations, mut statuses, mut enrolled, mut froms, mut untils) = (vec![], vec![], vec![], vec![], vec![]);
    for index in 0..MEMBERS {
        firsts.push(first_names[next(first_names.len())].to_owned());
        lasts.push(surnames[next(surnames.len())].to_owned());
        dobs.push(NaiveDate::from_ymd_opt(1940 + next(80) as i32, 1 + next(12) as u32, 1 + next(28) as u32).unwrap());
        ids.push(format!("500-{index:06}"));
        locations.push([LODO, seed::demo::DENVER_WAITLIST_LOCATION_ID, HIGHLANDS][next(3)]);
        let enrolled_on = today - Days::new(1 + next(700) as u64);
        // Never in the future: an ended membership's first visit is before its last day.
        let first_visit = (enrolled_on + Days::new(next(10) as u64)).min(today);
        let roll = next(10);
        let (status, from, until) = match roll {
            0 | 1 => ("pending", None, None),
            2 => (
                "ended",
                Some(first_visit),
                Some((first_visit + Days::new(30 + next(200) as u64)).min(today)),
            ),
            _ => ("active", Some(first_visit), None),
        };
        statuses.push(status);
        enrolled.push(enrolled_on.and_hms_opt(10, 0, 0).unwrap().and_utc());
        froms.push(from);
        untils.push(until);
    }
    let started = Instant::now();
    let member_ids: Vec<i64> = sqlx::query_scalar(
        "insert into members (first_name, last_name, dob, member_id, employer_id, company_name, plan_id, payer_id,
                              eligibility_status, setup, next_step, subscription_status, provider_id, location_id)
         select f, l, d, i, $5, $6, $7, $8, 'active', 'complete', 'complete', 'pending', $9, 1
         from unnest($1::text[], $2::text[], $3::date[], $4::text[]) as t(f, l, d, i)
         returning id",
    )
    .bind(&firsts)
    .bind(&lasts)
    .bind(&dobs)
    .bind(&ids)
    .bind(seed::demo::ACME_EMPLOYER_ID)
    .bind(seed::demo::ACME_NAME)
    .bind(seed::demo::ACME_PLAN_ID)
    .bind(seed::demo::PAYER_ID)
    .bind(DENVER)
    .fetch_all(&app.database.pool)
    .await
    .unwrap();
    sqlx::query(
        "with rows as (
             select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[], $5::date[], $6::date[])
                 as t(member_id, location_id, status, enrolled_at, active_from, active_until)
         ), inserted as (
             insert into memberships (member_id, organisation_id, location_id, status, enrolled_at, changed_at,
                                      active_from, active_until, closed_at, reason)
             select member_id, $7, location_id, status, enrolled_at,
                    coalesce(active_until::timestamptz, active_from::timestamptz, enrolled_at), active_from, active_until,
                    case when status = 'ended' then active_until::timestamptz end,
                    case when status = 'ended' then 'Moved away' end
             from rows
             returning id, member_id, location_id, enrolled_at, active_from
         )
         insert into enrolment_events (member_id, membership_id, actor, acted_by, kind, provider_id, location_id, created_at)
         select member_id, id, 'member', member_id, 'enrolled', $7, location_id, enrolled_at from inserted",
    )
    .bind(&member_ids)
    .bind(&locations)
    .bind(&statuses)
    .bind(&enrolled)
    .bind(&froms)
    .bind(&untils)
    .bind(DENVER)
    .execute(&app.database.pool)
    .await
    .unwrap();
    sqlx::query("analyze").execute(&app.database.pool).await.unwrap();
    println!("inserted {MEMBERS} members and memberships in {:?}", started.elapsed());

    let month = today.format("%Y-%m").to_string();
    let common = lasts[0].to_lowercase();
    let rare = format!("{}%20{}", firsts[MEMBERS / 2], lasts[MEMBERS / 2]);
    let calls = [
        ("New tab, page 1".to_owned(), "/dpcproviders/members".to_owned()),
        (
            "Active tab, page 1".to_owned(),
            "/dpcproviders/members?status=active".to_owned(),
        ),
        (
            "Active tab, page 500 (offset 9,980)".to_owned(),
            "/dpcproviders/members?status=active&page=500".to_owned(),
        ),
        (
            "Past tab, one location".to_owned(),
            format!("/dpcproviders/members?status=past&location={HIGHLANDS}"),
        ),
        (
            format!("search, a common last name ({common})"),
            format!("/dpcproviders/members?status=active&q={common}"),
        ),
        (
            "search, a first and a last name".to_owned(),
            format!("/dpcproviders/members?status=active&q={rare}"),
        ),
        (
            "search, a prefix (ma)".to_owned(),
            "/dpcproviders/members?status=active&q=ma".to_owned(),
        ),
        (
            "search, a member id".to_owned(),
            format!("/dpcproviders/members?status=active&q={}", ids[MEMBERS / 3]),
        ),
        (
            "one member's detail".to_owned(),
            format!("/dpcproviders/members/{}", member_ids[MEMBERS / 4]),
        ),
        (
            format!("roster.csv for {month}"),
            format!("/dpcproviders/roster.csv?month={month}"),
        ),
    ];
    println!("| call | median ms | p90 ms | answer |");
    println!("|---|---|---|---|");
    for (name, path) in calls {
        let mut times = Vec::new();
        let mut size = String::new();
        for round in 0..21 {
            let started = Instant::now();
            let response = app
                .client
                .get(format!("{}{path}", app.address))
                .header("x-access-token", &provider)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200, "{path}");
            let body = response.text().await.unwrap();
            let elapsed = started.elapsed().as_secs_f64() * 1000.0;
            if round > 0 {
                times.push(elapsed);
            }
            size = if path.contains("roster.csv") {
                format!("{} rows, {} KB", body.lines().count() - 1, body.len() / 1024)
            } else {
                let value: Value = serde_json::from_str(&body).unwrap();
                value
                    .get("total")
                    .map(|total| format!("{total} matches"))
                    .unwrap_or_else(|| format!("{} KB", body.len() / 1024))
            };
        }
        times.sort_by(f64::total_cmp);
        println!(
            "| {name} | {:.1} | {:.1} | {size} |",
            times[times.len() / 2],
            times[times.len() * 9 / 10]
        );
    }
}
