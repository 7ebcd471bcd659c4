//! Clinic waitlists, notify-me, and the email a waitlist gets when its clinic opens.

use api::error_codes as codes;
use serde_json::{Value, json};

use crate::helpers::{Answer, TestApp, assert_error};

const WAITLIST: &str = "/member/app/join/wait/list";
const ADDED: &str = "You've been added to the waitlist";
const ALREADY: &str = "You're already on this waitlist";
/// A visitor's answer, the same whether or not the address was already waiting.
const ON_THE_LIST: &str = "You're on the waitlist";

impl TestApp {
    pub async fn join_waitlist(&self, body: &Value, token: Option<&str>) -> Answer {
        self.post_as(WAITLIST, body, token).await
    }

    /// `(location_id, member_id, email, consent, notified)` of every waitlist entry, oldest first.
    async fn waitlist_rows(&self) -> Vec<(Option<i64>, Option<i64>, String, bool, bool)> {
        sqlx::query_as(
            "select location_id, member_id, email, consent, notified_at is not null
             from waitlist_entries order by id",
        )
        .fetch_all(&self.database.pool)
        .await
        .unwrap()
    }

    /// `(to_email, clinic)` of every waitlist_open email, oldest first (the trigger writes the
    /// fact; the sender renders the message).
    async fn waitlist_emails(&self) -> Vec<(String, Option<i64>)> {
        sqlx::query_as(
            "select to_email, (facts->>'location_id')::bigint from email_outbox where kind = 'waitlist_open' order by id",
        )
            .fetch_all(&self.database.pool)
            .await
            .unwrap()
    }

    /// Opens or closes a clinic the way `indexer location set-accepting` does.
    async fn set_accepting(&self, location_id: i64, accepting: bool) {
        assert!(
            store::catalogue::set_accepting_new_patients(&self.database.pool, location_id, accepting)
                .await
                .unwrap()
        );
    }
}

fn clinic_join(location: i64) -> Value {
    json!({
        "location": location,
        "search": { "location": { "lat": 39.72, "lng": -104.95 }, "address": "Denver, CO 80206", "filters": { "newPatients": false } },
    })
}

fn visitor_join(email: &str, location: Option<i64>, consent: Option<bool>) -> Value {
    let mut body = json!({
        "email": email,
        "member": null,
        "search": { "location": { "lat": 39.72, "lng": -104.95 }, "address": "Denver, CO 80206", "filters": {} },
    });
    if let Some(location) = location {
        body["location"] = json!(location);
    }
    if let Some(consent) = consent {
        body["consent"] = json!(consent);
    }
    body
}

const WAITLIST_LOCATION: i64 = seed::demo::DENVER_WAITLIST_LOCATION_ID;

#[tokio::test]
async fn a_signed_in_member_joins_with_their_own_email_whatever_the_body_says() {
    let app = TestApp::spawn(50).await;
    let (member_id, token) = app.registered_member("wait.member@example.com").await;
    let mut body = clinic_join(WAITLIST_LOCATION);
    body["email"] = json!("someone.else@example.com");
    body["member"] = json!({ "id": 999_999 });
    let joined = app.join_waitlist(&body, Some(&token)).await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    assert_eq!(joined.body["message"], ADDED);
    assert_eq!(joined.body["alreadyListed"], false);
    assert!(joined.body["id"].is_i64());
    assert_eq!(
        app.waitlist_rows().await,
        vec![(
            Some(WAITLIST_LOCATION),
            Some(member_id),
            "wait.member@example.com".to_owned(),
            true,
            false
        )]
    );
    let search: Value = sqlx::query_scalar("select search from waitlist_entries")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(search["address"], "Denver, CO 80206");
    assert_eq!(search["location"]["lat"], 39.72);
    assert_eq!(search["filters"]["newPatients"], false);
    assert!(
        app.waitlist_emails().await.is_empty(),
        "a closed clinic sends nothing yet"
    );
}

