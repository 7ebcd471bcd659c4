//! Listings past due for confirmation (docs/listings-contract.md): which organisations to
//! remind, writing a reminder (its row and one email per provider account, in one
//! transaction), and the operator's list of stale listings (`indexer directory stale`).

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::PgPool;

use crate::Result;

/// A listing not confirmed since the cutoff.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StaleListing {
    /// `location` or `clinician`.
    pub kind: String,
    pub id: i64,
    pub name: String,
    /// The location's phone; empty for a clinician.
    pub phone: String,
    pub last_verified: Option<DateTime<Utc>>,
}

/// A provider account of an organisation: who is reminded.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Contact {
    pub email: String,
    pub first_name: String,
    pub password_set: bool,
}

/// An organisation with stale listings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleOrganisation {
    pub id: i64,
    pub name: String,
    pub listings: Vec<StaleListing>,
    pub contacts: Vec<Contact>,
    pub last_reminded: Option<DateTime<Utc>>,
}

/// The stale listings of one organisation: locations, then clinicians, oldest first.
pub async fn stale_listings(pool: &PgPool, organisation_id: i64, cutoff: DateTime<Utc>) -> Result<Vec<StaleListing>> {
    Ok(sqlx::query_as(
        "select 'location' as kind, id, name || ' (' || location_name || ')' as name, phone, last_verified
         from locations
         where organisation_id = $1 and (last_verified is null or last_verified < $2)
         union all
         select 'clinician', c.id, c.first_name || ' ' || c.last_name || ', ' || c.credentials, '', c.last_verified
         from clinicians c
         where (c.last_verified is null or c.last_verified < $2)
           and exists (select 1 from clinician_locations cl join locations l on l.id = cl.location_id
                       where cl.clinician_id = c.id and l.organisation_id = $1)
         order by kind desc, last_verified nulls first, id",
    )
    .bind(organisation_id)
    .bind(cutoff)
    .fetch_all(pool)
    .await?)
}

/// The provider accounts of an organisation.
pub async fn contacts(pool: &PgPool, organisation_id: i64) -> Result<Vec<Contact>> {
    Ok(sqlx::query_as(
        "select email, first_name, password_hash is not null as password_set from members
         where account_kind = 'provider' and organisation_id = $1 and email is not null order by id",
    )
    .bind(organisation_id)
    .fetch_all(pool)
    .await?)
}

/// When an organisation was last reminded.
pub async fn last_reminded(pool: &PgPool, organisation_id: i64) -> Result<Option<DateTime<Utc>>> {
    Ok(
        sqlx::query_scalar("select max(sent_at) from attestation_reminders where organisation_id = $1")
            .bind(organisation_id)
            .fetch_one(pool)
            .await?,
    )
}

/// The organisations with provider accounts, listings unconfirmed since `cutoff`, and no
/// reminder since `reminded_since`: who the sweep reminds.
pub async fn organisations_to_remind(
    pool: &PgPool,
    cutoff: DateTime<Utc>,
    reminded_since: DateTime<Utc>,
) -> Result<Vec<i64>> {
    Ok(sqlx::query_scalar(
        "select o.id from organisations o
         where o.id in (select organisation_id from members where account_kind = 'provider' and organisation_id is not null)
           and not exists (select 1 from attestation_reminders r where r.organisation_id = o.id and r.sent_at > $2)
           and (exists (select 1 from locations l
                        where l.organisation_id = o.id and (l.last_verified is null or l.last_verified < $1))
                or exists (select 1 from clinicians c
                           join clinician_locations cl on cl.clinician_id = c.id
                           join locations l on l.id = cl.location_id
                           where l.organisation_id = o.id and (c.last_verified is null or c.last_verified < $1)))
         order by o.id",
    )
    .bind(cutoff)
    .bind(reminded_since)
    .fetch_all(pool)
    .await?)
}

/// Listings named in a reminder; the rest are counted.
const LISTED_IN_REMINDER: usize = 20;

