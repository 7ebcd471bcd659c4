//! Family members: adding, confirming against the roster, listing, editing, removing,
//! enrolling them, switching to their accounts, and who may do any of it.

use api::error_codes as codes;
use serde_json::{Value, json};

use crate::enrolment::{audit_rows, confirmed_jane, denver, set_provider, signed_up};
use crate::helpers::{Answer, TestApp, assert_error};

const FAMILY: &str = "/member/app/family/member";

pub(crate) fn member_path(id: i64) -> String {
    format!("{FAMILY}/{id}")
}

/// John Doe, Jane's spouse on the roster, as the add-family form sends him.
pub(crate) fn john_form() -> Value {
    json!({
        "subscriberRelation": "Spouse",
        "firstName": seed::demo::SPOUSE_FIRST_NAME,
        "lastName": seed::demo::SPOUSE_LAST_NAME,
        "dob": seed::demo::SPOUSE_DATE_OF_BIRTH,
        "gender": "m",
        "email": "John.Doe@Example.com",
        "phone": "303-555-0199",
        "useMyContact": false,
        "memberId": seed::demo::SPOUSE_MEMBER_ID,
        "planId": seed::demo::ACME_PLAN_ID,
        // Always the subscriber's, whatever is sent.
        "payerId": "99999",
        "groupId": "0000000",
        "companyName": "Someone Else Inc",
    })
}

/// Emma Doe, Jane's daughter on the roster (pediatric care covered).
pub(crate) fn emma_form() -> Value {
    json!({
        "subscriberRelation": "Dependent",
        "firstName": seed::demo::CHILD_FIRST_NAME,
        "lastName": seed::demo::CHILD_LAST_NAME,
        "dob": seed::demo::CHILD_DATE_OF_BIRTH,
        "gender": "f",
        "useMyContact": true,
        "memberId": seed::demo::CHILD_MEMBER_ID,
        "planId": seed::demo::ACME_PLAN_ID,
    })
}

fn with(mut form: Value, changes: Value) -> Value {
    for (key, value) in changes.as_object().unwrap() {
        form[key] = value.clone();
    }
    form
}

async fn add(app: &TestApp, token: &str, form: &Value) -> Answer {
    app.post_as(FAMILY, form, Some(token)).await
}

pub(crate) async fn added(app: &TestApp, token: &str, form: &Value) -> i64 {
    let answer = add(app, token, form).await;
    assert_eq!(answer.status, 201, "{:?}", answer.body);
    answer.body["id"].as_i64().unwrap()
}

pub(crate) async fn confirm(app: &TestApp, token: &str, id: i64, form: &Value) -> Answer {
    app.post_as(&format!("{}/confirm/info", member_path(id)), form, Some(token))
        .await
}

pub(crate) async fn delete(app: &TestApp, token: &str, path: &str) -> Answer {
    app.send_raw(
        reqwest::Method::DELETE,
        path,
        "application/json",
        String::new(),
        Some(token),
    )
    .await
}

pub(crate) async fn token_for(app: &TestApp, token: &str, id: i64) -> Answer {
    app.get_as(&format!("/member/app/token/dependent/{id}"), Some(token))
        .await
}

