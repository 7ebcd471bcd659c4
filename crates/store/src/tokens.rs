//! One-time tokens: links sent by email and the short-lived token a validated link becomes.
//! Only a SHA-256 of each token is stored; a token is used at most once.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use crate::Result;

/// What a one-time token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The sign-up email: confirms the address and leads to setting the first password.
    VerifyEmail,
    /// Logs in without a password.
    MagicLink,
    /// Forgot password.
    PasswordReset,
    /// Issued when a verification or reset link is validated, to submit the new password with.
    SetPassword,
    /// Confirms a new login email.
    ChangeEmail,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::VerifyEmail => "verify_email",
            Self::MagicLink => "magic_link",
            Self::PasswordReset => "password_reset",
            Self::SetPassword => "set_password",
            Self::ChangeEmail => "change_email",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            Self::VerifyEmail,
            Self::MagicLink,
            Self::PasswordReset,
            Self::SetPassword,
            Self::ChangeEmail,
        ]
        .into_iter()
        .find(|purpose| purpose.as_str() == text)
    }
}

/// A stored token.
#[derive(Debug, Clone)]
pub struct TokenRecord {
    pub id: i64,
    pub member_id: i64,
    pub purpose: Purpose,
    pub new_email: Option<String>,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

type TokenRow = (
    i64,
    i64,
    String,
    Option<String>,
    DateTime<Utc>,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
);

fn record((id, member_id, purpose, new_email, expires_at, used_at, revoked_at): TokenRow) -> Option<TokenRecord> {
    Some(TokenRecord {
        id,
        member_id,
        purpose: Purpose::parse(&purpose)?,
        new_email,
        expires_at,
        used_at,
        revoked_at,
    })
}

/// Stores a new token valid for `lifetime`, sent to `sent_to`, revoking the member's earlier
/// unused tokens of the same purpose (only the newest link works).
pub async fn issue(
    connection: &mut PgConnection,
    member_id: i64,
    purpose: Purpose,
    token_hash: &[u8; 32],
    lifetime: Duration,
    sent_to: &str,
    new_email: Option<&str>,
) -> Result<i64> {
    sqlx::query(
        "update one_time_tokens set revoked_at = now()
         where member_id = $1 and purpose = $2 and used_at is null and revoked_at is null",
    )
    .bind(member_id)
    .bind(purpose.as_str())
    .execute(&mut *connection)
    .await?;
    let id = sqlx::query_scalar(
        "insert into one_time_tokens (member_id, purpose, token_hash, new_email, sent_to, expires_at)
         values ($1, $2, $3, $4, lower($5), now() + make_interval(secs => $6))
         returning id",
    )
    .bind(member_id)
    .bind(purpose.as_str())
    .bind(token_hash.as_slice())
    .bind(new_email)
    .bind(sent_to)
    .bind(lifetime.as_secs_f64())
    .fetch_one(&mut *connection)
    .await?;
    Ok(id)
}

/// Uses a token: when it exists with one of `purposes`, is unexpired, unused and not revoked,
/// and (but for a change of email, which goes to the new address) the account's login is still
/// the address it was sent to, it is marked used (atomically: of two concurrent uses, one wins)
/// and returned.
pub async fn consume(
    connection: &mut PgConnection,
    token_hash: &[u8; 32],
    purposes: &[Purpose],
) -> Result<Option<TokenRecord>> {
    let purposes: Vec<&str> = purposes.iter().map(|purpose| purpose.as_str()).collect();
    let row: Option<TokenRow> = sqlx::query_as(
        "update one_time_tokens t set used_at = now()
         where token_hash = $1 and purpose = any($2) and used_at is null and revoked_at is null and expires_at > now()
           and (purpose = 'change_email' or sent_to is null
                or sent_to = (select lower(email) from members m where m.id = t.member_id))
         returning id, member_id, purpose, new_email, expires_at, used_at, revoked_at",
    )
    .bind(token_hash.as_slice())
    .bind(&purposes)
    .fetch_optional(&mut *connection)
    .await?;
    Ok(row.and_then(record))
}

/// Reads a token whatever its state (used, expired or revoked), to find whose it was.
pub async fn find(pool: &PgPool, token_hash: &[u8; 32]) -> Result<Option<TokenRecord>> {
    let row: Option<TokenRow> = sqlx::query_as(
        "select id, member_id, purpose, new_email, expires_at, used_at, revoked_at
         from one_time_tokens where token_hash = $1",
    )
    .bind(token_hash.as_slice())
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(record))
}

/// Revokes every unused token of the member with one of `purposes` (after a password
/// change, outstanding reset and magic links stop working).
pub async fn revoke_all(connection: &mut PgConnection, member_id: i64, purposes: &[Purpose]) -> Result<u64> {
    let purposes: Vec<&str> = purposes.iter().map(|purpose| purpose.as_str()).collect();
    let done = sqlx::query(
        "update one_time_tokens set revoked_at = now()
         where member_id = $1 and purpose = any($2) and used_at is null and revoked_at is null",
    )
    .bind(member_id)
    .bind(&purposes)
    .execute(&mut *connection)
    .await?;
    Ok(done.rows_affected())
}

/// Deletes tokens that expired more than a day ago.
pub async fn prune(pool: &PgPool) -> Result<u64> {
    let done = sqlx::query("delete from one_time_tokens where expires_at < now() - interval '1 day'")
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// A one-time token for an emailed link: 32 random bytes, URL-safe base64 in the link, SHA-256
/// in the database.
pub struct LinkToken {
    /// What goes into the link; never stored.
    pub plain: String,
    pub hash: [u8; 32],
}

impl LinkToken {
    pub fn generate() -> std::result::Result<Self, getrandom::Error> {
        use base64::Engine;
        use sha2::Digest;
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        let plain = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        let hash = sha2::Sha256::digest(plain.as_bytes()).into();
        Ok(Self { plain, hash })
    }

    /// The stored hash of a token as received; `None` when the text cannot be a token (wrong
    /// length or characters), so junk never reaches the database.
    pub fn hash_of(text: &str) -> Option<[u8; 32]> {
        use sha2::Digest;
        let text = text.trim();
        let shaped = text.len() == 43
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        shaped.then(|| sha2::Sha256::digest(text.as_bytes()).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_tokens_are_43_url_safe_characters_and_hash_to_32_bytes() {
        let token = LinkToken::generate().unwrap();
        assert_eq!(token.plain.len(), 43);
        assert_eq!(LinkToken::hash_of(&token.plain), Some(token.hash));
        assert_ne!(LinkToken::generate().unwrap().plain, token.plain);
        assert_eq!(LinkToken::hash_of("short"), None);
        assert_eq!(LinkToken::hash_of(&format!("{}'", &token.plain[..42])), None);
    }
}
