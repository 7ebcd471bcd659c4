//! Emails with one-time links: their texts, writing them to the outbox in the caller's
//! transaction, and the background task that delivers the outbox.
//!
//! Delivery writes each message to the log (recipient, kind and subject at info level, the
//! body with its link at debug level); no SMTP client is configured yet. Operators and local
//! users read links from the `email_outbox` table (`scripts/outbox.sh`).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use sqlx::PgConnection;
use store::PgPool;
use store::tokens::Purpose;
use tokio::sync::Notify;

use crate::auth::LinkToken;

/// How long each kind of link works.
pub fn lifetime(purpose: Purpose) -> Duration {
    match purpose {
        Purpose::MagicLink => Duration::from_secs(15 * 60),
        Purpose::PasswordReset | Purpose::SetPassword => Duration::from_secs(60 * 60),
        Purpose::VerifyEmail | Purpose::ChangeEmail => Duration::from_secs(24 * 60 * 60),
    }
}

/// Builds links to the web app and writes link emails.
#[derive(Debug, Clone)]
pub struct Mailer {
    public_url: String,
    wake: Arc<Notify>,
}

impl Mailer {
    pub fn new(public_url: &str) -> Self {
        Self {
            public_url: public_url.trim_end_matches('/').to_owned(),
            wake: Arc::new(Notify::new()),
        }
    }

    /// The link a token of `purpose` is sent in.
    pub fn link(&self, purpose: Purpose, token: &str, email: &str) -> String {
        let base = &self.public_url;
        match purpose {
            Purpose::MagicLink => format!("{base}/login?magicLink={token}&email={}", percent_encode(email)),
            Purpose::ChangeEmail => format!("{base}/auth/confirm?token={token}"),
            Purpose::VerifyEmail | Purpose::PasswordReset | Purpose::SetPassword => {
                format!("{base}/auth/reset-password?token={token}")
            }
        }
    }

    /// Creates a token for `member_id` and writes its email to `to_email`, both on
    /// `connection` (the caller's transaction). Returns the token.
    pub async fn send_link(
        &self,
        connection: &mut PgConnection,
        member_id: i64,
        purpose: Purpose,
        to_email: &str,
        new_email: Option<&str>,
    ) -> Result<LinkToken> {
        let token = LinkToken::generate()?;
        store::tokens::issue(
            &mut *connection,
            member_id,
            purpose,
            &token.hash,
            lifetime(purpose),
            new_email,
        )
        .await?;
        let link = self.link(purpose, &token.plain, to_email);
        let (subject, text) = match purpose {
            Purpose::VerifyEmail => (
                "Verify your e-mail address",
                "Welcome! Confirm your e-mail address and choose your password with this link (valid for 24 hours):",
            ),
            Purpose::MagicLink => (
                "Your one-time login link",
                "Log in with this link. It works once and expires in 15 minutes:",
            ),
            Purpose::PasswordReset | Purpose::SetPassword => (
                "Reset your password",
                "Choose a new password with this link. It works once and expires in 1 hour. If you did not ask for it, ignore this e-mail:",
            ),
            Purpose::ChangeEmail => (
                "Confirm your new e-mail address",
                "Confirm that this is your new login e-mail with this link (valid for 24 hours):",
            ),
        };
        let body = format!("{text}\n\n{link}\n");
        store::outbox::enqueue(
            &mut *connection,
            &store::outbox::NewEmail {
                to_email,
                kind: purpose.as_str(),
                subject,
                body: &body,
                link: Some(&link),
            },
        )
        .await?;
        Ok(token)
    }

    /// Tells the sender that new mail is waiting (call after the commit).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Delivers the outbox until the process ends: on each wake-up and every 5 seconds. Once
    /// an hour it also deletes long-expired tokens and old rate-limit windows.
    pub async fn run_sender(self, pool: PgPool) {
        let mut last_prune = tokio::time::Instant::now();
        loop {
            match store::outbox::deliver_pending(&pool, 100, log_delivery).await {
                Ok(0) => {}
                Ok(sent) => tracing::debug!(sent, "outbox delivered"),
                Err(error) => tracing::warn!(error = %error, "outbox delivery failed"),
            }
            if last_prune.elapsed() > Duration::from_secs(3600) {
                last_prune = tokio::time::Instant::now();
                let tokens = store::tokens::prune(&pool).await;
                let windows = store::rate_limits::prune(&pool, Duration::from_secs(86_400)).await;
                tracing::debug!(?tokens, ?windows, "pruned expired tokens and rate-limit windows");
            }
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(Duration::from_secs(5)) => {}
            }
        }
    }
}

fn log_delivery(email: &store::outbox::OutboxEmail) -> bool {
    tracing::info!(id = email.id, to = %email.to_email, kind = %email.kind, subject = %email.subject, "email delivered to the log");
    tracing::debug!(id = email.id, body = %email.body, "email body");
    true
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_land_on_the_spa_routes_of_the_contract() {
        let mailer = Mailer::new("https://app.example/");
        assert_eq!(
            mailer.link(Purpose::VerifyEmail, "T", "a@b.co"),
            "https://app.example/auth/reset-password?token=T"
        );
        assert_eq!(
            mailer.link(Purpose::MagicLink, "T", "jane+1@example.com"),
            "https://app.example/login?magicLink=T&email=jane%2B1%40example.com"
        );
        assert_eq!(
            mailer.link(Purpose::ChangeEmail, "T", "a@b.co"),
            "https://app.example/auth/confirm?token=T"
        );
    }
}
