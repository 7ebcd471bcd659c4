//! Sign-up: creating an account (with a provider chosen beforehand) and checking whether an
//! email may sign up.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use domain::accounts::ValidationError;
use domain::membership::NextStep;
use serde::Deserialize;
use serde_json::{Value, json};
use store::StoreError;
use store::benefit_requests::{NewBenefitRequest, Source};
use store::members::NewMember;
use store::tokens::Purpose;

use crate::access::ClientIp;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Json, Query};
use crate::forms::{EmailBody, optional_name, parse_email, parse_new_password};
use crate::legal::Document;
use crate::limits::Bucket;
use crate::services::accounts::{login_answer, verification_sent};
use crate::sessions::SignInOrigin;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/signup", post(signup))
        .route("/member/app/validate/email", post(validate_email))
}

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
    /// The version of the Terms of Use the page showed (`GET /legal/terms`).
    terms_version: Option<String>,
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

/// Creates an account, answers an access token, and emails a verification link that lands
/// on the set-password page. An email already registered answers `accountExists: true` and
/// changes nothing.
async fn signup(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    origin: SignInOrigin,
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
    let terms = state.legal.get(Document::Terms);
    if body
        .terms_version
        .as_deref()
        .is_some_and(|version| version != terms.version)
    {
        return Err(ApiError::known(codes::TERMS_CHANGED).with_details(json!({ "field": "termsVersion" })));
    }
    // A sign-up that ticked the box (or named the version) agreed to the text served now.
    let agreed_terms = (body.terms == Some(true) || body.terms_version.is_some()).then(|| terms.version.clone());
    // The employer: the body's id, else an alias in the query, else the typed name (an
    // employer the catalogue does not know).
    let query_company = query.company.as_deref().map(str::trim).filter(|text| !text.is_empty());
    let query_provider = query_company.and_then(|text| text.parse::<i64>().ok());
    let employer =
        match (body.employer_id, query_company) {
            (Some(id), _) => Some(store::members::employer(&state.pool, id).await?.ok_or_else(|| {
                ApiError::known(codes::UNKNOWN_EMPLOYER).with_details(json!({ "field": "employerId" }))
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

    // Notify Me for an employer that does not offer the benefit (or one the catalogue does not
    // know): kept until the operator makes it active, and told to sales at once.
    let asked_for = match (&employer, &typed_company) {
        (Some(employer), _) if employer.status != "active" => Some((Some(employer.id), employer.company_name.clone())),
        (None, Some(typed)) => Some((None, typed.clone())),
        _ => None,
    }
    .filter(|_| body.notify == Some(true));

    state.limits.hit(&state.pool, Bucket::Client(&client)).await?;
    if let Some(existing) = store::members::find_by_email(&state.pool, email.as_str()).await? {
        // An account already has this email: the request is still kept.
        if let Some((employer_id, company_name)) = &asked_for {
            let mut transaction = state.pool.begin().await?;
            record_notify_me(
                &state,
                &mut transaction,
                *employer_id,
                company_name,
                email.as_str(),
                existing.id,
            )
            .await?;
            transaction.commit().await?;
            state.mailer.wake();
        }
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
        next_step: NextStep::after_sign_up(location_id.is_some()),
        notify: body.notify.unwrap_or(false),
    };
    let mut transaction = state.pool.begin().await?;
    let member = match store::members::create(&mut transaction, &new).await {
        Ok(member) => member,
        Err(StoreError::AlreadyExists(_)) => return Ok(axum::Json(account_exists())),
        Err(error) => return Err(error.into()),
    };
    if let Some(version) = &agreed_terms {
        store::terms_agreements::record(&mut transaction, member.id, version).await?;
    }
    state
        .mailer
        .send_link(&mut transaction, member.id, Purpose::VerifyEmail, email.as_str(), None)
        .await?;
    if let Some((employer_id, company_name)) = &asked_for {
        record_notify_me(
            &state,
            &mut transaction,
            *employer_id,
            company_name,
            email.as_str(),
            member.id,
        )
        .await?;
    }
    transaction.commit().await?;
    state.mailer.wake();
    tracing::info!(member = member.id, "member signed up");
    let mut answer = login_answer(&state, &member, &origin).await?;
    answer["accountExists"] = json!(false);
    answer["message"] = json!(verification_sent(email.as_str()));
    Ok(axum::Json(answer))
}

/// Records a Notify Me request (its dialog's consent box is required) and emails it to sales.
async fn record_notify_me(
    state: &AppState,
    connection: &mut sqlx::PgConnection,
    employer_id: Option<i64>,
    company_name: &str,
    email: &str,
    member_id: i64,
) -> ApiResult<()> {
    let request = NewBenefitRequest {
        employer_id,
        company_name,
        email,
        member_id: Some(member_id),
        consent: true,
        source: Source::NotifyMe,
    };
    store::benefit_requests::record(connection, &request, &state.config.sales_email).await?;
    Ok(())
}

fn account_exists() -> Value {
    json!({ "accountExists": true, "accessToken": null, "id": null, "message": codes::EMAIL_TAKEN.text() })
}

/// Checks a provider chosen before sign-up: the location must exist and belong to the
/// provider; a provider alone gets its first location.
async fn resolve_provider(
    state: &AppState,
    provider_id: Option<i64>,
    location_id: Option<i64>,
) -> ApiResult<(Option<i64>, Option<i64>)> {
    let unknown = || ApiError::known(codes::UNKNOWN_PROVIDER).with_details(json!({ "field": "locationId" }));
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

/// Whether an email may sign up: `valid: false` with reason `email` when it is registered.
/// A malformed email is a 400.
async fn validate_email(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<Value>> {
    let email = parse_email(body.email.as_deref())?;
    state.limits.hit(&state.pool, Bucket::Lookup(&client)).await?;
    let taken = store::members::find_by_email(&state.pool, email.as_str())
        .await?
        .is_some();
    Ok(axum::Json(if taken {
        json!({ "valid": false, "message": codes::EMAIL_TAKEN.text(), "reason": "email" })
    } else {
        json!({ "valid": true, "message": "", "reason": null })
    }))
}
