//! An organisation's listings as its provider accounts edit them (docs/listings-contract.md):
//! reading them, applying a patch to a location or a clinician, confirming everything, and the
//! audit trail (`listing_edits`). Each write is one transaction: the row(s), one audit row per
//! changed field, and `last_verified`; the rows' triggers send `NOTIFY catalogue_changed`, so
//! every server patches its search snapshot.

use chrono::{DateTime, Utc};
use domain::listing::{
    AccessibilitySet, ClinicianPatch, LanguageSet, LocationPatch, PediatricAges, TimeZone, WeeklyHours,
};
use serde_json::{Value, json};
use sqlx::postgres::PgRow;
use sqlx::{PgConnection, PgPool, Row};

use crate::Result;
use crate::capacity::{self, Panel};
use crate::catalogue::listing_columns;

/// Which kind of listing an audit row is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    Location,
    Clinician,
}

impl Entity {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Location => "location",
            Self::Clinician => "clinician",
        }
    }
}

/// One row of `listing_edits`.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditRow<'a> {
    /// `provider:<account id>`, `operator` or `capacity`.
    pub actor: &'a str,
    pub organisation_id: i64,
    pub entity: Entity,
    pub entity_id: i64,
    /// The field as the API names it.
    pub field: &'a str,
    pub before: Value,
    pub after: Value,
}

/// Appends an audit row in the caller's transaction.
pub async fn audit(connection: &mut PgConnection, row: &AuditRow<'_>) -> Result<()> {
    sqlx::query(
        "insert into listing_edits (actor, organisation_id, entity, entity_id, field, before, after)
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(row.actor)
    .bind(row.organisation_id)
    .bind(row.entity.as_str())
    .bind(row.entity_id)
    .bind(row.field)
    .bind(&row.before)
    .bind(&row.after)
    .execute(&mut *connection)
    .await?;
    Ok(())
}

/// A row of the audit trail, as read back.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Edit {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub organisation_id: i64,
    pub entity: String,
    pub entity_id: i64,
    pub field: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// An organisation's audit trail, newest first.
pub async fn edits(pool: &PgPool, organisation_id: i64, limit: i64) -> Result<Vec<Edit>> {
    Ok(sqlx::query_as(
        "select id, at, actor, organisation_id, entity, entity_id, field, before, after
         from listing_edits where organisation_id = $1 order by id desc limit $2",
    )
    .bind(organisation_id)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

// ---- Reading ------------------------------------------------------------------------------

/// A location's listing as its organisation edits it.
#[derive(Debug, Clone, PartialEq)]
pub struct LocationListing {
    pub id: i64,
    pub organisation_id: i64,
    pub name: String,
    pub location_name: String,
    pub address1: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    pub is_virtual: bool,
    pub accepting_new_patients: bool,
    pub panel_capacity: Option<u32>,
    /// Pending and active members.
    pub panel_members: i64,
    /// Not accepting because the panel is full.
    pub panel_full: bool,
    pub phone: String,
    pub website: String,
    pub hours: Option<WeeklyHours>,
    /// Resolved: the location's own zone, else its state's.
    pub time_zone: TimeZone,
    pub languages: LanguageSet,
    pub accessibility: AccessibilitySet,
    pub telehealth: bool,
    pub services: Vec<String>,
    pub pediatric_ages: Option<PediatricAges>,
    pub last_verified: Option<DateTime<Utc>>,
}

impl LocationListing {
    /// The fields a patch may change, as the API writes them (the audit trail's values).
    fn field_values(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("acceptingNewPatients", json!(self.accepting_new_patients)),
            ("panelCapacity", json!(self.panel_capacity)),
            ("phone", json!(self.phone)),
            ("website", json!(self.website)),
            ("hours", self.hours.as_ref().map_or(Value::Null, WeeklyHours::to_json)),
            ("timeZone", json!(self.time_zone.as_str())),
            ("languages", json!(self.languages.codes())),
            ("accessibility", json!(self.accessibility.codes())),
            ("telehealth", json!(self.telehealth)),
            ("services", json!(self.services)),
            ("pediatricAges", json!(self.pediatric_ages)),
        ]
    }
}

/// A clinician's listing as its organisation edits it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClinicianListing {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub credentials: String,
    pub npi: String,
    pub accepting_new_patients: bool,
    pub languages: LanguageSet,
    pub telehealth: bool,
    /// The organisation's locations the clinician works at.
    pub location_ids: Vec<i64>,
    pub last_verified: Option<DateTime<Utc>>,
}

impl ClinicianListing {
    fn field_values(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("acceptingNewPatients", json!(self.accepting_new_patients)),
            ("languages", json!(self.languages.codes())),
            ("telehealth", json!(self.telehealth)),
            ("locationIds", json!(self.location_ids)),
        ]
    }
}

