//! Fast JSON answers for large bodies.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::ApiError;

/// Serialises into one buffer reserved up front. Profiling the search endpoint under load
/// showed a third of its CPU in `axum::Json`'s small growing writes; a search answer is
/// 10-15 KB.
pub fn json<T: Serialize>(value: &T, size_hint: usize) -> Response {
    let mut body = Vec::with_capacity(size_hint);
    match serde_json::to_writer(&mut body, value) {
        Ok(()) => json_bytes(body),
        Err(error) => ApiError::Internal(anyhow::Error::new(error)).into_response(),
    }
}

/// An answer from JSON already written.
pub fn json_bytes(body: Vec<u8>) -> Response {
    let mut response = body.into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// An answer PostgreSQL wrote as JSON text.
pub fn json_text(document: String) -> Response {
    json_bytes(document.into_bytes())
}
