//! Passwords: validating a link to the set-password page, setting a password with it,
//! forgotten-password requests, the policy check, and a signed-in change.

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use domain::accounts::{NewPassword, ValidationError};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::PgConnection;
use store::sessions::{EndReason, Ending};
use store::tokens::Purpose;

use crate::access::{Caller, ClientIp, MaybeCaller, own_account, signed_in_member};
use crate::auth::LinkToken;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Query, link_token};
use crate::forms::{EmailBody, EmailQuery, TokenBody, parse_email, parse_new_password};
use crate::limits::Bucket;
use crate::services::account_notices;
use crate::services::accounts::{
    CHECK_YOUR_EMAIL, PASSWORD_SAVED, check_current_password, current_password_field, request_link,
};
use crate::sessions::SessionRef;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/validate/token", post(validate_token))
        .route("/member/app/request/password/reset", post(request_password_reset))
        .route("/member/app/reset/password", get(reset_password_by_query))
        .route("/member/app/password/reset", post(password_reset))
        .route("/member/app/set/password", post(set_password))
        .route("/member/app/password/validate", post(password_validate))
        .route("/member/app/password/change", post(password_change))
}

/// Validates a verification or reset link (once) and exchanges it for a token to submit the
/// new password with (1 hour). Opening a verification link confirms the email. 401 when the
/// link is unknown, used, revoked or expired.
async fn validate_token(State(state): State<AppState>, Json(body): Json<TokenBody>) -> ApiResult<axum::Json<Value>> {
    let hash = LinkToken::hash_of(body.token.as_deref().unwrap_or_default())
        .ok_or_else(|| ApiError::known(codes::LINK_NOT_VALID))?;
    let mut transaction = state.pool.begin().await?;
    let token = store::tokens::consume(&mut transaction, &hash, &[Purpose::VerifyEmail, Purpose::PasswordReset])
        .await?
        .ok_or_else(|| ApiError::known(codes::LINK_NOT_VALID))?;
    let member = store::members::find(&state.pool, token.member_id)
        .await?
        .ok_or_else(|| ApiError::known(codes::LINK_NOT_VALID))?;
    if token.purpose == Purpose::VerifyEmail {
        store::members::mark_email_verified(&mut transaction, member.id).await?;
    }
    let exchanged = LinkToken::generate()?;
    store::tokens::issue(
        &mut transaction,
        member.id,
        Purpose::SetPassword,
        &exchanged.hash,
        crate::mail::lifetime(Purpose::SetPassword),
        member.email.as_deref().unwrap_or_default(),
        None,
    )
    .await?;
    transaction.commit().await?;
    Ok(axum::Json(json!({
        "valid": true,
        "newToken": exchanged.plain,
        "password": member.password_hash.is_some(),
        "email": member.email,
        "purpose": token.purpose.as_str(),
        "emailVerified": true,
    })))
}

/// Sets a password with a one-time token (the exchanged one, or a reset or verification link
/// itself). The token is spent only when the password is accepted; every other outstanding
/// link of the member stops working (a change of email too), and so does every session: a reset
/// is how an owner takes an account back.
async fn set_password_with_token(state: &AppState, token_text: &str, password: &NewPassword) -> ApiResult<()> {
    const PURPOSES: [Purpose; 3] = [Purpose::SetPassword, Purpose::PasswordReset, Purpose::VerifyEmail];
    let forbidden = || ApiError::known(codes::LINK_EXPIRED);
    let hash = LinkToken::hash_of(token_text).ok_or_else(forbidden)?;
    let record = store::tokens::find(&state.pool, &hash).await?.ok_or_else(forbidden)?;
    let usable = PURPOSES.contains(&record.purpose)
        && record.used_at.is_none()
        && record.revoked_at.is_none()
        && record.expires_at > chrono::Utc::now();
    if !usable {
        return Err(forbidden());
    }
    let member = store::members::find(&state.pool, record.member_id)
        .await?
        .ok_or_else(forbidden)?;
    if let Some(current) = member.password_hash.as_deref()
        && state.passwords.verify(password.expose(), Some(current)).await?
    {
        return Err(ApiError::invalid_field("password", ValidationError::PasswordReused));
    }
    let new_hash = state.passwords.hash(password).await?;
    let mut transaction = state.pool.begin().await?;
    store::tokens::consume(&mut transaction, &hash, &PURPOSES)
        .await?
        .ok_or_else(forbidden)?;
    let ended = save_password(
        &mut transaction,
        member.id,
        &new_hash,
        &[
            Purpose::MagicLink,
            Purpose::PasswordReset,
            Purpose::SetPassword,
            Purpose::VerifyEmail,
            Purpose::ChangeEmail,
        ],
        None,
    )
    .await?;
    if member.password_hash.is_some() {
        // A reset, not a first password: the owner hears of it.
        account_notices::password_changed(&mut transaction, state, &member).await?;
    }
    transaction.commit().await?;
    state.mailer.wake();
    state.sessions.forget(&ended, EndReason::PasswordChanged);
    tracing::info!(
        member = member.id,
        sessions_ended = ended.len(),
        "password set with a link"
    );
    Ok(())
}