const LOCATION_LISTING: &str =
    "select l.id, l.organisation_id, l.name, l.location_name, l.address1, l.city, l.state, l.zip,
            l.is_virtual, l.accepting_new_patients, l.panel_capacity, l.panel_full, l.phone, l.website, l.hours,
            l.time_zone, l.languages, l.accessibility, l.telehealth, l.service_type_codes, l.pediatric_min_age,
            l.pediatric_max_age, l.last_verified,
            (select count(*) from members m
             where m.location_id = l.id and m.subscription_status in ('pending', 'active')) as panel_members
     from locations l";

fn location_listing(row: &PgRow) -> Result<LocationListing> {
    let state: String = row.try_get("state")?;
    let min: Option<i16> = row.try_get("pediatric_min_age")?;
    let max: Option<i16> = row.try_get("pediatric_max_age")?;
    Ok(LocationListing {
        id: row.try_get("id")?,
        organisation_id: row.try_get("organisation_id")?,
        name: row.try_get("name")?,
        location_name: row.try_get("location_name")?,
        address1: row.try_get("address1")?,
        city: row.try_get("city")?,
        zip: row.try_get("zip")?,
        is_virtual: row.try_get("is_virtual")?,
        accepting_new_patients: row.try_get("accepting_new_patients")?,
        panel_capacity: listing_columns::panel_capacity(row, "panel_capacity")?,
        panel_members: row.try_get("panel_members")?,
        panel_full: row.try_get("panel_full")?,
        phone: row.try_get("phone")?,
        website: row.try_get("website")?,
        hours: listing_columns::hours(row, "hours")?,
        time_zone: listing_columns::time_zone(row, "time_zone")?.unwrap_or_else(|| TimeZone::for_state(&state)),
        state,
        languages: listing_columns::languages(row, "languages")?,
        accessibility: listing_columns::accessibility(row, "accessibility")?,
        telehealth: row.try_get("telehealth")?,
        services: row.try_get("service_type_codes")?,
        pediatric_ages: match (min, max) {
            (Some(min), Some(max)) => Some(PediatricAges { min, max }),
            _ => None,
        },
        last_verified: row.try_get("last_verified")?,
    })
}

const CLINICIAN_LISTING: &str =
    "select c.id, c.first_name, c.last_name, c.credentials, c.npi, c.accepting_new_patients,
            c.languages, c.telehealth, c.last_verified,
            array(select cl.location_id from clinician_locations cl join locations l on l.id = cl.location_id
                  where cl.clinician_id = c.id and l.organisation_id = $1 order by cl.location_id) as location_ids
     from clinicians c";

/// The clinicians of an organisation: those who work at one of its locations.
const OF_ORGANISATION: &str = "exists (select 1 from clinician_locations cl join locations l on l.id = cl.location_id
                                       where cl.clinician_id = c.id and l.organisation_id = $1)";

fn clinician_listing(row: &PgRow) -> Result<ClinicianListing> {
    Ok(ClinicianListing {
        id: row.try_get("id")?,
        first_name: row.try_get("first_name")?,
        last_name: row.try_get("last_name")?,
        credentials: row.try_get("credentials")?,
        npi: row.try_get("npi")?,
        accepting_new_patients: row.try_get("accepting_new_patients")?,
        languages: listing_columns::languages(row, "languages")?,
        telehealth: row.try_get("telehealth")?,
        location_ids: row.try_get("location_ids")?,
        last_verified: row.try_get("last_verified")?,
    })
}

