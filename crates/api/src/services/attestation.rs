//! Attestation reminders (docs/listings-contract.md): a background job, one `jobs` row at a
//! time of kind [`SWEEP_JOB`], that reminds every organisation whose listings are past due (90
//! days unconfirmed) and that was not reminded in the last 7 days, then schedules the next
//! sweep. Calendar time is the server's clock (`crate::clock`), so tests move it forward.

use std::time::Duration;

use chrono::Duration as Days;
use domain::listing::{ATTESTATION_DUE_DAYS, REMINDER_INTERVAL_DAYS};

use crate::state::AppState;

/// The job kind of a sweep.
pub const SWEEP_JOB: &str = "attestation_sweep";

/// Schedules a sweep after `delay`, unless one is already waiting.
pub async fn schedule(state: &AppState, delay: Duration) -> anyhow::Result<()> {
    store::jobs::enqueue(
        &state.pool,
        SWEEP_JOB,
        &serde_json::json!({}),
        SWEEP_JOB,
        delay,
        // Only a sweep that keeps failing expires; the next start schedules a new one.
        Duration::from_secs(7 * 24 * 3600),
    )
    .await?;
    Ok(())
}

/// Reminds the organisations that are due; returns the emails written.
pub async fn sweep(state: &AppState) -> anyhow::Result<usize> {
    let now = state.config.clock.now();
    let cutoff = now - Days::days(ATTESTATION_DUE_DAYS);
    let reminded_since = now - Days::days(REMINDER_INTERVAL_DAYS);
    let mut emails = 0;
    for organisation in store::attestation::organisations_to_remind(&state.pool, cutoff, reminded_since).await? {
        let written = store::attestation::remind(&state.pool, organisation, now, cutoff, reminded_since).await?;
        if written > 0 {
            tracing::info!(organisation, emails = written, "listings past due: reminder written");
        }
        emails += written;
    }
    if emails > 0 {
        state.mailer.wake();
    }
    Ok(emails)
}
