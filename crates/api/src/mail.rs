//! Emails: writing them to the outbox in the caller's transaction, and the background sender
//! that renders them (templates of `crates/mail`) and delivers them.
//!
//! Delivery is SMTP when `NEARCARE_SMTP_URL` is set. Without it the server is in development
//! mailbox mode: each message is marked delivered to the log and its link is kept; a server
//! asked to (`NEARCARE_DEV_MAILBOX`) whose listen address and public URL are loopback shows the
//! messages at `/dev/mailbox`.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use mail::{Rendered, SendError, Smtp, Templates};
use serde_json::{Value, json};
use sqlx::PgConnection;
use sqlx::postgres::PgListener;
use store::PgPool;
use store::outbox::OutboxEmail;
use store::tokens::Purpose;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;
use tracing::Instrument;

use crate::auth::LinkToken;
use crate::metrics;

/// The channel `store::outbox::enqueue` and the waitlist trigger notify.
pub const OUTBOX_CHANNEL: &str = "email_outbox";

/// How long each kind of link works. A magic link signs in by itself, so it lives 10 minutes,
/// the bound OWASP ASVS 5.0 sets for out-of-band sign-in codes.
pub fn lifetime(purpose: Purpose) -> Duration {
    match purpose {
        Purpose::MagicLink => Duration::from_secs(10 * 60),
        Purpose::PasswordReset | Purpose::SetPassword => Duration::from_secs(60 * 60),
        Purpose::VerifyEmail | Purpose::ChangeEmail => Duration::from_secs(24 * 60 * 60),
    }
}

/// Builds links to the web app, writes emails to the outbox and renders them.
#[derive(Debug, Clone)]
pub struct Mailer {
    public_url: String,
    wake: Arc<Notify>,
    templates: Arc<Templates>,
    /// Whether `/dev/mailbox` is served (asked for, no SMTP, loopback; see `app`).
    mailbox: bool,
}

impl Mailer {
    pub fn new(public_url: &str) -> Self {
        Self {
            public_url: public_url.trim_end_matches('/').to_owned(),
            wake: Arc::new(Notify::new()),
            templates: Arc::new(Templates::new()),
            mailbox: false,
        }
    }

    /// The same, serving the development mailbox page.
    #[must_use]
    pub fn with_mailbox(mut self, mailbox: bool) -> Self {
        self.mailbox = mailbox;
        self
    }

    /// Whether `/dev/mailbox` is served.
    pub fn serves_mailbox(&self) -> bool {
        self.mailbox
    }