/// An organisation's locations and clinicians, each by id.
pub async fn of_organisation(
    pool: &PgPool,
    organisation_id: i64,
) -> Result<(Vec<LocationListing>, Vec<ClinicianListing>)> {
    let statement = format!("{LOCATION_LISTING} where l.organisation_id = $1 order by l.id");
    let locations = sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(organisation_id)
        .fetch_all(pool)
        .await?
        .iter()
        .map(location_listing)
        .collect::<Result<Vec<_>>>()?;
    let statement = format!("{CLINICIAN_LISTING} where {OF_ORGANISATION} order by c.id");
    let clinicians = sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(organisation_id)
        .fetch_all(pool)
        .await?
        .iter()
        .map(clinician_listing)
        .collect::<Result<Vec<_>>>()?;
    Ok((locations, clinicians))
}

async fn location_of(
    connection: &mut PgConnection,
    organisation_id: i64,
    id: i64,
    lock: bool,
) -> Result<Option<LocationListing>> {
    let statement = format!(
        "{LOCATION_LISTING} where l.id = $1 and l.organisation_id = $2{}",
        if lock { " for no key update of l" } else { "" }
    );
    sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .bind(organisation_id)
        .fetch_optional(&mut *connection)
        .await?
        .as_ref()
        .map(location_listing)
        .transpose()
}

async fn clinician_of(
    connection: &mut PgConnection,
    organisation_id: i64,
    id: i64,
    lock: bool,
) -> Result<Option<ClinicianListing>> {
    let statement = format!(
        "{CLINICIAN_LISTING} where c.id = $2 and {OF_ORGANISATION}{}",
        if lock { " for no key update of c" } else { "" }
    );
    sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(organisation_id)
        .bind(id)
        .fetch_optional(&mut *connection)
        .await?
        .as_ref()
        .map(clinician_listing)
        .transpose()
}

// ---- Editing ------------------------------------------------------------------------------

/// Why an edit was refused (nothing was written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditRefusal {
    /// Accepting new patients was asked for while the panel is full.
    PanelFull { members: i64, capacity: u32 },
    /// Pediatric ages without the pediatric care service (BH).
    PediatricAgesNeedService,
    /// `locationIds[index]` is not a location of the organisation.
    ForeignLocation { index: usize, id: i64 },
}

/// What became of an edit.
#[derive(Debug, Clone, PartialEq)]
pub enum Edited<T> {
    /// No such listing in the organisation.
    NotFound,
    Refused(EditRefusal),
    Done(T),
}

