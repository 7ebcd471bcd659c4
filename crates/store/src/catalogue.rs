//! Loading the catalogue (COPY, in [`load`]), reading it back for a snapshot build, and small
//! edits.

pub mod listing_columns;
mod load;

pub use load::load;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::listing::WeeklyHours;
use domain::{
    CareModalities, Clinician, Employer, EmployerStatus, Gender, InsurancePlan, Location, Network, Organisation,
    OrganisationKind,
};
use sqlx::postgres::PgRow;
use sqlx::{PgPool, Postgres, Row, Transaction};

use crate::{Result, StoreError};

/// Row counts of the catalogue tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct CatalogueCounts {
    pub organisations: i64,
    pub locations: i64,
    pub clinicians: i64,
    pub employers: i64,
    pub vendors: i64,
    pub solutions: i64,
    pub roster_members: i64,
}

pub async fn counts(pool: &PgPool) -> Result<CatalogueCounts> {
    let row = sqlx::query(
        "select (select count(*) from organisations) as organisations,
                (select count(*) from locations) as locations,
                (select count(*) from clinicians) as clinicians,
                (select count(*) from employers) as employers,
                (select count(*) from vendors) as vendors,
                (select count(*) from solutions) as solutions,
                (select count(*) from eligibility_roster) as roster_members",
    )
    .fetch_one(pool)
    .await?;
    Ok(CatalogueCounts {
        organisations: row.try_get("organisations")?,
        locations: row.try_get("locations")?,
        clinicians: row.try_get("clinicians")?,
        employers: row.try_get("employers")?,
        vendors: row.try_get("vendors")?,
        solutions: row.try_get("solutions")?,
        roster_members: row.try_get("roster_members")?,
    })
}

/// The part of the catalogue a search snapshot is built from.
#[derive(Debug, Clone, Default)]
pub struct IndexInput {
    pub organisations: Vec<Organisation>,
    pub locations: Vec<Location>,
    pub clinicians: Vec<Clinician>,
    pub employers: Vec<Employer>,
    pub networks: Vec<Network>,
    pub insurance_plans: Vec<InsurancePlan>,
    /// The locations' opening hours: each distinct week once, with the ids of the locations
    /// keeping it (the location rows carry none).
    pub hours_patterns: Vec<(WeeklyHours, Vec<i64>)>,
    /// The newest `updated_at` seen (for people: how fresh the rows are).
    pub watermark: DateTime<Utc>,
    /// The database snapshot the rows were read under ([`changes_since`] reads what it could
    /// not see).
    pub cursor: String,
}

/// Columns of a location as the search snapshot needs them, with `$hours` for the opening
/// hours. Descriptions stay in PostgreSQL (profiles read them there): at a million rows they
/// would be a tenth of a rebuild's memory. So do the links enrolment follows (the provider's
/// portal, the page after enrolling), which enrolment and the family page read there: at a
/// million they were 39 MB of every server's memory.
macro_rules! location_columns {
    ($hours:literal) => {
        concat!(
            "id, organisation_id, name, location_name, address1, city, state, zip, lat, lng, \
             position_approximate, phone, website, logo, '' as description, accepting_new_patients, is_virtual, \
             virtual_states, home_care, at_clinic, at_work, in_home, phone_visits, text_chat, video_visits, \
             service_type_codes, pediatric_min_age, pediatric_max_age, null::text as provider_portal_url, \
             null::text as post_enrolment_redirect, ",
            $hours,
            ", time_zone, languages, accessibility, telehealth, panel_capacity, last_verified, updated_at"
        )
    };
}

/// A location's columns with its opening hours (a catch-up's few changed rows).
pub(crate) const LOCATION_COLUMNS: &str = location_columns!("hours");

/// A location's columns without its opening hours: a full read takes the hours as
/// [`IndexInput::hours_patterns`] instead of a week parsed for each of a million rows.
const LOCATION_COLUMNS_WITHOUT_HOURS: &str = location_columns!("null::jsonb as hours");