#[tokio::test]
async fn a_signed_in_member_without_any_email_is_told_so_by_name() {
    let app = TestApp::spawn(50).await;
    let member_id: i64 = sqlx::query_scalar(
        "insert into members (first_name, last_name, subscriber_relation) values ('Leo', 'Rivera', 'Dependent') returning id",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    let token = app.session_token(member_id).await;
    let refused = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some(&token)).await;
    assert_error(&refused, 400, "no_email");
    assert_eq!(refused.body["message"], "Leo Rivera has no email");
    assert!(app.waitlist_rows().await.is_empty());
    assert_eq!(
        api::routes::waitlist::no_email_message(" ", ""),
        "This member has no email"
    );
}

#[tokio::test]
async fn a_family_member_without_a_login_joins_with_their_contact_email() {
    let app = TestApp::spawn(50).await;
    let member_id: i64 = sqlx::query_scalar(
        "insert into members (first_name, last_name, subscriber_relation, contact_email)
         values ('Emma', 'Doe', 'Dependent', 'emma.contact@example.com') returning id",
    )
    .fetch_one(&app.database.pool)
    .await
    .unwrap();
    let token = app.session_token(member_id).await;
    let joined = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some(&token)).await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    assert_eq!(
        app.waitlist_rows().await,
        vec![(
            Some(WAITLIST_LOCATION),
            Some(member_id),
            "emma.contact@example.com".to_owned(),
            true,
            false
        )]
    );
}

#[tokio::test]
async fn a_visitor_needs_a_valid_email_and_the_consent_box() {
    let app = TestApp::spawn(50).await;
    let without_consent = app
        .join_waitlist(
            &visitor_join("visitor@example.com", Some(WAITLIST_LOCATION), None),
            None,
        )
        .await;
    assert_error(&without_consent, 400, "consent_required");
    assert_eq!(without_consent.body["message"], codes::CONSENT_REQUIRED.text());
    assert_eq!(without_consent.body["field"], "consent");
    let unticked = app
        .join_waitlist(
            &visitor_join("visitor@example.com", Some(WAITLIST_LOCATION), Some(false)),
            None,
        )
        .await;
    assert_error(&unticked, 400, "consent_required");
    let invalid = app
        .join_waitlist(&visitor_join("not an email", Some(WAITLIST_LOCATION), Some(true)), None)
        .await;
    assert_error(&invalid, 400, "invalid_email");
    assert_eq!(invalid.body["message"], "E-mail must be valid");
    assert_eq!(invalid.body["field"], "email");
    let missing = app
        .join_waitlist(&json!({ "location": WAITLIST_LOCATION, "consent": true }), None)
        .await;
    assert_error(&missing, 400, "required");
    assert!(app.waitlist_rows().await.is_empty());

    let joined = app
        .join_waitlist(
            &visitor_join(" Visitor@Example.com ", Some(WAITLIST_LOCATION), Some(true)),
            None,
        )
        .await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    assert_eq!(joined.body["message"], ON_THE_LIST);
    assert_eq!(
        app.waitlist_rows().await,
        vec![(
            Some(WAITLIST_LOCATION),
            None,
            "visitor@example.com".to_owned(),
            true,
            false
        )]
    );
}

#[tokio::test]
async fn visitors_joining_count_towards_the_client_limit() {
    let app = TestApp::spawn_with(50, |config| config.rate_limit_per_client = 2).await;
    for email in ["first@example.com", "second@example.com"] {
        let joined = app
            .join_waitlist(&visitor_join(email, Some(WAITLIST_LOCATION), Some(true)), None)
            .await;
        assert_eq!(joined.status, 201, "{:?}", joined.body);
    }
    let third = app
        .join_waitlist(
            &visitor_join("third@example.com", Some(WAITLIST_LOCATION), Some(true)),
            None,
        )
        .await;
    assert_error(&third, 429, "too_many_requests");
    assert_eq!(app.waitlist_rows().await.len(), 2);
}