    /// The web app's address, without a trailing slash.
    pub fn public_url(&self) -> &str {
        &self.public_url
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

    /// A clinic's profile page.
    pub fn clinic_link(&self, organisation_id: i64, location_id: i64) -> String {
        format!(
            "{}/marketplace/provider/details/{organisation_id}?location={location_id}",
            self.public_url
        )
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
        let (token, link) = self
            .issue_link(&mut *connection, member_id, purpose, to_email, new_email)
            .await?;
        store::outbox::enqueue(
            &mut *connection,
            &store::outbox::NewEmail {
                to_email,
                kind: purpose.as_str(),
                link: Some(&link),
                facts: json!({}),
            },
        )
        .await?;
        Ok(token)
    }

    /// Creates a token of `purpose` for `member_id` on `connection` (revoking the member's
    /// earlier ones of that purpose) and returns it with the link it is sent in.
    pub async fn issue_link(
        &self,
        connection: &mut PgConnection,
        member_id: i64,
        purpose: Purpose,
        to_email: &str,
        new_email: Option<&str>,
    ) -> Result<(LinkToken, String)> {
        let token = LinkToken::generate()?;
        store::tokens::issue(
            &mut *connection,
            member_id,
            purpose,
            &token.hash,
            lifetime(purpose),
            to_email,
            new_email,
        )
        .await?;
        let mut link = self.link(purpose, &token.plain, to_email);
        // A provider's link says so: the page it leads to (and /expired after it) offers no
        // member registration.
        let kind: Option<String> = sqlx::query_scalar("select account_kind from members where id = $1")
            .bind(member_id)
            .fetch_optional(&mut *connection)
            .await?;
        if kind.as_deref() == Some("provider") && link.contains("/auth/reset-password?") {
            link.push_str("&account=provider");
        }
        Ok((token, link))
    }

    /// Tells this server's sender that new mail is waiting (call after the commit; other
    /// servers hear the NOTIFY).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Writes a stored message from its template. `Err` is permanent: the message cannot be
    /// written (its clinic is gone, an unknown kind).
    pub async fn render(&self, pool: &PgPool, email: &OutboxEmail) -> Result<Rendered, String> {
        let mut context = match &email.facts {
            Value::Object(facts) => Value::Object(facts.clone()),
            _ => json!({}),
        };
        let mut kind = email.kind.as_str();
        if let Some(body) = &email.body {
            // Written before rendering moved here: sent as it was, its relative link made absolute.
            kind = "legacy";
            let body = body.replace("\n/marketplace/", &format!("\n{}/marketplace/", self.public_url));
            context["subject"] = json!(email.subject.clone().unwrap_or_default());
            context["body"] = json!(body);
        } else if let Some(link) = &email.link {
            // Links written where the public URL is unknown (the database, the CLI) are relative.
            let link = if link.starts_with('/') {
                format!("{}{link}", self.public_url)
            } else {
                link.clone()
            };
            context["link"] = json!(link);
        }
        if let Some(location_id) = email.facts.get("location_id").and_then(Value::as_i64) {
            let clinic = store::outbox::clinic_facts(pool, location_id)
                .await
                .map_err(|error| format!("reading clinic {location_id}: {error}"))?
                .ok_or_else(|| format!("clinic {location_id} no longer exists"))?;
            context["link"] = json!(self.clinic_link(clinic.organisation_id, clinic.id));
            context["clinic"] = json!({
                "name": clinic.name,
                "location_name": clinic.location_name,
                "address": clinic.address,
            });
        }
        if kind == "eligibility_outcome" && email.link.is_none() {
            context["link"] = json!(format!("{}/", self.public_url));
        }
        if kind == "benefit_offered" {
            // Written by the CLI, which knows no public URL: sign-up with the employer chosen.
            let company = email
                .facts
                .get("company_name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            context["link"] = json!(format!(
                "{}/register?company={}",
                self.public_url,
                percent_encode(company)
            ));
        }
        self.templates.render(kind, &context).map_err(|error| error.to_string())
    }

