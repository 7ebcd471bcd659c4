//! Publishing a new generation and editing the catalogue while requests are served.

use std::time::Duration;

use serde_json::json;

use crate::helpers::TestApp;

#[tokio::test]
async fn a_reindex_under_load_fails_no_request_and_is_picked_up() {
    let app = TestApp::spawn(600).await;
    let before = app.get("/health").await.body["generation"].as_i64().unwrap();
    let load = {
        let client = app.client.clone();
        let address = app.address.clone();
        tokio::spawn(async move {
            let mut statuses = Vec::new();
            for round in 0..150 {
                let zip = if round % 2 == 0 { "80202" } else { "10001" };
                let response = client
                    .post(format!("{address}/member/app/market/search?page=1"))
                    .json(&json!({ "search": { "filters": { "zipCode": zip } } }))
                    .send()
                    .await
                    .unwrap();
                statuses.push(response.status().as_u16());
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            statuses
        })
    };
    let index_dir = app.local_dir.join("index");
    snapshots::rebuild(&app.database.pool, &index_dir, |_, _, _| {})
        .await
        .unwrap();
    let statuses = load.await.unwrap();
    assert!(statuses.iter().all(|status| *status == 200), "{statuses:?}");
    let mut served = before;
    for _ in 0..50 {
        served = app.get("/health").await.body["generation"].as_i64().unwrap();
        if served > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(served > before, "the server swapped in the new generation");
}

#[tokio::test]
async fn a_clinic_that_stops_taking_new_patients_disappears_from_the_accepting_filter() {
    let app = TestApp::spawn(200).await;
    let accepting = || {
        app.search(
            "page=1",
            json!({ "zipCode": "80202", "newPatients": true, "searchDistance": 1 }),
        )
    };
    let first = accepting().await;
    assert_eq!(first.body["clinics"][0]["locationId"], seed::demo::DENVER_LOCATION_ID);
    store::catalogue::set_accepting_new_patients(&app.database.pool, seed::demo::DENVER_LOCATION_ID, false)
        .await
        .unwrap();
    let mut gone = false;
    for _ in 0..50 {
        let answer = accepting().await;
        if answer.body["clinics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["locationId"] != seed::demo::DENVER_LOCATION_ID)
        {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "the change reached the served snapshot through NOTIFY");
    let generation = app.get("/health").await.body["generation"].clone();
    assert_eq!(generation, first_generation(&app).await, "no rebuild happened");
}

async fn first_generation(app: &TestApp) -> serde_json::Value {
    let row: i64 = sqlx::query_scalar("select max(generation) from index_generations")
        .fetch_one(&app.database.pool)
        .await
        .unwrap();
    json!(row)
}
