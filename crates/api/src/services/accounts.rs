//! Account use cases the sign-up, login, password and verification routes share: the answer
//! of a successful login, emailing a link to a registered address, and the success texts they
//! answer (their errors are in [`crate::error_codes`]).

use domain::accounts::Email;
use serde_json::{Value, json};
use store::members::Member;
use store::tokens::Purpose;

use crate::error::ApiResult;
use crate::services::member_views::filter_market;
use crate::state::AppState;

/// The answer to every link request, whether or not the account exists.
pub const CHECK_YOUR_EMAIL: &str = "If there is an account associated to this e-mail, you will receive a link.";
pub const PASSWORD_SAVED: &str = "Password saved successfully! Please continue to login.";
pub const ACCOUNT_VERIFIED: &str = "Great job! Your account is verified.";

pub fn verification_sent(email: &str) -> String {
    format!("Verification link sent to email {email}")
}

/// What a successful login answers: a new access token and where the SPA goes next (a
/// provider account's token and organisation, docs/provider-contract.md).
pub async fn login_answer(state: &AppState, member: &Member) -> ApiResult<Value> {
    if let Some(organisation_id) = member.provider_organisation() {
        let organisation_name = store::providers::organisation_name(&state.pool, organisation_id).await?;
        return Ok(json!({
            "accessToken": state.tokens.issue_provider(member.id, organisation_id)?,
            "type": "dpc-provider",
            "id": member.id,
            "organisationId": organisation_id,
            "organisationName": organisation_name,
        }));
    }
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
pub async fn send_link_if_member(state: &AppState, email: &Email, purpose: Purpose) -> ApiResult<()> {
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
