//! Email messages: the templates every message is written from (a plain-text and an HTML part
//! per kind, in `templates/`), MIME messages with a caller-chosen `Message-ID`, and delivery
//! over SMTP (lettre with rustls) with each failure classified as temporary or permanent.
//!
//! The crate knows nothing of the database: `crates/api` reads the outbox, gathers each
//! message's facts and hands them here.

use std::net::IpAddr;
use std::time::Duration;

use lettre::message::{Mailbox, MultiPart, header};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use minijinja::Environment;

/// A message written from its template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("no template for email kind {0:?}")]
    UnknownKind(String),
    #[error("template {0}: {1}")]
    Template(String, minijinja::Error),
    #[error("template {0} has no 'Subject:' first line")]
    NoSubject(String),
}

/// The kinds written to the operator's own addresses (support, sales) rather than to a member:
/// they name a person to reach and carry no link.
pub const OPERATOR_KINDS: &[&str] = &["contact_request", "sales_lead"];

/// The message kinds with a template.
pub const KINDS: &[&str] = &[
    "verify_email",
    "magic_link",
    "password_reset",
    "set_password",
    "change_email",
    "password_changed",
    "email_changed",
    "waitlist_open",
    "area_open",
    "eligibility_outcome",
    "provider_invite",
    "participation_review",
    "participation_outcome",
    "contact_request",
    "sales_lead",
    "benefit_offered",
    "attestation_reminder",
    "clinic_member",
    "membership_activated",
    "membership_declined",
    "membership_ended",
    "legacy",
];

macro_rules! templates {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../templates/", $name)))),*]
    };
}

const SOURCES: &[(&str, &str)] = templates![
    "base.html",
    "verify_email.txt",
    "verify_email.html",
    "magic_link.txt",
    "magic_link.html",
    "password_reset.txt",
    "password_reset.html",
    "set_password.txt",
    "set_password.html",
    "change_email.txt",
    "change_email.html",
    "password_changed.txt",
    "password_changed.html",
    "email_changed.txt",
    "email_changed.html",
    "waitlist_open.txt",
    "waitlist_open.html",
    "area_open.txt",
    "area_open.html",
    "eligibility_outcome.txt",
    "eligibility_outcome.html",
    "provider_invite.txt",
    "provider_invite.html",
    "participation_review.txt",
    "participation_review.html",
    "participation_outcome.txt",
    "participation_outcome.html",
    "contact_request.txt",
    "contact_request.html",
    "sales_lead.txt",
    "sales_lead.html",
    "benefit_offered.txt",
    "benefit_offered.html",
    "attestation_reminder.txt",
    "attestation_reminder.html",
    "clinic_member.txt",
    "clinic_member.html",
    "membership_activated.txt",
    "membership_activated.html",
    "membership_declined.txt",
    "membership_declined.html",
    "membership_ended.txt",
    "membership_ended.html",
    "legacy.txt",
    "legacy.html",
];

/// The templates, parsed once. `.html` templates escape what they insert; `.txt` ones do not.
#[derive(Debug)]
pub struct Templates {
    environment: Environment<'static>,
}

impl Default for Templates {
    fn default() -> Self {
        Self::new()
    }
}

impl Templates {
    pub fn new() -> Self {
        let mut environment = Environment::new();
        // HTML templates escape & < > " ' only: minijinja's default also writes `/` as `&#x2f;`,
        // which would make every link in the HTML part differ from the one in the text part.
        environment.set_formatter(|out, state, value| {
            if matches!(state.auto_escape(), minijinja::AutoEscape::Html) && !value.is_safe() {
                if value.is_none() || value.is_undefined() {
                    return Ok(());
                }
                let text = value.to_string();
                let escaped = text
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;")
                    .replace('\'', "&#39;");
                out.write_str(&escaped).map_err(minijinja::Error::from)
            } else {
                minijinja::escape_formatter(out, state, value)
            }
        });
        for (name, source) in SOURCES {
            environment
                .add_template(name, source)
                .unwrap_or_else(|error| panic!("template {name} parses: {error}"));
        }
        Self { environment }
    }

