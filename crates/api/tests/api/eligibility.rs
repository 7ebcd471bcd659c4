//! Eligibility confirmation against the demo roster, personal info, and the member views.

use api::error_codes as codes;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, jane_form};

fn with(mut form: Value, changes: Value) -> Value {
    for (key, value) in changes.as_object().unwrap() {
        form[key] = value.clone();
    }
    form
}

/// A member who signed up with the Denver clinic chosen, as confirm/info sees them.
pub(crate) async fn member_with_provider(app: &TestApp, email: &str) -> String {
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
async fn the_demo_subscriber_with_a_chosen_clinic_is_enrolled() {
    let app = TestApp::spawn(30).await;
    let access = member_with_provider(&app, "jane@example.com").await;
    let confirmed = app.confirm_info(&access, &jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["eligibility"]["code"], 200);
    assert_eq!(confirmed.body["eligibility"]["err"]["chcDown"], false);
    assert_eq!(confirmed.body["nextStep"], "complete");
    assert_eq!(confirmed.body["hasFamily"], true, "John and Emma are on the roster");
    assert_eq!(confirmed.body["providerId"], seed::demo::DENVER_ORGANISATION_ID);
    assert_eq!(confirmed.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(confirmed.body["filterMarket"]["company"], seed::demo::ACME_ALIAS);
    let new_token = confirmed.body["newAccessToken"].as_str().unwrap();

    let info = app.member_info(new_token).await;
    assert_eq!(info.status, 200);
    assert_eq!(info.body["eligibility"]["status"], "active");
    assert_eq!(info.body["setup"], "complete");
    assert_eq!(info.body["subscription"]["status"], "pending");
    let expire = info.body["subscription"]["expire"].as_str().unwrap();
    let in_a_year = domain::membership::one_year_after(chrono::Utc::now().date_naive()).to_string();
    assert_eq!(expire, in_a_year);
    assert_eq!(info.body["memberId"], seed::demo::SUBSCRIBER_MEMBER_ID);
    assert_eq!(info.body["dob"], seed::demo::SUBSCRIBER_DATE_OF_BIRTH);
    assert_eq!(info.body["gender"], "f");
    assert_eq!(info.body["groupId"], seed::demo::ACME_GROUP_NUMBER);
    assert_eq!(info.body["subscriberRelation"], "Self");
    assert_eq!(info.body["location"]["zip"], seed::demo::DENVER_ZIP);
    assert!(
        info.body["providerPortal"]["link"].is_string(),
        "the Denver practice has a portal"
    );
    assert_eq!(
        info.body["employer"]["groups"][0]["tpa"]["payerId"],
        seed::demo::PAYER_ID
    );
    assert_eq!(info.body["payers"][0]["payerId"], seed::demo::PAYER_ID);
    assert_eq!(info.body["plans"][0]["planId"], seed::demo::ACME_PLAN_ID);

    let home = app.home(new_token).await;
    assert_eq!(
        home.body,
        json!({
            "providerId": seed::demo::DENVER_ORGANISATION_ID,
            "locationId": seed::demo::DENVER_LOCATION_ID,
            "setup": "complete",
            "planID": seed::demo::ACME_PLAN_ID,
            "nextStep": "complete",
        })
    );
    let account = app.account(new_token).await;
    assert_eq!(account.body["subscriberRelation"], "Self");
    assert_eq!(account.body["personal"]["companyName"], seed::demo::ACME_NAME);
    assert_eq!(account.body["personal"]["planID"], seed::demo::ACME_PLAN_ID);
    assert_eq!(account.body["personal"]["payerID"], seed::demo::PAYER_ID);
    assert_eq!(account.body["personal"]["groupID"], seed::demo::ACME_GROUP_NUMBER);
    assert_eq!(account.body["personal"]["planName"], seed::demo::ACME_PLAN_NAME);
}

#[tokio::test]
async fn without_a_chosen_clinic_the_member_goes_on_to_select_one() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("jane@example.com").await;
    let confirmed = app.confirm_info(&access, &jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["nextStep"], "selectDPC");
    assert!(confirmed.body["providerId"].is_null());
    let info = app.member_info(&access).await;
    assert_eq!(info.body["setup"], "complete");
    assert!(info.body["subscription"]["status"].is_null());
    let login = app.login("jane@example.com", crate::helpers::PASSWORD).await;
    assert_eq!(login.body["nextStep"], "selectDPC");
    assert_eq!(login.body["filterMarket"]["company"], seed::demo::ACME_ALIAS);
}

#[tokio::test]
async fn wrong_details_another_plan_and_a_second_account_are_told_apart() {
    let app = TestApp::spawn(30).await;
    let access = member_with_provider(&app, "jane@example.com").await;
    let wrong_name = app
        .confirm_info(&access, &with(jane_form(), json!({ "firstName": "Janet" })))
        .await;
    assert_error(&wrong_name, 400, "eligibility_not_verified");
    assert_eq!(wrong_name.body["message"], codes::ELIGIBILITY_NOT_VERIFIED.text());
    assert_eq!(wrong_name.body["eligibility"]["code"], 400);
    let wrong_dob = app
        .confirm_info(&access, &with(jane_form(), json!({ "dob": "1985-04-13" })))
        .await;
    assert_error(&wrong_dob, 400, "eligibility_not_verified");
    let wrong_relation = app
        .confirm_info(
            &access,
            &with(
                jane_form(),
                json!({ "subscriberRelation": "Spouse", "subscriberMemberId": "123-456789" }),
            ),
        )
        .await;
    assert_error(&wrong_relation, 400, "eligibility_not_verified");
    // The details stay saved for "Fix later".
    let info = app.member_info(&access).await;
    assert_eq!(info.body["firstName"], "Jane");
    assert!(info.body["eligibility"]["status"].is_null());

    let other_plan = app
        .confirm_info(
            &access,
            &with(jane_form(), json!({ "planId": seed::demo::NORTHWIND_PLAN_ID })),
        )
        .await;
    assert_error(&other_plan, 401, "not_eligible_on_plan");
    assert_eq!(other_plan.body["message"], codes::NOT_ELIGIBLE_ON_PLAN.text());
    assert_eq!(other_plan.body["eligibility"]["code"], 401);

    assert_eq!(app.confirm_info(&access, &jane_form()).await.status, 200);
    let second = member_with_provider(&app, "jane.again@example.com").await;
    let exists = app.confirm_info(&second, &jane_form()).await;
    assert_error(&exists, 400, "member_exists");
    assert_eq!(exists.body["message"], codes::MEMBER_EXISTS.text());
}

#[tokio::test]
async fn a_dependent_is_confirmed_and_linked_to_the_subscriber() {
    let app = TestApp::spawn(30).await;
    let jane = member_with_provider(&app, "jane@example.com").await;
    assert_eq!(app.confirm_info(&jane, &jane_form()).await.status, 200);
    let emma = app.signup(&json!({ "email": "emma@example.com" })).await;
    let emma = emma.body["accessToken"].as_str().unwrap();
    let form = json!({
        "firstName": "Emma", "lastName": "Doe", "dob": seed::demo::CHILD_DATE_OF_BIRTH, "gender": "f",
        "memberId": seed::demo::CHILD_MEMBER_ID, "planId": seed::demo::ACME_PLAN_ID, "payerId": seed::demo::PAYER_ID,
        "subscriberRelation": "Dependent",
    });
    let missing = app.confirm_info(emma, &form).await;
    assert_error(&missing, 400, "required");
    assert_eq!(missing.body["field"], "subscriberMemberId");
    let wrong_subscriber = app
        .confirm_info(emma, &with(form.clone(), json!({ "subscriberMemberId": "999-999999" })))
        .await;
    assert_error(&wrong_subscriber, 400, "eligibility_not_verified");
    let confirmed = app
        .confirm_info(
            emma,
            &with(form, json!({ "subscriberMemberId": seed::demo::SUBSCRIBER_MEMBER_ID })),
        )
        .await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["pediatric"]["covered"], true);
    assert_eq!(
        confirmed.body["employer"]["id"],
        seed::demo::ACME_EMPLOYER_ID,
        "from the roster's group"
    );
    let jane_info = app.member_info(&jane).await;
    assert_eq!(jane_info.body["hasFamily"], true);
    assert_eq!(jane_info.body["family"][0]["firstName"], "Emma");
    assert_eq!(jane_info.body["associatedDependents"][0]["firstName"], "Emma");
    let entry = jane_info.body["family"][0].as_object().unwrap();
    let mut keys: Vec<&str> = entry.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "dob",
            "eligibility",
            "email",
            "firstName",
            "id",
            "lastName",
            "location",
            "locationId",
            "membership",
            "nextStep",
            "phone",
            "provider",
            "providerId",
            "providerPortal",
            "subscriberRelation",
            "subscription"
        ]
    );
    assert_eq!(entry["eligibility"]["status"], "active");
    assert!(entry["location"].is_null(), "Emma has not chosen a clinic");
}

