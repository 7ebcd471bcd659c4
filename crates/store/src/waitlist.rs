//! Clinic waitlists and notify-me requests. Telling a waitlist that its clinic opened is the
//! database's job (`notify_waitlist`, run by a trigger on `locations`), so every way of opening
//! a clinic sends the emails in its own transaction.

use serde_json::Value;
use sqlx::PgPool;

use crate::Result;

/// A request to be told when a clinic (or, without a clinic, a searched area) has room.
#[derive(Debug, Clone)]
pub struct NewEntry<'a> {
    /// The clinic's waitlist; `None` for a notify-me on the searched area.
    pub location_id: Option<i64>,
    /// The signed-in member, if any.
    pub member_id: Option<i64>,
    /// Lower-cased.
    pub email: &'a str,
    pub consent: bool,
    /// `{location, address, filters}` as searched.
    pub search: &'a Value,
}

/// What joining did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    /// A new entry.
    Added(i64),
    /// The address was already waiting for this clinic (the existing entry, unchanged), or for
    /// an area within [`SAME_AREA_MILES`] (the existing entry, its search now the new one).
    AlreadyListed(i64),
    /// No location has that id.
    UnknownLocation,
}

/// Two notify-me requests of one address whose searched points are closer than this are one
/// request: the later search (its distance and filters) replaces the earlier.
pub const SAME_AREA_MILES: f64 = 1.0;

/// Adds an entry. A clinic waitlist keeps one waiting entry per address, and so does an area.
///
/// The clinic's row is read `FOR SHARE`, which waits for (and is waited for by) an UPDATE that
/// opens the clinic, so an entry is never written between the trigger's read of the waitlist
/// and its commit. A clinic that is already accepting tells the new entry at once rather than
/// leaving it to wait for the next opening.
pub async fn join(pool: &PgPool, entry: &NewEntry<'_>) -> Result<Joined> {
    let mut transaction = pool.begin().await?;
    let accepting = match entry.location_id {
        Some(location_id) => {
            let accepting: Option<bool> =
                sqlx::query_scalar("select accepting_new_patients from locations where id = $1 for share")
                    .bind(location_id)
                    .fetch_optional(&mut *transaction)
                    .await?;
            match accepting {
                Some(accepting) => accepting,
                None => return Ok(Joined::UnknownLocation),
            }
        }
        None => false,
    };
    if entry.location_id.is_none()
        && let Some(existing) = same_area_entry(&mut transaction, entry).await?
    {
        transaction.commit().await?;
        return Ok(Joined::AlreadyListed(existing));
    }
    let inserted: Option<i64> = sqlx::query_scalar(
        "insert into waitlist_entries (location_id, member_id, email, consent, search)
         values ($1, $2, $3, $4, $5)
         on conflict (location_id, email) where location_id is not null and notified_at is null do nothing
         returning id",
    )
    .bind(entry.location_id)
    .bind(entry.member_id)
    .bind(entry.email)
    .bind(entry.consent)
    .bind(entry.search)
    .fetch_optional(&mut *transaction)
    .await?;
    let joined = match inserted {
        Some(id) => Joined::Added(id),
        None => {
            let existing: i64 = sqlx::query_scalar(
                "select id from waitlist_entries
                 where location_id = $1 and email = $2 and notified_at is null",
            )
            .bind(entry.location_id)
            .bind(entry.email)
            .fetch_one(&mut *transaction)
            .await?;
            Joined::AlreadyListed(existing)
        }
    };
    if accepting && let Some(location_id) = entry.location_id {
        sqlx::query("select notify_waitlist($1)")
            .bind(location_id)
            .execute(&mut *transaction)
            .await?;
    }
    transaction.commit().await?;
    Ok(joined)
}

