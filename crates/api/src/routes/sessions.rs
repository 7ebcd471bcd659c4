//! Where an account is signed in: signing out (ending the session on the server, on every
//! server), the list of the account's sessions, and ending one or all the others. Member and
//! provider logins alike; under a token switched to a family member, the calls act on the
//! subscriber's own sessions (the person at the keyboard).

use axum::Router;
use axum::extract::State;
use axum::routing::{delete, get, post};
use serde_json::{Value, json};
use store::sessions::{EndReason, Ending};

use crate::access::Principal;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Path;
use crate::sessions::in_words;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/logout", post(logout))
        .route("/member/app/sessions", get(list).delete(end_others))
        .route("/member/app/sessions/{id}", delete(end_one))
}

/// Signs out: ends the token's sign-in session (and a session switched from it) for every
/// server.
async fn logout(State(state): State<AppState>, principal: Principal) -> ApiResult<axum::Json<Value>> {
    let session = principal.session();
    state
        .sessions
        .end(Ending::One(session.sign_in), EndReason::SignedOut)
        .await?;
    Ok(axum::Json(json!({ "message": "You are signed out." })))
}

/// The account's open sessions, most recently active first, the caller's own marked
/// `current`; with the limits they end at.
async fn list(State(state): State<AppState>, principal: Principal) -> ApiResult<axum::Json<Value>> {
    let current = principal.session().sign_in;
    let now = state.sessions.now();
    let rows = store::sessions::open_of_member(&state.pool, principal.account_id(), now).await?;
    let now_seconds = now.timestamp();
    let mut sessions: Vec<(i64, Value)> = rows
        .iter()
        .filter_map(|row| {
            // This server may know of activity not yet written (it writes every half minute).
            let last_active = state
                .sessions
                .last_active(row.id)
                .unwrap_or_default()
                .max(row.last_active_at.timestamp());
            let is_current = row.id == current;
            if !is_current && state.sessions.is_idle(last_active, now_seconds) {
                return None;
            }
            let last_active_at = chrono::DateTime::from_timestamp(last_active, 0).unwrap_or(row.last_active_at);
            Some((
                last_active,
                json!({
                    "id": row.id,
                    "current": is_current,
                    "device": row.device,
                    "network": row.network,
                    "createdAt": row.created_at,
                    "lastActiveAt": last_active_at,
                    "expiresAt": row.expires_at,
                }),
            ))
        })
        .collect();
    sessions.sort_by_key(|(last_active, session)| (!session["current"].as_bool().unwrap_or(false), -last_active));
    let policy = state.sessions.policy();
    Ok(axum::Json(json!({
        "sessions": sessions.into_iter().map(|(_, session)| session).collect::<Vec<_>>(),
        "idleLimit": in_words(policy.idle),
        "absoluteLimit": in_words(policy.absolute),
    })))
}

/// Ends one of the account's sessions (the caller's own signs it out). 404 when it is not an
/// open session of this account.
async fn end_one(
    State(state): State<AppState>,
    principal: Principal,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<Value>> {
    let reason = if id == principal.session().sign_in {
        EndReason::SignedOut
    } else {
        EndReason::EndedElsewhere
    };
    let ended = state
        .sessions
        .end(
            Ending::OneOf {
                member: principal.account_id(),
                session: id,
            },
            reason,
        )
        .await?;
    if ended.is_empty() {
        return Err(ApiError::known(codes::SESSION_NOT_FOUND));
    }
    Ok(axum::Json(json!({ "message": "That session is signed out." })))
}

/// "Sign out of all other devices": ends every session of the account but the caller's.
async fn end_others(State(state): State<AppState>, principal: Principal) -> ApiResult<axum::Json<Value>> {
    state
        .sessions
        .end(
            Ending::AllOf {
                member: principal.account_id(),
                except: Some(principal.session().sign_in),
            },
            EndReason::EndedElsewhere,
        )
        .await?;
    Ok(axum::Json(json!({ "message": "Every other session is signed out." })))
}
