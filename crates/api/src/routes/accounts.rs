//! Sign-up, login (password and one-time link), email verification, and setting, resetting
//! and changing passwords and the login email.
//!
//! Link requests answer the same whether or not the account exists; a login with an unknown
//! email still verifies a (dummy) hash. Failed logins and link requests are rate limited per
//! email and per client address.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use domain::accounts::{Email, NewPassword, NextStep, ValidationError, parse_name};
use serde::Deserialize;
use serde_json::{Value, json};
use store::StoreError;
use store::members::{Member, NewMember};
use store::tokens::Purpose;

use crate::app::AppState;
use crate::auth::{Caller, LinkToken, MaybeCaller, TOKEN_HEADER};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Json, Query};
use crate::limits::{Bucket, ClientIp};
use crate::routes::members::{filter_market, signed_in_member};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/signup", post(signup))
        .route("/member/app/validate/email", post(validate_email))
        .route("/member/app/login", post(login))
        .route("/member/app/request/magic/link", post(request_magic_link))
        .route("/member/app/login/magic/link", post(login_with_magic_link))
        .route("/member/app/validate/token", post(validate_token))
        .route("/member/app/request/password/reset", post(request_password_reset))
        .route("/member/app/reset/password", get(reset_password_by_query))
        .route("/member/app/password/reset", post(password_reset))
        .route("/member/app/set/password", post(set_password))
        .route("/member/app/password/validate", post(password_validate))
        .route("/member/app/password/change", post(password_change))
        .route("/member/app/change/email", post(change_email))
        .route("/member/app/confirm/account", get(confirm_account))
        .route("/member/app/send/verification", get(send_verification))
        .route("/member/app/request/verification", post(request_verification))
        .route("/member/app/verify", get(verify))
}

/// The answer to every link request, whether or not the account exists.
pub const CHECK_YOUR_EMAIL: &str = "If there is an account associated to this e-mail, you will receive a link.";
pub const EMAIL_TAKEN: &str = "This e-mail is already registered.";
pub const INVALID_CREDENTIALS: &str = "Invalid email and / or password";
pub const VERIFICATION_PENDING: &str = "Email verification still pending.";
pub const MAGIC_LINK_EXPIRED: &str = "Your magic link has expired";
pub const LINK_EXPIRED: &str = "Oops, it seems your link has expired.";
pub const PASSWORD_SAVED: &str = "Password saved successfully! Please continue to login.";
pub const ACCOUNT_VERIFIED: &str = "Great job! Your account is verified.";
pub const NO_MEMBER: &str = "No member found";
pub const INVALID_PASSWORD: &str = "Invalid password";

fn verification_sent(email: &str) -> String {
    format!("Verification link sent to email {email}")
}

fn parse_email(value: Option<&str>) -> ApiResult<Email> {
    Email::parse(value.unwrap_or_default()).map_err(|error| ApiError::invalid_field("email", error))
}

fn parse_new_password(password: Option<&str>, confirmation: Option<&str>) -> ApiResult<NewPassword> {
    NewPassword::parse_confirmed(password.unwrap_or_default(), confirmation).map_err(|error| {
        let field = if error == ValidationError::PasswordMismatch {
            "confirmPassword"
        } else {
            "password"
        };
        ApiError::invalid_field(field, error)
    })
}

fn link_expired(status: StatusCode) -> ApiError {
    ApiError::detailed(status, "link_expired", LINK_EXPIRED, json!({}))
}

/// What a successful login answers: a new access token and where the SPA goes next.
async fn login_answer(state: &AppState, member: &Member) -> ApiResult<Value> {
    let access_token = state.tokens.issue(member.id)?;
    Ok(json!({
        "accessToken": access_token,
        "type": "dpc-member",
        "id": member.id,
        "nextStep": member.next_step,
        "filterMarket": filter_market(state, member).await?,
    }))
}

