//! `indexer members …`: what the operator needs of member accounts from the command line.

use anyhow::Result;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum MembersCommand {
    /// Prints the login email of each member who turned on Settings' "News and updates" (or
    /// asked to be kept posted when signing up), one a line, for the operator's mailing list.
    Consents,
}

pub async fn run(pool: &store::PgPool, command: MembersCommand) -> Result<()> {
    match command {
        MembersCommand::Consents => {
            for email in store::members::news_consents(pool).await? {
                say!("{email}");
            }
        }
    }
    Ok(())
}
