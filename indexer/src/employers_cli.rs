//! `indexer employers …`: the employers and whether they offer the benefit, and the requests to
//! have it offered (Notify Me, refused enrolments) that sales follows up. Making an employer
//! active emails each consenting address waiting for it once; a running server sends the
//! messages.

use anyhow::{Result, bail};
use clap::Subcommand;

const STATUSES: &[&str] = &["active", "inactive", "pending"];

#[derive(Subcommand)]
pub enum EmployersCommand {
    /// Lists the employers: id, status, name, alias and how many addresses wait to be told
    /// that it offers the benefit.
    List,
    /// Sets an employer's status. Made active, each person who asked to be told (Notify Me) is
    /// emailed once, with a link to sign up with that employer.
    SetStatus {
        /// The employer's id (`indexer employers list`).
        id: i64,
        /// active, inactive or pending.
        status: String,
    },
    /// Lists the requests to have an employer offer the benefit, newest first: when, the
    /// company, who, where it was asked, consent to be emailed, and whether they were told.
    Leads,
}

pub async fn run(pool: &store::PgPool, command: EmployersCommand) -> Result<()> {
    match command {
        EmployersCommand::List => {
            for employer in store::benefit_requests::employers(pool).await? {
                say!(
                    "{:>6}  {:<8} {:<36} {:<20} {} waiting",
                    employer.id,
                    employer.status,
                    employer.company_name,
                    employer.alias.unwrap_or_default(),
                    employer.waiting
                );
            }
        }
        EmployersCommand::SetStatus { id, status } => {
            let status = status.trim().to_lowercase();
            if !STATUSES.contains(&status.as_str()) {
                bail!("the status must be active, inactive or pending, not {status:?}");
            }
            let Some(change) = store::benefit_requests::set_employer_status(pool, id, &status).await? else {
                bail!("no employer has id {id} (see `indexer employers list`)");
            };
            say!(
                "employer {id} ({}) is now {status} (was {}); {} waiting address(es) emailed",
                change.company_name,
                change.previous,
                change.notified.len()
            );
            for email in &change.notified {
                say!("  emailed {email}");
            }
        }
        EmployersCommand::Leads => {
            let leads = store::benefit_requests::list(pool).await?;
            if leads.is_empty() {
                eprintln!("no requests to offer the benefit yet");
            }
            for lead in leads {
                say!(
                    "{:>6}  {}  {:<32} {:<14} {:<36} {:<9} consent {:<3} {}",
                    lead.id,
                    lead.created_at.format("%Y-%m-%d %H:%M"),
                    lead.company_name,
                    match (lead.employer_id, lead.employer_status.as_deref()) {
                        (Some(id), Some(status)) => format!("{id} {status}"),
                        _ => "not listed".to_owned(),
                    },
                    lead.email,
                    lead.source,
                    if lead.consent { "yes" } else { "no" },
                    match (lead.notified_at, lead.consent) {
                        (Some(at), _) => format!("told {}", at.format("%Y-%m-%d %H:%M")),
                        (None, true) => "waiting".to_owned(),
                        (None, false) => "not to be emailed".to_owned(),
                    }
                );
            }
        }
    }
    Ok(())
}