/// Applies a patch to one of an organisation's locations, confirming the listing at `now`.
pub async fn edit_location(
    pool: &PgPool,
    actor: &str,
    organisation_id: i64,
    id: i64,
    patch: &LocationPatch,
    now: DateTime<Utc>,
) -> Result<Edited<LocationListing>> {
    let mut transaction = pool.begin().await?;
    let Some(before) = location_of(&mut transaction, organisation_id, id, true).await? else {
        return Ok(Edited::NotFound);
    };
    let mut after = before.clone();
    if let Some(phone) = &patch.phone {
        after.phone.clone_from(phone);
    }
    if let Some(website) = &patch.website {
        after.website.clone_from(website);
    }
    if let Some(hours) = &patch.hours {
        after.hours.clone_from(hours);
    }
    if let Some(zone) = patch.time_zone {
        after.time_zone = zone;
    }
    if let Some(languages) = &patch.languages {
        after.languages = languages.clone();
    }
    if let Some(accessibility) = patch.accessibility {
        after.accessibility = accessibility;
    }
    if let Some(telehealth) = patch.telehealth {
        after.telehealth = telehealth;
    }
    if let Some(services) = &patch.services {
        after.services.clone_from(services);
    }
    if let Some(ages) = patch.pediatric_ages {
        after.pediatric_ages = ages;
    }
    if !after
        .services
        .iter()
        .any(|code| code == domain::PEDIATRICS_SERVICE_TYPE)
    {
        if matches!(patch.pediatric_ages, Some(Some(_))) {
            return Ok(Edited::Refused(EditRefusal::PediatricAgesNeedService));
        }
        after.pediatric_ages = None;
    }
    if let Some(capacity) = patch.panel_capacity {
        after.panel_capacity = capacity;
    }
    let panel = Panel {
        organisation_id,
        members: before.panel_members,
        capacity: after.panel_capacity.map(|capacity| capacity as i32),
        accepting_new_patients: before.accepting_new_patients,
        full: before.panel_full,
    };
    match patch.accepting_new_patients {
        Some(true) if panel.at_capacity() => {
            return Ok(Edited::Refused(EditRefusal::PanelFull {
                members: panel.members,
                capacity: after.panel_capacity.unwrap_or_default(),
            }));
        }
        Some(accepting) => {
            // The clinic's own decision: never undone by the panel freeing up.
            after.accepting_new_patients = accepting;
            after.panel_full = false;
        }
        None if panel.at_capacity() && before.accepting_new_patients => {
            after.accepting_new_patients = false;
            after.panel_full = true;
        }
        None if before.panel_full && !panel.at_capacity() => {
            after.accepting_new_patients = true;
            after.panel_full = false;
        }
        None => {}
    }
    after.last_verified = Some(now);
    sqlx::query(
        "update locations set accepting_new_patients = $2, panel_full = $3, panel_capacity = $4, phone = $5,
                website = $6, hours = $7, time_zone = $8, languages = $9, accessibility = $10, telehealth = $11,
                service_type_codes = $12, pediatric_min_age = $13, pediatric_max_age = $14, last_verified = $15
         where id = $1",
    )
    .bind(id)
    .bind(after.accepting_new_patients)
    .bind(after.panel_full)
    .bind(after.panel_capacity.map(|capacity| capacity as i32))
    .bind(&after.phone)
    .bind(&after.website)
    .bind(after.hours.as_ref().map(WeeklyHours::to_json))
    .bind(after.time_zone.as_str())
    .bind(after.languages.codes())
    .bind(after.accessibility.codes())
    .bind(after.telehealth)
    .bind(&after.services)
    .bind(after.pediatric_ages.map(|ages| ages.min))
    .bind(after.pediatric_ages.map(|ages| ages.max))
    .bind(now)
    .execute(&mut *transaction)
    .await?;
    let actor_of = |field: &str| {
        // The panel's own doing, when the provider did not ask for it.
        if field == "acceptingNewPatients" && patch.accepting_new_patients.is_none() {
            capacity::CAPACITY_ACTOR
        } else {
            actor
        }
    };
    let listing = Listing {
        organisation_id,
        entity: Entity::Location,
        id,
    };
    let changes = before.field_values().into_iter().zip(after.field_values());
    audit_changes(&mut transaction, listing, actor_of, changes).await?;
    audit_verified(&mut transaction, actor, listing, before.last_verified, now).await?;
    transaction.commit().await?;
    Ok(Edited::Done(after))
}