pub(crate) const CLINICIAN_COLUMNS: &str = "id, npi, first_name, last_name, credentials, category, speciality, gender, \
     accepting_new_patients, '' as description, logo, languages, telehealth, last_verified, updated_at";

/// Reads everything a snapshot build needs, in one repeatable-read transaction so the rows and
/// the watermark agree.
pub async fn read_index_input(pool: &PgPool) -> Result<IndexInput> {
    use futures_util::TryStreamExt;

    let mut transaction = pool.begin().await?;
    sqlx::query("set transaction isolation level repeatable read, read only")
        .execute(&mut *transaction)
        .await?;
    // The first statement fixes the transaction's snapshot: the cursor is the one every row
    // below is read under.
    let (watermark, cursor): (DateTime<Utc>, String) = sqlx::query_as(
        "select greatest(
             (select max(updated_at) from locations),
             (select max(updated_at) from clinicians),
             (select max(updated_at) from organisations),
             (select max(updated_at) from employers),
             (select max(updated_at) from networks),
             (select max(updated_at) from insurance_plans),
             'epoch'::timestamptz),
             pg_current_snapshot()::text",
    )
    .fetch_one(&mut *transaction)
    .await?;

    let organisations = sqlx::query("select id, name, kind, updated_at from organisations order by id")
        .fetch_all(&mut *transaction)
        .await?
        .iter()
        .map(organisation_from_row)
        .collect::<Result<Vec<_>>>()?;

    let mut locations = Vec::new();
    let statement = format!("select {LOCATION_COLUMNS_WITHOUT_HOURS} from locations order by id");
    let mut rows = sqlx::query(sqlx::AssertSqlSafe(statement)).fetch(&mut *transaction);
    while let Some(row) = rows.try_next().await? {
        locations.push(location_from_row(&row)?);
    }
    drop(rows);
    let hours_patterns = read_hours_patterns(&mut transaction).await?;

    let mut clinicians = Vec::new();
    let statement = format!("select {CLINICIAN_COLUMNS} from clinicians order by id");
    let mut rows = sqlx::query(sqlx::AssertSqlSafe(statement)).fetch(&mut *transaction);
    while let Some(row) = rows.try_next().await? {
        clinicians.push(clinician_from_row(&row)?);
    }
    drop(rows);
    attach_clinician_locations(&mut transaction, &mut clinicians, None).await?;

    let employers = read_employers(&mut transaction).await?;
    let networks = read_networks(&mut *transaction, None).await?;
    let insurance_plans = read_insurance_plans(&mut *transaction, None).await?;
    transaction.commit().await?;
    Ok(IndexInput {
        organisations,
        locations,
        clinicians,
        employers,
        networks,
        insurance_plans,
        hours_patterns,
        watermark,
        cursor,
    })
}

/// Every distinct week of opening hours with the locations keeping it: PostgreSQL groups the
/// million rows, and each week is parsed once.
async fn read_hours_patterns(transaction: &mut Transaction<'_, Postgres>) -> Result<Vec<(WeeklyHours, Vec<i64>)>> {
    let rows = sqlx::query(
        "select hours, array_agg(id order by id) as location_ids from locations
         where hours is not null group by hours",
    )
    .fetch_all(&mut **transaction)
    .await?;
    rows.iter()
        .map(|row| {
            let hours = listing_columns::hours(row, "hours")?
                .ok_or_else(|| StoreError::InvalidData("a grouped week of opening hours is null".into()))?;
            Ok((hours, row.try_get("location_ids")?))
        })
        .collect()
}

