//! Access tokens: short-lived HS256 JWTs carried in the `x-access-token` header.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::app::AppState;
use crate::error::ApiError;

/// The header the SPA sends the `token` cookie in.
pub const TOKEN_HEADER: &str = "x-access-token";
/// How long an access token lives.
pub const ACCESS_TOKEN_SECONDS: u64 = 60 * 60 * 12;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The member id, as a string (JWT's `sub` is a string; a number is refused by the
    /// validator).
    pub sub: String,
    pub iat: u64,
    pub exp: u64,
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
        validation.leeway = 5;
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
        let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
        let claims = Claims {
            sub: member_id.to_string(),
            iat: now,
            exp: now + ACCESS_TOKEN_SECONDS,
        };
        Ok(jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    pub fn verify(&self, token: &str) -> Option<Claims> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()
            .map(|data| data.claims)
    }
}

/// The signed-in member, when the request carries a valid token.
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    pub member_id: i64,
}

/// An optional caller: no header is fine, a bad header is a 401.
pub struct MaybeCaller(pub Option<Caller>);

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let Some(header) = parts.headers.get(TOKEN_HEADER) else {
            return Ok(Self(None));
        };
        let token = header
            .to_str()
            .map_err(|_| ApiError::Unauthorized("Invalid access token".into()))?
            .trim();
        if token.is_empty() {
            return Ok(Self(None));
        }
        let member_id = state
            .tokens
            .verify(token)
            .and_then(|claims| claims.sub.parse::<i64>().ok())
            .ok_or_else(|| ApiError::Unauthorized("Invalid access token".into()))?;
        Ok(Self(Some(Caller { member_id })))
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        MaybeCaller::from_request_parts(parts, state)
            .await?
            .0
            .ok_or_else(|| ApiError::Unauthorized("Please log in to continue".into()))
    }
}

/// A one-time token for an emailed link: 32 random bytes, URL-safe base64 in the link, SHA-256
/// in the database.
pub struct LinkToken {
    /// What goes into the link; never stored.
    pub plain: String,
    pub hash: [u8; 32],
}

impl LinkToken {
    pub fn generate() -> Result<Self> {
        use base64::Engine;
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|error| anyhow::anyhow!("no randomness: {error}"))?;
        let plain = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        let hash = Self::hash_of(&plain).context("a generated token has the token shape")?;
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
    fn an_issued_token_verifies_and_a_foreign_one_does_not() {
        let tokens = Tokens::new(b"secret one");
        let token = tokens.issue(42).unwrap();
        assert_eq!(tokens.verify(&token).unwrap().sub, "42");
        assert!(Tokens::new(b"secret two").verify(&token).is_none());
    }

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
