//! The time the server believes it is, for what depends on the calendar (a listing's
//! `lastVerified`, when one is past due, when an organisation was last reminded). It is the
//! system clock, moved by an offset that only tests set: a reminder due in 90 days is tested by
//! moving the clock 91 days, not by waiting.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Duration, Utc};

/// The system clock plus an offset, shared by every clone.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_seconds: Arc<AtomicI64>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Self {
        Self::default()
    }

    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + Duration::seconds(self.offset_seconds.load(Ordering::Relaxed))
    }

    /// Moves the clock (of every clone) forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.offset_seconds.fetch_add(by.num_seconds(), Ordering::Relaxed);
    }
}
