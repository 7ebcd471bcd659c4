//! `indexer directory …`: the freshness of the directory (docs/listings-contract.md), for the
//! operator who follows up on listings the clinics have not confirmed.

use anyhow::{Result, bail};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum DirectoryCommand {
    /// Lists the organisations with listings not confirmed for more than `--days` (most stale
    /// listings first): their provider accounts and phones, the listings, the last reminder.
    Stale {
        #[arg(long, default_value_t = domain::listing::ATTESTATION_DUE_DAYS)]
        days: i64,
        /// Organisations listed at most (all are counted).
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
}

pub async fn run(pool: &store::PgPool, command: DirectoryCommand) -> Result<()> {
    match command {
        DirectoryCommand::Stale { days, limit } => stale(pool, days, limit).await,
    }
}

async fn stale(pool: &store::PgPool, days: i64, limit: i64) -> Result<()> {
    if days < 1 {
        bail!("--days must be at least 1");
    }
    let now = chrono::Utc::now();
    let (total, organisations) = store::attestation::stale_organisations(pool, now, days, limit).await?;
    say!("{total} organisations have listings not confirmed for more than {days} days");
    for organisation in &organisations {
        say!();
        let reminded = organisation.last_reminded.map_or_else(
            || "never reminded".to_owned(),
            |at| format!("last reminded {}", at.format("%Y-%m-%d")),
        );
        say!(
            "organisation {} {}: {} listings past due, {reminded}",
            organisation.id,
            organisation.name,
            organisation.listings.len()
        );
        if organisation.contacts.is_empty() {
            say!(
                "  contacts: no provider account (invite one: indexer providers invite --organisation {})",
                organisation.id
            );
        }
        for contact in &organisation.contacts {
            let state = if contact.password_set {
                ""
            } else {
                " (invited, no password yet)"
            };
            say!("  contact: {}{state}", contact.email);
        }
        for listing in &organisation.listings {
            let verified = listing.last_verified.map_or_else(
                || "never confirmed".to_owned(),
                |at| format!("confirmed {}", at.format("%Y-%m-%d")),
            );
            let phone = if listing.phone.is_empty() {
                String::new()
            } else {
                format!(", phone {}", listing.phone)
            };
            say!("  {} {} {}: {verified}{phone}", listing.kind, listing.id, listing.name);
        }
    }
    if total > organisations.len() as i64 {
        say!();
        say!("(the first {} of {total}; --limit shows more)", organisations.len());
    }
    Ok(())
}
