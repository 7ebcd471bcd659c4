//! The HTTP API against the real application, a fresh PostgreSQL database and a real snapshot.

mod helpers;

mod errors;
mod marketplace;
mod profiles;
mod reindex;
