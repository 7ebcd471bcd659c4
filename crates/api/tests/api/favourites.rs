//! Favourites: marking and unmarking each kind of item, and the flags on profiles.

use api::error_codes as codes;
use serde_json::{Value, json};

use crate::helpers::{Answer, TestApp, assert_error};

const MEMBER_FAVOURITE: &str = "/member/app/market/favorite";
const PROVIDER_FAVOURITE: &str = "/dpcproviders/market/favorite";

impl TestApp {
    pub async fn favourite(&self, entity: &str, id: i64, favourite: bool, token: Option<&str>) -> Answer {
        self.post_as(
            MEMBER_FAVOURITE,
            &json!({ "entity": entity, entity: id, "favorite": favourite }),
            token,
        )
        .await
    }

    /// `(entity, entity_id)` of every stored favourite, in key order.
    async fn favourite_rows(&self) -> Vec<(String, i64)> {
        sqlx::query_as("select entity, entity_id from member_favorites order by entity, entity_id")
            .fetch_all(&self.database.pool)
            .await
            .unwrap()
    }

    /// The first vendor and the first solution of the catalogue.
    async fn vendor_and_solution(&self) -> (i64, i64) {
        sqlx::query_as("select (select min(id) from vendors), (select min(id) from solutions)")
            .fetch_one(&self.database.pool)
            .await
            .unwrap()
    }
}

const CLINIC: i64 = seed::demo::DENVER_LOCATION_ID;
const ORGANISATION: i64 = seed::demo::DENVER_ORGANISATION_ID;

#[tokio::test]
async fn each_kind_of_item_can_be_marked_and_unmarked() {
    let app = TestApp::spawn(50).await;
    let (member_id, token) = app.registered_member("hearts@example.com").await;
    let (vendor, solution) = app.vendor_and_solution().await;
    for (entity, id) in [
        ("location", CLINIC),
        ("provider", 1),
        ("vendor", vendor),
        ("solution", solution),
    ] {
        let marked = app.favourite(entity, id, true, Some(&token)).await;
        assert_eq!(marked.status, 200, "{entity}: {:?}", marked.body);
        assert_eq!(marked.body, json!({ "entity": entity, "id": id, "favorite": true }));
    }
    let mut expected = vec![
        ("location".to_owned(), CLINIC),
        ("provider".to_owned(), 1),
        ("solution".to_owned(), solution),
        ("vendor".to_owned(), vendor),
    ];
    assert_eq!(app.favourite_rows().await, expected);
    assert_eq!(
        store::favourites::favourite_ids(&app.database.pool, member_id)
            .await
            .unwrap(),
        (vec![CLINIC], vec![1])
    );

    let unmarked = app.favourite("provider", 1, false, Some(&token)).await;
    assert_eq!(unmarked.status, 200);
    assert_eq!(
        unmarked.body,
        json!({ "entity": "provider", "id": 1, "favorite": false })
    );
    expected.remove(1);
    assert_eq!(app.favourite_rows().await, expected);
    assert_eq!(
        store::favourites::favourite_ids(&app.database.pool, member_id)
            .await
            .unwrap(),
        (vec![CLINIC], vec![])
    );
}

#[tokio::test]
async fn marking_twice_or_unmarking_twice_changes_nothing() {
    let app = TestApp::spawn(50).await;
    let (_, token) = app.registered_member("idempotent@example.com").await;
    for _ in 0..2 {
        let marked = app.favourite("location", CLINIC, true, Some(&token)).await;
        assert_eq!(marked.status, 200);
    }
    assert_eq!(app.favourite_rows().await.len(), 1);
    for _ in 0..2 {
        let unmarked = app.favourite("location", CLINIC, false, Some(&token)).await;
        assert_eq!(unmarked.status, 200);
        assert_eq!(unmarked.body["favorite"], false);
    }
    assert!(app.favourite_rows().await.is_empty());
    // Ids may come as digits in a string, as the SPA's route params are.
    let as_text = app
        .post_as(
            MEMBER_FAVOURITE,
            &json!({ "entity": "location", "location": CLINIC.to_string(), "favorite": true }),
            Some(&token),
        )
        .await;
    assert_eq!(as_text.status, 200, "{:?}", as_text.body);
    assert_eq!(as_text.body["id"], CLINIC);
}