/// Stores a new password hash on the caller's transaction, revokes the member's outstanding
/// links of `revoked` purposes and ends every session but `kept` (a sign-in session): whoever
/// held a link or a token from before the change is shut out. Answers the sessions ended, for
/// [`crate::sessions::Sessions::forget`] once the transaction commits.
async fn save_password(
    transaction: &mut PgConnection,
    member_id: i64,
    hash: &str,
    revoked: &[Purpose],
    kept: Option<i64>,
) -> ApiResult<Vec<i64>> {
    store::members::set_password(&mut *transaction, member_id, hash).await?;
    store::tokens::revoke_all(&mut *transaction, member_id, revoked).await?;
    Ok(store::sessions::end(
        transaction,
        Ending::AllOf {
            member: member_id,
            except: kept,
        },
        EndReason::PasswordChanged,
    )
    .await?)
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordBody {
    password: Option<String>,
    confirm_password: Option<String>,
    token: Option<String>,
}

/// Sets the password with a link's token; without a token, a signed-in member who has no
/// password yet sets their first one (account settings), which ends their other sessions.
async fn password_reset(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Json(body): Json<PasswordBody>,
) -> ApiResult<axum::Json<Value>> {
    let password = parse_new_password(body.password.as_deref(), body.confirm_password.as_deref())?;
    match body.token.as_deref().map(str::trim).filter(|token| !token.is_empty()) {
        Some(token) => set_password_with_token(&state, token, &password).await?,
        None => {
            let caller = caller.ok_or_else(|| ApiError::known(codes::LINK_EXPIRED))?;
            let member = signed_in_member(&state, own_account(caller)?).await?;
            if member.password_hash.is_some() {
                return Err(ApiError::known(codes::PASSWORD_ALREADY_SET));
            }
            let hash = state.passwords.hash(&password).await?;
            store::members::replace_password(&state.pool, member.id, &hash).await?;
            end_other_sessions(&state, member.id, caller.session).await?;
        }
    }
    Ok(axum::Json(json!({ "message": PASSWORD_SAVED })))
}

/// Sets the password with the link's token in the `x-access-token` header.
async fn set_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(body): Json<PasswordBody>,
) -> ApiResult<axum::Json<Value>> {
    let password = parse_new_password(body.password.as_deref(), body.confirm_password.as_deref())?;
    let token = link_token(&headers, body.token.as_deref());
    set_password_with_token(&state, &token, &password).await?;
    Ok(axum::Json(json!({ "message": PASSWORD_SAVED })))
}

#[derive(Default, Deserialize)]
pub struct ValidatePasswordBody {
    password: Option<String>,
}

/// Checks a password against the policy without storing anything.
async fn password_validate(Json(body): Json<ValidatePasswordBody>) -> axum::Json<Value> {
    axum::Json(match NewPassword::parse(body.password.as_deref().unwrap_or_default()) {
        Ok(_) => json!({ "valid": true, "message": "" }),
        Err(error) => json!({ "valid": false, "message": error.to_string(), "code": error.code() }),
    })
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordBody {
    password: Option<String>,
    current_password: Option<String>,
    confirm_password: Option<String>,
}

/// Ends every session of the member but `current` (and the sessions switched from them): a
/// password change is how an owner shuts out whoever else holds a token.
async fn end_other_sessions(state: &AppState, member_id: i64, current: SessionRef) -> ApiResult<()> {
    let ended = state
        .sessions
        .end(
            Ending::AllOf {
                member: member_id,
                except: Some(current.sign_in),
            },
            EndReason::PasswordChanged,
        )
        .await?;
    tracing::info!(member = member_id, sessions_ended = ended.len(), "password changed");
    Ok(())
}

/// Changes the signed-in member's password, ending their other sessions and outstanding links.
/// Errors repeat their text in `msg`.
async fn password_change(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<ChangePasswordBody>,
) -> ApiResult<axum::Json<Value>> {
    let changed = async { change_password(&state, own_account(caller)?, body).await };
    changed.await.map_err(ApiError::with_msg)
}

async fn change_password(state: &AppState, caller: Caller, body: ChangePasswordBody) -> ApiResult<axum::Json<Value>> {
    let current = current_password_field(body.current_password)?;
    let password = parse_new_password(body.password.as_deref(), body.confirm_password.as_deref())?;
    let member = signed_in_member(state, caller).await?;
    check_current_password(state, &member, &current).await?;
    if password.expose() == current {
        return Err(ApiError::invalid_field("password", ValidationError::PasswordReused));
    }
    let hash = state.passwords.hash(&password).await?;
    let mut transaction = state.pool.begin().await?;
    let ended = save_password(
        &mut transaction,
        member.id,
        &hash,
        &[
            Purpose::MagicLink,
            Purpose::PasswordReset,
            Purpose::SetPassword,
            Purpose::ChangeEmail,
        ],
        Some(caller.session.sign_in),
    )
    .await?;
    account_notices::password_changed(&mut transaction, state, &member).await?;
    transaction.commit().await?;
    state.mailer.wake();
    state.sessions.forget(&ended, EndReason::PasswordChanged);
    tracing::info!(member = member.id, sessions_ended = ended.len(), "password changed");
    Ok(axum::Json(json!({ "message": PASSWORD_SAVED, "msg": PASSWORD_SAVED })))
}

/// Forgot password: emails a reset link (1 hour) when the account exists; the same answer,
/// after the same work, either way (see `request_link`).
async fn request_password_reset(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    reset_request(&state, &client, body.email.as_deref()).await
}

/// The same as `request/password/reset`, with the email in the query (the confirm-email
/// screen).
async fn reset_password_by_query(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Query(query): Query<EmailQuery>,
) -> ApiResult<axum::Json<Value>> {
    reset_request(&state, &client, query.email.as_deref()).await
}

async fn reset_request(state: &AppState, client: &str, email: Option<&str>) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(email)?;
    state.limits.hit(&state.pool, Bucket::Client(client)).await?;
    request_link(state, &email, Purpose::PasswordReset).await?;
    Ok(axum::Json(json!({ "message": CHECK_YOUR_EMAIL })))
}