    /// The development mailbox: the newest messages, rendered, with their links.
    pub async fn mailbox_page(&self, pool: &PgPool) -> Result<String> {
        let emails = store::outbox::recent(pool, 50).await?;
        let mut page = String::from(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Development mailbox</title>\
             <style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}\
             article{border:1px solid #d1d5db;border-radius:6px;padding:1rem;margin:1rem 0}\
             pre{white-space:pre-wrap}small{color:#6b7280}</style></head><body>\
             <h1>Development mailbox</h1><p>No SMTP server is configured (<code>NEARCARE_SMTP_URL</code>), so the \
             messages this server would send are listed here, newest first. This page exists only when \
             <code>NEARCARE_DEV_MAILBOX</code> is set on a loopback server without SMTP.</p>",
        );
        if emails.is_empty() {
            page.push_str("<p>No messages yet.</p>");
        }
        for email in &emails {
            let rendered = self.render(pool, email).await;
            let (subject, text) = match &rendered {
                Ok(rendered) => (rendered.subject.clone(), rendered.text.clone()),
                Err(error) => (
                    email.subject.clone().unwrap_or_default(),
                    format!("(not renderable: {error})"),
                ),
            };
            let _ = write!(
                page,
                "<article><h2>{}</h2><p><small>To <strong>{}</strong> · {} · {} · {}</small></p><pre>{}</pre></article>",
                escape(&subject),
                escape(&email.to_email),
                email.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
                escape(&email.kind),
                match email.state.as_str() {
                    "sent" => "not emailed (no SMTP), shown here",
                    "pending" => "waiting",
                    other => other,
                },
                linkify(&text),
            );
        }
        page.push_str("</body></html>");
        Ok(page)
    }
}

/// How the sender delivers.
#[derive(Debug, Clone)]
pub enum Delivery {
    Smtp(Box<Smtp>),
    /// Development mailbox: written to the log, links kept for `/dev/mailbox`.
    Log,
}

/// The sender's timing.
#[derive(Debug, Clone)]
pub struct SenderSettings {
    /// How often due retries are looked for when nothing wakes the sender.
    pub poll: Duration,
    /// How long a claimed message is held before another sender may take it; a live sender
    /// renews it every third of it, so it only bounds how long a crashed sender's messages wait.
    pub lease: Duration,
    /// The first retry's delay; each further one doubles, up to `retry_max`, with jitter.
    pub retry_base: Duration,
    pub retry_max: Duration,
    /// Attempts after which a temporary failure is final.
    pub max_attempts: i32,
    pub batch: i64,
}

impl Default for SenderSettings {
    fn default() -> Self {
        Self {
            poll: Duration::from_secs(2),
            lease: Duration::from_secs(15),
            retry_base: Duration::from_secs(30),
            retry_max: Duration::from_secs(3600),
            max_attempts: 8,
            batch: 20,
        }
    }
}

/// Drains the outbox of one pool: any number of them may run, in one process or many.
pub struct Sender {
    pub pool: PgPool,
    pub mailer: Mailer,
    pub delivery: Delivery,
    pub settings: SenderSettings,
    /// The domain of Message-IDs.
    pub domain: String,
}

impl Sender {
    /// Delivers until `stop` turns true: on each wake-up, each NOTIFY and every `poll`. A
    /// message being sent is finished first. Once an hour it also forgets old links, expired
    /// tokens and old rate-limit windows.
    pub async fn run(self, mut stop: watch::Receiver<bool>) {
        let mut listener = PgListener::connect_with(&self.pool).await.ok();
        if let Some(listener) = listener.as_mut()
            && listener.listen(OUTBOX_CHANNEL).await.is_err()
        {
            tracing::warn!("could not LISTEN for new emails; polling only");
        }
        let mut last_prune: Option<tokio::time::Instant> = None;
        while !*stop.borrow() {
            match self.drain(&stop).await {
                Ok(0) => {}
                Ok(handled) => tracing::debug!(handled, "outbox drained"),
                Err(error) => tracing::warn!(error = %error, "outbox delivery failed"),
            }
            if last_prune.is_none_or(|at| at.elapsed() > Duration::from_secs(3600)) {
                last_prune = Some(tokio::time::Instant::now());
                self.prune().await;
            }
            let notified = next_notification(listener.as_mut());
            tokio::select! {
                _ = stop.changed() => {}
                () = self.mailer.wake.notified() => {}
                () = notified => {}
                () = tokio::time::sleep(self.settings.poll) => {}
            }
        }
        tracing::debug!("outbox sender stopped");
    }

    async fn prune(&self) {
        let links = store::outbox::forget_old_links(&self.pool, Duration::from_secs(2 * 86_400)).await;
        let tokens = store::tokens::prune(&self.pool).await;
        let windows = store::rate_limits::prune(&self.pool, Duration::from_secs(86_400)).await;
        tracing::debug!(
            ?links,
            ?tokens,
            ?windows,
            "pruned old links, expired tokens and rate-limit windows"
        );
    }

    /// Claims and handles batches until nothing is due. Returns how many messages were handled.
    /// While a batch is handled its lease is renewed, so the lease can be short: a sender that
    /// dies holds its messages for at most one lease.
    pub async fn drain(&self, stop: &watch::Receiver<bool>) -> Result<usize> {
        let mut handled = 0;
        loop {
            let holder = lease_holder();
            let batch = store::outbox::claim(
                &self.pool,
                self.settings.batch,
                self.settings.lease,
                &self.domain,
                &holder,
            )
            .await?;
            if batch.is_empty() {
                return Ok(handled);
            }
            let delivered = async {
                for email in &batch {
                    // The message's log lines name it and the request that enqueued it.
                    let span = tracing::info_span!("email", id = email.id, kind = %email.kind, request_id = tracing::field::Empty);
                    if let Some(request_id) = &email.request_id {
                        span.record("request_id", tracing::field::display(request_id));
                    }
                    self.deliver(email).instrument(span).await?;
                    handled += 1;
                }
                anyhow::Ok(())
            };
            tokio::select! {
                result = delivered => result?,
                () = self.renew_lease(&holder) => {}
            }
            if *stop.borrow() {
                // The rest of the claimed batch was handled; anything newer waits for the next server.
                return Ok(handled);
            }
        }
    }

