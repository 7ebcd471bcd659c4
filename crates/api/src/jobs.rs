//! The background job runner: claims due rows of the `jobs` table (`FOR UPDATE SKIP LOCKED`
//! and a lease, as the email outbox) and runs them. Every server runs one; a job runs on one
//! server at a time. The jobs: retrying an eligibility check the roster could not answer, and
//! the attestation sweep (reminding organisations whose listings are past due). Once an hour
//! the runner also expires old analytics events (their counts are kept by day).

use std::time::Duration;

use domain::membership::EligibilityStatus;
use serde_json::{Value, json};
use sqlx::postgres::PgListener;
use store::jobs::Job;
use tokio::sync::watch;
use tracing::Instrument;

use crate::metrics;
use crate::services::attestation;
use crate::services::eligibility_check::{self, Applicant, NotConfirmed, RETRY_JOB};
use crate::state::AppState;

/// What became of a job.
enum Outcome {
    Done,
    /// Done, and the same kind of job runs again after this long (a new row).
    DoneThenAgain(Duration),
    /// Not resolved yet: run again later.
    Again(String),
    Failed(String),
}

/// Runs due jobs until `stop` turns true: on each NOTIFY jobs and every `poll`.
pub async fn run(state: AppState, poll: Duration, mut stop: watch::Receiver<bool>) {
    metrics::job_kinds(&[RETRY_JOB, attestation::SWEEP_JOB]);
    let mut listener = PgListener::connect_with(&state.pool).await.ok();
    if let Some(listener) = listener.as_mut()
        && listener.listen("jobs").await.is_err()
    {
        tracing::warn!("could not LISTEN for new jobs; polling only");
    }
    let mut last_expiry: Option<tokio::time::Instant> = None;
    while !*stop.borrow() {
        if let Err(error) = run_due(&state, &stop).await {
            tracing::warn!(error = %error, "running background jobs failed");
        }
        if last_expiry.is_none_or(|at| at.elapsed() > Duration::from_secs(3600)) {
            last_expiry = Some(tokio::time::Instant::now());
            expire_analytics(&state).await;
        }
        let notified = crate::mail::next_notification(listener.as_mut());
        tokio::select! {
            _ = stop.changed() => {}
            () = notified => {}
            () = tokio::time::sleep(poll) => {}
        }
    }
    tracing::debug!("job runner stopped");
}

/// Deletes analytics events past the retention period (counted by day first), so a flood of
/// them (the metadata call needs no account) cannot grow the table without bound.
async fn expire_analytics(state: &AppState) {
    let days = state.config.analytics_retention_days;
    if days == 0 {
        return;
    }
    match store::analytics::expire(&state.pool, Duration::from_secs(days * 86_400)).await {
        Ok(0) => {}
        Ok(expired) => tracing::info!(expired, days, "expired analytics events, their counts kept by day"),
        Err(error) => tracing::warn!(error = %error, "expiring analytics events failed"),
    }
}

async fn run_due(state: &AppState, stop: &watch::Receiver<bool>) -> anyhow::Result<()> {
    loop {
        let jobs = store::jobs::claim(&state.pool, 10, Duration::from_secs(120)).await?;
        if jobs.is_empty() {
            return Ok(());
        }
        for job in &jobs {
            // The job's log lines, and the rows it writes, name the request that enqueued it.
            let span = tracing::info_span!("job", id = job.id, kind = %job.kind, request_id = tracing::field::Empty);
            if let Some(request_id) = &job.request_id {
                span.record("request_id", tracing::field::display(request_id));
            }
            let enqueued_by = job
                .request_id
                .as_deref()
                .and_then(|id| store::request_id::RequestId::parse(id.as_bytes()));
            let run = run_one(state, job).instrument(span);
            match enqueued_by {
                Some(request_id) => store::request_id::scope(request_id, run).await?,
                None => run.await?,
            }
        }
        if *stop.borrow() {
            return Ok(());
        }
    }
}

/// Runs one claimed job and records its outcome.
async fn run_one(state: &AppState, job: &Job) -> anyhow::Result<()> {
    let outcome = match job.kind.as_str() {
        RETRY_JOB => retry_eligibility(state, job).await,
        attestation::SWEEP_JOB => match attestation::sweep(state).await {
            Ok(_) => Outcome::DoneThenAgain(Duration::from_secs(state.config.attestation_sweep_secs.max(1))),
            Err(error) => Outcome::Again(format!("{error:#}")),
        },
        other => Outcome::Failed(format!("unknown job kind {other:?}")),
    };
    let expired = job.expires_at.is_some_and(|expires| expires <= chrono::Utc::now());
    match outcome {
        Outcome::Done => {
            store::jobs::done(&state.pool, job.id).await?;
            metrics::job_run(&job.kind, "done");
        }
        Outcome::DoneThenAgain(delay) => {
            store::jobs::done(&state.pool, job.id).await?;
            metrics::job_run(&job.kind, "done");
            attestation::schedule(state, delay).await?;
        }
        Outcome::Again(error) if expired => {
            tracing::info!(job = job.id, kind = %job.kind, error = %error, "job expired unresolved");
            store::jobs::fail(&state.pool, job.id, &format!("expired: {error}")).await?;
            metrics::job_run(&job.kind, "failed");
        }
        Outcome::Again(error) => {
            let delay = backoff(
                Duration::from_millis(state.config.eligibility_retry_base_ms),
                job.attempts,
            );
            tracing::info!(job = job.id, kind = %job.kind, attempts = job.attempts, retry_in = ?delay, error = %error, "job will run again");
            store::jobs::retry(&state.pool, job.id, &error, delay).await?;
            metrics::job_run(&job.kind, "retry");
        }
        Outcome::Failed(error) => {
            tracing::warn!(job = job.id, kind = %job.kind, error = %error, "job failed");
            store::jobs::fail(&state.pool, job.id, &error).await?;
            metrics::job_run(&job.kind, "failed");
        }
    }
    Ok(())
}