#[tokio::test]
async fn a_family_member_who_does_not_know_their_id_is_found_through_the_subscriber() {
    let app = TestApp::spawn(30).await;
    let john = app.signup(&json!({ "email": "john@example.com" })).await;
    let john = john.body["accessToken"].as_str().unwrap();
    let form = json!({
        "firstName": "John", "lastName": "Doe", "dob": seed::demo::SPOUSE_DATE_OF_BIRTH, "gender": "m",
        "memberId": "000-000000", "planId": seed::demo::ACME_PLAN_ID, "subscriberRelation": "Spouse",
        "subscriberMemberId": seed::demo::SUBSCRIBER_MEMBER_ID,
    });
    assert_error(&app.confirm_info(john, &form).await, 400, "eligibility_not_verified");
    let with_subscriber = with(
        form,
        json!({ "subscriber": {
            "firstName": "Jane", "lastName": "Doe", "dob": seed::demo::SUBSCRIBER_DATE_OF_BIRTH, "gender": "f",
            "memberId": seed::demo::SUBSCRIBER_MEMBER_ID,
        } }),
    );
    let confirmed = app.confirm_info(john, &with_subscriber).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    let info = app.member_info(john).await;
    assert_eq!(
        info.body["memberId"],
        seed::demo::SPOUSE_MEMBER_ID,
        "the roster's id is kept"
    );
}

