//! The outside geocoder: called over HTTP, cached, and replaced by the gazetteer when it fails.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use api::config::Secret;
use api::geocoding::Geocoder;
use axum::extract::Query;
use axum::response::IntoResponse;
use axum::routing::get;
use domain::LatLng;
use gazetteer::Gazetteer;
use serde_json::json;

/// A loopback stand-in for a Google-compatible geocoding API that counts its requests.
async fn outside_geocoder(fail: bool) -> (String, Arc<AtomicUsize>) {
    let requests = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&requests);
    let router = axum::Router::new().route(
        "/geocode/json",
        get(move |Query(query): Query<std::collections::HashMap<String, String>>| {
            let counter = Arc::clone(&counter);
            async move {
                counter.fetch_add(1, Ordering::SeqCst);
                assert_eq!(query.get("key").map(String::as_str), Some("test-key"));
                if fail {
                    return (axum::http::StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({}))).into_response();
                }
                let answer = json!({
                    "status": "OK",
                    "results": [{
                        "formatted_address": "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA",
                        "geometry": { "location": { "lat": 37.4224, "lng": -122.0842 } },
                        "address_components": [
                            { "short_name": "94043", "types": ["postal_code"] },
                            { "short_name": "CA", "types": ["administrative_area_level_1", "political"] }
                        ]
                    }]
                });
                (axum::http::StatusCode::OK, axum::Json(answer)).into_response()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{address}/geocode/json"), requests)
}

#[tokio::test]
async fn a_configured_geocoder_answers_once_per_question() {
    let (url, requests) = outside_geocoder(false).await;
    let geocoder = Geocoder::new(
        Arc::new(Gazetteer::embedded()),
        Some(url),
        Some(Secret("test-key".into())),
    );
    let first = geocoder.geocode("1600 Amphitheatre Parkway").await.unwrap();
    assert_eq!(first.zip.as_deref(), Some("94043"));
    assert_eq!(first.state, "CA");
    let again = geocoder.geocode("  1600 amphitheatre parkway ").await.unwrap();
    assert_eq!(again, first);
    assert_eq!(
        requests.load(Ordering::SeqCst),
        1,
        "the second question is answered from the cache"
    );
    geocoder
        .reverse(LatLng {
            lat: 37.4224,
            lng: -122.0842,
        })
        .await
        .unwrap();
    assert_eq!(requests.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_failing_geocoder_falls_back_to_the_gazetteer() {
    let (url, requests) = outside_geocoder(true).await;
    let geocoder = Geocoder::new(
        Arc::new(Gazetteer::embedded()),
        Some(url),
        Some(Secret("test-key".into())),
    );
    let answer = geocoder.geocode("Denver, CO 80202").await.unwrap();
    assert_eq!(answer.zip.as_deref(), Some("80202"));
    geocoder.geocode("Denver, CO 80202").await.unwrap();
    assert_eq!(requests.load(Ordering::SeqCst), 2, "failures are not cached");
}
