//! Rate limits on logins and on requests that send email, counted in PostgreSQL.

use std::time::Duration;

use store::PgPool;

use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;

/// The window every limit counts in.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// The limits in force (0 disables one).
#[derive(Debug, Clone, Copy)]
pub struct RateLimits {
    pub per_email: u32,
    pub per_client: u32,
    /// Failed logins for one email from all addresses together.
    pub per_email_ceiling: u32,
}

/// What a limit counts.
#[derive(Debug, Clone, Copy)]
pub enum Bucket<'a> {
    /// Failed logins for an email from one client address: the limit that stops guessing from
    /// one place without locking the owner out from theirs (OWASP: a lockout must not become a
    /// denial of service; see README "Rate limits").
    LoginEmailClient(&'a str, &'a str),
    /// Failed logins for an email from everywhere: a much higher ceiling, so guessing from
    /// many addresses is still bounded.
    LoginEmail(&'a str),
    /// Link emails requested for an address (magic link, verification, reset, change of email).
    LinkEmail(&'a str),
    /// Failed logins and link requests from one client address.
    Client(&'a str),
    /// Account lookups from one client (validate/email, verify): the per-client limit, counted
    /// apart so typing an email does not use up the login budget.
    Lookup(&'a str),
    /// Wrong current passwords for a signed-in member.
    PasswordChange(i64),
    /// Eligibility checks by a signed-in member (each is a roster lookup).
    Eligibility(i64),
    /// Requests to be called back, by a signed-in member (each is an email to support).
    ContactRequest(i64),
}

impl RateLimits {
    fn key_and_limit(&self, bucket: Bucket<'_>) -> (String, u32) {
        match bucket {
            Bucket::LoginEmailClient(email, client) => (format!("login:{email}:{client}"), self.per_email),
            Bucket::LoginEmail(email) => (format!("login:{email}"), self.per_email_ceiling),
            Bucket::LinkEmail(email) => (format!("link:{email}"), self.per_email),
            Bucket::Client(address) => (format!("client:{address}"), self.per_client),
            Bucket::Lookup(address) => (format!("lookup:{address}"), self.per_client),
            Bucket::PasswordChange(member) => (format!("password:{member}"), self.per_email),
            Bucket::Eligibility(member) => (format!("eligibility:{member}"), self.per_email.saturating_mul(2)),
            Bucket::ContactRequest(member) => (format!("contact:{member}"), self.per_email),
        }
    }

    /// Counts an attempt and refuses it (429) when it goes over the limit.
    pub async fn hit(&self, pool: &PgPool, bucket: Bucket<'_>) -> ApiResult<()> {
        let (key, limit) = self.key_and_limit(bucket);
        if limit == 0 {
            return Ok(());
        }
        let hits = store::rate_limits::hit(pool, &key, WINDOW).await?;
        if hits > i64::from(limit) {
            return Err(ApiError::known(codes::TOO_MANY_REQUESTS));
        }
        Ok(())
    }

    /// Refuses (429) when the limit is already reached, without counting (for logins, where
    /// only failures count).
    pub async fn check(&self, pool: &PgPool, bucket: Bucket<'_>) -> ApiResult<()> {
        let (key, limit) = self.key_and_limit(bucket);
        if limit == 0 {
            return Ok(());
        }
        if store::rate_limits::current(pool, &key, WINDOW).await? >= i64::from(limit) {
            return Err(ApiError::known(codes::TOO_MANY_REQUESTS));
        }
        Ok(())
    }

    /// Counts a failure without refusing anything.
    pub async fn record(&self, pool: &PgPool, bucket: Bucket<'_>) -> ApiResult<()> {
        let (key, limit) = self.key_and_limit(bucket);
        if limit > 0 {
            store::rate_limits::hit(pool, &key, WINDOW).await?;
        }
        Ok(())
    }
}
