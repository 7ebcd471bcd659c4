//! Choosing a provider (for oneself and for a family member), its audit row and analytics
//! event, the refusals of the contract, concurrent choices, and post-enrolment redirects.

use api::error_codes as codes;
use serde_json::{Value, json};

use crate::helpers::{Answer, TestApp, assert_error, jane_form};

const SET_PROVIDER: &str = "/member/app/set/provider";

/// A signed-up member of `employer_id` (none: no employer), not confirmed; their id and token.
pub async fn signed_up(app: &TestApp, email: &str, employer_id: Option<i64>) -> (i64, String) {
    let body = match employer_id {
        Some(employer_id) => json!({ "email": email, "employerId": employer_id }),
        None => json!({ "email": email }),
    };
    let signup = app.signup(&body).await;
    assert_eq!(signup.status, 200, "{:?}", signup.body);
    (
        signup.body["id"].as_i64().unwrap(),
        signup.body["accessToken"].as_str().unwrap().to_owned(),
    )
}

/// Jane Doe, signed up with Acme and confirmed on the roster, still to choose a clinic.
pub async fn confirmed_jane(app: &TestApp) -> (i64, String) {
    let (id, token) = signed_up(app, "jane@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    let confirmed = app.confirm_info(&token, &jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["nextStep"], "selectDPC");
    (id, token)
}

pub fn choice(provider_id: i64, location_id: i64) -> Value {
    json!({ "providerId": provider_id, "locationId": location_id })
}

pub fn denver() -> Value {
    choice(seed::demo::DENVER_ORGANISATION_ID, seed::demo::DENVER_LOCATION_ID)
}

pub fn new_york() -> Value {
    choice(seed::demo::NEW_YORK_ORGANISATION_ID, seed::demo::NEW_YORK_LOCATION_ID)
}

pub async fn set_provider(app: &TestApp, token: &str, body: &Value) -> Answer {
    app.post_as(SET_PROVIDER, body, Some(token)).await
}

/// Rows of the tables a choice writes: (enrolment events, analytics events).
pub async fn written(app: &TestApp) -> (i64, i64) {
    sqlx::query_as("select (select count(*) from enrolment_events), (select count(*) from analytics_events)")
        .fetch_one(&app.database.pool)
        .await
        .unwrap()
}

/// The enrolment columns of a member, to check that a refusal changed nothing.
async fn enrolment_columns(app: &TestApp, member_id: i64) -> Value {
    sqlx::query_scalar(
        "select json_build_object('provider', provider_id, 'location', location_id, 'next', next_step,
                                  'status', subscription_status, 'expire', subscription_expire)
         from members where id = $1",
    )
    .bind(member_id)
    .fetch_one(&app.database.pool)
    .await
    .unwrap()
}

pub async fn clinic_name(app: &TestApp, location_id: i64) -> String {
    sqlx::query_scalar("select name from locations where id = $1")
        .bind(location_id)
        .fetch_one(&app.database.pool)
        .await
        .unwrap()
}

/// The audit rows of a member: (kind, acted_by, from_location_id, location_id).
pub async fn audit_rows(app: &TestApp, member_id: i64) -> Vec<(String, i64, Option<i64>, i64)> {
    sqlx::query_as(
        "select kind, acted_by, from_location_id, location_id from enrolment_events where member_id = $1 order by id",
    )
    .bind(member_id)
    .fetch_all(&app.database.pool)
    .await
    .unwrap()
}

fn in_a_year() -> String {
    domain::membership::one_year_after(chrono::Utc::now().date_naive()).to_string()
}