#[tokio::test]
async fn a_subscriber_adds_confirms_lists_edits_and_removes_a_family_member() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    assert_eq!(set_provider(&app, &jane, &denver()).await.status, 200);
    let john = added(&app, &jane, &john_form()).await;
    let (login, contact): (Option<String>, Option<String>) =
        sqlx::query_as("select email, contact_email from members where id = $1")
            .bind(john)
            .fetch_one(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(login, None, "a family member's email is never a login");
    assert_eq!(contact.as_deref(), Some("john.doe@example.com"));

    let confirmed = confirm(&app, &jane, john, &john_form()).await;
    assert_eq!(confirmed.status, 200, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["eligible"], true);
    assert_eq!(confirmed.body["eligibility"]["code"], 200);
    assert_eq!(confirmed.body["eligibility"]["status"], "active");
    assert_eq!(
        confirmed.body["pediatric"]["covered"], true,
        "an adult, and Jane has a clinic"
    );
    assert_eq!(confirmed.body["nextStep"], "selectDPC");

    let list = app.get_as("/member/app/family/members", Some(&jane)).await;
    assert_eq!(list.status, 200, "{:?}", list.body);
    let entries = list.body.as_array().unwrap();
    assert_eq!(entries.len(), 1, "the subscriber is not listed");
    let entry = &entries[0];
    assert_eq!(entry["id"], john);
    assert_eq!(entry["email"], "john.doe@example.com");
    assert_eq!(entry["phone"], "+13035550199");
    assert_eq!(entry["dob"], seed::demo::SPOUSE_DATE_OF_BIRTH);
    assert_eq!(entry["subscriberRelation"], "Spouse");
    assert_eq!(entry["memberId"], seed::demo::SPOUSE_MEMBER_ID);
    assert_eq!(entry["payerId"], seed::demo::PAYER_ID, "copied from the subscriber");
    assert_eq!(entry["groupId"], seed::demo::ACME_GROUP_NUMBER);
    assert_eq!(entry["subscriberMemberId"], seed::demo::SUBSCRIBER_MEMBER_ID);
    assert_eq!(entry["employer"]["companyName"], seed::demo::ACME_NAME);
    assert_eq!(entry["eligibility"]["status"], "active");
    assert_eq!(entry["setup"], "complete");
    assert!(entry["location"].is_null() && entry["provider"].is_null() && entry["providerPortal"].is_null());
    assert!(entry["nextVisit"].is_null());
    let one = app.get_as(&member_path(john), Some(&jane)).await;
    assert_eq!(one.status, 200);
    assert_eq!(&one.body, entry);
    let info = app.member_info(&jane).await;
    assert_eq!(info.body["family"][0]["id"], john, "member/info sees the family too");

    let enrolled = app
        .post_as(&format!("{}/set/provider", member_path(john)), &denver(), Some(&jane))
        .await;
    assert_eq!(enrolled.status, 200, "{:?}", enrolled.body);
    assert_eq!(enrolled.body["nextStep"], "complete");
    assert_eq!(
        audit_rows(&app, john).await,
        [("enrolled".to_owned(), jane_id, None, seed::demo::DENVER_LOCATION_ID)],
        "the subscriber acted for John"
    );
    let entry = app.get_as(&member_path(john), Some(&jane)).await.body;
    assert_eq!(entry["location"]["id"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(entry["provider"]["companyName"], seed::demo::DENVER_ORGANISATION_NAME);
    assert_eq!(entry["subscription"]["status"], "pending");

    let phone_only = app
        .put_as(&member_path(john), &json!({ "phone": "720 555 0100" }), Some(&jane))
        .await;
    assert_eq!(phone_only.status, 200, "{:?}", phone_only.body);
    assert_eq!(phone_only.body["phone"], "+17205550100");
    assert_eq!(
        phone_only.body["eligibility"]["status"], "active",
        "contact details do not matter"
    );
    let renamed = app
        .put_as(
            &member_path(john),
            &json!({ "firstName": "Johnny", "lastName": "Doe", "email": "johnny@example.com", "gender": "m",
                     "zipCode": "80202", "phone": "720 555 0100", "dob": seed::demo::SPOUSE_DATE_OF_BIRTH }),
            Some(&jane),
        )
        .await;
    assert_eq!(renamed.status, 200, "{:?}", renamed.body);
    assert_eq!(renamed.body["firstName"], "Johnny");
    assert_eq!(renamed.body["zipCode"], "80202");
    assert_eq!(renamed.body["email"], "johnny@example.com");
    // A new name is checked against the roster at once; the roster knows John, not Johnny.
    assert_eq!(
        renamed.body["eligibilityCheck"]["eligible"], false,
        "{:?}",
        renamed.body
    );
    assert_eq!(renamed.body["eligibilityCheck"]["code"], "eligibility_not_verified");
    assert!(renamed.body["eligibility"]["status"].is_null(), "no longer confirmed");
    assert_eq!(
        renamed.body["nextStep"], "confirmPlan",
        "confirming again is the way forward"
    );
    assert_eq!(
        renamed.body["location"]["id"],
        seed::demo::DENVER_LOCATION_ID,
        "the clinic is kept"
    );
    let named_back = app
        .put_as(&member_path(john), &json!({ "firstName": "John" }), Some(&jane))
        .await;
    assert_eq!(
        named_back.body["eligibilityCheck"]["eligible"], true,
        "{:?}",
        named_back.body
    );
    assert_eq!(named_back.body["eligibility"]["status"], "active");
    assert_eq!(named_back.body["nextStep"], "complete");
    assert_eq!(named_back.body["subscription"]["status"], "pending");

    let removed = delete(&app, &jane, &member_path(john)).await;
    assert_eq!(removed.status, 200, "{:?}", removed.body);
    assert_eq!(removed.body["message"], "John Doe has been removed from your account.");
    assert_error(&app.get_as(&member_path(john), Some(&jane)).await, 404, "not_found");
    // The enrolment's audit row stays, and the clinic's loss of the member is one more.
    let kinds: Vec<String> = audit_rows(&app, john).await.into_iter().map(|row| row.0).collect();
    assert_eq!(kinds, ["enrolled", "cancelled"], "audit rows stay");
    assert_eq!(
        app.get_as("/member/app/family/members", Some(&jane)).await.body,
        json!([])
    );
}

#[tokio::test]
async fn insurance_fields_are_the_subscribers_and_use_my_contact_copies_email_and_phone() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    let entry = app.get_as(&member_path(emma), Some(&jane)).await.body;
    assert_eq!(entry["email"], "jane@example.com");
    assert_eq!(entry["phone"], "+13035550123");
    assert_eq!(entry["payerId"], seed::demo::PAYER_ID);
    assert_eq!(entry["nextStep"], "selectDPC");
    assert!(entry["eligibility"]["status"].is_null());
    let john = added(&app, &jane, &john_form()).await;
    let john_entry = app.get_as(&member_path(john), Some(&jane)).await.body;
    assert_eq!(john_entry["groupId"], seed::demo::ACME_GROUP_NUMBER);
    assert_eq!(john_entry["employer"]["companyName"], seed::demo::ACME_NAME);
}

#[tokio::test]
async fn the_same_person_cannot_be_added_twice_even_at_once() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    added(&app, &jane, &john_form()).await;
    let again = add(
        &app,
        &jane,
        &with(john_form(), json!({ "firstName": "JOHN", "lastName": "doe" })),
    )
    .await;
    assert_error(&again, 409, "member_exists");
    assert_eq!(again.body["message"], codes::ALREADY_IN_FAMILY.text());
    let emma = emma_form();
    let (first, second) = tokio::join!(add(&app, &jane, &emma), add(&app, &jane, &emma));
    let mut statuses = [first.status, second.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409], "{:?} {:?}", first.body, second.body);
    let members: i64 = sqlx::query_scalar("select count(*) from members")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(members, 3);
    // An edit that would make two of them the same person is refused too.
    let emma_id = if first.status == 201 { &first } else { &second }.body["id"]
        .as_i64()
        .unwrap();
    let clash = app
        .put_as(
            &member_path(emma_id),
            &json!({ "firstName": "John", "dob": seed::demo::SPOUSE_DATE_OF_BIRTH }),
            Some(&jane),
        )
        .await;
    assert_error(&clash, 409, "member_exists");
}