    /// Writes a message of `kind` from `context` (its facts: `link`, `clinic`, ...). The text
    /// template's first line is `Subject: ...`; the HTML template receives the subject too.
    pub fn render(&self, kind: &str, context: &serde_json::Value) -> Result<Rendered, RenderError> {
        if !KINDS.contains(&kind) {
            return Err(RenderError::UnknownKind(kind.to_owned()));
        }
        let text_name = format!("{kind}.txt");
        let text_template = self
            .environment
            .get_template(&text_name)
            .map_err(|error| RenderError::Template(text_name.clone(), error))?;
        let whole = text_template
            .render(minijinja::value::Serde(context))
            .map_err(|error| RenderError::Template(text_name.clone(), error))?;
        let (first, text) = whole.split_once('\n').unwrap_or((whole.as_str(), ""));
        let subject = first
            .strip_prefix("Subject:")
            .ok_or_else(|| RenderError::NoSubject(text_name.clone()))?
            .trim()
            .to_owned();
        let html_name = format!("{kind}.html");
        let mut html_context = context.clone();
        if let Some(object) = html_context.as_object_mut() {
            object.insert("subject".into(), serde_json::Value::String(subject.clone()));
        }
        let html = self
            .environment
            .get_template(&html_name)
            .and_then(|template| template.render(minijinja::value::Serde(&html_context)))
            .map_err(|error| RenderError::Template(html_name, error))?;
        Ok(Rendered {
            subject,
            text: text.trim_start_matches('\n').to_owned(),
            html,
        })
    }
}

/// How a message could not be delivered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Worth trying again later: a 4xx answer, a refused connection, a timeout, a TLS hiccup.
    #[error("temporary: {0}")]
    Temporary(String),
    /// Will not work however often it is tried: a 5xx answer or an address that cannot be
    /// written.
    #[error("permanent: {0}")]
    Permanent(String),
}

/// The settings of the SMTP relay.
#[derive(Clone)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub credentials: Option<(String, String)>,
    pub timeout: Duration,
}

impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.credentials.as_ref().map(|(user, _)| user))
            .finish_non_exhaustive()
    }
}

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// `smtps://`: TLS from the first byte (port 465 by default).
    Tls,
    /// `smtp://`: STARTTLS required (port 587 by default).
    StartTls,
    /// `smtp://` to a loopback host, or `?tls=opportunistic`: STARTTLS when offered.
    Opportunistic,
    /// `?tls=none`: plain text, only accepted for a loopback host.
    None,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("NEARCARE_SMTP_URL: {0}")]
pub struct SettingsError(String);

impl SmtpSettings {
    /// Reads `smtp://[user:password@]host[:port][?tls=required|opportunistic|none]` or
    /// `smtps://[user:password@]host[:port]`. `smtp://` requires STARTTLS, except to a loopback
    /// host (a local relay or a test server), where STARTTLS is used when offered. Separate
    /// `user` and `password` settings take the place of those in the URL.
    pub fn from_url(url: &str, user: Option<&str>, password: Option<&str>) -> Result<Self, SettingsError> {
        let error = |text: &str| SettingsError(text.to_owned());
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| error("expected smtp://host[:port] or smtps://host[:port]"))?;
        let (authority, query) = rest.split_once('?').unwrap_or((rest, ""));
        let authority = authority.trim_end_matches('/');
        let (userinfo, hostport) = match authority.rsplit_once('@') {
            Some((userinfo, hostport)) => (Some(userinfo), hostport),
            None => (None, authority),
        };
        let (host, port) = split_host_port(hostport).ok_or_else(|| error("the port is not a number"))?;
        if host.is_empty() {
            return Err(error("no host"));
        }
        let loopback = is_loopback(&host);
        let tls = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("tls="))
            .map(str::to_owned);
        let (security, default_port) = match (scheme, tls.as_deref()) {
            ("smtps", None) => (Security::Tls, 465),
            ("smtp", Some("required")) => (Security::StartTls, 587),
            ("smtp", None) if !loopback => (Security::StartTls, 587),
            ("smtp", None | Some("opportunistic")) => (Security::Opportunistic, 587),
            ("smtp", Some("none")) if loopback => (Security::None, 25),
            ("smtp", Some("none")) => return Err(error("tls=none is only accepted for a loopback host")),
            ("smtp" | "smtps", Some(_)) => return Err(error("tls must be required, opportunistic or none")),
            _ => return Err(error("the scheme must be smtp or smtps")),
        };
        let mut credentials = userinfo.map(|userinfo| {
            let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
            (percent_decode(user), percent_decode(password))
        });
        if let Some(user) = user {
            let password = password
                .map(str::to_owned)
                .or_else(|| credentials.as_ref().map(|(_, password)| password.clone()))
                .unwrap_or_default();
            credentials = Some((user.to_owned(), password));
        } else if let (Some(password), Some((_, stored))) = (password, credentials.as_mut()) {
            password.clone_into(stored);
        }
        Ok(Self {
            host,
            port: port.unwrap_or(default_port),
            security,
            credentials,
            timeout: Duration::from_secs(20),
        })
    }
}

fn split_host_port(hostport: &str) -> Option<(String, Option<u16>)> {
    if let Some(rest) = hostport.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(port) => Some(port.parse().ok()?),
            None => None,
        };
        return Some((host.to_owned(), port));
    }
    match hostport.rsplit_once(':') {
        Some((host, port)) => Some((host.to_owned(), Some(port.parse().ok()?))),
        None => Some((hostport.to_owned(), None)),
    }
}