#[tokio::test]
async fn a_confirmed_member_is_enrolled_with_a_membership_pending_for_a_year() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    let enrolled = set_provider(&app, &jane, &denver()).await;
    assert_eq!(enrolled.status, 200, "{:?}", enrolled.body);
    let clinic = clinic_name(&app, seed::demo::DENVER_LOCATION_ID).await;
    assert_eq!(
        enrolled.body["message"],
        format!("You have been enrolled with {clinic}")
    );
    assert_eq!(enrolled.body["changed"], false);
    assert_eq!(enrolled.body["providerId"], seed::demo::DENVER_ORGANISATION_ID);
    assert_eq!(enrolled.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(enrolled.body["nextStep"], "complete");
    assert_eq!(enrolled.body["setup"], "complete");
    assert_eq!(
        enrolled.body["subscription"],
        json!({ "status": "pending", "expire": in_a_year() })
    );
    assert_eq!(enrolled.body["location"]["id"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(enrolled.body["location"]["zip"], seed::demo::DENVER_ZIP);
    assert_eq!(
        enrolled.body["location"]["companyName"],
        seed::demo::DENVER_ORGANISATION_NAME
    );

    let info = app.member_info(&jane).await;
    assert_eq!(info.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(info.body["subscription"]["status"], "pending");
    assert_eq!(info.body["nextStep"], "complete");
    assert_eq!(app.home(&jane).await.body["nextStep"], "complete");

    assert_eq!(
        audit_rows(&app, jane_id).await,
        [("enrolled".to_owned(), jane_id, None, seed::demo::DENVER_LOCATION_ID)]
    );
    let (name, member, properties): (String, Option<i64>, Value) =
        sqlx::query_as("select name, member_id, properties from analytics_events")
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(name, "member_clinic_selected");
    assert_eq!(member, Some(jane_id));
    assert_eq!(
        properties,
        json!({
            "providerId": seed::demo::DENVER_ORGANISATION_ID,
            "locationId": seed::demo::DENVER_LOCATION_ID,
            "changed": false,
        })
    );
}

#[tokio::test]
async fn an_unconfirmed_member_is_enrolled_and_then_confirms_the_plan() {
    let app = TestApp::spawn(30).await;
    let (_, token) = signed_up(&app, "new@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    let enrolled = set_provider(
        &app,
        &token,
        &json!({ "providerId": "1", "locationId": seed::demo::DENVER_LOCATION_ID }),
    )
    .await;
    assert_eq!(enrolled.status, 200, "{:?}", enrolled.body);
    assert_eq!(enrolled.body["nextStep"], "confirmPlan");
    assert_eq!(enrolled.body["setup"], "incomplete");
    assert_eq!(enrolled.body["subscription"]["status"], "pending");
}

#[tokio::test]
async fn a_pending_membership_moves_only_when_the_member_confirms_the_change() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    assert_eq!(set_provider(&app, &jane, &denver()).await.status, 200);
    let before = (written(&app).await, enrolment_columns(&app, jane_id).await);

    let unconfirmed = set_provider(&app, &jane, &new_york()).await;
    assert_error(&unconfirmed, 409, "change_needs_confirmation");
    let denver_clinic = clinic_name(&app, seed::demo::DENVER_LOCATION_ID).await;
    assert_eq!(
        unconfirmed.body["message"],
        format!("You have a pending membership with {denver_clinic}")
    );
    assert_eq!(unconfirmed.body["clinic"], denver_clinic);
    let mut same_place = denver();
    same_place["change"] = json!(false);
    assert_error(
        &set_provider(&app, &jane, &same_place).await,
        409,
        "change_needs_confirmation",
    );
    assert_eq!(
        (written(&app).await, enrolment_columns(&app, jane_id).await),
        before,
        "a refusal writes nothing"
    );

    same_place["change"] = json!(true);
    let unchanged = set_provider(&app, &jane, &same_place).await;
    assert_eq!(unchanged.status, 200, "{:?}", unchanged.body);
    assert_eq!(unchanged.body["changed"], false);
    assert_eq!(unchanged.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(
        (written(&app).await, enrolment_columns(&app, jane_id).await),
        before,
        "the same location writes nothing"
    );

    let mut change = new_york();
    change["change"] = json!(true);
    let changed = set_provider(&app, &jane, &change).await;
    assert_eq!(changed.status, 200, "{:?}", changed.body);
    let new_york_clinic = clinic_name(&app, seed::demo::NEW_YORK_LOCATION_ID).await;
    assert_eq!(
        changed.body["message"],
        format!("You now have a pending membership with {new_york_clinic}")
    );
    assert_eq!(changed.body["changed"], true);
    assert_eq!(changed.body["providerId"], seed::demo::NEW_YORK_ORGANISATION_ID);
    assert_eq!(changed.body["nextStep"], "complete");
    assert_eq!(changed.body["subscription"]["status"], "pending");
    assert_eq!(
        audit_rows(&app, jane_id).await[1],
        (
            "provider_changed".to_owned(),
            jane_id,
            Some(seed::demo::DENVER_LOCATION_ID),
            seed::demo::NEW_YORK_LOCATION_ID
        )
    );
    let properties: Value = sqlx::query_scalar("select properties from analytics_events order by id desc limit 1")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(properties["changed"], true);
    assert_eq!(properties["locationId"], seed::demo::NEW_YORK_LOCATION_ID);
}

#[tokio::test]
async fn refusals_carry_the_contract_codes_and_write_nothing() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    let (_, no_employer) = signed_up(&app, "nobody@example.com", None).await;
    let (_, globex) = signed_up(&app, "globex@example.com", Some(seed::demo::GLOBEX_EMPLOYER_ID)).await;
    let (_, initech) = signed_up(&app, "initech@example.com", Some(seed::demo::INITECH_EMPLOYER_ID)).await;
    let before = (written(&app).await, enrolment_columns(&app, jane_id).await);

    for token in [&no_employer, &globex, &initech] {
        let refused = set_provider(&app, token, &denver()).await;
        assert_error(&refused, 403, "employer_inactive");
        assert_eq!(
            refused.body["message"],
            "Oops, your employer does not offer this benefit yet"
        );
    }
    let non_provider_card = "Oops. Seems like you selected a non-provider card.";
    let another_providers_location = set_provider(
        &app,
        &jane,
        &choice(seed::demo::DENVER_ORGANISATION_ID, seed::demo::NEW_YORK_LOCATION_ID),
    )
    .await;
    assert_error(&another_providers_location, 400, "not_a_location");
    assert_eq!(another_providers_location.body["message"], non_provider_card);
    let clinician_card = set_provider(&app, &jane, &json!({ "providerId": 7 })).await;
    assert_error(&clinician_card, 400, "not_a_location");
    let unknown = set_provider(&app, &jane, &choice(999_999, 999_999)).await;
    assert_error(&unknown, 404, "not_found");
    assert_eq!(unknown.body["message"], codes::PROVIDER_NOT_FOUND.text());
    let waitlist = set_provider(
        &app,
        &jane,
        &choice(
            seed::demo::DENVER_ORGANISATION_ID,
            seed::demo::DENVER_WAITLIST_LOCATION_ID,
        ),
    )
    .await;
    assert_error(&waitlist, 409, "not_accepting");
    assert_eq!(
        waitlist.body["message"],
        "This location is not accepting new patients at the moment"
    );
    let missing = set_provider(&app, &jane, &json!({ "locationId": 1 })).await;
    assert_error(&missing, 400, "required");
    assert_eq!(missing.body["field"], "providerId");
    for bad in [
        json!({ "providerId": "1; drop table members", "locationId": 1 }),
        json!({ "providerId": 1, "locationId": "1' or '1'='1" }),
        json!({ "providerId": 1.5, "locationId": 1 }),
        json!({ "providerId": [1], "locationId": 1 }),
        json!({ "providerId": 1, "locationId": 1, "change": "yes" }),
    ] {
        let answer = set_provider(&app, &jane, &bad).await;
        assert_eq!(answer.status, 400, "{bad}: {:?}", answer.body);
    }
    assert_error(
        &app.post_raw(SET_PROVIDER, "application/json", "{\"providerId\": ")
            .await,
        401,
        "unauthorized",
    );
    let broken = app
        .send_raw(
            reqwest::Method::POST,
            SET_PROVIDER,
            "application/json",
            "{\"providerId\": ".into(),
            Some(&jane),
        )
        .await;
    assert_error(&broken, 400, "invalid_body");
    let huge = format!(
        "{{\"providerId\": 1, \"locationId\": 1, \"padding\": \"{}\"}}",
        "a".repeat(100_000)
    );
    let oversize = app
        .send_raw(
            reqwest::Method::POST,
            SET_PROVIDER,
            "application/json",
            huge,
            Some(&jane),
        )
        .await;
    assert_error(&oversize, 413, "payload_too_large");
    assert_eq!(
        (written(&app).await, enrolment_columns(&app, jane_id).await),
        before,
        "no refusal wrote anything"
    );
    assert_error(&app.post(SET_PROVIDER, &denver()).await, 401, "unauthorized");
}

#[tokio::test]
async fn an_active_or_complete_membership_cannot_enrol_again() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    assert_eq!(set_provider(&app, &jane, &denver()).await.status, 200);
    sqlx::query("update members set subscription_status = 'active' where id = $1")
        .bind(jane_id)
        .execute(&app.database.pool)
        .await
        .unwrap();
    let mut change = new_york();
    change["change"] = json!(true);
    let active = set_provider(&app, &jane, &change).await;
    assert_error(&active, 409, "active_membership");
    let clinic = clinic_name(&app, seed::demo::DENVER_LOCATION_ID).await;
    assert_eq!(
        active.body["message"],
        format!(
            "You have an active membership with {clinic}. Please contact us through our support email for further assistance."
        )
    );
    assert_eq!(active.body["clinic"], clinic);
    assert_eq!(active.body["supportEmail"], "support@nearcare.example");

    sqlx::query("update members set subscription_status = null where id = $1")
        .bind(jane_id)
        .execute(&app.database.pool)
        .await
        .unwrap();
    let complete = set_provider(&app, &jane, &change).await;
    assert_error(&complete, 409, "already_enrolled");
    assert_eq!(complete.body["message"], "You're already enrolled with a provider");
    assert_eq!(audit_rows(&app, jane_id).await.len(), 1);
}

#[tokio::test]
async fn two_concurrent_enrolments_of_one_member_never_both_succeed() {
    let app = TestApp::spawn(30).await;
    for attempt in 0..12 {
        let (member_id, token) = signed_up(
            &app,
            &format!("race{attempt}@example.com"),
            Some(seed::demo::ACME_EMPLOYER_ID),
        )
        .await;
        let first_choice = denver();
        let second_choice = if attempt % 2 == 0 { denver() } else { new_york() };
        let (first, second) = tokio::join!(
            set_provider(&app, &token, &first_choice),
            set_provider(&app, &token, &second_choice),
        );
        let statuses = [first.status, second.status];
        assert_eq!(
            statuses.iter().filter(|status| **status == 200).count(),
            1,
            "attempt {attempt}: {:?} {:?}",
            first.body,
            second.body
        );
        let refused = if first.status == 200 { &second } else { &first };
        assert_error(refused, 409, "change_needs_confirmation");
        assert_eq!(audit_rows(&app, member_id).await.len(), 1, "attempt {attempt}");
        let events: i64 = sqlx::query_scalar("select count(*) from analytics_events where member_id = $1")
            .bind(member_id)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
        assert_eq!(events, 1, "attempt {attempt}");
    }
}

#[tokio::test]
async fn post_enrolment_follows_the_location_redirect_when_there_is_one() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let provider = seed::demo::DENVER_ORGANISATION_ID;
    let path = |query: &str| format!("/member/app/provider/{provider}/postenrollment{query}");
    let redirect: String = sqlx::query_scalar("select post_enrolment_redirect from locations where id = $1")
        .bind(seed::demo::DENVER_HIGHLANDS_LOCATION_ID)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert!(redirect.starts_with("https://"), "{redirect}");

    let highlands = app
        .get_as(
            &path(&format!("?locationId={}", seed::demo::DENVER_HIGHLANDS_LOCATION_ID)),
            Some(&jane),
        )
        .await;
    assert_eq!(highlands.status, 200, "{:?}", highlands.body);
    assert_eq!(
        highlands.body,
        json!({ "postMemberEnrollment": { "redirect": redirect } })
    );
    let lodo = app
        .get_as(
            &path(&format!("?locationId={}", seed::demo::DENVER_LOCATION_ID)),
            Some(&jane),
        )
        .await;
    assert_eq!(lodo.body, json!({ "postMemberEnrollment": null }));
    // Without a location: the provider's first location that has a redirect.
    let first_with_one = app.get_as(&path(""), Some(&jane)).await;
    assert_eq!(first_with_one.body["postMemberEnrollment"]["redirect"], redirect);
    // The member's own location at that provider comes before it.
    assert_eq!(set_provider(&app, &jane, &denver()).await.status, 200);
    assert_eq!(
        app.get_as(&path(""), Some(&jane)).await.body,
        json!({ "postMemberEnrollment": null })
    );

    let unknown = app
        .get_as("/member/app/provider/999999/postenrollment", Some(&jane))
        .await;
    assert_error(&unknown, 404, "not_found");
    assert_eq!(unknown.body["message"], codes::PROVIDER_NOT_FOUND.text());
    assert_error(
        &app.get_as("/member/app/provider/abc/postenrollment", Some(&jane)).await,
        400,
        "invalid_path",
    );
    assert_error(
        &app.get_as(&path("?locationId=x'--"), Some(&jane)).await,
        400,
        "invalid_query",
    );
    assert_error(&app.get(&path("")).await, 401, "unauthorized");
}
