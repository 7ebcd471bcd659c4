//! The Nearcare HTTP server: routers by feature, extractors, errors, the OpenAPI document, and
//! member accounts (passwords, one-time links, the email outbox, rate limits, eligibility).
//! `main.rs` only parses the configuration and runs [`app::Application`].

pub mod access;
pub mod address_slots;
pub mod app;
pub mod auth;
pub mod body_rate;
pub mod client_address;
pub mod clock;
pub mod config;
pub mod contract_pdf;
pub mod coverage;
pub mod edge;
pub mod error;
pub mod error_codes;
pub mod extract;
pub mod first_paint;
pub mod forms;
pub mod geocoding;
pub mod jobs;
pub mod legal;
pub mod limits;
pub mod mail;
pub mod metrics;
pub mod minute_counts;
pub mod observe;
pub mod passwords;
pub mod repoll;
pub mod respond;
pub mod router;
pub mod routes;
pub mod serve;
pub mod services;
pub mod sessions;
pub mod shutdown;
pub mod snapshot_sync;
pub mod state;
pub mod telemetry;

/// Installs rustls's ring provider for outgoing HTTPS (reqwest is built without a default
/// provider to keep the build lean). Safe to call more than once.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