#[tokio::test]
async fn a_child_without_pediatric_coverage_is_reported() {
    let app = TestApp::spawn(30).await;
    let leo = app.signup(&json!({ "email": "leo@example.com" })).await;
    let leo = leo.body["accessToken"].as_str().unwrap();
    let confirmed = app
        .confirm_info(
            leo,
            &json!({
                "firstName": "leo", "lastName": "RIVERA", "dob": seed::demo::NORTHWIND_CHILD_DATE_OF_BIRTH,
                "gender": "m", "memberId": seed::demo::NORTHWIND_CHILD_MEMBER_ID,
                "planId": seed::demo::NORTHWIND_PLAN_ID, "subscriberRelation": "Dependent",
                "subscriberMemberId": seed::demo::NORTHWIND_SUBSCRIBER_MEMBER_ID,
            }),
        )
        .await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["pediatric"]["covered"], false);
    assert_eq!(confirmed.body["employer"]["id"], seed::demo::NORTHWIND_EMPLOYER_ID);
}

#[tokio::test]
async fn an_unavailable_roster_answers_500_with_chc_down_and_keeps_the_details() {
    let app = TestApp::spawn(30).await;
    let access = member_with_provider(&app, "jane@example.com").await;
    sqlx::query("alter table eligibility_roster rename to eligibility_roster_offline")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let down = app.confirm_info(&access, &jane_form()).await;
    assert_error(&down, 500, "eligibility_unavailable");
    assert_eq!(down.body["eligibility"]["err"]["chcDown"], true);
    assert_eq!(down.body["eligibility"]["code"], 500);
    let info = app.member_info(&access).await;
    assert_eq!(info.body["eligibility"]["status"], "pending");
    assert_eq!(info.body["memberId"], seed::demo::SUBSCRIBER_MEMBER_ID);
    sqlx::query("alter table eligibility_roster_offline rename to eligibility_roster")
        .execute(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(
        app.eligibility(&access, &info.body).await.status,
        200,
        "a later check confirms"
    );
}

#[tokio::test]
async fn the_form_is_validated_with_the_spec_messages() {
    let app = TestApp::spawn(30).await;
    let access = member_with_provider(&app, "form@example.com").await;
    let cases = [
        (json!({ "firstName": "" }), "firstName", "This field is required"),
        (json!({ "lastName": null }), "lastName", "This field is required"),
        (json!({ "dob": "04/12/1985" }), "dob", "Invalid date format"),
        (
            json!({ "dob": "2999-01-01" }),
            "dob",
            "Date of birth cannot be in the future",
        ),
        (
            json!({ "gender": "x" }),
            "gender",
            "Gender must be f (female) or m (male)",
        ),
        (
            json!({ "memberId": "123 456" }),
            "memberId",
            "Special characters not allowed",
        ),
        (json!({ "planId": "" }), "planId", "This field is required"),
        (
            json!({ "phone": "12345" }),
            "phone",
            "Phone number must be in a valid format (XXX XXX XXXX)",
        ),
        (
            json!({ "subscriberRelation": "Cousin" }),
            "subscriberRelation",
            "Relationship must be Self, Spouse or Dependent",
        ),
        (json!({ "firstName": ["Jane"] }), "firstName", "Must be text"),
        (
            json!({ "employerId": 999_999 }),
            "employerId",
            codes::UNKNOWN_EMPLOYER.text(),
        ),
    ];
    let before = app.member_info(&access).await.body;
    for (change, field, message) in cases {
        let answer = app.confirm_info(&access, &with(jane_form(), change.clone())).await;
        assert_eq!(answer.status, 400, "{change}: {:?}", answer.body);
        assert_eq!(answer.body["field"], field, "{change}");
        assert_eq!(answer.body["message"], message, "{change}");
    }
    assert_eq!(app.member_info(&access).await.body, before, "nothing saved");
    // Numbers are accepted where forms send numbers.
    let numeric = app
        .confirm_info(
            &access,
            &with(jane_form(), json!({ "employerId": "1", "phone": "+1 303.555.0123" })),
        )
        .await;
    assert_eq!(numeric.status, 200, "{:?}", numeric.body);
}

#[tokio::test]
async fn personal_info_is_saved_then_checked() {
    let app = TestApp::spawn(30).await;
    let (_, access) = app.registered_member("jane@example.com").await;
    let mut member = app.member_info(&access).await.body;
    for (key, value) in jane_form().as_object().unwrap() {
        member[key] = value.clone();
    }
    member["zipCode"] = json!(80202);
    let saved = app.personal_info(&access, &member).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    assert_eq!(saved.body["zipCode"], "80202");
    assert_eq!(saved.body["firstName"], "Jane");
    let checked = app.eligibility(&access, &saved.body).await;
    assert_eq!(checked.status, 200, "{:?}", checked.body);
    assert_eq!(checked.body["employer"]["companyName"], seed::demo::ACME_NAME);
    assert_eq!(app.member_info(&access).await.body["eligibility"]["status"], "active");
    // The email is changed through Settings only.
    let mut other_email = saved.body.clone();
    other_email["email"] = json!("other@example.com");
    assert_error(
        &app.personal_info(&access, &other_email).await,
        400,
        "email_change_needs_verification",
    );
    let mut no_phone = saved.body.clone();
    no_phone["phone"] = json!(null);
    let refused = app.personal_info(&access, &no_phone).await;
    assert_error(&refused, 400, "required");
    assert_eq!(refused.body["field"], "phone");
}

/// A field of the member record as PUT personal/info answers it.
async fn saved_with(app: &TestApp, access: &str, record: &Value, changes: Value) -> Value {
    let saved = app.personal_info(access, &with(record.clone(), changes)).await;
    assert_eq!(saved.status, 200, "{:?}", saved.body);
    saved.body
}

#[tokio::test]
async fn a_confirmed_member_who_changes_their_identity_is_checked_again_at_once_and_never_left_stuck() {
    let app = TestApp::spawn(30).await;
    let access = member_with_provider(&app, "jane@example.com").await;
    let confirmed = app.confirm_info(&access, &jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    let access = confirmed.body["newAccessToken"].as_str().unwrap().to_owned();
    let record = app.member_info(&access).await.body;
    assert_eq!(record["nextStep"], "complete");
    let expire = record["subscription"]["expire"].clone();

    // What the roster does not look at, or does not tell apart, keeps the confirmation as it is.
    let same_person = saved_with(
        &app,
        &access,
        &record,
        json!({ "phone": "+1 720 555 0100", "firstName": "JANE", "zipCode": "80202" }),
    )
    .await;
    assert!(same_person["eligibilityCheck"].is_null(), "{same_person}");
    assert_eq!(same_person["eligibility"]["status"], "active");
    assert_eq!(same_person["nextStep"], "complete");
    assert_eq!(same_person["phone"], "+17205550100");

    // A new first name is another insured person: checked at once, and the roster says no.
    let renamed = saved_with(&app, &access, &record, json!({ "firstName": "Janet" })).await;
    assert_eq!(
        renamed["eligibilityCheck"],
        json!({
            "eligible": false,
            "code": "eligibility_not_verified",
            "message": codes::ELIGIBILITY_NOT_VERIFIED.text(),
            "eligibility": { "code": 400, "status": null, "err": { "chcDown": false } },
        })
    );
    assert_eq!(renamed["firstName"], "Janet", "what the member typed is saved");
    assert!(renamed["eligibility"]["status"].is_null(), "no longer confirmed");
    assert_eq!(renamed["nextStep"], "confirmPlan", "Home offers Confirm Eligibility");
    assert_eq!(renamed["setup"], "incomplete");
    assert_eq!(
        renamed["location"]["id"],
        seed::demo::DENVER_LOCATION_ID,
        "the clinic is kept"
    );
    assert_eq!(renamed["subscription"]["status"], "pending");
    assert_eq!(app.home(&access).await.body["nextStep"], "confirmPlan");

    // Back to the name the roster knows: checked at once and confirmed, the membership as it was.
    let named_back = saved_with(&app, &access, &record, json!({ "firstName": "Jane" })).await;
    assert_eq!(named_back["eligibilityCheck"]["eligible"], true, "{named_back}");
    assert_eq!(named_back["eligibilityCheck"]["eligibility"]["status"], "active");
    assert_eq!(named_back["eligibility"]["status"], "active");
    assert_eq!(named_back["nextStep"], "complete");
    assert_eq!(named_back["setup"], "complete");
    assert_eq!(named_back["subscription"]["expire"], expire);

    // Another plan on the roster: the spec's 401 outcome, reported in the 200 of the save.
    let other_plan = saved_with(
        &app,
        &access,
        &record,
        json!({ "planId": seed::demo::NORTHWIND_PLAN_ID }),
    )
    .await;
    assert_eq!(
        other_plan["eligibilityCheck"]["code"], "not_eligible_on_plan",
        "{other_plan}"
    );
    assert_eq!(other_plan["eligibilityCheck"]["eligibility"]["code"], 401);
    assert_eq!(other_plan["nextStep"], "confirmPlan");
    // Confirming again through the form is open to them.
    let reconfirmed = app.confirm_info(&access, &jane_form()).await;
    assert_eq!(reconfirmed.status, 200, "{:?}", reconfirmed.body);
    assert_eq!(reconfirmed.body["nextStep"], "complete");

    // The roster cannot be read: the new details wait as pending and are retried in the background.
    sqlx::query("alter table eligibility_roster rename to eligibility_roster_offline")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let unreadable = saved_with(&app, &access, &record, json!({ "lastName": "Doe-Smith" })).await;
    assert_eq!(
        unreadable["eligibilityCheck"]["eligibility"]["err"]["chcDown"], true,
        "{unreadable}"
    );
    assert_eq!(unreadable["eligibilityCheck"]["eligibility"]["status"], "pending");
    assert_eq!(unreadable["eligibility"]["status"], "pending");
    let retries: i64 =
        sqlx::query_scalar("select count(*) from jobs where kind = 'eligibility_retry' and state = 'pending'")
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(retries, 1);
}

#[tokio::test]
async fn a_refused_check_counts_before_anything_is_saved() {
    let app = TestApp::spawn_with(30, |config| config.rate_limit_per_email = 1).await;
    let access = member_with_provider(&app, "jane@example.com").await;
    let confirmed = app.confirm_info(&access, &jane_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    let record = app.member_info(&access).await.body;
    // The limit is 2 checks in the window (per_email x 2); the form used one.
    let renamed = saved_with(&app, &access, &record, json!({ "firstName": "Janet" })).await;
    assert_eq!(renamed["eligibilityCheck"]["eligible"], false);
    let over = app
        .personal_info(&access, &with(record.clone(), json!({ "firstName": "Janice" })))
        .await;
    assert_error(&over, 429, "too_many_requests");
    let now = app.member_info(&access).await.body;
    assert_eq!(now["firstName"], "Janet", "the refused save wrote nothing");
    // A save that names the same person needs no check and is not limited.
    let phone = saved_with(&app, &access, &now, json!({ "phone": "720 555 0100" })).await;
    assert!(phone["eligibilityCheck"].is_null());
}

#[tokio::test]
async fn plans_follow_the_employer_and_an_unknown_plan_answers_err() {
    let app = TestApp::spawn(30).await;
    let all = app.plans(None, "").await;
    assert_eq!(all.status, 200);
    assert!(all.body.as_array().unwrap().len() >= 10);
    let acme = app
        .plans(None, &format!("?employerId={}", seed::demo::ACME_EMPLOYER_ID))
        .await;
    assert_eq!(
        acme.body,
        json!([{
            "planId": seed::demo::ACME_PLAN_ID, "name": seed::demo::ACME_PLAN_NAME,
            "groupId": seed::demo::ACME_GROUP_NUMBER, "payerId": seed::demo::PAYER_ID,
            "payerName": seed::demo::PAYER_NAME,
        }])
    );
    let signup = app
        .signup(&json!({ "email": "plans@example.com", "employerId": seed::demo::NORTHWIND_EMPLOYER_ID }))
        .await;
    let mine = app.plans(signup.body["accessToken"].as_str(), "").await;
    assert_eq!(mine.body[0]["planId"], seed::demo::NORTHWIND_PLAN_ID);
    let by_payer = app.plans(None, "?payerId=41150").await;
    assert!(
        by_payer
            .body
            .as_array()
            .unwrap()
            .iter()
            .all(|plan| plan["payerId"] == "41150")
    );
    assert_error(&app.plans(None, "?payerId=x'y").await, 400, "special_characters");

    let plan = app.plan(seed::demo::ACME_PLAN_ID).await;
    assert_eq!(plan.status, 200);
    assert_eq!(plan.body["name"], seed::demo::ACME_PLAN_NAME);
    let unknown = app.plan("PLN-0000").await;
    assert_error(&unknown, 404, "plan_not_found");
    assert!(unknown.body["err"].is_string());
    assert_error(&app.plan("'%20or%201=1").await, 404, "plan_not_found");
}
