//! `indexer providers …`: inviting provider accounts and deciding participations from the
//! command line (docs/provider-contract.md). Emails go to the outbox; a running server sends
//! them.

use anyhow::{Result, bail};
use clap::Subcommand;
use domain::participation::{Cents, ParticipationStatus, Transition};
use store::participations::{Actor, Refusal};

#[derive(Subcommand)]
pub enum ProvidersCommand {
    /// Creates a provider account for an organisation and emails it a set-password link (72
    /// hours). Again before the password is set: a new link, the old one stops working.
    Invite {
        /// The organisation's id (`indexer status` counts them; the API's market items call it
        /// the provider id).
        #[arg(long)]
        organisation: i64,
        #[arg(long)]
        email: String,
        #[arg(long, default_value = "")]
        first_name: String,
        #[arg(long, default_value = "")]
        last_name: String,
    },
    /// Lists the provider accounts.
    List,
    /// Lists participations, newest first.
    Participations {
        /// pending, active, declined or stopped.
        #[arg(long)]
        status: Option<String>,
    },
    /// Approves a pending participation, as its facilitator would (the provider is emailed).
    Approve { id: i64 },
    /// Declines a pending participation (the provider is emailed).
    Decline { id: i64 },
}

pub async fn run(pool: &store::PgPool, command: ProvidersCommand) -> Result<()> {
    match command {
        ProvidersCommand::Invite {
            organisation,
            email,
            first_name,
            last_name,
        } => {
            let email = domain::accounts::Email::parse(&email).map_err(|error| anyhow::anyhow!("--email: {error}"))?;
            let mut transaction = pool.begin().await?;
            let invitation = store::providers::invite(
                &mut transaction,
                organisation,
                email.as_str(),
                first_name.trim(),
                last_name.trim(),
            )
            .await?;
            let invitation = match invitation {
                Ok(invitation) => invitation,
                Err(refusal) => bail!("{refusal}"),
            };
            transaction.commit().await?;
            say!(
                "{} {} to act for {} (organisation {organisation}, account {}); the set-password link was emailed",
                if invitation.created { "invited" } else { "invited again" },
                email.as_str(),
                invitation.organisation_name,
                invitation.account_id
            );
        }
        ProvidersCommand::List => {
            let accounts = store::providers::list(pool).await?;
            if accounts.is_empty() {
                eprintln!("no provider accounts yet (indexer providers invite --organisation ID --email E)");
            }
            for account in accounts {
                say!(
                    "{:>6}  {:<36} {:<24} organisation {:>6} {:<32} {}",
                    account.id,
                    account.email.unwrap_or_default(),
                    format!("{} {}", account.first_name, account.last_name).trim(),
                    account.organisation_id,
                    account.organisation_name.unwrap_or_default(),
                    if account.password_set { "active" } else { "invited" }
                );
            }
        }
        ProvidersCommand::Participations { status } => {
            let status = match status.as_deref() {
                None => None,
                Some(text) => Some(
                    ParticipationStatus::parse(text)
                        .ok_or_else(|| anyhow::anyhow!("--status must be pending, active, declined or stopped"))?,
                ),
            };
            let participations = store::participations::list(pool, status).await?;
            if participations.is_empty() {
                eprintln!(
                    "no participations{}",
                    status.map(|status| format!(" {}", status.as_str())).unwrap_or_default()
                );
            }
            for participation in participations {
                say!(
                    "{:>6}  {:<8} {}  organisation {:>6} {:<28} solution {:>3} {:<36} {} ${}",
                    participation.id,
                    participation.status.0.as_str(),
                    participation.agreed_at.format("%Y-%m-%d %H:%M"),
                    participation.organisation_id,
                    participation.organisation_name.unwrap_or_default(),
                    participation.solution_id,
                    participation.solution_name.unwrap_or_default(),
                    participation.rate_group,
                    Cents(participation.base_rate_cents)
                );
            }
        }
        ProvidersCommand::Approve { id } => decide(pool, id, Transition::Approve).await?,
        ProvidersCommand::Decline { id } => decide(pool, id, Transition::Decline).await?,
    }
    Ok(())
}

async fn decide(pool: &store::PgPool, id: i64, transition: Transition) -> Result<()> {
    let mut transaction = pool.begin().await?;
    let decided = store::participations::apply(&mut transaction, id, transition, &Actor::Operator, None).await?;
    let decided = match decided {
        Ok(decided) => decided,
        Err(Refusal::NotFound) => bail!("no participation has id {id} (see `indexer providers participations`)"),
        Err(Refusal::NotAllowed(status)) => bail!("participation {id} is {}, not pending", status.as_str()),
    };
    transaction.commit().await?;
    say!(
        "participation {id} of {} in {} is now {}; the provider was emailed",
        decided.organisation_name.unwrap_or_default(),
        decided.solution_name.unwrap_or_default(),
        decided.status.0.as_str()
    );
    Ok(())
}