/// Applies a patch to one of an organisation's clinicians, confirming the listing at `now`.
/// `location_ids` replaces the clinician's links to the organisation's own locations; links to
/// another organisation's locations stay.
pub async fn edit_clinician(
    pool: &PgPool,
    actor: &str,
    organisation_id: i64,
    id: i64,
    patch: &ClinicianPatch,
    now: DateTime<Utc>,
) -> Result<Edited<ClinicianListing>> {
    let mut transaction = pool.begin().await?;
    let Some(before) = clinician_of(&mut transaction, organisation_id, id, true).await? else {
        return Ok(Edited::NotFound);
    };
    let mut after = before.clone();
    if let Some(accepting) = patch.accepting_new_patients {
        after.accepting_new_patients = accepting;
    }
    if let Some(languages) = &patch.languages {
        after.languages = languages.clone();
    }
    if let Some(telehealth) = patch.telehealth {
        after.telehealth = telehealth;
    }
    if let Some(location_ids) = &patch.location_ids {
        let own: Vec<i64> = sqlx::query_scalar("select id from locations where id = any($1) and organisation_id = $2")
            .bind(location_ids)
            .bind(organisation_id)
            .fetch_all(&mut *transaction)
            .await?;
        if let Some((index, id)) = location_ids
            .iter()
            .enumerate()
            .find(|(_, location)| !own.contains(location))
        {
            return Ok(Edited::Refused(EditRefusal::ForeignLocation { index, id: *id }));
        }
        let mut sorted = location_ids.clone();
        sorted.sort_unstable();
        after.location_ids = sorted;
        sqlx::query(
            "delete from clinician_locations cl using locations l
             where cl.clinician_id = $1 and l.id = cl.location_id and l.organisation_id = $2
               and cl.location_id <> all($3)",
        )
        .bind(id)
        .bind(organisation_id)
        .bind(&after.location_ids)
        .execute(&mut *transaction)
        .await?;
        sqlx::query(
            "insert into clinician_locations (clinician_id, location_id) select $1, unnest($2::bigint[])
             on conflict do nothing",
        )
        .bind(id)
        .bind(&after.location_ids)
        .execute(&mut *transaction)
        .await?;
    }
    after.last_verified = Some(now);
    // Written whatever changed: the row's new change_xid is what tells the servers to read the
    // clinician again, links included.
    sqlx::query(
        "update clinicians set accepting_new_patients = $2, languages = $3, telehealth = $4, last_verified = $5
         where id = $1",
    )
    .bind(id)
    .bind(after.accepting_new_patients)
    .bind(after.languages.codes())
    .bind(after.telehealth)
    .bind(now)
    .execute(&mut *transaction)
    .await?;
    let listing = Listing {
        organisation_id,
        entity: Entity::Clinician,
        id,
    };
    let changes = before.field_values().into_iter().zip(after.field_values());
    audit_changes(&mut transaction, listing, |_| actor, changes).await?;
    audit_verified(&mut transaction, actor, listing, before.last_verified, now).await?;
    transaction.commit().await?;
    Ok(Edited::Done(after))
}

/// Which listing audit rows are about.
#[derive(Debug, Clone, Copy)]
struct Listing {
    organisation_id: i64,
    entity: Entity,
    id: i64,
}

/// One audit row per field whose value changed (`(field, before)` zipped with
/// `(field, after)`), each by the actor `actor_of` names for it.
async fn audit_changes<'a>(
    connection: &mut PgConnection,
    listing: Listing,
    actor_of: impl Fn(&str) -> &'a str,
    changes: impl Iterator<Item = ((&'static str, Value), (&'static str, Value))>,
) -> Result<()> {
    for ((field, old), (_, new)) in changes {
        if old != new {
            let row = AuditRow {
                actor: actor_of(field),
                organisation_id: listing.organisation_id,
                entity: listing.entity,
                entity_id: listing.id,
                field,
                before: old,
                after: new,
            };
            audit(connection, &row).await?;
        }
    }
    Ok(())
}