/// The address's notify-me entry for (nearly) the same searched point, if any, given the new
/// search. Requests of one address are taken one at a time (a transaction-scoped advisory lock
/// on the address), so two sent together still leave one entry.
async fn same_area_entry(
    transaction: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    entry: &NewEntry<'_>,
) -> Result<Option<i64>> {
    sqlx::query("select pg_advisory_xact_lock(hashtextextended('waitlist area ' || $1, 0))")
        .bind(entry.email)
        .execute(&mut **transaction)
        .await?;
    let existing: Option<i64> = sqlx::query_scalar(
        "select id from waitlist_entries e
         where e.location_id is null and e.email = $1
           and jsonb_typeof(e.search->'location'->'lat') = 'number'
           and jsonb_typeof(e.search->'location'->'lng') = 'number'
           and jsonb_typeof($2::jsonb->'location'->'lat') = 'number'
           -- Great-circle miles (haversine, Earth radius 3958.8 miles), as notify_area measures.
           and 2 * 3958.8 * asin(least(1, sqrt(
                 power(sin(radians(($2::jsonb->'location'->>'lat')::double precision - (e.search->'location'->>'lat')::double precision) / 2), 2)
                 + cos(radians((e.search->'location'->>'lat')::double precision))
                   * cos(radians(($2::jsonb->'location'->>'lat')::double precision))
                   * power(sin(radians(($2::jsonb->'location'->>'lng')::double precision - (e.search->'location'->>'lng')::double precision) / 2), 2)
               ))) < $3
         order by id
         limit 1",
    )
    .bind(entry.email)
    .bind(entry.search)
    .bind(SAME_AREA_MILES)
    .fetch_optional(&mut **transaction)
    .await?;
    if let Some(id) = existing {
        sqlx::query("update waitlist_entries set search = $2, consent = consent or $3 where id = $1")
            .bind(id)
            .bind(entry.search)
            .bind(entry.consent)
            .execute(&mut **transaction)
            .await?;
    }
    Ok(existing)
}

/// Who a signed-in member is for the waitlist: their name and the address to write to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MemberContact {
    pub first_name: String,
    pub last_name: String,
    /// The login email, else the contact email of a family member without a login.
    pub email: Option<String>,
}

pub async fn member_contact(pool: &PgPool, member_id: i64) -> Result<Option<MemberContact>> {
    Ok(sqlx::query_as(
        "select first_name, last_name, lower(coalesce(nullif(email, ''), nullif(contact_email, ''))) as email
         from members where id = $1",
    )
    .bind(member_id)
    .fetch_optional(pool)
    .await?)
}

/// What flags a member's marketplace cards, read in one query: their favourite clinics and
/// clinicians and the clinics whose waitlist they are on (entries not yet told it opened).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketMarks {
    pub favourite_locations: Vec<i64>,
    pub favourite_clinicians: Vec<i64>,
    pub waitlisted_locations: Vec<i64>,
}

pub async fn market_marks(pool: &PgPool, member_id: i64) -> Result<MarketMarks> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "select entity, entity_id from member_favorites
         where member_id = $1 and entity in ('location', 'provider')
         union all
         select 'waitlist', location_id from waitlist_entries
         where member_id = $1 and location_id is not null and notified_at is null",
    )
    .bind(member_id)
    .fetch_all(pool)
    .await?;
    let mut marks = MarketMarks::default();
    for (kind, id) in rows {
        match kind.as_str() {
            "location" => marks.favourite_locations.push(id),
            "provider" => marks.favourite_clinicians.push(id),
            _ => marks.waitlisted_locations.push(id),
        }
    }
    Ok(marks)
}

/// Whether a member waits for a clinic (an entry not yet told it opened).
pub async fn is_waitlisted(pool: &PgPool, member_id: i64, location_id: i64) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "select exists (select 1 from waitlist_entries
                        where member_id = $1 and location_id = $2 and notified_at is null)",
    )
    .bind(member_id)
    .bind(location_id)
    .fetch_one(pool)
    .await?)
}
