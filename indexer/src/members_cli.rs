//! `indexer members …`: what the operator needs of member accounts from the command line: the
//! news consents, and the clinic panel (docs/clinic-panel-contract.md) for clinics that do not
//! use the portal. Panel emails go to the outbox; a running server sends them.

use anyhow::{Result, bail};
use chrono::Utc;
use clap::Subcommand;
use domain::clinic_panel::{PanelDecision, PanelTab};
use store::memberships::{Actor, DecisionOutcome, PanelQuery};

#[derive(Subcommand)]
pub enum MembersCommand {
    /// Prints the login email of each member who turned on Settings' "News and updates" (or
    /// asked to be kept posted when signing up), one a line, for the operator's mailing list.
    Consents,
    /// Lists an organisation's members in one tab, newest first.
    List {
        /// The organisation's id (the provider id of the API's market items).
        #[arg(long)]
        organisation: i64,
        /// pending (New, the default), active, or past (declined, ended, moved, cancelled).
        #[arg(long, default_value = "pending")]
        status: String,
    },
    /// Activates a member's pending membership: their first visit happened. The member is
    /// emailed.
    Activate {
        /// The Nearcare member id (`indexer members list` shows it).
        member_id: i64,
        /// The day of the first visit, YYYY-MM-DD; today by default, never in the future.
        #[arg(long)]
        first_visit: Option<String>,
    },
}

pub async fn run(pool: &store::PgPool, command: MembersCommand) -> Result<()> {
    match command {
        MembersCommand::Consents => {
            for email in store::members::news_consents(pool).await? {
                say!("{email}");
            }
            Ok(())
        }
        MembersCommand::List { organisation, status } => list(pool, organisation, &status).await,
        MembersCommand::Activate { member_id, first_visit } => activate(pool, member_id, first_visit.as_deref()).await,
    }
}

async fn list(pool: &store::PgPool, organisation: i64, status: &str) -> Result<()> {
    let Ok(tab) = status.parse::<PanelTab>() else {
        bail!("--status must be pending, active or past");
    };
    if store::providers::organisation_name(pool, organisation).await?.is_none() {
        bail!("no organisation has id {organisation}");
    }
    let query = PanelQuery {
        organisation_id: organisation,
        tab,
        location_id: None,
        words: Vec::new(),
    };
    const PAGE: i64 = 500;
    let mut page = 1;
    loop {
        let found = store::memberships::panel_page(pool, &query, page, PAGE).await?;
        if page == 1 {
            say!(
                "organisation {organisation}: {} new, {} active, {} past",
                found.counts.pending,
                found.counts.active,
                found.counts.past
            );
        }
        for row in &found.rows {
            let fact = |key: &str| {
                row.member
                    .get(key)
                    .and_then(|value| value.as_str())
                    .unwrap_or("-")
                    .to_owned()
            };
            let membership = &row.membership;
            let day = |day: Option<chrono::NaiveDate>| day.map_or_else(|| "-".to_owned(), |day| day.to_string());
            say!(
                "{:>8}  {:<9} {:<28} born {:<10} member id {:<14} {:<20} enrolled {}  active {} to {}",
                membership.member_id,
                membership.status.as_str(),
                store::memberships::full_name(&row.member),
                fact("dob"),
                fact("memberId"),
                row.location_name.clone().unwrap_or_default(),
                membership.enrolled_at.format("%Y-%m-%d"),
                day(membership.active_from),
                day(membership.active_until)
            );
        }
        if found.rows.len() < PAGE as usize {
            return Ok(());
        }
        page += 1;
    }
}

async fn activate(pool: &store::PgPool, member_id: i64, first_visit: Option<&str>) -> Result<()> {
    let today = Utc::now().date_naive();
    let first_visit = match first_visit {
        None => today,
        Some(text) => domain::accounts::parse_date(text)
            .map_err(|_| anyhow::anyhow!("--first-visit must be a day as YYYY-MM-DD"))?,
    };
    let Some(live) = store::memberships::live_membership_of(pool, member_id).await? else {
        bail!("member {member_id} has no pending or active membership (see `indexer members list`)");
    };
    let mut transaction = pool.begin().await?;
    let outcome = store::memberships::decide(
        &mut transaction,
        live.organisation_id,
        member_id,
        &PanelDecision::Activate { first_visit },
        Actor::Operator,
        today,
    )
    .await?;
    match outcome {
        DecisionOutcome::NotFound => bail!("member {member_id} has no membership (see `indexer members list`)"),
        DecisionOutcome::Refused { name, refusal } => bail!("{}", refusal.message(&name)),
        DecisionOutcome::Decided { name, membership, .. } => {
            transaction.commit().await?;
            sqlx::query("select pg_notify('email_outbox', '')")
                .execute(pool)
                .await?;
            say!(
                "{name} (member {member_id}) is now an active member of organisation {} since {}; they were emailed",
                membership.organisation_id,
                first_visit
            );
        }
    }
    Ok(())
}
