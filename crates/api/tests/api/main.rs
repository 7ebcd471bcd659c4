//! The HTTP API against the real application, a fresh PostgreSQL database and a real snapshot.

mod helpers;

mod accounts;
mod eligibility;
mod errors;
mod geocoder;
mod marketplace;
mod profiles;
mod reindex;
mod security;