#[tokio::test]
async fn an_unknown_clinic_is_not_found_and_a_bad_body_is_refused() {
    let app = TestApp::spawn(50).await;
    let (_, token) = app.registered_member("unknown.clinic@example.com").await;
    let unknown = app.join_waitlist(&clinic_join(424_242), Some(&token)).await;
    assert_error(&unknown, 404, "not_found");
    assert_eq!(unknown.body["message"], codes::PROVIDER_NOT_FOUND.text());
    let visitor = app
        .join_waitlist(&visitor_join("v@example.com", Some(424_242), Some(true)), None)
        .await;
    assert_error(&visitor, 404, "not_found");
    let as_text = app
        .join_waitlist(&json!({ "location": "2", "search": {} }), Some(&token))
        .await;
    assert_eq!(as_text.status, 201, "a location id may come as digits");
    let not_an_id = app
        .join_waitlist(&json!({ "location": "the clinic", "search": {} }), Some(&token))
        .await;
    assert_error(&not_an_id, 400, "invalid_body");
    let off_the_map = app
        .join_waitlist(
            &json!({ "search": { "location": { "lat": 91.0, "lng": 0.0 } } }),
            Some(&token),
        )
        .await;
    assert_error(&off_the_map, 400, "invalid_parameter");
    let forged = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some("forged")).await;
    assert_error(&forged, 401, "unauthorized");
    let not_json = app
        .send_raw(
            reqwest::Method::POST,
            WAITLIST,
            "application/json",
            "{".into(),
            Some(&token),
        )
        .await;
    assert_error(&not_json, 400, "invalid_body");
    assert_eq!(app.waitlist_rows().await.len(), 1);
}

#[tokio::test]
async fn joining_the_same_clinic_twice_keeps_one_entry() {
    let app = TestApp::spawn(50).await;
    let (_, token) = app.registered_member("twice@example.com").await;
    let first = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some(&token)).await;
    assert_eq!(first.status, 201);
    let second = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some(&token)).await;
    assert_eq!(second.status, 200, "{:?}", second.body);
    assert_eq!(second.body["alreadyListed"], true);
    assert_eq!(second.body["id"], first.body["id"]);
    assert_eq!(first.body["message"], ADDED);
    assert_eq!(second.body["message"], ALREADY, "the second join does not say 'added'");
    // The same address signed out is the same person on the list; the visitor is not told
    // that it was already waiting (anyone can type anyone's email).
    let as_visitor = app
        .join_waitlist(
            &visitor_join("TWICE@example.com", Some(WAITLIST_LOCATION), Some(true)),
            None,
        )
        .await;
    assert_eq!(as_visitor.status, 201);
    assert_eq!(as_visitor.body["alreadyListed"], false);
    assert_eq!(as_visitor.body["message"], ON_THE_LIST);
    assert!(as_visitor.body.get("id").is_none());
    assert_eq!(app.waitlist_rows().await.len(), 1);
}

#[tokio::test]
async fn notify_me_without_a_clinic_needs_the_searched_area() {
    let app = TestApp::spawn(50).await;
    let without_area = app
        .join_waitlist(
            &json!({ "email": "area@example.com", "consent": true, "search": { "location": null, "address": "" } }),
            None,
        )
        .await;
    assert_error(&without_area, 400, "location_required");
    assert_eq!(without_area.body["field"], "search.location");
    let first = app
        .join_waitlist(&visitor_join("area@example.com", None, Some(true)), None)
        .await;
    assert_eq!(first.status, 201, "{:?}", first.body);
    assert_eq!(first.body["alreadyListed"], false);
    assert_eq!(first.body["message"], ON_THE_LIST);
}