/// Whether `host` names this machine (`localhost`, 127.0.0.0/8, `::1`).
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && let Some(byte) = text
                .get(index + 1..index + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            decoded.push(byte);
            index += 3;
            continue;
        }
        decoded.push(bytes[index]);
        index += 1;
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// An SMTP relay messages are sent through (a connection per message: the outbox is drained
/// in small batches, and a pooled connection would outlive a relay restart).
#[derive(Clone)]
pub struct Smtp {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Smtp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Smtp")
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

impl Smtp {
    pub fn new(settings: &SmtpSettings, from: &str) -> Result<Self, SettingsError> {
        let from: Mailbox = from
            .parse()
            .map_err(|error| SettingsError(format!("NEARCARE_MAIL_FROM {from:?}: {error}")))?;
        let tls = |host: &str| {
            TlsParameters::new(host.to_owned()).map_err(|error| SettingsError(format!("TLS for {host}: {error}")))
        };
        let tls = match settings.security {
            Security::Tls => Tls::Wrapper(tls(&settings.host)?),
            Security::StartTls => Tls::Required(tls(&settings.host)?),
            Security::Opportunistic => Tls::Opportunistic(tls(&settings.host)?),
            Security::None => Tls::None,
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(settings.host.clone())
            .port(settings.port)
            .tls(tls)
            .timeout(Some(settings.timeout));
        if let Some((user, password)) = &settings.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Self {
            transport: builder.build(),
            from,
        })
    }

    /// The domain of the sender address, for Message-IDs.
    pub fn from_domain(&self) -> String {
        self.from.email.domain().to_owned()
    }

    /// Sends one message with both parts and the given `Message-ID` (`<...@...>`).
    pub async fn send(&self, to: &str, message_id: &str, rendered: &Rendered) -> Result<(), SendError> {
        let message = build_message(&self.from, to, message_id, rendered)?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            Err(error) => Err(classify(&error)),
        }
    }
}

/// Builds the MIME message: multipart/alternative with the text part first.
pub fn build_message(from: &Mailbox, to: &str, message_id: &str, rendered: &Rendered) -> Result<Message, SendError> {
    let to: Mailbox = to
        .parse()
        .map_err(|error| SendError::Permanent(format!("recipient {to:?}: {error}")))?;
    Message::builder()
        .from(from.clone())
        .to(to)
        .subject(rendered.subject.clone())
        .message_id(Some(message_id.to_owned()))
        .header(header::MIME_VERSION_1_0)
        .multipart(MultiPart::alternative_plain_html(
            rendered.text.clone(),
            rendered.html.clone(),
        ))
        .map_err(|error| SendError::Permanent(format!("building the message: {error}")))
}