#[tokio::test]
async fn a_family_member_not_on_the_roster_is_kept_for_a_retry() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &with(emma_form(), json!({ "dob": "2016-06-02" }))).await;
    let wrong = confirm(&app, &jane, emma, &with(emma_form(), json!({ "dob": "2016-06-02" }))).await;
    assert_eq!(wrong.status, 200, "{:?}", wrong.body);
    assert_eq!(wrong.body["eligible"], false);
    assert_eq!(wrong.body["eligibility"]["code"], 400);
    assert!(wrong.body["eligibility"]["status"].is_null());
    assert_eq!(wrong.body["pediatric"]["covered"], false);
    let other_plan = confirm(
        &app,
        &jane,
        emma,
        &with(emma_form(), json!({ "planId": seed::demo::NORTHWIND_PLAN_ID })),
    )
    .await;
    assert_eq!(other_plan.body["eligible"], false);
    assert_eq!(other_plan.body["eligibility"]["code"], 401);
    // Revise mode: the same id, corrected details.
    let revised = confirm(&app, &jane, emma, &emma_form()).await;
    assert_eq!(revised.body["eligible"], true, "{:?}", revised.body);
    assert_eq!(revised.body["id"], emma);
    assert_eq!(
        revised.body["pediatric"]["covered"], false,
        "Jane has not chosen a clinic yet"
    );
    let entry = app.get_as(&member_path(emma), Some(&jane)).await.body;
    assert_eq!(entry["dob"], seed::demo::CHILD_DATE_OF_BIRTH);
    assert_eq!(entry["eligibility"]["status"], "active");
    assert_eq!(entry["subscriberMemberId"], seed::demo::SUBSCRIBER_MEMBER_ID);
}

