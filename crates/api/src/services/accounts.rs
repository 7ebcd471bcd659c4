//! Account use cases the sign-up, login, password and verification routes share: the answer
//! of a successful sign-in (a new session and its token), emailing a link to a registered
//! address, and the success texts they answer (their errors are in [`crate::error_codes`]).

use domain::accounts::{Email, ValidationError};
use serde_json::{Value, json};
use store::members::Member;
use store::tokens::Purpose;

use crate::auth::Grant;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::limits::{Bucket, LinkSlot};
use crate::services::member_views::filter_market;
use crate::sessions::{SessionRef, SignInOrigin};
use crate::state::AppState;

/// The answer to every link request, whether or not the account exists.
pub const CHECK_YOUR_EMAIL: &str = "If there is an account associated to this e-mail, you will receive a link.";
pub const PASSWORD_SAVED: &str = "Password saved successfully! Please continue to login.";
pub const ACCOUNT_VERIFIED: &str = "Great job! Your account is verified.";

pub fn verification_sent(email: &str) -> String {
    format!("Verification link sent to email {email}")
}

/// What a successful sign-in answers: a new session, its access token, and where the SPA goes
/// next (a provider account's token and organisation, docs/provider-contract.md).
pub async fn login_answer(state: &AppState, member: &Member, origin: &SignInOrigin) -> ApiResult<Value> {
    let session = state.sessions.start(member.id, origin).await?;
    if let Some(organisation_id) = member.provider_organisation() {
        let organisation_name = store::providers::organisation_name(&state.pool, organisation_id).await?;
        return Ok(json!({
            "accessToken": access_token(state, member.id, None, Some(organisation_id), session)?,
            "type": "dpc-provider",
            "id": member.id,
            "organisationId": organisation_id,
            "organisationName": organisation_name,
        }));
    }
    Ok(json!({
        "accessToken": access_token(state, member.id, None, None, session)?,
        "type": "dpc-member",
        "id": member.id,
        "nextStep": member.next_step,
        "filterMarket": filter_market(state, member).await?,
    }))
}

/// An access token for `subject` in `session` (acting for `actor`, the subscriber, in a
/// switched session; for `organisation`, a provider account's).
pub fn access_token(
    state: &AppState,
    subject: i64,
    actor: Option<i64>,
    organisation: Option<i64>,
    session: SessionRef,
) -> ApiResult<String> {
    Ok(state.tokens.issue(&Grant {
        subject,
        actor,
        organisation,
        session_id: session.id,
        signed_in_at: session.signed_in_at,
        expires_at: session.expires_at,
    })?)
}

/// Asks for a link of `purpose` to be emailed to the account with the login `email`, if there
/// is one. The request path does the same work whatever the address: it reserves the address's
/// slot for that kind of link and queues a link request in the outbox, without reading
/// `members`; the sender finds the account (or drops the request) after the answer has gone,
/// so the answer's timing cannot tell whether an account exists. A request within the link
/// interval of the last is queued for the end of it, and one made while another waits adds
/// nothing: a stranger's requests fill nobody's inbox faster than one link a minute, and never
/// stop the owner's link from coming.
pub async fn request_link(state: &AppState, email: &Email, purpose: Purpose) -> ApiResult<()> {
    let due = match state.limits.link_slot(&state.pool, email.as_str(), purpose).await? {
        LinkSlot::At(due) => due,
        LinkSlot::AlreadyWaiting => return Ok(()),
    };
    let mut connection = state.pool.acquire().await?;
    store::outbox::enqueue_due(
        &mut connection,
        &store::outbox::NewEmail {
            to_email: email.as_str(),
            kind: store::outbox::LINK_REQUEST,
            link: None,
            facts: json!({ "purpose": purpose.as_str() }),
        },
        due,
    )
    .await?;
    state.mailer.wake();
    Ok(())
}

/// The `currentPassword` field of the change-password and change-of-email forms: 400 naming it
/// when it is missing.
pub fn current_password_field(value: Option<String>) -> ApiResult<String> {
    value
        .filter(|current| !current.is_empty())
        .ok_or_else(|| ApiError::invalid_field("currentPassword", ValidationError::PasswordRequired))
}

/// Checks the signed-in member's current password: 400 `invalid_password` naming
/// `currentPassword` when it is wrong (or the account has none); wrong ones count towards the
/// member's limit (429 once it is reached).
pub async fn check_current_password(state: &AppState, member: &Member, current: &str) -> ApiResult<()> {
    let bucket = Bucket::PasswordChange(member.id);
    state.limits.check(&state.pool, bucket).await?;
    if !state.passwords.verify(current, member.password_hash.as_deref()).await? {
        state.limits.record(&state.pool, bucket).await?;
        return Err(ApiError::known(codes::INVALID_PASSWORD).with_details(json!({ "field": "currentPassword" })));
    }
    Ok(())
}