    /// Renews the lease of the claim `holder` every third of the lease; never completes.
    async fn renew_lease(&self, holder: &str) {
        let every = self.settings.lease / 3;
        loop {
            tokio::time::sleep(every).await;
            if let Err(error) = store::outbox::renew_lease(&self.pool, holder, self.settings.lease).await {
                tracing::warn!(error = %error, "renewing the outbox lease failed");
            }
        }
    }

    async fn deliver(&self, email: &OutboxEmail) -> Result<()> {
        let resolved;
        let email = if email.kind == store::outbox::LINK_REQUEST {
            match self.resolve_link_request(email).await? {
                Some(link_email) => {
                    resolved = link_email;
                    &resolved
                }
                None => return Ok(()),
            }
        } else {
            email
        };
        let rendered = match self.mailer.render(&self.pool, email).await {
            Ok(rendered) => rendered,
            Err(error) => {
                tracing::warn!(id = email.id, kind = %email.kind, error = %error, "email cannot be written: failed");
                store::outbox::mark_failed(&self.pool, email.id, &error).await?;
                metrics::email_delivery(metrics::Delivery::Failed, None);
                return Ok(());
            }
        };
        let message_id = email.message_id.as_deref().unwrap_or_default();
        let sending = Instant::now();
        // Never the body: it holds the one-time link.
        let outcome = match &self.delivery {
            Delivery::Smtp(smtp) => smtp.send(&email.to_email, message_id, &rendered).await,
            Delivery::Log => {
                tracing::info!(id = email.id, to = %email.to_email, kind = %email.kind, subject = %rendered.subject, "email delivered to the development mailbox");
                Ok(())
            }
        };
        let took = Some(sending.elapsed());
        let recorded = match &outcome {
            Ok(()) => metrics::Delivery::Sent,
            Err(SendError::Temporary(_)) if email.attempts < self.settings.max_attempts => metrics::Delivery::Retry,
            Err(_) => metrics::Delivery::Failed,
        };
        metrics::email_delivery(recorded, took);
        match outcome {
            Ok(()) => {
                let keep_link = matches!(self.delivery, Delivery::Log);
                store::outbox::mark_sent(&self.pool, email.id, &rendered.subject, keep_link).await?;
                if !keep_link {
                    tracing::info!(id = email.id, to = %email.to_email, kind = %email.kind, message_id, "email sent");
                }
            }
            Err(SendError::Permanent(error)) => {
                tracing::warn!(id = email.id, to = %email.to_email, error = %error, "email refused: failed");
                store::outbox::mark_failed(&self.pool, email.id, &error).await?;
            }
            Err(SendError::Temporary(error)) if email.attempts >= self.settings.max_attempts => {
                let error = format!("{error} (after {} attempts)", email.attempts);
                tracing::warn!(id = email.id, to = %email.to_email, error = %error, "email not delivered: failed");
                store::outbox::mark_failed(&self.pool, email.id, &error).await?;
            }
            Err(SendError::Temporary(error)) => {
                let delay = backoff(&self.settings, email.attempts);
                tracing::info!(id = email.id, attempts = email.attempts, retry_in = ?delay, error = %error, "email delivery failed, will retry");
                store::outbox::mark_retry(&self.pool, email.id, &error, delay).await?;
            }
        }
        Ok(())
    }