/// Reminds an organisation at `now` of its listings unconfirmed since `cutoff`, unless it was
/// reminded after `reminded_since` or has nothing past due (checked again with the
/// organisation's row locked, so two sweeps never both send). Writes the reminder row and one
/// `attestation_reminder` email per provider account; returns the emails written.
pub async fn remind(
    pool: &PgPool,
    organisation_id: i64,
    now: DateTime<Utc>,
    cutoff: DateTime<Utc>,
    reminded_since: DateTime<Utc>,
) -> Result<usize> {
    let mut transaction = pool.begin().await?;
    let name: Option<String> = sqlx::query_scalar("select name from organisations where id = $1 for update")
        .bind(organisation_id)
        .fetch_optional(&mut *transaction)
        .await?;
    let Some(organisation) = name else {
        return Ok(0);
    };
    let recent: bool = sqlx::query_scalar(
        "select exists(select 1 from attestation_reminders where organisation_id = $1 and sent_at > $2)",
    )
    .bind(organisation_id)
    .bind(reminded_since)
    .fetch_one(&mut *transaction)
    .await?;
    if recent {
        return Ok(0);
    }
    let stale = stale_listings(pool, organisation_id, cutoff).await?;
    let contacts = contacts(pool, organisation_id).await?;
    if stale.is_empty() || contacts.is_empty() {
        return Ok(0);
    }
    let listed: Vec<serde_json::Value> = stale
        .iter()
        .take(LISTED_IN_REMINDER)
        .map(|listing| {
            json!({
                "kind": if listing.kind == "location" { "Location" } else { "Clinician" },
                "name": listing.name,
                "last_verified": listing
                    .last_verified
                    .map_or_else(|| "never".to_owned(), |at| at.format("%m/%d/%Y").to_string()),
            })
        })
        .collect();
    for contact in &contacts {
        crate::outbox::enqueue(
            &mut transaction,
            &crate::outbox::NewEmail {
                to_email: &contact.email,
                kind: "attestation_reminder",
                link: Some(LISTINGS_PAGE),
                facts: json!({
                    "organisation": organisation,
                    "first_name": contact.first_name,
                    "count": stale.len(),
                    "listings": listed,
                    "more": stale.len().saturating_sub(LISTED_IN_REMINDER),
                    "days": (now - cutoff).num_days(),
                }),
            },
        )
        .await?;
    }
    sqlx::query(
        "insert into attestation_reminders (organisation_id, sent_at, listings, recipients) values ($1, $2, $3, $4)",
    )
    .bind(organisation_id)
    .bind(now)
    .bind(stale.len() as i32)
    .bind(contacts.len() as i32)
    .execute(&mut *transaction)
    .await?;
    transaction.commit().await?;
    Ok(contacts.len())
}

/// Where a reminder sends the provider (relative: the sender makes it absolute).
pub const LISTINGS_PAGE: &str = "/dpc-providers/listings";

/// Organisations with listings unconfirmed for more than `days` at `now`, most stale listings
/// first, at most `limit`; with the total number of such organisations.
pub async fn stale_organisations(
    pool: &PgPool,
    now: DateTime<Utc>,
    days: i64,
    limit: i64,
) -> Result<(i64, Vec<StaleOrganisation>)> {
    let cutoff = now - Duration::days(days);
    let counted: Vec<(i64, String, i64)> = sqlx::query_as(
        "with stale as (
             select organisation_id from locations where last_verified is null or last_verified < $1
             union all
             select distinct on (c.id) l.organisation_id
             from clinicians c join clinician_locations cl on cl.clinician_id = c.id
             join locations l on l.id = cl.location_id
             where c.last_verified is null or c.last_verified < $1
         )
         select o.id, o.name, count(*) as listings
         from stale join organisations o on o.id = stale.organisation_id
         group by o.id, o.name order by listings desc, o.id",
    )
    .bind(cutoff)
    .fetch_all(pool)
    .await?;
    let total = counted.len() as i64;
    let mut organisations = Vec::new();
    for (id, name, _) in counted.into_iter().take(limit.max(0) as usize) {
        organisations.push(StaleOrganisation {
            id,
            name,
            listings: stale_listings(pool, id, cutoff).await?,
            contacts: contacts(pool, id).await?,
            last_reminded: last_reminded(pool, id).await?,
        });
    }
    Ok((total, organisations))
}
