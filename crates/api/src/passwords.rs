//! Password hashing with argon2id, off the async threads.
//!
//! Parameters are OWASP's first recommendation for argon2id: 19 MiB of memory, 2 iterations,
//! 1 lane. Hashing runs in `spawn_blocking`, at most [`PasswordHasher::concurrency`] at a time,
//! so a burst of logins cannot take more than that many times 19 MiB.

use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use argon2::{Algorithm, Argon2, Params, Version};
use domain::accounts::NewPassword;
use tokio::sync::{OnceCell, Semaphore};

/// Memory per hash, KiB.
pub const MEMORY_KIB: u32 = 19 * 1024;
/// Passes over the memory.
pub const ITERATIONS: u32 = 2;
/// Lanes.
pub const PARALLELISM: u32 = 1;

/// Hashes and verifies passwords; cheap to clone.
#[derive(Clone)]
pub struct PasswordHasher {
    permits: Arc<Semaphore>,
    /// A hash of a random password, verified when the email is unknown so that a login takes
    /// as long whether or not the account exists.
    dummy: Arc<OnceCell<String>>,
}

impl Default for PasswordHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl PasswordHasher {
    pub fn new() -> Self {
        Self {
            permits: Arc::new(Semaphore::new(Self::concurrency())),
            dummy: Arc::new(OnceCell::new()),
        }
    }

    /// How many hashes may run at once: one per core, at least two.
    pub fn concurrency() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get()).max(2)
    }

    fn argon2() -> Argon2<'static> {
        let params = Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None).expect("valid argon2 parameters");
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
    }

    /// Hashes a new password into a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`).
    pub async fn hash(&self, password: &NewPassword) -> Result<String> {
        let password = password.expose().to_owned();
        let _permit = self.permits.acquire().await.context("hasher closed")?;
        tokio::task::spawn_blocking(move || hash_blocking(&password)).await?
    }

    /// Checks `password` against a stored hash; with no hash (unknown email, no password set)
    /// a dummy hash is checked instead and the answer is false.
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> Result<bool> {
        let (hash, real) = match stored {
            Some(hash) => (hash.to_owned(), true),
            None => (self.dummy_hash().await?, false),
        };
        let password = password.to_owned();
        let _permit = self.permits.acquire().await.context("hasher closed")?;
        let matches = tokio::task::spawn_blocking(move || verify_blocking(&password, &hash)).await??;
        Ok(matches && real)
    }

    async fn dummy_hash(&self) -> Result<String> {
        self.dummy
            .get_or_try_init(|| async {
                let mut bytes = [0u8; 24];
                getrandom::fill(&mut bytes).map_err(|error| anyhow!("no randomness: {error}"))?;
                let random: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
                tokio::task::spawn_blocking(move || hash_blocking(&random)).await?
            })
            .await
            .cloned()
    }
}

fn hash_blocking(password: &str) -> Result<String> {
    let hash = PasswordHasher::argon2()
        .hash_password(password.as_bytes())
        .map_err(|error| anyhow!("argon2 hashing failed: {error}"))?;
    Ok(hash.to_string())
}

fn verify_blocking(password: &str, stored: &str) -> Result<bool> {
    let parsed = PasswordHash::new(stored).map_err(|error| anyhow!("stored hash is not a PHC string: {error}"))?;
    Ok(PasswordHasher::argon2()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = PasswordHasher::new();
        let password = NewPassword::parse("Secret!12").unwrap();
        let hash = hasher.hash(&password).await.unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
        assert!(hasher.verify("Secret!12", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("Secret!13", Some(&hash)).await.unwrap());
        assert!(!hasher.verify("Secret!12", None).await.unwrap());
        let again = hasher.hash(&password).await.unwrap();
        assert_ne!(hash, again, "each hash has its own salt");
    }
}
