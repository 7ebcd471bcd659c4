//! Requests per client in the current minute, counted in this process. For calls that need no
//! account and write on every request (the search record): counting them in PostgreSQL would
//! cost as much as what they write, and a flood of counter updates on one row would hold
//! database connections everyone needs. Each server counts alone, so a fleet of N servers
//! allows N times the limit; the bound is on the flood, not an exact quota.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

/// Requests per client key in the current minute, at most `limit` each (0: no limit).
#[derive(Debug)]
pub struct MinuteCounts {
    limit: u32,
    counts: Mutex<Window>,
}

#[derive(Debug, Default)]
struct Window {
    minute: u64,
    per_client: HashMap<String, u32>,
}

impl MinuteCounts {
    pub fn new(limit: u32) -> Self {
        Self {
            limit,
            counts: Mutex::new(Window::default()),
        }
    }

    /// Counts a request of `client`; false when it goes over the limit.
    pub fn allow(&self, client: &str) -> bool {
        let minute = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs() / 60);
        self.allow_in(client, minute)
    }

    fn allow_in(&self, client: &str, minute: u64) -> bool {
        if self.limit == 0 {
            return true;
        }
        let mut window = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if window.minute != minute {
            // A new minute: the counts of the last one are forgotten (the table never outgrows
            // one minute's clients).
            window.minute = minute;
            window.per_client.clear();
        }
        let count = window.per_client.entry(client.to_owned()).or_insert(0);
        *count = count.saturating_add(1);
        *count <= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_gets_its_limit_a_minute() {
        let counts = MinuteCounts::new(3);
        let allowed: Vec<bool> = (0..5).map(|_| counts.allow_in("198.51.100.7", 100)).collect();
        assert_eq!(allowed, [true, true, true, false, false]);
        assert!(counts.allow_in("203.0.113.9", 100), "another client has its own count");
        assert!(counts.allow_in("198.51.100.7", 101), "the next minute starts afresh");
        let unlimited = MinuteCounts::new(0);
        assert!((0..1000).all(|_| unlimited.allow("x")));
    }
}