/// `base` doubled per attempt (at most an hour), at a random point of its upper half.
fn backoff(base: Duration, attempts: i32) -> Duration {
    crate::mail::backoff(
        &crate::mail::SenderSettings {
            retry_base: base,
            retry_max: Duration::from_secs(3600),
            ..crate::mail::SenderSettings::default()
        },
        attempts,
    )
}

/// The marketplace, asked to choose a provider (the SPA's 'Select my provider now').
const CHOOSE_ANOTHER_CLINIC: &str = "/marketplace?selectProvider=true";

/// Checks a pending member again. Confirmed or refused: the member (or, for a family member,
/// the subscriber) is emailed the outcome. Still unreadable: again later.
async fn retry_eligibility(state: &AppState, job: &Job) -> Outcome {
    match try_retry_eligibility(state, job).await {
        Ok(outcome) => outcome,
        Err(error) => Outcome::Again(format!("{error:#}")),
    }
}

async fn try_retry_eligibility(state: &AppState, job: &Job) -> anyhow::Result<Outcome> {
    let Some(member_id) = job.payload.get("memberId").and_then(Value::as_i64) else {
        return Ok(Outcome::Failed("no memberId".into()));
    };
    let Some(member) = store::members::find(&state.pool, member_id).await? else {
        return Ok(Outcome::Done);
    };
    if member.eligibility_status != Some(EligibilityStatus::Pending) {
        // Resolved meanwhile (the member confirmed again).
        return Ok(Outcome::Done);
    }
    let subscriber = match job.payload.get("subscriberId").and_then(Value::as_i64) {
        Some(id) => match store::members::find(&state.pool, id).await? {
            Some(subscriber) => Some(subscriber),
            None => return Ok(Outcome::Done),
        },
        None => None,
    };
    let applicant = match &subscriber {
        Some(subscriber) => Applicant::FamilyMember {
            subscriber,
            relative: eligibility_check::own_details(&member),
        },
        None => Applicant::Myself {
            member: &member,
            subscriber: None,
        },
    };
    let checked = eligibility_check::confirm(state, applicant, false)
        .await
        .map_err(|error| anyhow::anyhow!("{error:?}"))?;
    let mut not_enrolled_at = None;
    let (confirmed, reason) = match checked {
        Ok(confirmation) => {
            not_enrolled_at = confirmation.not_enrolled_at;
            (true, String::new())
        }
        Err(NotConfirmed::Unavailable) => return Ok(Outcome::Again("the roster could not be read".into())),
        Err(NotConfirmed::WrongData) => (false, "the insurer has no member with these details.".to_owned()),
        Err(NotConfirmed::NotOnPlan) => (false, "the member is covered under another plan.".to_owned()),
        Err(NotConfirmed::MemberExists) => (false, "another account already holds this member.".to_owned()),
    };
    if !confirmed {
        // No longer pending: not confirmed, with Confirm Eligibility as the way forward.
        store::members::refuse_pending_eligibility(&state.pool, member.id).await?;
    }
    tracing::info!(member = member.id, confirmed, "eligibility retried in the background");
    let to = member
        .email
        .clone()
        .or_else(|| subscriber.as_ref().and_then(|subscriber| subscriber.email.clone()));
    if let Some(to) = to {
        let whose = match &subscriber {
            Some(_) => format!("{}'s", member.first_name),
            None => "your".to_owned(),
        };
        let greeting = subscriber
            .as_ref()
            .map_or(&member.first_name, |subscriber| &subscriber.first_name);
        let mut connection = state.pool.acquire().await?;
        store::outbox::enqueue(
            &mut connection,
            &store::outbox::NewEmail {
                to_email: &to,
                kind: "eligibility_outcome",
                // The clinic chosen at sign-up filled up before the check came back: the way
                // forward is choosing another clinic, not the app's front page.
                link: not_enrolled_at.as_ref().map(|_| CHOOSE_ANOTHER_CLINIC),
                facts: json!({
                    "member_id": member.id,
                    "confirmed": confirmed,
                    "first_name": greeting,
                    "whose": whose,
                    "reason": reason,
                    "not_enrolled_at": not_enrolled_at.as_ref().map(|clinic| json!({
                        "name": clinic.name,
                        "location_name": clinic.location_name,
                    })),
                }),
            },
        )
        .await?;
        state.mailer.wake();
    }
    Ok(Outcome::Done)
}
