//! Provider accounts: logins that act for one DPC organisation (docs/provider-contract.md).
//! They are rows of the login table (`members`) with `account_kind = 'provider'`.

use std::time::Duration;

use serde_json::json;
use sqlx::{PgConnection, PgPool};

use crate::tokens::{LinkToken, Purpose};
use crate::{Result, StoreError};

/// How long an invitation's set-password link works.
pub const INVITATION_LIFETIME: Duration = Duration::from_secs(72 * 60 * 60);

/// Why an invitation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InviteRefusal {
    #[error("no organisation has id {0}")]
    NoSuchOrganisation(i64),
    #[error("{0} already signs in as a member; a login is a member or a provider, not both")]
    MemberLogin(String),
    #[error("{email} already acts for organisation {organisation}")]
    OtherOrganisation { email: String, organisation: i64 },
    #[error("{0} has already set a password; they can sign in, or use Forgot password")]
    AlreadyActive(String),
}

/// A sent invitation.
#[derive(Debug, Clone)]
pub struct Invitation {
    pub account_id: i64,
    pub organisation_name: String,
    /// False when the account existed (invited before) and only a new link was sent.
    pub created: bool,
}

/// The organisation's name, if it exists.
pub async fn organisation_name(pool: &PgPool, id: i64) -> Result<Option<String>> {
    Ok(sqlx::query_scalar("select name from organisations where id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?)
}

/// Creates a provider account for `email` (lower-cased, valid) acting for `organisation_id`
/// and emails it a set-password link; the link is relative to the web app (the sender makes it
/// absolute). Inviting again before a password is set revokes the old link and sends a new one.
pub async fn invite(
    connection: &mut PgConnection,
    organisation_id: i64,
    email: &str,
    first_name: &str,
    last_name: &str,
) -> Result<std::result::Result<Invitation, InviteRefusal>> {
    let organisation: Option<String> = sqlx::query_scalar("select name from organisations where id = $1")
        .bind(organisation_id)
        .fetch_optional(&mut *connection)
        .await?;
    let Some(organisation_name) = organisation else {
        return Ok(Err(InviteRefusal::NoSuchOrganisation(organisation_id)));
    };
    let existing: Option<(i64, String, Option<i64>, bool)> = sqlx::query_as(
        "select id, account_kind, organisation_id, password_hash is not null from members where lower(email) = $1 for update",
    )
    .bind(email)
    .fetch_optional(&mut *connection)
    .await?;
    let (account_id, created) = match existing {
        Some((_, kind, _, _)) if kind != "provider" => return Ok(Err(InviteRefusal::MemberLogin(email.to_owned()))),
        Some((_, _, Some(organisation), _)) if organisation != organisation_id => {
            return Ok(Err(InviteRefusal::OtherOrganisation {
                email: email.to_owned(),
                organisation,
            }));
        }
        Some((_, _, _, true)) => return Ok(Err(InviteRefusal::AlreadyActive(email.to_owned()))),
        Some((id, ..)) => (id, false),
        None => {
            let id = sqlx::query_scalar(
                "insert into members (email, first_name, last_name, account_kind, organisation_id)
                 values ($1, $2, $3, 'provider', $4) returning id",
            )
            .bind(email)
            .bind(first_name)
            .bind(last_name)
            .bind(organisation_id)
            .fetch_one(&mut *connection)
            .await?;
            (id, true)
        }
    };
    let token = LinkToken::generate().map_err(|error| StoreError::InvalidData(format!("no randomness: {error}")))?;
    // The sign-up link's purpose: opening it proves the email and leads to setting the password.
    crate::tokens::issue(
        &mut *connection,
        account_id,
        Purpose::VerifyEmail,
        &token.hash,
        INVITATION_LIFETIME,
        email,
        None,
    )
    .await?;
    // `account=provider`: the pages this link leads to offer no member registration.
    let link = format!("/auth/reset-password?token={}&account=provider", token.plain);
    crate::outbox::enqueue(
        connection,
        &crate::outbox::NewEmail {
            to_email: email,
            kind: "provider_invite",
            link: Some(&link),
            facts: json!({ "organisation": organisation_name }),
        },
    )
    .await?;
    Ok(Ok(Invitation {
        account_id,
        organisation_name,
        created,
    }))
}

/// A provider account, for the operator's list.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProviderAccount {
    pub id: i64,
    pub email: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub organisation_id: i64,
    pub organisation_name: Option<String>,
    pub password_set: bool,
}

pub async fn list(pool: &PgPool) -> Result<Vec<ProviderAccount>> {
    Ok(sqlx::query_as(
        "select m.id, m.email, m.first_name, m.last_name, m.organisation_id, o.name as organisation_name,
                m.password_hash is not null as password_set
         from members m left join organisations o on o.id = m.organisation_id
         where m.account_kind = 'provider' order by m.organisation_id, m.email",
    )
    .fetch_all(pool)
    .await?)
}
