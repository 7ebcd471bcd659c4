//! Liveness (`/health`: the process answers), readiness (`/ready`: PostgreSQL answers and a
//! snapshot is loaded) and the OpenAPI document.

use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use crate::error::ApiError;
use crate::error_codes as codes;
use crate::state::AppState;

/// The OpenAPI document, kept by hand next to the routes and checked by tests.
pub const OPENAPI: &str = include_str!("../../openapi.json");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route("/ready", get(ready))
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

/// How long readiness waits for PostgreSQL.
const READY_DATABASE_TIMEOUT: Duration = Duration::from_secs(2);

/// 200 with the snapshot generation when the server can answer requests; 503 (JSON
/// `database_unavailable` or `unavailable`) while PostgreSQL is unreachable or no snapshot is
/// loaded. A load balancer takes the server out of rotation on it; `/health` stays liveness.
async fn ready(State(state): State<AppState>) -> Response {
    let reached = tokio::time::timeout(READY_DATABASE_TIMEOUT, sqlx::query("select 1").execute(&state.pool)).await;
    let database = match reached {
        Ok(Ok(_)) => true,
        Ok(Err(error)) => {
            tracing::warn!(%error, "readiness: the database does not answer");
            false
        }
        Err(_) => false,
    };
    if !database {
        return ApiError::known(codes::DATABASE_UNAVAILABLE)
            .with_details(json!({ "status": "unavailable", "database": false }))
            .into_response();
    }
    let Some(snapshot) = state.snapshots.load() else {
        return ApiError::with_message(codes::UNAVAILABLE, codes::UNAVAILABLE.text())
            .with_details(json!({ "status": "unavailable", "database": true }))
            .into_response();
    };
    axum::Json(json!({
        "status": "ready",
        "database": true,
        "generation": snapshot.generation,
        "locations": snapshot.location_count(),
    }))
    .into_response()
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI)
}