#[tokio::test]
async fn children_are_covered_and_enrolled_only_where_the_clinic_takes_their_age() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    assert_eq!(set_provider(&app, &jane, &denver()).await.status, 200);
    let emma = added(&app, &jane, &emma_form()).await;
    let confirmed = confirm(&app, &jane, emma, &emma_form()).await;
    assert_eq!(confirmed.body["eligible"], true, "{:?}", confirmed.body);
    assert_eq!(
        confirmed.body["pediatric"]["covered"], true,
        "LoDo sees children 0 to 17"
    );

    let emma_provider = format!("{}/set/provider", member_path(emma));
    let highlands = json!({
        "providerId": seed::demo::DENVER_ORGANISATION_ID,
        "locationId": seed::demo::DENVER_HIGHLANDS_LOCATION_ID,
    });
    let no_pediatrics = app.post_as(&emma_provider, &highlands, Some(&jane)).await;
    assert_error(&no_pediatrics, 409, "pediatric_not_offered");
    assert_eq!(
        no_pediatrics.body["message"],
        "This clinic does not offer pediatric services. Please find another DPC clinic for this dependent"
    );
    sqlx::query("update locations set pediatric_min_age = 12 where id = $1")
        .bind(seed::demo::DENVER_LOCATION_ID)
        .execute(&app.database.pool)
        .await
        .unwrap();
    let too_young = app.post_as(&emma_provider, &denver(), Some(&jane)).await;
    assert_error(&too_young, 409, "pediatric_age");
    assert_eq!(
        too_young.body["message"],
        "This clinic does not accept pediatrics patients of this age. Please find another DPC clinic for this dependent"
    );
    assert!(audit_rows(&app, emma).await.is_empty());
    sqlx::query("update locations set pediatric_min_age = 0 where id = $1")
        .bind(seed::demo::DENVER_LOCATION_ID)
        .execute(&app.database.pool)
        .await
        .unwrap();
    let enrolled = app.post_as(&emma_provider, &denver(), Some(&jane)).await;
    assert_eq!(enrolled.status, 200, "{:?}", enrolled.body);
    assert_eq!(enrolled.body["nextStep"], "complete");
    assert_eq!(
        audit_rows(&app, emma).await,
        [("enrolled".to_owned(), jane_id, None, seed::demo::DENVER_LOCATION_ID)]
    );
    // Her own pending membership now needs the change confirmation, like Jane's.
    let again = app.post_as(&emma_provider, &highlands, Some(&jane)).await;
    assert_error(&again, 409, "change_needs_confirmation");

    // Leo Rivera's plan does not cover pediatric care.
    let (_, alex) = signed_up(&app, "alex@example.com", Some(seed::demo::NORTHWIND_EMPLOYER_ID)).await;
    let alex_form = json!({
        "firstName": "Alex", "lastName": "Rivera", "dob": seed::demo::NORTHWIND_SUBSCRIBER_DATE_OF_BIRTH,
        "gender": "m", "memberId": seed::demo::NORTHWIND_SUBSCRIBER_MEMBER_ID,
        "planId": seed::demo::NORTHWIND_PLAN_ID, "subscriberRelation": "Self",
    });
    assert_eq!(app.confirm_info(&alex, &alex_form).await.status, 200);
    assert_eq!(set_provider(&app, &alex, &denver()).await.status, 200);
    let leo_form = json!({
        "subscriberRelation": "Dependent", "firstName": "Leo", "lastName": "Rivera",
        "dob": seed::demo::NORTHWIND_CHILD_DATE_OF_BIRTH, "gender": "m", "useMyContact": true,
        "memberId": seed::demo::NORTHWIND_CHILD_MEMBER_ID,
    });
    let leo = added(&app, &alex, &leo_form).await;
    let leo_confirmed = confirm(&app, &alex, leo, &leo_form).await;
    assert_eq!(leo_confirmed.body["eligible"], true, "{:?}", leo_confirmed.body);
    assert_eq!(leo_confirmed.body["pediatric"]["covered"], false);
}