async fn read_employers(transaction: &mut Transaction<'_, Postgres>) -> Result<Vec<Employer>> {
    let rows = sqlx::query(
        "select e.id, e.company_name, e.alias, e.status,
                coalesce(array_agg(n.organisation_id order by n.organisation_id)
                         filter (where n.organisation_id is not null), '{}') as network
         from employers e left join employer_network n on n.employer_id = e.id
         group by e.id order by e.id",
    )
    .fetch_all(&mut **transaction)
    .await?;
    rows.iter()
        .map(|row| {
            let status: String = row.try_get("status")?;
            Ok(Employer {
                id: row.try_get("id")?,
                company_name: row.try_get("company_name")?,
                alias: row.try_get("alias")?,
                status: EmployerStatus::parse(&status).ok_or_else(|| StoreError::InvalidData(status.clone()))?,
                network_organisation_ids: row.try_get("network")?,
            })
        })
        .collect()
}

/// Networks with their member organisations; `only` limits the read to some ids.
pub(crate) async fn read_networks<'c>(
    executor: impl sqlx::PgExecutor<'c>,
    only: Option<&[i64]>,
) -> Result<Vec<Network>> {
    let rows = sqlx::query(
        "select n.id, n.name, n.owner_organisation_id, n.coverage_states, n.updated_at,
                coalesce(array_agg(m.organisation_id order by m.organisation_id)
                         filter (where m.organisation_id is not null), '{}') as members
         from networks n left join network_organisations m on m.network_id = n.id
         where $1::bigint[] is null or n.id = any($1)
         group by n.id order by n.id",
    )
    .bind(only)
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(Network {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                owner_organisation_id: row.try_get("owner_organisation_id")?,
                coverage_states: row.try_get("coverage_states")?,
                organisation_ids: row.try_get("members")?,
                updated_at_micros: micros(row.try_get("updated_at")?),
            })
        })
        .collect()
}

/// Insurance plans with their networks; `only` limits the read to some ids.
pub(crate) async fn read_insurance_plans<'c>(
    executor: impl sqlx::PgExecutor<'c>,
    only: Option<&[i64]>,
) -> Result<Vec<InsurancePlan>> {
    let rows = sqlx::query(
        "select p.id, p.name, p.product_type, p.owned_by_organisation_id, p.administered_by_organisation_id,
                p.coverage_states, p.updated_at,
                coalesce(array_agg(n.network_id order by n.network_id)
                         filter (where n.network_id is not null), '{}') as networks
         from insurance_plans p left join insurance_plan_networks n on n.plan_id = p.id
         where $1::bigint[] is null or p.id = any($1)
         group by p.id order by p.id",
    )
    .bind(only)
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(InsurancePlan {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                product_type: row.try_get("product_type")?,
                owned_by_organisation_id: row.try_get("owned_by_organisation_id")?,
                administered_by_organisation_id: row.try_get("administered_by_organisation_id")?,
                coverage_states: row.try_get("coverage_states")?,
                network_ids: row.try_get("networks")?,
                updated_at_micros: micros(row.try_get("updated_at")?),
            })
        })
        .collect()
}

fn micros(at: DateTime<Utc>) -> i64 {
    at.timestamp_micros()
}

/// Fills `location_ids` of the clinicians; `only` limits the read to some clinician ids.
async fn attach_clinician_locations(
    transaction: &mut Transaction<'_, Postgres>,
    clinicians: &mut [Clinician],
    only: Option<&[i64]>,
) -> Result<()> {
    use futures_util::TryStreamExt;

    let position_by_id: HashMap<i64, usize> = clinicians
        .iter()
        .enumerate()
        .map(|(position, clinician)| (clinician.id, position))
        .collect();
    let mut rows = match only {
        Some(ids) => sqlx::query(
            "select clinician_id, location_id from clinician_locations where clinician_id = any($1) \
             order by clinician_id, location_id",
        )
        .bind(ids)
        .fetch(&mut **transaction),
        None => {
            sqlx::query("select clinician_id, location_id from clinician_locations order by clinician_id, location_id")
                .fetch(&mut **transaction)
        }
    };
    while let Some(row) = rows.try_next().await? {
        let clinician_id: i64 = row.try_get(0)?;
        let location_id: i64 = row.try_get(1)?;
        if let Some(position) = position_by_id.get(&clinician_id) {
            clinicians[*position].location_ids.push(location_id);
        }
    }
    Ok(())
}