/// Writes a link email for the member with this login, if there is one. The caller answers
/// the same either way.
async fn send_link_if_member(state: &AppState, email: &Email, purpose: Purpose) -> ApiResult<()> {
    let Some(member) = store::members::find_by_email(&state.pool, email.as_str()).await? else {
        return Ok(());
    };
    let mut transaction = state.pool.begin().await?;
    state
        .mailer
        .send_link(&mut transaction, member.id, purpose, email.as_str(), None)
        .await?;
    transaction.commit().await?;
    state.mailer.wake();
    Ok(())
}

// ---- Sign-up -----------------------------------------------------------------------------------

/// Sign-up fields (no `Debug`: it may carry a password).
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignupBody {
    email: Option<String>,
    #[serde(default, deserialize_with = "crate::extract::lenient_id")]
    employer_id: Option<i64>,
    company_name: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    phone: Option<String>,
    /// The older flow sends a password with its confirmation and the terms checkbox.
    password: Option<String>,
    confirm_password: Option<String>,
    #[serde(alias = "terms_and_conditions")]
    terms: Option<bool>,
    #[serde(default, deserialize_with = "crate::extract::lenient_id")]
    provider_id: Option<i64>,
    #[serde(default, deserialize_with = "crate::extract::lenient_id")]
    location_id: Option<i64>,
    notify: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
pub struct SignupQuery {
    /// A provider (organisation) id chosen in the marketplace, or an employer alias.
    company: Option<String>,
    /// A location id chosen in the marketplace.
    location: Option<String>,
}

/// Optional free text: blank is absent.
fn optional_name(field: &str, value: Option<&str>) -> ApiResult<Option<String>> {
    match value.map(str::trim).filter(|text| !text.is_empty()) {
        Some(text) => parse_name(text)
            .map(Some)
            .map_err(|error| ApiError::invalid_field(field, error)),
        None => Ok(None),
    }
}

/// Creates an account, answers an access token, and emails a verification link that lands
/// on the set-password page. An email already registered answers `accountExists: true` and
/// changes nothing.
async fn signup(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Query(query): Query<SignupQuery>,
    Json(body): Json<SignupBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    let first_name = optional_name("firstName", body.first_name.as_deref())?.unwrap_or_default();
    let last_name = optional_name("lastName", body.last_name.as_deref())?.unwrap_or_default();
    let typed_company = optional_name("companyName", body.company_name.as_deref())?;
    let phone = match body.phone.as_deref().map(str::trim).filter(|phone| !phone.is_empty()) {
        Some(phone) => Some(
            domain::accounts::Phone::parse(phone)
                .map_err(|error| ApiError::invalid_field("phone", error))?
                .as_str()
                .to_owned(),
        ),
        None => None,
    };
    let password = match body.password.as_deref() {
        Some(password) => Some(parse_new_password(Some(password), body.confirm_password.as_deref())?),
        None => None,
    };
    if body.terms == Some(false) {
        return Err(ApiError::invalid_field("terms", ValidationError::Required));
    }
    // The employer: the body's id, else an alias in the query, else the typed name (an
    // employer the catalogue does not know).
    let query_company = query.company.as_deref().map(str::trim).filter(|text| !text.is_empty());
    let query_provider = query_company.and_then(|text| text.parse::<i64>().ok());
    let employer = match (body.employer_id, query_company) {
        (Some(id), _) => Some(store::members::employer(&state.pool, id).await?.ok_or_else(|| {
            ApiError::detailed(
                StatusCode::BAD_REQUEST,
                "unknown_employer",
                "Unknown employer",
                json!({ "field": "employerId" }),
            )
        })?),
        (None, Some(alias)) if query_provider.is_none() => {
            store::members::employer_by_alias(&state.pool, alias).await?
        }
        _ => None,
    };
    // A provider chosen before sign-up: the body's ids, else the query's.
    let provider_id = body.provider_id.or(query_provider);
    let location_id = body
        .location_id
        .or_else(|| query.location.as_deref().and_then(|text| text.trim().parse().ok()));
    let (provider_id, location_id) = resolve_provider(&state, provider_id, location_id).await?;

    state.limits.hit(&state, Bucket::Client(&client)).await?;
    if store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_some()
    {
        return Ok(axum::Json(account_exists()));
    }
    let password_hash = match &password {
        Some(password) => Some(state.passwords.hash(password).await?),
        None => None,
    };
    let new = NewMember {
        email: email.as_str().to_owned(),
        password_hash,
        first_name,
        last_name,
        phone,
        employer_id: employer.as_ref().map(|employer| employer.id),
        company_name: employer.map(|employer| employer.company_name).or(typed_company),
        provider_id,
        location_id,
        next_step: NextStep::after_sign_up(location_id.is_some()).as_str(),
        notify: body.notify.unwrap_or(false),
    };
    let mut transaction = state.pool.begin().await?;
    let member = match store::members::create(&mut transaction, &new).await {
        Ok(member) => member,
        Err(StoreError::AlreadyExists(_)) => return Ok(axum::Json(account_exists())),
        Err(error) => return Err(error.into()),
    };
    state
        .mailer
        .send_link(&mut transaction, member.id, Purpose::VerifyEmail, email.as_str(), None)
        .await?;
    transaction.commit().await?;
    state.mailer.wake();
    tracing::info!(member = member.id, "member signed up");
    let mut answer = login_answer(&state, &member).await?;
    answer["accountExists"] = json!(false);
    answer["message"] = json!(verification_sent(email.as_str()));
    Ok(axum::Json(answer))
}

fn account_exists() -> Value {
    json!({ "accountExists": true, "accessToken": null, "id": null, "message": EMAIL_TAKEN })
}

/// Checks a provider chosen before sign-up: the location must exist and belong to the
/// provider; a provider alone gets its first location.
async fn resolve_provider(
    state: &AppState,
    provider_id: Option<i64>,
    location_id: Option<i64>,
) -> ApiResult<(Option<i64>, Option<i64>)> {
    let unknown = || {
        ApiError::detailed(
            StatusCode::BAD_REQUEST,
            "unknown_provider",
            "Provider not found",
            json!({ "field": "locationId" }),
        )
    };
    match (provider_id, location_id) {
        (None, None) => Ok((None, None)),
        (provider, Some(location)) => {
            let clinic = store::enrolment::clinic(&state.pool, location)
                .await?
                .filter(|clinic| provider.is_none_or(|provider| clinic.organisation_id == provider))
                .ok_or_else(unknown)?;
            Ok((Some(clinic.organisation_id), Some(clinic.id)))
        }
        (Some(provider), None) => {
            let location = store::members::first_location_of(&state.pool, provider)
                .await?
                .ok_or_else(unknown)?;
            Ok((Some(provider), Some(location)))
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct EmailBody {
    email: Option<String>,
}

/// Whether an email may sign up: `valid: false` with reason `email` when it is registered.
/// A malformed email is a 400.
async fn validate_email(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    state.limits.hit(&state, Bucket::Lookup(&client)).await?;
    let taken = store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_some();
    Ok(axum::Json(if taken {
        json!({ "valid": false, "message": EMAIL_TAKEN, "reason": "email" })
    } else {
        json!({ "valid": true, "message": "", "reason": null })
    }))
}

// ---- Login ---------------------------------------------------------------------------------------

#[derive(Default, Deserialize)]
pub struct LoginBody {
    email: Option<String>,
    password: Option<String>,
}

/// Email and password. Only failures count towards the limits.
async fn login(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<LoginBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    let password = body.password.unwrap_or_default();
    if password.is_empty() {
        return Err(ApiError::invalid_field("password", ValidationError::PasswordRequired));
    }
    state.limits.check(&state, Bucket::Client(&client)).await?;
    state.limits.check(&state, Bucket::LoginEmail(email.as_str())).await?;
    let member = store::members::find_by_email(&state.pool, email.as_str()).await?;
    let stored = member.as_ref().and_then(|member| member.password_hash.as_deref());
    let matches = state.passwords.verify(&password, stored).await?;
    let Some(member) = member.filter(|_| matches) else {
        state.limits.record(&state, Bucket::Client(&client)).await?;
        state.limits.record(&state, Bucket::LoginEmail(email.as_str())).await?;
        return Err(ApiError::detailed(
            StatusCode::UNAUTHORIZED,
            "invalid_credentials",
            INVALID_CREDENTIALS,
            json!({}),
        ));
    };
    if member.email_verified_at.is_none() {
        return Err(ApiError::detailed(
            StatusCode::FORBIDDEN,
            "email_not_verified",
            VERIFICATION_PENDING,
            json!({}),
        ));
    }
    Ok(axum::Json(login_answer(&state, &member).await?))
}

/// Emails a one-time login link (15 minutes) when the account exists.
async fn request_magic_link(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    state.limits.hit(&state, Bucket::Client(&client)).await?;
    state.limits.hit(&state, Bucket::LinkEmail(email.as_str())).await?;
    send_link_if_member(&state, &email, Purpose::MagicLink).await?;
    Ok(axum::Json(json!({ "message": CHECK_YOUR_EMAIL })))
}

#[derive(Debug, Default, Deserialize)]
pub struct TokenBody {
    token: Option<String>,
    email: Option<String>,
}

/// Logs in with a magic link's token (once). Opening the link also proves the email.
async fn login_with_magic_link(
    State(state): State<AppState>,
    Json(body): Json<TokenBody>,
) -> ApiResult<axum::Json<Value>> {
    let expired = || {
        ApiError::detailed(
            StatusCode::FORBIDDEN,
            "magic_link_expired",
            MAGIC_LINK_EXPIRED,
            json!({}),
        )
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
    Ok(axum::Json(login_answer(&state, &member).await?))
}

// ---- Links to the set-password page ----------------------------------------------------------

/// Validates a verification or reset link (once) and exchanges it for a token to submit the
/// new password with (1 hour). Opening a verification link confirms the email. 401 when the
/// link is unknown, used, revoked or expired.
async fn validate_token(State(state): State<AppState>, Json(body): Json<TokenBody>) -> ApiResult<axum::Json<Value>> {
    let hash = LinkToken::hash_of(body.token.as_deref().unwrap_or_default())
        .ok_or_else(|| link_expired(StatusCode::UNAUTHORIZED))?;
    let mut transaction = state.pool.begin().await?;
    let token = store::tokens::consume(&mut transaction, &hash, &[Purpose::VerifyEmail, Purpose::PasswordReset])
        .await?
        .ok_or_else(|| link_expired(StatusCode::UNAUTHORIZED))?;
    let member = store::members::find(&state.pool, token.member_id)
        .await?
        .ok_or_else(|| link_expired(StatusCode::UNAUTHORIZED))?;
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
/// link of the member stops working.
async fn set_password_with_token(state: &AppState, token_text: &str, password: &NewPassword) -> ApiResult<()> {
    const PURPOSES: [Purpose; 3] = [Purpose::SetPassword, Purpose::PasswordReset, Purpose::VerifyEmail];
    let forbidden = || link_expired(StatusCode::FORBIDDEN);
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
    store::members::set_password(&mut transaction, member.id, &new_hash).await?;
    store::tokens::revoke_all(
        &mut transaction,
        member.id,
        &[
            Purpose::MagicLink,
            Purpose::PasswordReset,
            Purpose::SetPassword,
            Purpose::VerifyEmail,
        ],
    )
    .await?;
    transaction.commit().await?;
    tracing::info!(member = member.id, "password set with a link");
    Ok(())
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordBody {
    password: Option<String>,
    confirm_password: Option<String>,
    token: Option<String>,
}

/// Sets the password with a link's token; without a token, a signed-in member who has no
/// password yet sets their first one (account settings).
async fn password_reset(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Json(body): Json<PasswordBody>,
) -> ApiResult<axum::Json<Value>> {
    let password = parse_new_password(body.password.as_deref(), body.confirm_password.as_deref())?;
    match body.token.as_deref().map(str::trim).filter(|token| !token.is_empty()) {
        Some(token) => set_password_with_token(&state, token, &password).await?,
        None => {
            let caller = caller.ok_or_else(|| link_expired(StatusCode::FORBIDDEN))?;
            let member = signed_in_member(&state, caller).await?;
            if member.password_hash.is_some() {
                return Err(ApiError::detailed(
                    StatusCode::FORBIDDEN,
                    "password_already_set",
                    "Your password is already set. Use Change Password instead.",
                    json!({}),
                ));
            }
            let hash = state.passwords.hash(&password).await?;
            store::members::replace_password(&state.pool, member.id, &hash).await?;
        }
    }
    Ok(axum::Json(json!({ "message": PASSWORD_SAVED })))
}

/// The one-time token of a call that carries it "in the header": `x-access-token` when it holds
/// a link token (the SPA may also send its access token there, a JWT), else the body's or
/// query's `token`.
fn header_token(headers: &HeaderMap, fallback: Option<&str>) -> String {
    let header = headers
        .get(TOKEN_HEADER)
        .and_then(|value| value.to_str().ok())
        .map(str::trim);
    header
        .filter(|token| LinkToken::hash_of(token).is_some())
        .or(fallback.map(str::trim).filter(|token| !token.is_empty()))
        .or(header)
        .unwrap_or_default()
        .to_owned()
}

/// Sets the password with the link's token in the `x-access-token` header.
async fn set_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(body): Json<PasswordBody>,
) -> ApiResult<axum::Json<Value>> {
    let password = parse_new_password(body.password.as_deref(), body.confirm_password.as_deref())?;
    let token = header_token(&headers, body.token.as_deref());
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

/// Changes the signed-in member's password. Errors repeat their text in `msg`.
async fn password_change(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<ChangePasswordBody>,
) -> ApiResult<axum::Json<Value>> {
    change_password(&state, caller, body).await.map_err(ApiError::with_msg)
}

async fn change_password(state: &AppState, caller: Caller, body: ChangePasswordBody) -> ApiResult<axum::Json<Value>> {
    let current = body.current_password.unwrap_or_default();
    if current.is_empty() {
        return Err(ApiError::invalid_field(
            "currentPassword",
            ValidationError::PasswordRequired,
        ));
    }
    let password = parse_new_password(body.password.as_deref(), body.confirm_password.as_deref())?;
    let member = signed_in_member(state, caller).await?;
    state.limits.check(state, Bucket::PasswordChange(member.id)).await?;
    let stored = member.password_hash.as_deref();
    if !state.passwords.verify(&current, stored).await? {
        state.limits.record(state, Bucket::PasswordChange(member.id)).await?;
        return Err(ApiError::detailed(
            StatusCode::BAD_REQUEST,
            "invalid_password",
            INVALID_PASSWORD,
            json!({ "field": "currentPassword" }),
        ));
    }
    if password.expose() == current {
        return Err(ApiError::invalid_field("password", ValidationError::PasswordReused));
    }
    let hash = state.passwords.hash(&password).await?;
    let mut transaction = state.pool.begin().await?;
    store::members::set_password(&mut transaction, member.id, &hash).await?;
    store::tokens::revoke_all(
        &mut transaction,
        member.id,
        &[Purpose::MagicLink, Purpose::PasswordReset, Purpose::SetPassword],
    )
    .await?;
    transaction.commit().await?;
    Ok(axum::Json(json!({ "message": PASSWORD_SAVED, "msg": PASSWORD_SAVED })))
}

// ---- Reset and verification requests ---------------------------------------------------------

/// Forgot password: emails a reset link (1 hour) when the account exists; the same answer
/// either way.
async fn request_password_reset(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    reset_request(&state, &client, body.email.as_deref()).await
}

#[derive(Debug, Default, Deserialize)]
pub struct EmailQuery {
    email: Option<String>,
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
    state.limits.hit(state, Bucket::Client(client)).await?;
    state.limits.hit(state, Bucket::LinkEmail(email.as_str())).await?;
    send_link_if_member(state, &email, Purpose::PasswordReset).await?;
    Ok(axum::Json(json!({ "message": CHECK_YOUR_EMAIL })))
}

/// Resends the verification email ('No member found' for an unknown email, as the spec's
/// /verify screen expects).
async fn send_verification(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Query(query): Query<EmailQuery>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(query.email.as_deref())?;
    state.limits.hit(&state, Bucket::Client(&client)).await?;
    state.limits.hit(&state, Bucket::LinkEmail(email.as_str())).await?;
    if store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_none()
    {
        return Err(ApiError::NotFound(NO_MEMBER.into()));
    }
    send_link_if_member(&state, &email, Purpose::VerifyEmail).await?;
    Ok(axum::Json(json!({ "message": verification_sent(email.as_str()) })))
}

/// A new link in place of an expired or used one (the expired page's "Send new link"): a
/// reset link for a reset token, else a verification link. The same answer whatever the token.
async fn request_verification(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<TokenBody>,
) -> ApiResult<axum::Json<Value>> {
    state.limits.hit(&state, Bucket::Client(&client)).await?;
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
        state.limits.hit(&state, Bucket::LinkEmail(email.as_str())).await?;
        let purpose = match record.purpose {
            Purpose::PasswordReset | Purpose::SetPassword => Purpose::PasswordReset,
            _ => Purpose::VerifyEmail,
        };
        send_link_if_member(&state, &email, purpose).await?;
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
    state.limits.hit(&state, Bucket::Lookup(&client)).await?;
    let member = store::members::find_by_email(&state.pool, email.as_str()).await?;
    Ok(axum::Json(json!({
        "exist": member.is_some(),
        "verified": member.as_ref().is_some_and(|member| member.email_verified_at.is_some()),
    })))
}

// ---- Change of email -------------------------------------------------------------------------

/// Sends a confirmation link to a new login email; the login changes when it is opened.
async fn change_email(
    State(state): State<AppState>,
    caller: Caller,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    let member = signed_in_member(&state, caller).await?;
    if member.email.as_deref() == Some(email.as_str()) {
        return Err(ApiError::detailed(
            StatusCode::BAD_REQUEST,
            "same_email",
            "This is already your login e-mail.",
            json!({ "field": "email" }),
        ));
    }
    state.limits.hit(&state, Bucket::Client(&client)).await?;
    state.limits.hit(&state, Bucket::LinkEmail(email.as_str())).await?;
    if store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_some()
    {
        return Err(ApiError::detailed(
            StatusCode::BAD_REQUEST,
            "email_taken",
            EMAIL_TAKEN,
            json!({ "field": "email" }),
        ));
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
    let forbidden = || link_expired(StatusCode::FORBIDDEN);
    let token = header_token(&headers, query.token.as_deref());
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
                    return Err(ApiError::detailed(
                        StatusCode::BAD_REQUEST,
                        "email_taken",
                        EMAIL_TAKEN,
                        json!({}),
                    ));
                }
                Err(error) => return Err(error.into()),
            }
            Some(new_email.to_owned())
        }
        _ => {
            store::members::mark_email_verified(&mut transaction, member.id).await?;
            member.email.clone()
        }
    };
    transaction.commit().await?;
    Ok(axum::Json(
        json!({ "verified": true, "message": ACCOUNT_VERIFIED, "email": email }),
    ))
}
