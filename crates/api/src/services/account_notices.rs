//! The notices an account's owner gets when its password or its login e-mail changes, sent to
//! the address the account had (for a new e-mail, the old one): if the change was not theirs,
//! they learn of it and what to do (reset the password; write to support). Written in the
//! transaction of the change, so a change that rolls back tells nobody.

use chrono::Utc;
use serde_json::json;
use sqlx::PgConnection;
use store::members::Member;

use crate::error::ApiResult;
use crate::state::AppState;

/// Queues "your password was changed" to the member's login e-mail (none for a family
/// member's account, which has no login). Wake the sender after the commit.
pub async fn password_changed(connection: &mut PgConnection, state: &AppState, member: &Member) -> ApiResult<()> {
    let Some(email) = member.email.as_deref() else {
        return Ok(());
    };
    notify(
        connection,
        state,
        email,
        "password_changed",
        Some("/forgot-password"),
        json!({ "first_name": member.first_name, "email": email }),
    )
    .await
}

/// Queues "your login e-mail was changed" to the old address `previous`. Wake the sender after
/// the commit.
pub async fn email_changed(
    connection: &mut PgConnection,
    state: &AppState,
    member: &Member,
    previous: &str,
    new_email: &str,
) -> ApiResult<()> {
    notify(
        connection,
        state,
        previous,
        "email_changed",
        Some("/login"),
        json!({ "first_name": member.first_name, "email": previous, "new_email": new_email }),
    )
    .await
}

async fn notify(
    connection: &mut PgConnection,
    state: &AppState,
    to_email: &str,
    kind: &str,
    link: Option<&str>,
    mut facts: serde_json::Value,
) -> ApiResult<()> {
    facts["changed_at"] = json!(Utc::now().format("%Y-%m-%d %H:%M UTC").to_string());
    facts["support_email"] = json!(state.config.support_email);
    store::outbox::enqueue(
        connection,
        &store::outbox::NewEmail {
            to_email,
            kind,
            link,
            facts,
        },
    )
    .await?;
    Ok(())
}