fn classify(error: &lettre::transport::smtp::Error) -> SendError {
    let text = error.to_string();
    if error.is_permanent() {
        SendError::Permanent(text)
    } else {
        // 4xx answers, refused connections, timeouts, TLS and protocol hiccups: try again.
        SendError::Temporary(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_renders_both_parts_with_the_link() {
        let templates = Templates::new();
        let context = serde_json::json!({
            "link": "https://app.example/x?token=T&email=a%40b.co",
            "clinic": {"name": "Denver <Clinic>", "location_name": "Main", "address": "1 Road, Denver, CO 80202"},
            "area": "Denver, CO", "miles": "3.2",
            "confirmed": true, "first_name": "Jane", "whose": "your", "reason": "",
            "subject": "Old", "body": "Old body https://app.example/x",
            "organisation": "Denver Direct Care", "solution": "Stride PT Network", "rate_group": "Adults (18-64)",
            "base_rate": "75.00", "approved": true,
        });
        for kind in KINDS {
            let rendered = templates.render(kind, &context).unwrap();
            assert!(!rendered.subject.is_empty(), "{kind}");
            assert!(!rendered.subject.contains('\n'), "{kind}");
            assert!(rendered.html.starts_with("<!doctype html>"), "{kind}");
            // Messages to the operator's own addresses name a person to reach, not a page.
            if OPERATOR_KINDS.contains(kind) {
                continue;
            }
            assert!(
                rendered.text.contains("https://app.example/x"),
                "{kind}: {}",
                rendered.text
            );
            assert!(
                rendered.html.contains("https://app.example/x"),
                "{kind}: {}",
                rendered.html
            );
        }
        let waitlist = templates.render("waitlist_open", &context).unwrap();
        assert_eq!(waitlist.subject, "Denver <Clinic> is accepting new patients");
        assert!(
            waitlist.html.contains("Denver &lt;Clinic&gt;"),
            "HTML escapes: {}",
            waitlist.html
        );
        assert!(
            waitlist.html.contains("token=T&amp;email=a%40b.co"),
            "{}",
            waitlist.html
        );
        assert!(matches!(
            templates.render("nope", &context),
            Err(RenderError::UnknownKind(_))
        ));
    }

    #[test]
    fn the_clinic_member_message_lists_the_member_and_names_the_event_in_its_subject() {
        let templates = Templates::new();
        let context = |event: &str| {
            serde_json::json!({
                "event": event, "link": "https://app.example/dpc-providers/members/41",
                "member_name": "Maria <Garcia>", "at": "Nov 26, 2026 10:02 UTC",
                "clinic": {"name": "Front Range", "location_name": "LoDo", "address": "1 Road, Denver, CO 80202",
                           "organisation": "Front Range Direct Primary Care"},
                "details": [{"label": "Date of birth", "value": "Feb 14, 1988"}, {"label": "Phone", "value": "+13035550101"}],
            })
        };
        let subjects = [
            ("enrolled", "New member: Maria <Garcia> chose LoDo"),
            ("moved_in", "New member: Maria <Garcia> chose LoDo"),
            (
                "location_changed",
                "Member changed location: Maria <Garcia> now at LoDo",
            ),
            ("moved_away", "Member left: Maria <Garcia> chose another clinic"),
            (
                "cancelled",
                "Member left: Maria <Garcia> was removed from their family's account",
            ),
        ];
        for (event, subject) in subjects {
            let rendered = templates.render("clinic_member", &context(event)).unwrap();
            assert_eq!(rendered.subject, subject);
            assert!(
                rendered
                    .text
                    .contains("Date of birth: Feb 14, 1988\nPhone: +13035550101\n"),
                "{}",
                rendered.text
            );
            assert!(rendered.html.contains("Maria &lt;Garcia&gt;"), "{}", rendered.html);
            assert!(rendered.html.contains(">Feb 14, 1988</td>"), "{}", rendered.html);
        }
        let enrolled = templates.render("clinic_member", &context("enrolled")).unwrap();
        assert!(
            enrolled.text.contains("the clinic will reach out to schedule it"),
            "{}",
            enrolled.text
        );
    }

    #[test]
    fn smtp_urls() {
        let relay = SmtpSettings::from_url("smtp://user:p%40ss@mail.example.com", None, None).unwrap();
        assert_eq!(relay.host, "mail.example.com");
        assert_eq!(relay.port, 587);
        assert_eq!(relay.security, Security::StartTls);
        assert_eq!(relay.credentials, Some(("user".into(), "p@ss".into())));
        let tls = SmtpSettings::from_url("smtps://mail.example.com:2465", Some("u"), Some("pw")).unwrap();
        assert_eq!((tls.port, tls.security), (2465, Security::Tls));
        assert_eq!(tls.credentials, Some(("u".into(), "pw".into())));
        let local = SmtpSettings::from_url("smtp://127.0.0.1:2525", None, None).unwrap();
        assert_eq!(
            (local.port, local.security, local.credentials),
            (2525, Security::Opportunistic, None)
        );
        let plain = SmtpSettings::from_url("smtp://[::1]:25?tls=none", None, None).unwrap();
        assert_eq!((plain.host.as_str(), plain.security), ("::1", Security::None));
        let password_only = SmtpSettings::from_url("smtp://me@mail.example.com", None, Some("s")).unwrap();
        assert_eq!(password_only.credentials, Some(("me".into(), "s".into())));
        assert!(SmtpSettings::from_url("smtp://mail.example.com?tls=none", None, None).is_err());
        assert!(SmtpSettings::from_url("http://mail.example.com", None, None).is_err());
        assert!(SmtpSettings::from_url("mail.example.com", None, None).is_err());
        assert!(SmtpSettings::from_url("smtp://mail.example.com:x", None, None).is_err());
        assert!(!format!("{relay:?}").contains("p@ss"));
    }

    #[test]
    fn messages_have_both_parts_and_the_message_id() {
        let from: Mailbox = "Nearcare <no-reply@nearcare.example>".parse().unwrap();
        let rendered = Rendered {
            subject: "Hello".into(),
            text: "Plain https://x.example/".into(),
            html: "<p>Html</p>".into(),
        };
        let message = build_message(&from, "a@b.co", "<outbox-1.abc@nearcare.example>", &rendered).unwrap();
        let formatted = String::from_utf8(message.formatted()).unwrap();
        assert!(
            formatted.contains("Message-ID: <outbox-1.abc@nearcare.example>"),
            "{formatted}"
        );
        assert!(formatted.contains("multipart/alternative"), "{formatted}");
        assert!(formatted.contains("text/plain"), "{formatted}");
        assert!(formatted.contains("text/html"), "{formatted}");
        assert!(matches!(
            build_message(&from, "not an address", "<x@y>", &rendered),
            Err(SendError::Permanent(_))
        ));
    }
}
