//! Access tokens (HS256 JWTs carried in the `x-access-token` header, each naming its session)
//! and the one-time tokens of emailed links. Who a request is from is decided in
//! [`crate::access`]; whether its session is open, in [`crate::sessions`].

use std::path::Path;

use anyhow::{Context, Result};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::clock::Clock;

/// The header the SPA sends the `token` cookie in.
pub const TOKEN_HEADER: &str = "x-access-token";
/// Clock difference tolerated on `exp`, `nbf` and `iat`.
const LEEWAY_SECONDS: i64 = 5;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Claims {
    /// The member id, as a string (JWT's `sub` is a string; a number is refused by the
    /// validator).
    pub sub: String,
    pub iat: u64,
    /// The session's absolute limit: the token never outlives its session.
    pub exp: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbf: Option<u64>,
    /// The session the token belongs to (`sessions.id`, as a string like OpenID's `sid`).
    /// Tokens without one (issued before sessions existed) are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
    /// When the person signed in (OpenID's `auth_time`): the session's absolute limit counts
    /// from it, whatever `iat` a reissued token has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_time: Option<u64>,
    /// The idle limit in seconds, for the web app to sign out on time without asking the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle: Option<u64>,
    /// Who is acting as the subject (RFC 8693): the subscriber, in a token for one of their
    /// family members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act: Option<Actor>,
    /// `provider` in a provider account's token (docs/provider-contract.md); absent for members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The organisation a provider account acts for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org: Option<i64>,
}

/// The `role` claim of a provider account's token.
pub const PROVIDER_ROLE: &str = "provider";

/// The party acting on behalf of a token's subject.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actor {
    /// A member id, as a string like `sub`.
    pub sub: String,
}

/// Who a token is for and the session it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Grant {
    pub subject: i64,
    /// The subscriber, in a token switched to a family member's account.
    pub actor: Option<i64>,
    /// The organisation, in a provider account's token.
    pub organisation: Option<i64>,
    pub session_id: i64,
    /// When the session's sign-in happened, in seconds since the epoch.
    pub signed_in_at: i64,
    /// The session's absolute limit, in seconds since the epoch.
    pub expires_at: i64,
}

/// What a token with a valid signature says.
#[derive(Debug, Clone)]
pub enum Verified {
    /// Within its time bounds.
    Current(Claims),
    /// Signed by us but past its `exp`: its session reached the absolute limit.
    Expired(Claims),
}

/// Signs and verifies access tokens, by the sessions' clock.
pub struct Tokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    clock: Clock,
    idle_seconds: u64,
}

impl Tokens {
    /// Tokens on the system clock, with no idle limit announced (tests of the signature alone).
    pub fn new(secret: &[u8]) -> Self {
        Self::with_clock(secret, Clock::system(), 0)
    }

