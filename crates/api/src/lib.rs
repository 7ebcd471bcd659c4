//! The Nearcare HTTP server: routers by feature, extractors, errors and the OpenAPI document.
//! `main.rs` only parses the configuration and runs [`app::Application`].

pub mod app;
pub mod auth;
pub mod config;
pub mod error;
pub mod extract;
pub mod routes;
pub mod snapshot_sync;
pub mod telemetry;