async fn audit_verified(
    connection: &mut PgConnection,
    actor: &str,
    listing: Listing,
    before: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Result<()> {
    let row = AuditRow {
        actor,
        organisation_id: listing.organisation_id,
        entity: listing.entity,
        entity_id: listing.id,
        field: "lastVerified",
        before: json!(before),
        after: json!(now),
    };
    audit(connection, &row).await
}

/// "Everything is correct": confirms every location and clinician of the organisation at
/// `now`, one audit row each. Returns how many listings were confirmed.
pub async fn confirm_all(pool: &PgPool, actor: &str, organisation_id: i64, now: DateTime<Utc>) -> Result<usize> {
    let mut transaction = pool.begin().await?;
    let locations: Vec<(i64, Option<DateTime<Utc>>)> = sqlx::query_as(
        "select id, last_verified from locations where organisation_id = $1 order by id for no key update",
    )
    .bind(organisation_id)
    .fetch_all(&mut *transaction)
    .await?;
    let statement = format!(
        "select c.id, c.last_verified from clinicians c where {OF_ORGANISATION} order by c.id for no key update of c"
    );
    let clinicians: Vec<(i64, Option<DateTime<Utc>>)> = sqlx::query_as(sqlx::AssertSqlSafe(statement))
        .bind(organisation_id)
        .fetch_all(&mut *transaction)
        .await?;
    let location_ids: Vec<i64> = locations.iter().map(|(id, _)| *id).collect();
    let clinician_ids: Vec<i64> = clinicians.iter().map(|(id, _)| *id).collect();
    sqlx::query("update locations set last_verified = $2 where id = any($1)")
        .bind(&location_ids)
        .bind(now)
        .execute(&mut *transaction)
        .await?;
    sqlx::query("update clinicians set last_verified = $2 where id = any($1)")
        .bind(&clinician_ids)
        .bind(now)
        .execute(&mut *transaction)
        .await?;
    for (entity, listings) in [(Entity::Location, &locations), (Entity::Clinician, &clinicians)] {
        for (id, before) in listings {
            let listing = Listing {
                organisation_id,
                entity,
                id: *id,
            };
            audit_verified(&mut transaction, actor, listing, *before, now).await?;
        }
    }
    transaction.commit().await?;
    Ok(locations.len() + clinicians.len())
}

/// A location of the organisation, as [`edit_location`] answers it.
pub async fn location(pool: &PgPool, organisation_id: i64, id: i64) -> Result<Option<LocationListing>> {
    let mut connection = pool.acquire().await?;
    location_of(&mut connection, organisation_id, id, false).await
}

/// A clinician of the organisation, as [`edit_clinician`] answers it.
pub async fn clinician(pool: &PgPool, organisation_id: i64, id: i64) -> Result<Option<ClinicianListing>> {
    let mut connection = pool.acquire().await?;
    clinician_of(&mut connection, organisation_id, id, false).await
}

// ---- What members see ---------------------------------------------------------------------

/// The listing facts a clinic profile shows beside the snapshot's (its opening hours among
/// them): read from PostgreSQL with the description, so a profile is as fresh as the last edit.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileFacts {
    pub description: String,
    pub time_zone: TimeZone,
    pub languages: LanguageSet,
    pub accessibility: AccessibilitySet,
    pub telehealth: bool,
    pub last_verified: Option<DateTime<Utc>>,
}

/// A location's profile facts; `None` when there is no such location.
pub async fn location_profile(pool: &PgPool, location_id: i64) -> Result<Option<ProfileFacts>> {
    let row = sqlx::query(
        "select description, time_zone, state, languages, accessibility, telehealth, last_verified
         from locations where id = $1",
    )
    .bind(location_id)
    .fetch_optional(pool)
    .await?;
    row.map(|row| {
        let state: String = row.try_get("state")?;
        Ok(ProfileFacts {
            description: row.try_get("description")?,
            time_zone: listing_columns::time_zone(&row, "time_zone")?.unwrap_or_else(|| TimeZone::for_state(&state)),
            languages: listing_columns::languages(&row, "languages")?,
            accessibility: listing_columns::accessibility(&row, "accessibility")?,
            telehealth: row.try_get("telehealth")?,
            last_verified: row.try_get("last_verified")?,
        })
    })
    .transpose()
}

/// A clinician's profile facts: description, languages, telehealth and `last_verified`.
pub async fn clinician_profile(
    pool: &PgPool,
    clinician_id: i64,
) -> Result<Option<(String, LanguageSet, bool, Option<DateTime<Utc>>)>> {
    let row = sqlx::query("select description, languages, telehealth, last_verified from clinicians where id = $1")
        .bind(clinician_id)
        .fetch_optional(pool)
        .await?;
    row.map(|row| {
        Ok((
            row.try_get("description")?,
            listing_columns::languages(&row, "languages")?,
            row.try_get("telehealth")?,
            row.try_get("last_verified")?,
        ))
    })
    .transpose()
}