#[tokio::test]
async fn notify_me_twice_for_the_same_area_keeps_one_entry_with_the_later_search() {
    let app = TestApp::spawn(50).await;
    let first = app
        .join_waitlist(&visitor_join("area@example.com", None, Some(true)), None)
        .await;
    assert_eq!(first.status, 201, "{:?}", first.body);
    // Half a mile away, with a wider distance: the same area, searched again.
    let mut nearby = visitor_join("Area@Example.com", None, Some(true));
    nearby["search"]["location"] = json!({ "lat": 39.727, "lng": -104.95 });
    nearby["search"]["filters"] = json!({ "searchDistance": 9 });
    let again = app.join_waitlist(&nearby, None).await;
    assert_eq!(again.status, 201, "a visitor is answered the same either way");
    assert_eq!(again.body["message"], ON_THE_LIST);
    let rows = app.waitlist_rows().await;
    assert_eq!(rows.len(), 1, "one entry for one area: {rows:?}");
    let search: Value = sqlx::query_scalar("select search from waitlist_entries")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(search["filters"]["searchDistance"], 9, "the later search stands");

    // A signed-in member is told, and another area is another entry.
    let (_, token) = app.registered_member("area.member@example.com").await;
    let mut member_area = visitor_join("ignored@example.com", None, None);
    member_area["email"] = Value::Null;
    let joined = app.join_waitlist(&member_area, Some(&token)).await;
    assert_eq!((joined.status, joined.body["message"].as_str()), (201, Some(ADDED)));
    let twice = app.join_waitlist(&member_area, Some(&token)).await;
    assert_eq!(twice.status, 200, "{:?}", twice.body);
    assert_eq!(
        (twice.body["alreadyListed"].as_bool(), twice.body["message"].as_str()),
        (Some(true), Some(ALREADY))
    );
    let mut elsewhere = member_area.clone();
    elsewhere["search"]["location"] = json!({ "lat": 40.0, "lng": -105.27 });
    let other_area = app.join_waitlist(&elsewhere, Some(&token)).await;
    assert_eq!(other_area.status, 201, "{:?}", other_area.body);
    assert_eq!(app.waitlist_rows().await.len(), 3);
}

#[tokio::test]
async fn opening_a_clinic_emails_each_waiting_entry_once() {
    let app = TestApp::spawn(50).await;
    let other_location = seed::demo::DENVER_HIGHLANDS_LOCATION_ID;
    app.set_accepting(other_location, false).await;
    let (_, token) = app.registered_member("opened.member@example.com").await;
    for (body, token) in [
        (clinic_join(WAITLIST_LOCATION), Some(token.as_str())),
        (
            visitor_join("opened.visitor@example.com", Some(WAITLIST_LOCATION), Some(true)),
            None,
        ),
        (
            visitor_join("other.clinic@example.com", Some(other_location), Some(true)),
            None,
        ),
        (visitor_join("area.only@example.com", None, Some(true)), None),
    ] {
        let joined = app.join_waitlist(&body, token).await;
        assert_eq!(joined.status, 201, "{:?}", joined.body);
    }
    assert!(app.waitlist_emails().await.is_empty());

    app.set_accepting(WAITLIST_LOCATION, true).await;
    let emails = app.waitlist_emails().await;
    assert_eq!(
        emails,
        vec![
            ("opened.member@example.com".to_owned(), Some(WAITLIST_LOCATION)),
            ("opened.visitor@example.com".to_owned(), Some(WAITLIST_LOCATION)),
        ]
    );
    // The sender renders them with an absolute link to the clinic's profile (the development
    // mailbox shows what was sent).
    let link = format!(
        "{}/marketplace/provider/details/{}?location={WAITLIST_LOCATION}",
        app.address,
        seed::demo::DENVER_ORGANISATION_ID
    );
    let heading = format!(
        "<h2>{} is accepting new patients</h2>",
        seed::demo::DENVER_ORGANISATION_NAME
    );
    let mut page = String::new();
    for _ in 0..100 {
        page = app
            .get("/dev/mailbox")
            .await
            .body
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if page.matches(&heading).count() == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(page.matches(&heading).count(), 2, "{page}");
    // The notify-me entry for the area around it hears of it too (its own message).
    assert_eq!(
        page.matches("<h2>A clinic near Denver, CO 80206 is accepting new patients</h2>")
            .count(),
        1,
        "{page}"
    );
    assert!(
        page.contains(&format!("<a href=\"{}\">", link.replace('&', "&amp;"))),
        "{page}"
    );
    let notified: Vec<(Option<i64>, bool)> =
        sqlx::query_as("select location_id, notified_at is not null from waitlist_entries order by id")
            .fetch_all(&app.database.pool)
            .await
            .unwrap();
    assert_eq!(
        notified,
        vec![
            (Some(WAITLIST_LOCATION), true),
            (Some(WAITLIST_LOCATION), true),
            (Some(other_location), false),
            (None, false),
        ]
    );

    // Closing and opening again tells nobody twice; an update that leaves it open tells nobody.
    app.set_accepting(WAITLIST_LOCATION, true).await;
    app.set_accepting(WAITLIST_LOCATION, false).await;
    app.set_accepting(WAITLIST_LOCATION, true).await;
    sqlx::query("update locations set accepting_new_patients = true, phone = '303 555 0100' where id = $1")
        .bind(WAITLIST_LOCATION)
        .execute(&app.database.pool)
        .await
        .unwrap();
    assert_eq!(app.waitlist_emails().await.len(), 2);

    // A notified member may wait again for the next opening.
    app.set_accepting(WAITLIST_LOCATION, false).await;
    let rejoined = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some(&token)).await;
    assert_eq!(rejoined.status, 201, "{:?}", rejoined.body);
    assert_eq!(rejoined.body["alreadyListed"], false);
    sqlx::query("update locations set accepting_new_patients = true where id = $1")
        .bind(WAITLIST_LOCATION)
        .execute(&app.database.pool)
        .await
        .unwrap();
    let emails = app.waitlist_emails().await;
    assert_eq!(emails.len(), 3);
    assert_eq!(emails[2].0, "opened.member@example.com");
}

