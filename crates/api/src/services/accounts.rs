//! Account use cases the sign-up, login, password and verification routes share: the answer
//! of a successful login, emailing a link to a registered address, and the success texts they
//! answer (their errors are in [`crate::error_codes`]).

use domain::accounts::Email;
use serde_json::{Value, json};
use store::members::Member;
use store::tokens::Purpose;

use crate::error::ApiResult;
use crate::limits::LinkSlot;
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