#[tokio::test]
async fn unknown_items_bad_entities_and_bad_bodies_are_refused() {
    let app = TestApp::spawn(50).await;
    let (_, token) = app.registered_member("refused@example.com").await;
    for entity in ["location", "provider"] {
        let unknown = app.favourite(entity, 424_242, true, Some(&token)).await;
        assert_error(&unknown, 404, "not_found");
        assert_eq!(unknown.body["message"], codes::PROVIDER_NOT_FOUND.text());
    }
    assert_error(
        &app.favourite("vendor", 424_242, true, Some(&token)).await,
        404,
        "not_found",
    );
    assert_error(
        &app.favourite("solution", 424_242, false, Some(&token)).await,
        404,
        "not_found",
    );
    let bad_entity = app.favourite("clinic", 1, true, Some(&token)).await;
    assert_error(&bad_entity, 400, "invalid_entity");
    assert_eq!(bad_entity.body["field"], "entity");
    for (body, code, field) in [
        (json!({ "location": 1, "favorite": true }), "required", "entity"),
        (json!({ "entity": 7, "favorite": true }), "invalid_entity", "entity"),
        (
            json!({ "entity": "location", "favorite": true }),
            "required",
            "location",
        ),
        (
            json!({ "entity": "location", "provider": 1, "favorite": true }),
            "required",
            "location",
        ),
        (
            json!({ "entity": "location", "location": "one", "favorite": true }),
            "invalid_id",
            "location",
        ),
        (json!({ "entity": "location", "location": 1 }), "required", "favorite"),
        (
            json!({ "entity": "location", "location": 1, "favorite": "yes" }),
            "invalid_field",
            "favorite",
        ),
    ] {
        let refused = app.post_as(MEMBER_FAVOURITE, &body, Some(&token)).await;
        assert_error(&refused, 400, code);
        assert_eq!(refused.body["field"], field, "{body}");
    }
    let not_an_object = app.post_as(MEMBER_FAVOURITE, &json!([1, 2]), Some(&token)).await;
    assert_error(&not_an_object, 400, "invalid_body");
    assert!(app.favourite_rows().await.is_empty());
}

#[tokio::test]
async fn favourites_need_a_signed_in_member() {
    let app = TestApp::spawn(50).await;
    let (vendor, _) = app.vendor_and_solution().await;
    assert_error(
        &app.favourite("location", CLINIC, true, None).await,
        401,
        "unauthorized",
    );
    assert_error(
        &app.favourite("location", CLINIC, true, Some("forged")).await,
        401,
        "unauthorized",
    );
    let provider_side = app
        .post_as(
            PROVIDER_FAVOURITE,
            &json!({ "entity": "vendor", "vendor": vendor, "favorite": true }),
            None,
        )
        .await;
    assert_error(&provider_side, 401, "unauthorized");
    assert!(app.favourite_rows().await.is_empty());
}