/// Rows changed since a catalogue cursor: what a patch applies.
#[derive(Debug, Clone, Default)]
pub struct CatalogueChanges {
    pub locations: Vec<Location>,
    pub clinicians: Vec<Clinician>,
    /// The newest `updated_at` among the changed rows (or the one given when none changed).
    pub watermark: DateTime<Utc>,
    /// The database snapshot the changes were read under: the next call's `cursor`.
    pub cursor: String,
}

impl CatalogueChanges {
    pub fn is_empty(&self) -> bool {
        self.locations.is_empty() && self.clinicians.is_empty()
    }
}

/// Reads the locations and clinicians written by transactions that the database snapshot
/// `cursor` (from [`read_index_input`] or an earlier call) could not see: committed after it was
/// taken, or still running then. The rows' `change_xid` index bounds the read by the cursor's
/// oldest running transaction, so it costs what changed, whatever the rows' timestamps are.
/// `watermark` is the caller's current one, kept when nothing changed.
pub async fn changes_since(pool: &PgPool, cursor: &str, watermark: DateTime<Utc>) -> Result<CatalogueChanges> {
    let mut transaction = pool.begin().await?;
    sqlx::query("set transaction isolation level repeatable read, read only")
        .execute(&mut *transaction)
        .await?;
    let next_cursor: String = sqlx::query_scalar("select pg_current_snapshot()::text")
        .fetch_one(&mut *transaction)
        .await?;
    const UNSEEN: &str = "change_xid >= pg_snapshot_xmin($1::pg_snapshot) \
                          and not pg_visible_in_snapshot(change_xid, $1::pg_snapshot)";
    let statement = format!("select {LOCATION_COLUMNS} from locations where {UNSEEN} order by id");
    let locations = sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(cursor)
        .fetch_all(&mut *transaction)
        .await?
        .iter()
        .map(location_from_row)
        .collect::<Result<Vec<_>>>()?;
    let statement = format!("select {CLINICIAN_COLUMNS} from clinicians where {UNSEEN} order by id");
    let mut clinicians = sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(cursor)
        .fetch_all(&mut *transaction)
        .await?
        .iter()
        .map(clinician_from_row)
        .collect::<Result<Vec<_>>>()?;
    let ids: Vec<i64> = clinicians.iter().map(|clinician| clinician.id).collect();
    attach_clinician_locations(&mut transaction, &mut clinicians, Some(&ids)).await?;
    let statement = format!(
        "select greatest($2, (select max(updated_at) from locations where {UNSEEN}),
                             (select max(updated_at) from clinicians where {UNSEEN}))"
    );
    let watermark: DateTime<Utc> = sqlx::query_scalar(sqlx::AssertSqlSafe(statement))
        .bind(cursor)
        .bind(watermark)
        .fetch_one(&mut *transaction)
        .await?;
    transaction.commit().await?;
    Ok(CatalogueChanges {
        locations,
        clinicians,
        watermark,
        cursor: next_cursor,
    })
}

/// Records whether a location takes new patients (an operator's decision, as a clinic's own
/// would be: a full panel freeing up does not undo it), with its audit row; the change reaches
/// running servers through the `catalogue_changed` notification. Returns false when no such
/// location exists.
pub async fn set_accepting_new_patients(pool: &PgPool, location_id: i64, accepting: bool) -> Result<bool> {
    let mut transaction = pool.begin().await?;
    let before: Option<(i64, bool)> =
        sqlx::query_as("select organisation_id, accepting_new_patients from locations where id = $1 for no key update")
            .bind(location_id)
            .fetch_optional(&mut *transaction)
            .await?;
    let Some((organisation_id, was_accepting)) = before else {
        return Ok(false);
    };
    sqlx::query("update locations set accepting_new_patients = $2, panel_full = false where id = $1")
        .bind(location_id)
        .bind(accepting)
        .execute(&mut *transaction)
        .await?;
    if was_accepting != accepting {
        let row = crate::listings::AuditRow {
            actor: "operator",
            organisation_id,
            entity: crate::listings::Entity::Location,
            entity_id: location_id,
            field: "acceptingNewPatients",
            before: serde_json::json!(was_accepting),
            after: serde_json::json!(accepting),
        };
        crate::listings::audit(&mut transaction, &row).await?;
    }
    transaction.commit().await?;
    Ok(true)
}

