//! The login email: verification links (resending, replacing an expired one, checking an
//! account's state) and changing the login email through a confirmation link. Link requests
//! answer the same whether or not the account exists.

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use domain::accounts::Email;
use serde::Deserialize;
use serde_json::{Value, json};
use store::StoreError;
use store::tokens::Purpose;

use crate::access::{Caller, ClientIp, own_account, signed_in_member};
use crate::auth::LinkToken;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Query, link_token};
use crate::forms::{EmailQuery, TokenBody, parse_email};
use crate::limits::Bucket;
use crate::services::account_notices;
use crate::services::accounts::{
    ACCOUNT_VERIFIED, CHECK_YOUR_EMAIL, check_current_password, current_password_field, request_link, verification_sent,
};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/change/email", post(change_email))
        .route("/member/app/confirm/account", get(confirm_account))
        .route("/member/app/send/verification", get(send_verification))
        .route("/member/app/request/verification", post(request_verification))
        .route("/member/app/verify", get(verify))
}

/// Resends the verification email ('No member found' for an unknown email, as the spec's
/// /verify screen expects).
async fn send_verification(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Query(query): Query<EmailQuery>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(query.email.as_deref())?;
    state.limits.hit(&state.pool, Bucket::Client(&client)).await?;
    if store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_none()
    {
        return Err(ApiError::known(codes::NO_MEMBER));
    }
    request_link(&state, &email, Purpose::VerifyEmail).await?;
    Ok(axum::Json(json!({ "message": verification_sent(email.as_str()) })))
}

/// A new link in place of an expired or used one (the expired page's "Send new link"): a
/// reset link for a reset token, else a verification link. The same answer whatever the token.
async fn request_verification(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<TokenBody>,
) -> ApiResult<axum::Json<Value>> {
    state.limits.hit(&state.pool, Bucket::Client(&client)).await?;
    let hash = LinkToken::hash_of(body.token.as_deref().unwrap_or_default());
    let record = match hash {
        Some(hash) => store::tokens::find(&state.pool, &hash).await?,
        None => None,
    };
    let member = match record.as_ref() {
        Some(record) => store::members::find(&state.pool, record.member_id).await?,
        None => None,
    };
    if let (Some(record), Some(member)) = (record, member)
        && let Some(email) = member.email.as_deref().and_then(|email| Email::parse(email).ok())
    {
        let purpose = match record.purpose {
            Purpose::PasswordReset | Purpose::SetPassword => Purpose::PasswordReset,
            _ => Purpose::VerifyEmail,
        };
        request_link(&state, &email, purpose).await?;
    }
    Ok(axum::Json(json!({ "message": CHECK_YOUR_EMAIL })))
}

/// Whether an account exists for an email and whether it is verified (the /verify screen).
async fn verify(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Query(query): Query<EmailQuery>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(query.email.as_deref())?;
    state.limits.hit(&state.pool, Bucket::Lookup(&client)).await?;
    let member = store::members::find_by_email(&state.pool, email.as_str()).await?;
    Ok(axum::Json(json!({
        "exist": member.is_some(),
        "verified": member.as_ref().is_some_and(|member| member.email_verified_at.is_some()),
    })))
}

/// The change-of-email form: the new address and the current password.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeEmailBody {
    email: Option<String>,
    current_password: Option<String>,
}

/// Sends a confirmation link to a new login email; the login changes when it is opened. The
/// current password is asked first: a token alone (a stolen session) must not be enough to move
/// the account to another address.
async fn change_email(
    State(state): State<AppState>,
    caller: Caller,
    ClientIp(client): ClientIp,
    Json(body): Json<ChangeEmailBody>,
) -> ApiResult<axum::Json<Value>> {
    let caller = own_account(caller)?;
    let email = parse_email(body.email.as_deref())?;
    let current = current_password_field(body.current_password)?;
    let member = signed_in_member(&state, caller).await?;
    if member.password_hash.is_none() {
        return Err(ApiError::known(codes::PASSWORD_NOT_SET).with_details(json!({ "field": "currentPassword" })));
    }
    check_current_password(&state, &member, &current).await?;
    if member.email.as_deref() == Some(email.as_str()) {
        return Err(ApiError::known(codes::SAME_EMAIL).with_details(json!({ "field": "email" })));
    }
    state.limits.hit(&state.pool, Bucket::Client(&client)).await?;
    state
        .limits
        .hit(&state.pool, Bucket::ChangeEmailTo(email.as_str()))
        .await?;
    if store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_some()
    {
        return Err(ApiError::known(codes::EMAIL_TAKEN).with_details(json!({ "field": "email" })));
    }
    let mut transaction = state.pool.begin().await?;
    state
        .mailer
        .send_link(
            &mut transaction,
            member.id,
            Purpose::ChangeEmail,
            email.as_str(),
            Some(email.as_str()),
        )
        .await?;
    transaction.commit().await?;
    state.mailer.wake();
    Ok(axum::Json(json!({ "message": verification_sent(email.as_str()) })))
}

#[derive(Debug, Default, Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
}

/// Opens a change-of-email (or verification) link whose token is in the `x-access-token`
/// header (or `?token=`): the new email becomes the login, verified.
async fn confirm_account(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<TokenQuery>,
) -> ApiResult<axum::Json<Value>> {
    let forbidden = || ApiError::known(codes::LINK_EXPIRED);
    let token = link_token(&headers, query.token.as_deref());
    let hash = LinkToken::hash_of(&token).ok_or_else(forbidden)?;
    let mut transaction = state.pool.begin().await?;
    let record = store::tokens::consume(&mut transaction, &hash, &[Purpose::ChangeEmail, Purpose::VerifyEmail])
        .await?
        .ok_or_else(forbidden)?;
    let member = store::members::find(&state.pool, record.member_id)
        .await?
        .ok_or_else(forbidden)?;
    let email = match (&record.purpose, record.new_email.as_deref()) {
        (Purpose::ChangeEmail, Some(new_email)) => {
            match store::members::change_email(&mut transaction, member.id, new_email).await {
                Ok(()) => {}
                Err(StoreError::AlreadyExists(_)) => {
                    return Err(ApiError::known(codes::EMAIL_TAKEN));
                }
                Err(error) => return Err(error.into()),
            }
            if let Some(previous) = member.email.as_deref().filter(|previous| *previous != new_email) {
                account_notices::email_changed(&mut transaction, &state, &member, previous, new_email).await?;
            }
            Some(new_email.to_owned())
        }
        _ => {
            store::members::mark_email_verified(&mut transaction, member.id).await?;
            member.email.clone()
        }
    };
    transaction.commit().await?;
    state.mailer.wake();
    Ok(axum::Json(
        json!({ "verified": true, "message": ACCOUNT_VERIFIED, "email": email }),
    ))
}