#[tokio::test]
async fn a_subscriber_sees_a_clinic_profile_for_a_family_member() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    let profile_path = |provider_id: i64| {
        format!(
            "{}/market/provider/{provider_id}?locationId={}",
            member_path(emma),
            seed::demo::DENVER_LOCATION_ID
        )
    };

    let profile = app
        .get_as(&profile_path(seed::demo::DENVER_ORGANISATION_ID), Some(&jane))
        .await;
    assert_eq!(profile.status, 200, "{:?}", profile.body);
    assert_eq!(profile.body["id"], seed::demo::DENVER_ORGANISATION_ID);
    assert_eq!(profile.body["locationId"], seed::demo::DENVER_LOCATION_ID);
    assert_eq!(profile.body["companyName"], seed::demo::DENVER_ORGANISATION_NAME);
    assert_eq!(profile.body["organizationName"], seed::demo::DENVER_ORGANISATION_NAME);
    assert_eq!(profile.body["locationName"], seed::demo::DENVER_LOCATION_NAME);
    assert_eq!(profile.body["contact"]["zipCode"], seed::demo::DENVER_ZIP);
    assert_eq!(profile.body["newPatients"], true);
    assert_eq!(
        profile.body["pediatrics"],
        json!({ "offered": true, "minAge": 0, "maxAge": 17 }),
        "what decides whether Emma may enrol there"
    );

    let unknown = app.get_as(&profile_path(999_999), Some(&jane)).await;
    assert_error(&unknown, 404, "not_found");
    assert_eq!(unknown.body["message"], codes::PROVIDER_NOT_FOUND.text());
}