#[tokio::test]
async fn the_emails_roll_back_with_the_update_that_opened_the_clinic() {
    let app = TestApp::spawn(50).await;
    let joined = app
        .join_waitlist(
            &visitor_join("rolled.back@example.com", Some(WAITLIST_LOCATION), Some(true)),
            None,
        )
        .await;
    assert_eq!(joined.status, 201);
    let mut transaction = app.database.pool.begin().await.unwrap();
    sqlx::query("update locations set accepting_new_patients = true where id = $1")
        .bind(WAITLIST_LOCATION)
        .execute(&mut *transaction)
        .await
        .unwrap();
    transaction.rollback().await.unwrap();
    assert!(app.waitlist_emails().await.is_empty());
    assert!(!app.waitlist_rows().await[0].4);
}

#[tokio::test]
async fn a_join_racing_the_opening_of_its_clinic_is_still_told() {
    let app = TestApp::spawn(50).await;
    let mut opening = app.database.pool.begin().await.unwrap();
    sqlx::query("update locations set accepting_new_patients = true where id = $1")
        .bind(WAITLIST_LOCATION)
        .execute(&mut *opening)
        .await
        .unwrap();
    // The join waits for the opening to commit, then sees the clinic open.
    let body = visitor_join("racing@example.com", Some(WAITLIST_LOCATION), Some(true));
    let join = app.join_waitlist(&body, None);
    let commit = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        opening.commit().await.unwrap();
    };
    let (joined, ()) = tokio::join!(join, commit);
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    let emails = app.waitlist_emails().await;
    assert_eq!(emails.len(), 1);
    assert_eq!(emails[0].0, "racing@example.com");
}

#[tokio::test]
async fn joining_a_clinic_that_already_accepts_tells_the_member_at_once() {
    let app = TestApp::spawn(50).await;
    let joined = app
        .join_waitlist(
            &visitor_join(
                "already.open@example.com",
                Some(seed::demo::DENVER_LOCATION_ID),
                Some(true),
            ),
            None,
        )
        .await;
    assert_eq!(joined.status, 201, "{:?}", joined.body);
    let emails = app.waitlist_emails().await;
    assert_eq!(emails.len(), 1);
    assert_eq!(emails[0].0, "already.open@example.com");
    assert!(app.waitlist_rows().await[0].4);
}

#[tokio::test]
async fn removing_a_member_removes_their_waitlist_entries() {
    let app = TestApp::spawn(50).await;
    let (member_id, token) = app.registered_member("leaving@example.com").await;
    let joined = app.join_waitlist(&clinic_join(WAITLIST_LOCATION), Some(&token)).await;
    assert_eq!(joined.status, 201);
    sqlx::query("delete from members where id = $1")
        .bind(member_id)
        .execute(&app.database.pool)
        .await
        .unwrap();
    assert!(app.waitlist_rows().await.is_empty());
}
