//! The time the server believes it is, for what depends on the calendar (a listing's
//! `lastVerified`, when one is past due, when an organisation was last reminded) and for the
//! sessions and access tokens (the idle and absolute limits). It is the system clock, moved by an
//! offset that only tests set: a reminder due in 90 days is tested by moving the clock 91 days,
//! a session's idle limit by moving it 13 hours, not by waiting.

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

    /// Whole seconds since the Unix epoch (what JWT claims count in).
    pub fn now_seconds(&self) -> i64 {
        self.now().timestamp()
    }

    /// Moves the clock (of every clone) forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.offset_seconds.fetch_add(by.num_seconds(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_clock_runs_ahead_by_what_it_was_moved_in_every_clone() {
        let clock = Clock::system();
        let shared = clock.clone();
        let before = shared.now();
        clock.advance(Duration::hours(1));
        let ahead = shared.now() - before;
        assert!(
            ahead >= Duration::seconds(3600) && ahead < Duration::seconds(3660),
            "{ahead}"
        );
    }
}