    /// Tokens judged by `clock`, announcing the sessions' idle limit in each token.
    pub fn with_clock(secret: &[u8], clock: Clock, idle_seconds: u64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        // The time claims are checked against `clock` below (the library reads the system's).
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            clock,
            idle_seconds,
        }
    }

    /// Reads the signing secret from `<local_dir>/secrets/jwt-secret`, creating a random one on
    /// first run (kept out of git with the rest of `.local`).
    pub fn load_or_create(local_dir: &Path, clock: Clock, idle_seconds: u64) -> Result<Self> {
        let path = local_dir.join("secrets/jwt-secret");
        if let Ok(existing) = std::fs::read_to_string(&path) {
            return Ok(Self::with_clock(existing.trim().as_bytes(), clock, idle_seconds));
        }
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|error| anyhow::anyhow!("no randomness: {error}"))?;
        let secret: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
        std::fs::create_dir_all(path.parent().context("secret path has a parent")?)?;
        std::fs::write(&path, &secret).with_context(|| format!("writing {}", path.display()))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        Ok(Self::with_clock(secret.as_bytes(), clock, idle_seconds))
    }

    /// A signed token for `grant`, valid until its session's absolute limit.
    pub fn issue(&self, grant: &Grant) -> Result<String> {
        let now = u64::try_from(self.clock.now_seconds())?;
        let claims = Claims {
            sub: grant.subject.to_string(),
            iat: now,
            exp: u64::try_from(grant.expires_at)?,
            nbf: None,
            sid: Some(grant.session_id.to_string()),
            auth_time: u64::try_from(grant.signed_in_at).ok(),
            idle: (self.idle_seconds > 0).then_some(self.idle_seconds),
            act: grant.actor.map(|id| Actor { sub: id.to_string() }),
            role: grant.organisation.map(|_| PROVIDER_ROLE.to_owned()),
            org: grant.organisation,
        };
        Ok(jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// The claims of a token signed with our key, neither issued nor valid only in the future
    /// (`iat`, `nbf`: a token from the future was not issued by this server); `None` when the
    /// signature or those fail. Past its `exp`, [`Verified::Expired`].
    pub fn verify(&self, token: &str) -> Option<Verified> {
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()?
            .claims;
        let now = self.clock.now_seconds();
        let seconds = |value: u64| i64::try_from(value).unwrap_or(i64::MAX);
        let from_the_future = seconds(claims.iat) > now + LEEWAY_SECONDS
            || claims.nbf.is_some_and(|nbf| seconds(nbf) > now + LEEWAY_SECONDS);
        if from_the_future {
            return None;
        }
        if seconds(claims.exp) < now - LEEWAY_SECONDS {
            return Some(Verified::Expired(claims));
        }
        Some(Verified::Current(claims))
    }
}

pub use store::tokens::LinkToken;

#[cfg(test)]
mod tests {
    use super::*;

    fn grant(subject: i64, actor: Option<i64>) -> Grant {
        Grant {
            subject,
            actor,
            organisation: None,
            session_id: 7,
            signed_in_at: chrono::Utc::now().timestamp(),
            expires_at: chrono::Utc::now().timestamp() + 3600,
        }
    }

    fn current(verified: Option<Verified>) -> Option<Claims> {
        match verified? {
            Verified::Current(claims) => Some(claims),
            Verified::Expired(_) => None,
        }
    }

    #[test]
    fn an_issued_token_verifies_and_a_foreign_one_does_not() {
        let tokens = Tokens::new(b"secret one");
        let token = tokens.issue(&grant(42, None)).unwrap();
        let claims = current(tokens.verify(&token)).unwrap();
        assert_eq!(claims.sub, "42");
        assert_eq!(claims.sid.as_deref(), Some("7"));
        assert!(claims.act.is_none());
        assert!(Tokens::new(b"secret two").verify(&token).is_none());
    }

    #[test]
    fn a_token_on_behalf_of_a_subscriber_names_them_as_the_actor() {
        let tokens = Tokens::new(b"secret one");
        let claims = current(tokens.verify(&tokens.issue(&grant(43, Some(42))).unwrap())).unwrap();
        assert_eq!(claims.sub, "43");
        assert_eq!(claims.act, Some(Actor { sub: "42".into() }));
    }

    #[test]
    fn a_token_past_its_session_limit_is_told_apart_by_the_clock_it_is_judged_by() {
        let clock = Clock::system();
        let tokens = Tokens::with_clock(b"secret one", clock.clone(), 60);
        let token = tokens.issue(&grant(42, None)).unwrap();
        assert_eq!(current(tokens.verify(&token)).unwrap().idle, Some(60));
        clock.advance(chrono::Duration::seconds(3600 + 60));
        assert!(matches!(tokens.verify(&token), Some(Verified::Expired(_))));
    }

    #[test]
    fn tokens_from_the_future_are_refused() {
        let tokens = Tokens::new(b"secret one");
        let now = chrono::Utc::now().timestamp();
        let sign = |claims: serde_json::Value| {
            jsonwebtoken::encode(
                &Header::new(Algorithm::HS256),
                &claims,
                &EncodingKey::from_secret(b"secret one"),
            )
            .unwrap()
        };
        let exp = now + 3600;
        assert!(current(tokens.verify(&sign(serde_json::json!({ "sub": "1", "iat": now, "exp": exp })))).is_some());
        let iat_ahead = sign(serde_json::json!({ "sub": "1", "iat": now + 600, "exp": exp }));
        assert!(tokens.verify(&iat_ahead).is_none(), "iat in the future");
        let nbf_ahead = sign(serde_json::json!({ "sub": "1", "iat": now, "nbf": now + 600, "exp": exp }));
        assert!(tokens.verify(&nbf_ahead).is_none(), "nbf in the future");
        let nbf_past = sign(serde_json::json!({ "sub": "1", "iat": now, "nbf": now - 60, "exp": exp }));
        assert!(current(tokens.verify(&nbf_past)).is_some(), "nbf in the past");
    }
}
