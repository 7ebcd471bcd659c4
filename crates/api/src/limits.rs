//! Rate limits on logins and on requests that send email, counted in PostgreSQL so every
//! server sees the same counts.
//!
//! Nothing a stranger does may cost an account's owner (OWASP Authentication Cheat Sheet,
//! "Account Lockout": a lockout must not become a denial of service). So failed logins are
//! counted per client address and per (client address, account), never per account alone: a
//! guesser is stopped where they guess from, and the owner at their own address is not. And a
//! link request (magic link, reset, verification) is never refused for its address: it only
//! sends to the account's own inbox, so it is throttled instead ([`RateLimits::link_slot`]:
//! at most one link of a kind a minute, a request within the minute sent when it is up).

use std::time::Duration;

use chrono::{DateTime, Utc};
use store::PgPool;
use store::tokens::Purpose;

use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;

/// The window of the failure and request counts.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// The window of change-of-email links to one new address.
const CHANGE_EMAIL_WINDOW: Duration = Duration::from_secs(60);

/// The limits in force (0 disables one).
#[derive(Debug, Clone, Copy)]
pub struct RateLimits {
    /// Failed logins for one account from one client address; wrong current passwords of a
    /// signed-in member.
    pub per_email: u32,
    /// Failed logins and link requests from one client address.
    pub per_client: u32,
    /// The least time between two links of one kind to one address (zero: no throttle).
    pub link_interval: Duration,
}

/// What a limit counts.
#[derive(Debug, Clone, Copy)]
pub enum Bucket<'a> {
    /// Failed logins for an account from one client address: stops guessing from one place
    /// without touching the owner at theirs.
    LoginEmailClient(&'a str, &'a str),
    /// Failed logins and link requests from one client address, whatever the account.
    Client(&'a str),
    /// Account lookups from one client (validate/email, verify): the per-client limit, counted
    /// apart so typing an email does not use up the login budget.
    Lookup(&'a str),
    /// Change-of-email links to one new address (a signed-in call): one a minute.
    ChangeEmailTo(&'a str),
    /// Wrong current passwords for a signed-in member.
    PasswordChange(i64),
    /// Eligibility checks by a signed-in member (each is a roster lookup).
    Eligibility(i64),
    /// Requests to be called back, by a signed-in member (each is an email to support).
    ContactRequest(i64),
}

impl Bucket<'_> {
    /// The limit's name in metrics (never the email or address it counts).
    pub fn name(&self) -> &'static str {
        match self {
            Bucket::LoginEmailClient(..) => "login_email_client",
            Bucket::Client(_) => "client",
            Bucket::Lookup(_) => "lookup",
            Bucket::ChangeEmailTo(_) => "change_email_to",
            Bucket::PasswordChange(_) => "password_change",
            Bucket::Eligibility(_) => "eligibility",
            Bucket::ContactRequest(_) => "contact_request",
        }
    }
}

impl RateLimits {
    fn key_limit_and_window(&self, bucket: Bucket<'_>) -> (String, u32, Duration) {
        match bucket {
            Bucket::LoginEmailClient(email, client) => (format!("login:{email}:{client}"), self.per_email, WINDOW),
            Bucket::Client(address) => (format!("client:{address}"), self.per_client, WINDOW),
            Bucket::Lookup(address) => (format!("lookup:{address}"), self.per_client, WINDOW),
            Bucket::ChangeEmailTo(email) => (format!("change-email:{email}"), 1, CHANGE_EMAIL_WINDOW),
            Bucket::PasswordChange(member) => (format!("password:{member}"), self.per_email, WINDOW),
            Bucket::Eligibility(member) => (
                format!("eligibility:{member}"),
                self.per_email.saturating_mul(2),
                WINDOW,
            ),
            Bucket::ContactRequest(member) => (format!("contact:{member}"), self.per_email, WINDOW),
        }
    }

    /// Counts an attempt and refuses it (429) when it goes over the limit.
    pub async fn hit(&self, pool: &PgPool, bucket: Bucket<'_>) -> ApiResult<()> {
        let (key, limit, window) = self.key_limit_and_window(bucket);
        if limit == 0 {
            return Ok(());
        }
        let hits = store::rate_limits::hit(pool, &key, window).await?;
        if hits > i64::from(limit) {
            crate::metrics::rate_limit_refusal(bucket.name());
            return Err(ApiError::known(codes::TOO_MANY_REQUESTS));
        }
        Ok(())
    }

    /// Refuses (429) when the limit is already reached, without counting (for logins, where
    /// only failures count).
    pub async fn check(&self, pool: &PgPool, bucket: Bucket<'_>) -> ApiResult<()> {
        let (key, limit, window) = self.key_limit_and_window(bucket);
        if limit == 0 {
            return Ok(());
        }
        if store::rate_limits::current(pool, &key, window).await? >= i64::from(limit) {
            crate::metrics::rate_limit_refusal(bucket.name());
            return Err(ApiError::known(codes::TOO_MANY_REQUESTS));
        }
        Ok(())
    }

    /// Counts a failure without refusing anything.
    pub async fn record(&self, pool: &PgPool, bucket: Bucket<'_>) -> ApiResult<()> {
        let (key, limit, window) = self.key_limit_and_window(bucket);
        // The failure that reaches the limit locks the key for the rest of the window.
        if limit > 0 && store::rate_limits::hit(pool, &key, window).await? == i64::from(limit) {
            crate::metrics::lockout(bucket.name());
        }
        Ok(())
    }

    /// When a link of `purpose` asked for `email` may be sent: now, or a minute (the link
    /// interval) after the last one, or not at all when one is already waiting to go (it will
    /// carry the newest link). Keyed by the address alone, so it reads the same whether or not
    /// an account has it.
    pub async fn link_slot(&self, pool: &PgPool, email: &str, purpose: Purpose) -> ApiResult<LinkSlot> {
        if self.link_interval.is_zero() {
            return Ok(LinkSlot::At(None));
        }
        let key = format!("link:{}:{email}", purpose.as_str());
        Ok(
            match store::rate_limits::reserve_slot(pool, &key, self.link_interval).await? {
                Some(at) => LinkSlot::At(Some(at)),
                None => LinkSlot::AlreadyWaiting,
            },
        )
    }
}

/// When a requested link goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkSlot {
    /// At this time (`None`: now).
    At(Option<DateTime<Utc>>),
    /// A link of the same kind to the same address is already waiting for its slot.
    AlreadyWaiting,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_is_named_in_the_metrics() {
        let buckets = [
            Bucket::LoginEmailClient("a@b.co", "127.0.0.1"),
            Bucket::Client("127.0.0.1"),
            Bucket::Lookup("127.0.0.1"),
            Bucket::ChangeEmailTo("a@b.co"),
            Bucket::PasswordChange(1),
            Bucket::Eligibility(1),
            Bucket::ContactRequest(1),
        ];
        let names: Vec<&str> = buckets.iter().map(Bucket::name).collect();
        assert_eq!(names, crate::metrics::RATE_LIMITS);
    }
}
