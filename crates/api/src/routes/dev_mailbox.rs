//! The development mailbox: the messages the server would have sent, with clickable links,
//! when it is asked for (`NEARCARE_DEV_MAILBOX`) on a loopback server without SMTP (see
//! `app::mail_delivery`). Elsewhere a 404.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

use crate::error::ApiError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/dev/mailbox", get(mailbox))
}

async fn mailbox(State(state): State<AppState>) -> Result<Response, ApiError> {
    if !state.mailer.serves_mailbox() {
        return Err(ApiError::NotFound("No route for /dev/mailbox".into()));
    }
    let page = state
        .mailer
        .mailbox_page(&state.pool)
        .await
        .map_err(ApiError::Internal)?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)).into_response())
}
