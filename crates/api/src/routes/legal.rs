//! The legal pages' texts (legal/README.md), public: the SPA shows them at /terms, /privacy and
//! /cookies, and sign-up sends back the Terms of Use version it showed.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::extract::Path;
use crate::legal::Document;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/legal/{document}", get(legal_document))
}

async fn legal_document(State(state): State<AppState>, Path(name): Path<String>) -> ApiResult<axum::Json<Value>> {
    let document = Document::parse(&name)
        .ok_or_else(|| ApiError::NotFound(format!("No legal document named {name:?}: terms, privacy or cookies")))?;
    let document = state.legal.get(document);
    Ok(axum::Json(json!({
        "document": document.document.name(),
        "title": document.title,
        "version": document.version,
        "text": document.text,
    })))
}
