//! Liveness and the OpenAPI document.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::json;

use crate::state::AppState;

/// The OpenAPI document, kept by hand next to the routes and checked by tests.
pub const OPENAPI: &str = include_str!("../../openapi.json");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route("/openapi.json", get(openapi))
}

async fn health(State(state): State<AppState>) -> impl IntoResponse {
    let snapshot = state.snapshots.load();
    axum::Json(json!({
        "status": "ok",
        "generation": snapshot.as_ref().map(|s| s.generation),
        "locations": snapshot.as_ref().map(|s| s.location_count()),
    }))
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI)
}
