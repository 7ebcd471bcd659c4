//! The application state every handler receives: pools, the snapshot handle, caches and the
//! services built at start-up. It imports only the leaf modules that build its parts.

use std::sync::Arc;

use gazetteer::Gazetteer;
use search::{Snapshot, SnapshotHandle};
use store::PgPool;

use crate::address_slots::AddressSlots;
use crate::auth::Tokens;
use crate::config::Config;
use crate::coverage::Eligibility;
use crate::error::ApiError;
use crate::geocoding::Geocoder;
use crate::limits::RateLimits;
use crate::mail::Mailer;
use crate::minute_counts::MinuteCounts;
use crate::passwords::PasswordHasher;
use crate::sessions::Sessions;

/// Everything a handler may need, behind one `Arc`: axum clones the state for every request
/// (and every extractor that reads it), and a clone of the parts themselves was a dozen atomic
/// counts, about 5% of a search's CPU under load.
#[derive(Clone)]
pub struct AppState(Arc<AppParts>);

/// What [`AppState`] shares.
pub struct AppParts {
    pub pool: PgPool,
    pub snapshots: SnapshotHandle,
    pub gazetteer: Arc<Gazetteer>,
    pub geocoder: Geocoder,
    pub tokens: Arc<Tokens>,
    /// Every sign-in's session, checked in memory (see `crate::sessions`).
    pub sessions: Arc<Sessions>,
    pub config: Arc<Config>,
    pub passwords: PasswordHasher,
    pub eligibility: Arc<dyn Eligibility>,
    pub mailer: Mailer,
    pub legal: Arc<crate::legal::LegalDocuments>,
    pub limits: RateLimits,
    /// Requests in flight per client address of the proxy header (unbounded without a proxy,
    /// where the connection loop bounds connections per address instead).
    pub requests_per_client: Arc<AddressSlots>,
    /// Search records per client address this minute (`routes::analytics`).
    pub metadata_counts: MinuteCounts,
    /// Fires when the server stops: background tasks end on it (see `crate::shutdown`).
    pub shutdown: crate::shutdown::Shutdown,
}

impl AppState {
    pub fn new(parts: AppParts) -> Self {
        Self(Arc::new(parts))
    }

    /// The snapshot serving this request.
    pub fn snapshot(&self) -> Result<Arc<Snapshot>, ApiError> {
        self.snapshots.load().ok_or(ApiError::Unavailable)
    }
}

impl std::ops::Deref for AppState {
    type Target = AppParts;

    fn deref(&self) -> &AppParts {
        &self.0
    }
}