pub(crate) fn organisation_from_row(row: &PgRow) -> Result<Organisation> {
    let kind: String = row.try_get("kind")?;
    Ok(Organisation {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        kind: OrganisationKind::parse(&kind)
            .ok_or_else(|| StoreError::InvalidData(format!("organisation kind {kind}")))?,
        updated_at_micros: micros(row.try_get("updated_at")?),
    })
}

/// Builds a [`Location`] from a row selected with `LOCATION_COLUMNS`.
pub fn location_from_row(row: &PgRow) -> Result<Location> {
    Ok(Location {
        id: row.try_get("id")?,
        organisation_id: row.try_get("organisation_id")?,
        name: row.try_get("name")?,
        location_name: row.try_get("location_name")?,
        address1: row.try_get("address1")?,
        city: row.try_get("city")?,
        state: row.try_get("state")?,
        zip: row.try_get("zip")?,
        lat: row.try_get("lat")?,
        lng: row.try_get("lng")?,
        position_approximate: row.try_get("position_approximate")?,
        phone: row.try_get("phone")?,
        website: row.try_get("website")?,
        logo: row.try_get("logo")?,
        description: row.try_get("description")?,
        accepting_new_patients: row.try_get("accepting_new_patients")?,
        is_virtual: row.try_get("is_virtual")?,
        virtual_states: row.try_get("virtual_states")?,
        home_care: row.try_get("home_care")?,
        modalities: CareModalities {
            at_clinic: row.try_get("at_clinic")?,
            at_work: row.try_get("at_work")?,
            in_home: row.try_get("in_home")?,
            phone: row.try_get("phone_visits")?,
            text_chat: row.try_get("text_chat")?,
            video: row.try_get("video_visits")?,
        },
        service_type_codes: row.try_get("service_type_codes")?,
        pediatric_min_age: row.try_get("pediatric_min_age")?,
        pediatric_max_age: row.try_get("pediatric_max_age")?,
        provider_portal_url: row.try_get("provider_portal_url")?,
        post_enrolment_redirect: row.try_get("post_enrolment_redirect")?,
        hours: listing_columns::hours(row, "hours")?,
        time_zone: listing_columns::time_zone(row, "time_zone")?,
        languages: listing_columns::languages(row, "languages")?,
        accessibility: listing_columns::accessibility(row, "accessibility")?,
        telehealth: row.try_get("telehealth")?,
        panel_capacity: listing_columns::panel_capacity(row, "panel_capacity")?,
        last_verified: row.try_get("last_verified")?,
        updated_at_micros: micros(row.try_get("updated_at")?),
    })
}

pub(crate) fn clinician_from_row(row: &PgRow) -> Result<Clinician> {
    let gender: String = row.try_get("gender")?;
    Ok(Clinician {
        id: row.try_get("id")?,
        npi: row.try_get("npi")?,
        first_name: row.try_get("first_name")?,
        last_name: row.try_get("last_name")?,
        credentials: row.try_get("credentials")?,
        category: row.try_get("category")?,
        speciality: row.try_get("speciality")?,
        gender: Gender::parse(&gender).ok_or_else(|| StoreError::InvalidData(format!("gender {gender}")))?,
        accepting_new_patients: row.try_get("accepting_new_patients")?,
        description: row.try_get("description")?,
        logo: row.try_get("logo")?,
        location_ids: Vec::new(),
        languages: listing_columns::languages(row, "languages")?,
        telehealth: row.try_get("telehealth")?,
        last_verified: row.try_get("last_verified")?,
        updated_at_micros: micros(row.try_get("updated_at")?),
    })
}