#[tokio::test]
async fn the_provider_side_call_takes_vendors_and_solutions_only() {
    let app = TestApp::spawn(50).await;
    let (_, member) = app.registered_member("member.side@example.com").await;
    let (_, token) = app
        .provider_account(seed::demo::DENVER_ORGANISATION_ID, "provider.side@clinic.example")
        .await;
    let (vendor, _) = app.vendor_and_solution().await;
    let as_member = app
        .post_as(
            PROVIDER_FAVOURITE,
            &json!({ "entity": "vendor", "vendor": vendor, "favorite": true }),
            Some(&member),
        )
        .await;
    assert_error(&as_member, 403, "provider_only");
    let (vendor, solution) = app.vendor_and_solution().await;
    for (entity, id) in [("vendor", vendor), ("solution", solution)] {
        let marked = app
            .post_as(
                PROVIDER_FAVOURITE,
                &json!({ "entity": entity, entity: id, "favorite": true }),
                Some(&token),
            )
            .await;
        assert_eq!(marked.status, 200, "{:?}", marked.body);
        assert_eq!(marked.body, json!({ "entity": entity, "id": id, "favorite": true }));
    }
    let clinic = app
        .post_as(
            PROVIDER_FAVOURITE,
            &json!({ "entity": "location", "location": CLINIC, "favorite": true }),
            Some(&token),
        )
        .await;
    assert_error(&clinic, 400, "invalid_entity");
    assert_error(
        &app.post_as(
            PROVIDER_FAVOURITE,
            &json!({ "entity": "vendor", "vendor": 424_242, "favorite": true }),
            Some(&token),
        )
        .await,
        404,
        "not_found",
    );
    assert_eq!(app.favourite_rows().await.len(), 2);
}

#[tokio::test]
async fn profiles_carry_the_signed_in_members_favourite_flag() {
    let app = TestApp::spawn(50).await;
    let (_, token) = app.registered_member("profile.flags@example.com").await;
    let (_, other) = app.registered_member("someone.else@example.com").await;
    let (vendor, solution) = app.vendor_and_solution().await;
    let clinician: i64 = sqlx::query_scalar("select min(clinician_id) from clinician_locations where location_id = $1")
        .bind(CLINIC)
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    let profiles = [
        (
            "location",
            CLINIC,
            format!("/member/app/market/provider/{ORGANISATION}?locationId={CLINIC}"),
        ),
        ("provider", clinician, format!("/member/app/market/doctor/{clinician}")),
        ("vendor", vendor, format!("/dpcproviders/market/vendor/{vendor}")),
        (
            "solution",
            solution,
            format!("/dpcproviders/market/solution/{solution}"),
        ),
    ];
    let flags = |answer: &Answer| -> Value {
        assert_eq!(answer.status, 200, "{:?}", answer.body);
        answer.body["favorite"].clone()
    };
    for (_, _, path) in &profiles {
        assert_eq!(flags(&app.get_as(path, Some(&token)).await), false, "{path}");
    }
    for (entity, id, _) in &profiles {
        assert_eq!(app.favourite(entity, *id, true, Some(&token)).await.status, 200);
    }
    for (_, _, path) in &profiles {
        assert_eq!(flags(&app.get_as(path, Some(&token)).await), true, "{path}");
        assert_eq!(flags(&app.get_as(path, None).await), false, "{path} signed out");
        assert_eq!(
            flags(&app.get_as(path, Some(&other)).await),
            false,
            "{path} for another member"
        );
    }
    // The clinic's heart is the location's: another location of the organisation is not marked.
    let other_location = app
        .get_as(
            &format!(
                "/member/app/market/provider/{ORGANISATION}?locationId={}",
                seed::demo::DENVER_HIGHLANDS_LOCATION_ID
            ),
            Some(&token),
        )
        .await;
    assert_eq!(flags(&other_location), false);
    assert_error(
        &app.get_as(&format!("/dpcproviders/market/vendor/{vendor}"), Some("forged"))
            .await,
        401,
        "unauthorized",
    );
    for (entity, id, _) in &profiles {
        assert_eq!(app.favourite(entity, *id, false, Some(&token)).await.status, 200);
    }
    for (_, _, path) in &profiles {
        assert_eq!(flags(&app.get_as(path, Some(&token)).await), false, "{path}");
    }
}

#[tokio::test]
async fn removing_a_member_removes_their_favourites() {
    let app = TestApp::spawn(50).await;
    let (member_id, token) = app.registered_member("gone@example.com").await;
    assert_eq!(app.favourite("location", CLINIC, true, Some(&token)).await.status, 200);
    sqlx::query("delete from members where id = $1")
        .bind(member_id)
        .execute(&app.database.pool)
        .await
        .unwrap();
    assert!(app.favourite_rows().await.is_empty());
}