#[tokio::test]
async fn only_the_subscriber_manages_their_own_family() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    let (_, bob) = signed_up(&app, "bob@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    // John signs up himself and is confirmed as Jane's spouse: he is in her family, as a Spouse.
    let (john_id, john) = signed_up(&app, "john@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    let john_confirmed = app
        .confirm_info(
            &john,
            &json!({
                "firstName": "John", "lastName": "Doe", "dob": seed::demo::SPOUSE_DATE_OF_BIRTH, "gender": "m",
                "memberId": seed::demo::SPOUSE_MEMBER_ID, "planId": seed::demo::ACME_PLAN_ID,
                "subscriberRelation": "Spouse", "subscriberMemberId": seed::demo::SUBSCRIBER_MEMBER_ID,
            }),
        )
        .await;
    assert_eq!(john_confirmed.status, 200, "{:?}", john_confirmed.body);
    let before: i64 = sqlx::query_scalar("select count(*) from members")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();

    let emma_calls = |id: i64| -> Vec<(reqwest::Method, String, Value)> {
        vec![
            (reqwest::Method::GET, member_path(id), Value::Null),
            (
                reqwest::Method::PUT,
                member_path(id),
                json!({ "phone": "303 555 0000" }),
            ),
            (reqwest::Method::DELETE, member_path(id), Value::Null),
            (
                reqwest::Method::POST,
                format!("{}/confirm/info", member_path(id)),
                emma_form(),
            ),
            (
                reqwest::Method::POST,
                format!("{}/set/provider", member_path(id)),
                denver(),
            ),
            (
                reqwest::Method::POST,
                format!("{}/market", member_path(id)),
                json!({ "search": { "filters": { "zipCode": "80202" } } }),
            ),
            (
                reqwest::Method::GET,
                format!("/member/app/token/dependent/{id}"),
                Value::Null,
            ),
        ]
    };
    let send = |method: reqwest::Method, path: String, body: Value, token: String| {
        let app = &app;
        async move {
            let body = if body.is_null() {
                String::new()
            } else {
                body.to_string()
            };
            app.send_raw(method, &path, "application/json", body, Some(&token))
                .await
        }
    };
    for (method, path, body) in emma_calls(emma) {
        let answer = send(method.clone(), path.clone(), body.clone(), bob.clone()).await;
        assert_error(&answer, 403, "forbidden");
        assert_eq!(answer.body["message"], codes::NOT_YOURS.text(), "{method} {path}");
        let spouse = send(method.clone(), path.clone(), body.clone(), john.clone()).await;
        assert_error(&spouse, 403, "forbidden");
        assert_eq!(spouse.body["message"], codes::ONLY_PRIMARY.text(), "{method} {path}");
        let anonymous = app
            .send_raw(method.clone(), &path, "application/json", body.to_string(), None)
            .await;
        assert_error(&anonymous, 401, "unauthorized");
    }
    for (method, path, body) in emma_calls(999_999) {
        let unknown = send(method.clone(), path.clone(), body, jane.clone()).await;
        assert_error(&unknown, 404, "not_found");
        assert_eq!(unknown.body["message"], codes::NO_DEPENDENT.text(), "{method} {path}");
    }
    // Jane's own id is not one of her family members; another subscriber is not either.
    assert_error(&app.get_as(&member_path(jane_id), Some(&jane)).await, 403, "forbidden");
    assert_error(&token_for(&app, &bob, jane_id).await, 403, "forbidden");
    for answer in [
        add(&app, &john, &emma_form()).await,
        app.get_as("/member/app/family/members", Some(&john)).await,
    ] {
        assert_error(&answer, 403, "forbidden");
    }
    let after: i64 = sqlx::query_scalar("select count(*) from members")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(after, before, "nothing added or removed");
    assert_eq!(
        app.get_as(&member_path(emma), Some(&jane)).await.body["phone"],
        "+13035550123",
        "nothing changed"
    );

    // John has a login of his own: Jane may take him off her account, not delete it.
    assert_eq!(app.get_as(&member_path(john_id), Some(&jane)).await.status, 200);
    let detached = delete(&app, &jane, &member_path(john_id)).await;
    assert_eq!(detached.status, 200, "{:?}", detached.body);
    assert_eq!(app.member_info(&john).await.status, 200, "John's account stays");
    assert_error(&app.get_as(&member_path(john_id), Some(&jane)).await, 403, "forbidden");
}

#[tokio::test]
async fn a_subscriber_switches_to_a_family_members_account_and_back() {
    let app = TestApp::spawn(30).await;
    let (jane_id, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    assert_eq!(confirm(&app, &jane, emma, &emma_form()).await.body["eligible"], true);

    let switched = token_for(&app, &jane, emma).await;
    assert_eq!(switched.status, 200, "{:?}", switched.body);
    assert_eq!(switched.body["type"], "dpc-member");
    assert_eq!(switched.body["id"], emma);
    let as_emma = switched.body["accessToken"].as_str().unwrap().to_owned();
    let claims = jsonwebtoken::dangerous::insecure_decode::<api::auth::Claims>(&as_emma)
        .unwrap()
        .claims;
    assert_eq!(claims.sub, emma.to_string());
    assert_eq!(claims.act.unwrap().sub, jane_id.to_string());

    let info = app.member_info(&as_emma).await;
    assert_eq!(info.body["id"], emma);
    assert_eq!(info.body["firstName"], "Emma");
    assert_eq!(app.home(&as_emma).await.body["nextStep"], "selectDPC");
    let enrolled = set_provider(&app, &as_emma, &denver()).await;
    assert_eq!(enrolled.status, 200, "{:?}", enrolled.body);
    assert_eq!(
        audit_rows(&app, emma).await,
        [("enrolled".to_owned(), jane_id, None, seed::demo::DENVER_LOCATION_ID)],
        "Jane acted, on Emma's account"
    );
    assert_eq!(app.member_info(&jane).await.body["locationId"], Value::Null);

    for refused in [
        app.get_as("/member/app/family/members", Some(&as_emma)).await,
        add(&app, &as_emma, &john_form()).await,
        app.get_as(&member_path(emma), Some(&as_emma)).await,
    ] {
        assert_error(&refused, 403, "forbidden");
    }
    let back = token_for(&app, &as_emma, jane_id).await;
    assert_eq!(back.status, 200, "{:?}", back.body);
    assert_eq!(back.body["id"], jane_id);
    let as_jane = back.body["accessToken"].as_str().unwrap();
    let claims = jsonwebtoken::dangerous::insecure_decode::<api::auth::Claims>(as_jane)
        .unwrap()
        .claims;
    assert!(claims.act.is_none(), "a plain token again");
    assert_eq!(app.member_info(as_jane).await.body["id"], jane_id);
    assert_eq!(
        app.get_as("/member/app/family/members", Some(as_jane)).await.status,
        200
    );

    // Switching needs the family.
    let (_, bob) = signed_up(&app, "bob@example.com", Some(seed::demo::ACME_EMPLOYER_ID)).await;
    assert_error(&token_for(&app, &bob, emma).await, 403, "forbidden");
    assert_error(&token_for(&app, &jane, 999_999).await, 404, "not_found");
    assert_error(
        &app.get_as("/member/app/token/dependent/abc", Some(&jane)).await,
        400,
        "invalid_path",
    );
}

#[tokio::test]
async fn removing_a_family_member_takes_what_is_theirs_and_keeps_the_audit() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let emma = added(&app, &jane, &emma_form()).await;
    let emma_provider = format!("{}/set/provider", member_path(emma));
    assert_eq!(app.post_as(&emma_provider, &denver(), Some(&jane)).await.status, 200);
    sqlx::query("insert into member_favorites (member_id, entity, entity_id) values ($1, 'location', 1)")
        .bind(emma)
        .execute(&app.database.pool)
        .await
        .unwrap();
    let removed = delete(&app, &jane, &member_path(emma)).await;
    assert_eq!(removed.status, 200, "{:?}", removed.body);
    assert_eq!(removed.body["message"], "Emma Doe has been removed from your account.");
    let (members, favourites, audit, events): (i64, i64, i64, i64) = sqlx::query_as(
        "select (select count(*) from members where id = $1), (select count(*) from member_favorites where member_id = $1),
                (select count(*) from enrolment_events where member_id = $1),
                (select count(*) from analytics_events where member_id = $1)",
    )
    .bind(emma)
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    // The audit keeps the enrolment and the membership's cancellation.
    assert_eq!((members, favourites, audit, events), (0, 0, 2, 1));
    assert_error(&delete(&app, &jane, &member_path(emma)).await, 404, "not_found");
}

#[tokio::test]
async fn bad_family_input_is_a_4xx_and_text_stays_text() {
    let app = TestApp::spawn(30).await;
    let (_, jane) = confirmed_jane(&app).await;
    let nasty = "Robert'); drop table members; --";
    let quoted = "x' or '1'='1";
    let id = added(
        &app,
        &jane,
        &with(
            emma_form(),
            json!({ "firstName": nasty, "lastName": quoted, "email": "o'brien@example.com", "useMyContact": false,
                    "phone": "303 555 0100" }),
        ),
    )
    .await;
    let entry = app.get_as(&member_path(id), Some(&jane)).await.body;
    assert_eq!(entry["firstName"], nasty);
    assert_eq!(entry["lastName"], quoted);
    assert_eq!(entry["email"], "o'brien@example.com");
    let renamed = app
        .put_as(&member_path(id), &json!({ "lastName": "O'Brien; --" }), Some(&jane))
        .await;
    assert_eq!(renamed.body["lastName"], "O'Brien; --");

    for (change, field, code) in [
        (
            json!({ "subscriberRelation": "Self" }),
            "subscriberRelation",
            "invalid_relation",
        ),
        (
            json!({ "subscriberRelation": "Cousin" }),
            "subscriberRelation",
            "invalid_relation",
        ),
        (json!({ "firstName": "" }), "firstName", "required"),
        (json!({ "firstName": "x".repeat(101) }), "firstName", "too_long"),
        (json!({ "dob": "2016-02-30" }), "dob", "invalid_date"),
        (json!({ "dob": "2999-01-01" }), "dob", "invalid_date"),
        (json!({ "gender": "x" }), "gender", "invalid_gender"),
        (json!({ "memberId": "1' or '1'='1" }), "memberId", "special_characters"),
        (
            json!({ "useMyContact": false, "email": "not an email", "phone": "303 555 0100" }),
            "email",
            "invalid_email",
        ),
        (json!({ "useMyContact": false, "email": "a@b.co" }), "phone", "required"),
        (
            json!({ "useMyContact": false, "email": "a@b.co", "phone": "12" }),
            "phone",
            "invalid_phone",
        ),
        (json!({ "firstName": { "nested": true } }), "firstName", "invalid_field"),
    ] {
        let form = with(emma_form(), change.clone());
        let answer = add(&app, &jane, &form).await;
        assert_error(&answer, 400, code);
        assert_eq!(answer.body["field"], field, "{change}");
        let revise = confirm(&app, &jane, id, &form).await;
        assert_eq!(revise.status, 400, "{change}: {:?}", revise.body);
    }
    for change in [
        json!({ "dob": "yesterday" }),
        json!({ "email": "nope" }),
        json!({ "zipCode": "8020" }),
    ] {
        let answer = app.put_as(&member_path(id), &change, Some(&jane)).await;
        assert_eq!(answer.status, 400, "{change}: {:?}", answer.body);
    }
    let not_json = app
        .send_raw(reqwest::Method::POST, FAMILY, "text/plain", "hello".into(), Some(&jane))
        .await;
    assert_error(&not_json, 400, "unsupported_media_type");
    let broken = app
        .send_raw(
            reqwest::Method::POST,
            FAMILY,
            "application/json",
            "{\"firstName\": ".into(),
            Some(&jane),
        )
        .await;
    assert_error(&broken, 400, "invalid_body");
    let huge = with(emma_form(), json!({ "firstName": "a".repeat(100_000) })).to_string();
    let oversize = app
        .send_raw(reqwest::Method::POST, FAMILY, "application/json", huge, Some(&jane))
        .await;
    assert_error(&oversize, 413, "payload_too_large");
    assert_error(
        &app.get_as("/member/app/family/member/abc", Some(&jane)).await,
        400,
        "invalid_path",
    );
    assert_error(
        &app.get_as("/member/app/family/member/99999999999999999999", Some(&jane))
            .await,
        400,
        "invalid_path",
    );
    let members: i64 = sqlx::query_scalar("select count(*) from members")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(members, 2, "Jane and the one family member");
}

#[tokio::test]
async fn a_family_member_left_pending_is_confirmed_in_the_background_and_the_subscriber_is_emailed() {
    let sink = crate::smtp::SmtpSink::start(&[]).await;
    let url = sink.url();
    let app = TestApp::spawn_with(30, move |config| {
        config.smtp_url = Some(api::config::Secret(url));
        config.eligibility_retry_base_ms = 300;
    })
    .await;
    let (_, token) = confirmed_jane(&app).await;
    let john = added(&app, &token, &john_form()).await;
    sqlx::query("alter table eligibility_roster rename to eligibility_roster_offline")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let down = confirm(&app, &token, john, &john_form()).await;
    assert_eq!(down.body["eligibility"]["err"]["chcDown"], true, "{:?}", down.body);
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    sqlx::query("alter table eligibility_roster_offline rename to eligibility_roster")
        .execute(&app.database.pool)
        .await
        .unwrap();
    let message = sink
        .wait_for("jane@example.com", 2, std::time::Duration::from_secs(20))
        .await;
    assert_eq!(message["subject"], "Your eligibility is confirmed", "{message}");
    let text = message["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("{}'s eligibility", seed::demo::SPOUSE_FIRST_NAME)),
        "{text}"
    );
    crate::smtp::checked_link(&message, &app.address);
    let status: Option<String> = sqlx::query_scalar("select eligibility_status from members where id = $1")
        .bind(john)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(status.as_deref(), Some("active"));
}