    /// Turns a link request into its link's message: issues the token for the account with
    /// the address and writes the link into the row, or deletes the row when no account has
    /// the address. `None` when there is nothing to send.
    async fn resolve_link_request(&self, email: &OutboxEmail) -> Result<Option<OutboxEmail>> {
        let purpose = email
            .facts
            .get("purpose")
            .and_then(Value::as_str)
            .and_then(Purpose::parse);
        let Some(purpose) = purpose else {
            store::outbox::mark_failed(&self.pool, email.id, "a link request without a purpose").await?;
            return Ok(None);
        };
        let Some(member) = store::members::find_by_email(&self.pool, &email.to_email).await? else {
            store::outbox::drop_link_request(&self.pool, email.id).await?;
            tracing::debug!(id = email.id, "link request for an address without an account dropped");
            return Ok(None);
        };
        let mut transaction = self.pool.begin().await?;
        let (_, link) = self
            .mailer
            .issue_link(&mut transaction, member.id, purpose, &email.to_email, None)
            .await?;
        if !store::outbox::resolve_link_request(&mut transaction, email.id, purpose.as_str(), &link).await? {
            // Resolved by another sender meanwhile: this token is not kept.
            return Ok(None);
        }
        transaction.commit().await?;
        Ok(Some(OutboxEmail {
            kind: purpose.as_str().to_owned(),
            link: Some(link),
            ..email.clone()
        }))
    }
}

/// A name for one claim of the outbox, which its sender renews the lease of.
fn lease_holder() -> String {
    let mut bytes = [0u8; 8];
    let random = getrandom::fill(&mut bytes).map_or(0, |()| u64::from_le_bytes(bytes));
    format!("{}-{random:016x}", std::process::id())
}

/// The delay after the `attempts`-th failed attempt: `retry_base` doubled per attempt, capped at
/// `retry_max`, then a random point in its upper half (so servers that failed together do not
/// retry together).
pub fn backoff(settings: &SenderSettings, attempts: i32) -> Duration {
    let exponent = u32::try_from(attempts.saturating_sub(1)).unwrap_or(0).min(30);
    let full = settings
        .retry_base
        .saturating_mul(1u32 << exponent)
        .min(settings.retry_max);
    let mut byte = [0u8; 2];
    let random = if getrandom::fill(&mut byte).is_ok() {
        f64::from(u16::from_le_bytes(byte)) / f64::from(u16::MAX)
    } else {
        0.5
    };
    full.mul_f64(0.5 + random / 2.0)
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(byte as char);
        } else {
            let _ = write!(encoded, "%{byte:02X}");
        }
    }
    encoded
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escapes text and turns each http(s) address in it into a link.
fn linkify(text: &str) -> String {
    let mut html = String::new();
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            html.push('\n');
        }
        for (position, word) in line.split(' ').enumerate() {
            if position > 0 {
                html.push(' ');
            }
            if word.starts_with("http://") || word.starts_with("https://") {
                let word = escape(word);
                let _ = write!(html, "<a href=\"{word}\">{word}</a>");
            } else {
                html.push_str(&escape(word));
            }
        }
    }
    html
}

/// Completes at the next notification on `listener`; never without a listener or once its
/// connection fails (the caller's poll interval wakes it then).
pub(crate) async fn next_notification(listener: Option<&mut PgListener>) {
    if let Some(listener) = listener
        && listener.recv().await.is_ok()
    {
        return;
    }
    std::future::pending::<()>().await;
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
        assert_eq!(
            mailer.clinic_link(3, 7),
            "https://app.example/marketplace/provider/details/3?location=7"
        );
    }

    #[test]
    fn backoff_doubles_with_jitter_and_is_capped() {
        let settings = SenderSettings {
            retry_base: Duration::from_secs(10),
            retry_max: Duration::from_secs(60),
            ..SenderSettings::default()
        };
        for _ in 0..50 {
            let first = backoff(&settings, 1);
            assert!(
                first >= Duration::from_secs(5) && first <= Duration::from_secs(10),
                "{first:?}"
            );
            let third = backoff(&settings, 3);
            assert!(
                third >= Duration::from_secs(20) && third <= Duration::from_secs(40),
                "{third:?}"
            );
            let late = backoff(&settings, 40);
            assert!(
                late >= Duration::from_secs(30) && late <= Duration::from_secs(60),
                "{late:?}"
            );
        }
    }

    #[test]
    fn mailbox_links_are_escaped_and_clickable() {
        assert_eq!(
            linkify("Go <here>:\nhttps://a.example/x?t=1&e=2"),
            "Go &lt;here&gt;:\n<a href=\"https://a.example/x?t=1&amp;e=2\">https://a.example/x?t=1&amp;e=2</a>"
        );
    }
}
