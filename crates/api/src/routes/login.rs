//! Login with email and password, or with a one-time magic link. A login with an unknown
//! email still verifies a (dummy) hash; failed logins are rate limited per client address and
//! per email and client address together, never per email alone (see `limits`); only failures
//! count.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use domain::accounts::{Email, ValidationError};
use serde::Deserialize;
use serde_json::{Value, json};
use store::tokens::Purpose;

use crate::access::ClientIp;
use crate::auth::LinkToken;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::Json;
use crate::forms::{EmailBody, TokenBody, parse_email};
use crate::limits::Bucket;
use crate::metrics::{self, LoginMethod};
use crate::services::accounts::{CHECK_YOUR_EMAIL, login_answer, request_link};
use crate::sessions::SignInOrigin;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/login", post(login))
        .route("/member/app/request/magic/link", post(request_magic_link))
        .route("/member/app/login/magic/link", post(login_with_magic_link))
}

#[derive(Default, Deserialize)]
pub struct LoginBody {
    email: Option<String>,
    password: Option<String>,
}

/// Email and password. Only failures count towards the limits.
async fn login(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    origin: SignInOrigin,
    Json(body): Json<LoginBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    let password = body.password.unwrap_or_default();
    if password.is_empty() {
        return Err(ApiError::invalid_field("password", ValidationError::PasswordRequired));
    }
    let buckets = [
        Bucket::Client(&client),
        Bucket::LoginEmailClient(email.as_str(), &client),
    ];
    for bucket in buckets {
        let checked = state.limits.check(&state.pool, bucket).await;
        if checked.is_err() {
            metrics::login(LoginMethod::Password, "rate_limited");
        }
        checked?;
    }
    let member = store::members::find_by_email(&state.pool, email.as_str()).await?;
    let stored = member.as_ref().and_then(|member| member.password_hash.as_deref());
    let matches = state.passwords.verify(&password, stored).await?;
    let Some(member) = member.filter(|_| matches) else {
        for bucket in buckets {
            state.limits.record(&state.pool, bucket).await?;
        }
        metrics::login(LoginMethod::Password, "invalid_credentials");
        return Err(ApiError::known(codes::INVALID_CREDENTIALS));
    };
    if member.email_verified_at.is_none() {
        metrics::login(LoginMethod::Password, "email_not_verified");
        return Err(ApiError::known(codes::EMAIL_NOT_VERIFIED));
    }
    metrics::login(LoginMethod::Password, "success");
    Ok(axum::Json(login_answer(&state, &member, &origin).await?))
}

/// Emails a one-time login link (10 minutes) when the account exists (see `request_link`).
async fn request_magic_link(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    state.limits.hit(&state.pool, Bucket::Client(&client)).await?;
    request_link(&state, &email, Purpose::MagicLink).await?;
    Ok(axum::Json(json!({ "message": CHECK_YOUR_EMAIL })))
}

/// Logs in with a magic link's token (once, within 10 minutes, while the login is still the
/// address it was sent to). Opening the link also proves the email.
async fn login_with_magic_link(
    State(state): State<AppState>,
    origin: SignInOrigin,
    Json(body): Json<TokenBody>,
) -> ApiResult<axum::Json<Value>> {
    let expired = || {
        metrics::login(LoginMethod::MagicLink, "invalid_link");
        ApiError::known(codes::MAGIC_LINK_EXPIRED)
    };
    let hash = LinkToken::hash_of(body.token.as_deref().unwrap_or_default()).ok_or_else(expired)?;
    let mut transaction = state.pool.begin().await?;
    let token = store::tokens::consume(&mut transaction, &hash, &[Purpose::MagicLink])
        .await?
        .ok_or_else(expired)?;
    let member = store::members::find(&state.pool, token.member_id)
        .await?
        .ok_or_else(expired)?;
    if let Some(sent) = body.email.as_deref().filter(|email| !email.trim().is_empty()) {
        let same = Email::parse(sent).is_ok_and(|sent| member.email.as_deref() == Some(sent.as_str()));
        if !same {
            return Err(expired());
        }
    }
    store::members::mark_email_verified(&mut transaction, member.id).await?;
    transaction.commit().await?;
    metrics::login(LoginMethod::MagicLink, "success");
    Ok(axum::Json(login_answer(&state, &member, &origin).await?))
}
