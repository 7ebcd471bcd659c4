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
    /// The member id.
    pub sub: i64,
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
            sub: member_id,
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
        let claims = state
            .tokens
            .verify(token)
            .ok_or_else(|| ApiError::Unauthorized("Invalid access token".into()))?;
        Ok(Self(Some(Caller { member_id: claims.sub })))
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
