//! Access tokens (short-lived HS256 JWTs carried in the `x-access-token` header) and the
//! one-time tokens of emailed links. Who a request is from is decided in [`crate::access`].

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// The header the SPA sends the `token` cookie in.
pub const TOKEN_HEADER: &str = "x-access-token";
/// Clock difference tolerated on `exp`, `nbf` and `iat`.
const LEEWAY_SECONDS: u64 = 5;
/// How long an access token lives.
pub const ACCESS_TOKEN_SECONDS: u64 = 60 * 60 * 12;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The member id, as a string (JWT's `sub` is a string; a number is refused by the
    /// validator).
    pub sub: String,
    pub iat: u64,
    pub exp: u64,
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

/// Signs and verifies access tokens.
pub struct Tokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl Tokens {
    pub fn new(secret: &[u8]) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = LEEWAY_SECONDS;
        validation.validate_nbf = true;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        }
    }

    /// Reads the signing secret from `<local_dir>/secrets/jwt-secret`, creating a random one on
    /// first run (kept out of git with the rest of `.local`).
    pub fn load_or_create(local_dir: &Path) -> Result<Self> {
        let path = local_dir.join("secrets/jwt-secret");
        if let Ok(existing) = std::fs::read_to_string(&path) {
            return Ok(Self::new(existing.trim().as_bytes()));
        }
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|error| anyhow::anyhow!("no randomness: {error}"))?;
        let secret: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
        std::fs::create_dir_all(path.parent().context("secret path has a parent")?)?;
        std::fs::write(&path, &secret).with_context(|| format!("writing {}", path.display()))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        Ok(Self::new(secret.as_bytes()))
    }

    pub fn issue(&self, member_id: i64) -> Result<String> {
        self.sign(member_id, None, None)
    }

    /// A token for a provider account acting for `organisation_id`.
    pub fn issue_provider(&self, account_id: i64, organisation_id: i64) -> Result<String> {
        self.sign(account_id, None, Some(organisation_id))
    }

    /// A token for `member_id` held by `subscriber_id`, who switched to a family member's
    /// account.
    pub fn issue_on_behalf(&self, member_id: i64, subscriber_id: i64) -> Result<String> {
        self.sign(member_id, Some(subscriber_id), None)
    }

    fn sign(&self, member_id: i64, actor_id: Option<i64>, organisation_id: Option<i64>) -> Result<String> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
        let claims = Claims {
            sub: member_id.to_string(),
            iat: now,
            exp: now + ACCESS_TOKEN_SECONDS,
            act: actor_id.map(|id| Actor { sub: id.to_string() }),
            role: organisation_id.map(|_| PROVIDER_ROLE.to_owned()),
            org: organisation_id,
        };
        Ok(jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// The claims of a token signed with our key, unexpired, and neither issued nor valid only
    /// in the future (`iat`, `nbf`): a token from the future was not issued by this server.
    pub fn verify(&self, token: &str) -> Option<Claims> {
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()?
            .claims;
        let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
        (claims.iat <= now + LEEWAY_SECONDS).then_some(claims)
    }
}

pub use store::tokens::LinkToken;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_token_verifies_and_a_foreign_one_does_not() {
        let tokens = Tokens::new(b"secret one");
        let token = tokens.issue(42).unwrap();
        assert_eq!(tokens.verify(&token).unwrap().sub, "42");
        assert!(tokens.verify(&token).unwrap().act.is_none());
        assert!(Tokens::new(b"secret two").verify(&token).is_none());
    }

    #[test]
    fn a_token_on_behalf_of_a_subscriber_names_them_as_the_actor() {
        let tokens = Tokens::new(b"secret one");
        let claims = tokens.verify(&tokens.issue_on_behalf(43, 42).unwrap()).unwrap();
        assert_eq!(claims.sub, "43");
        assert_eq!(claims.act, Some(Actor { sub: "42".into() }));
    }

    #[test]
    fn tokens_from_the_future_are_refused() {
        let tokens = Tokens::new(b"secret one");
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
        let sign = |claims: serde_json::Value| {
            jsonwebtoken::encode(
                &Header::new(Algorithm::HS256),
                &claims,
                &EncodingKey::from_secret(b"secret one"),
            )
            .unwrap()
        };
        let exp = now + 3600;
        assert!(
            tokens
                .verify(&sign(serde_json::json!({ "sub": "1", "iat": now, "exp": exp })))
                .is_some()
        );
        let iat_ahead = sign(serde_json::json!({ "sub": "1", "iat": now + 600, "exp": exp }));
        assert!(tokens.verify(&iat_ahead).is_none(), "iat in the future");
        let nbf_ahead = sign(serde_json::json!({ "sub": "1", "iat": now, "nbf": now + 600, "exp": exp }));
        assert!(tokens.verify(&nbf_ahead).is_none(), "nbf in the future");
        let nbf_past = sign(serde_json::json!({ "sub": "1", "iat": now, "nbf": now - 60, "exp": exp }));
        assert!(tokens.verify(&nbf_past).is_some(), "nbf in the past");
    }
}
