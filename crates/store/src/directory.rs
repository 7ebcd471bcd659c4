//! The provider directory import's reads and its one write (`indexer import`,
//! docs/fhir-contract.md): which rows a source's resources became, the rows as they are now,
//! and a whole import applied in one transaction.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::{Clinician, InsurancePlan, Location, Network, Organisation};
use sqlx::{PgPool, Postgres, Row, Transaction};

use crate::catalogue::{
    CLINICIAN_COLUMNS, LOCATION_COLUMNS, clinician_from_row, location_from_row, organisation_from_row,
};
use crate::{Result, StoreError};

/// What catalogue row a resource became.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entity {
    Organisation(i64),
    Network(i64),
    Location(i64),
    Clinician(i64),
    InsurancePlan(i64),
}

impl Entity {
    fn kind(self) -> &'static str {
        match self {
            Self::Organisation(_) => "organisation",
            Self::Network(_) => "network",
            Self::Location(_) => "location",
            Self::Clinician(_) => "clinician",
            Self::InsurancePlan(_) => "insurance_plan",
        }
    }

    fn from_parts(kind: &str, id: i64) -> Result<Self> {
        Ok(match kind {
            "organisation" => Self::Organisation(id),
            "network" => Self::Network(id),
            "location" => Self::Location(id),
            "clinician" => Self::Clinician(id),
            "insurance_plan" => Self::InsurancePlan(id),
            other => return Err(StoreError::InvalidData(format!("directory entity {other}"))),
        })
    }
}

/// The rows a source's resources became: (resource type, resource id) → entity.
pub async fn identities(pool: &PgPool, source: &str) -> Result<HashMap<(String, String), Entity>> {
    let rows =
        sqlx::query("select resource_type, resource_id, entity, entity_id from directory_identities where source = $1")
            .bind(source)
            .fetch_all(pool)
            .await?;
    rows.iter()
        .map(|row| {
            let entity: String = row.try_get("entity")?;
            Ok((
                (row.try_get("resource_type")?, row.try_get("resource_id")?),
                Entity::from_parts(&entity, row.try_get("entity_id")?)?,
            ))
        })
        .collect()
}

/// The clinicians with these NPIs, by NPI (descriptions left out: an import keeps them).
pub async fn clinicians_by_npi(pool: &PgPool, npis: &[String]) -> Result<HashMap<String, Clinician>> {
    let statement = format!("select {CLINICIAN_COLUMNS} from clinicians where npi = any($1)");
    let rows = sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(npis)
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|row| clinician_from_row(row).map(|clinician| (clinician.npi.clone(), clinician)))
        .collect()
}

pub async fn organisations_by_id(pool: &PgPool, ids: &[i64]) -> Result<HashMap<i64, Organisation>> {
    let rows = sqlx::query("select id, name, kind, updated_at from organisations where id = any($1)")
        .bind(ids)
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|row| organisation_from_row(row).map(|organisation| (organisation.id, organisation)))
        .collect()
}

/// Locations with every column (descriptions and opening hours included), by id.
pub async fn locations_by_id(pool: &PgPool, ids: &[i64]) -> Result<HashMap<i64, Location>> {
    let statement = format!(
        "select {}, description from locations where id = any($1)",
        LOCATION_COLUMNS.replace("'' as description, ", "")
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(statement))
        .bind(ids)
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|row| location_from_row(row).map(|location| (location.id, location)))
        .collect()
}

/// Networks with their members, by id.
pub async fn networks_by_id(pool: &PgPool, ids: &[i64]) -> Result<HashMap<i64, Network>> {
    let networks = crate::catalogue::read_networks(pool, Some(ids)).await?;
    Ok(networks.into_iter().map(|network| (network.id, network)).collect())
}

/// Insurance plans with their networks, by id.
pub async fn plans_by_id(pool: &PgPool, ids: &[i64]) -> Result<HashMap<i64, InsurancePlan>> {
    let plans = crate::catalogue::read_insurance_plans(pool, Some(ids)).await?;
    Ok(plans.into_iter().map(|plan| (plan.id, plan)).collect())
}

/// A link a source's role made: (role id, clinician id, location id).
pub type RoleLink = (String, i64, i64);

pub async fn role_links(pool: &PgPool, source: &str) -> Result<Vec<RoleLink>> {
    let rows = sqlx::query("select role_id, clinician_id, location_id from directory_role_links where source = $1")
        .bind(source)
        .fetch_all(pool)
        .await?;
    rows.iter()
        .map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)))
        .collect()
}

/// Which existing clinician-location pairs are linked already.
pub async fn existing_links(pool: &PgPool, pairs: &[(i64, i64)]) -> Result<Vec<(i64, i64)>> {
    let (clinicians, locations): (Vec<i64>, Vec<i64>) = pairs.iter().copied().unzip();
    let rows = sqlx::query(
        "select l.clinician_id, l.location_id from clinician_locations l
         join unnest($1::bigint[], $2::bigint[]) as wanted(clinician_id, location_id)
           on wanted.clinician_id = l.clinician_id and wanted.location_id = l.location_id",
    )
    .bind(&clinicians)
    .bind(&locations)
    .fetch_all(pool)
    .await?;
    rows.iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
}

/// A row an import refers to: one that exists, or one it adds (by its key in the import).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    Existing(i64),
    New(usize),
}

/// Everything one import writes. New rows are addressed by their position in their list.
#[derive(Debug, Clone, Default)]
pub struct DirectoryChanges {
    pub source: String,
    pub new_organisations: Vec<Organisation>,
    pub updated_organisations: Vec<Organisation>,
    /// Networks with their owner (the organisation list's targets are in `memberships`).
    pub new_networks: Vec<(Network, Option<Target>)>,
    pub updated_networks: Vec<(Network, Option<Target>)>,
    pub new_locations: Vec<(Location, Target)>,
    pub updated_locations: Vec<(Location, Target)>,
    pub new_clinicians: Vec<Clinician>,
    pub updated_clinicians: Vec<Clinician>,
    /// (role id, clinician, location) links to hold after the import: targets of new
    /// clinicians index `new_clinicians`.
    pub links: Vec<(String, Target, Target)>,
    /// Links of the source to drop (role id, clinician id, location id).
    pub dropped_links: Vec<RoleLink>,
    /// Network memberships to hold: (network, organisation).
    pub memberships: Vec<(Target, Target)>,
    /// Plans with their owner, administrator and networks.
    pub new_plans: Vec<PlanChange>,
    pub updated_plans: Vec<PlanChange>,
    /// (resource type, resource id, entity) of every resource the file names.
    pub identities: Vec<(String, String, EntityTarget)>,
    pub removals: Removals,
}

/// A plan with its owner, administrator and networks.
pub type PlanChange = (InsurancePlan, Option<Target>, Option<Target>, Vec<Target>);

/// An identity's entity: existing or new.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntityTarget {
    Organisation(Target),
    Network(Target),
    Location(Target),
    Clinician(Target),
    InsurancePlan(Target),
}

/// What `--full` retires.
#[derive(Debug, Clone, Default)]
pub struct Removals {
    pub identities: Vec<(String, String)>,
    pub organisations: Vec<i64>,
    pub networks: Vec<i64>,
    pub locations: Vec<i64>,
    pub clinicians: Vec<i64>,
    pub plans: Vec<i64>,
}

/// An import's summary, kept in `directory_imports`.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    pub source: String,
    pub file: String,
    pub format: String,
    pub full_import: bool,
    pub resources: i32,
    pub added: i32,
    pub changed: i32,
    pub removed: i32,
    pub unchanged: i32,
    pub rejected: i32,
    pub published: String,
    pub generation: Option<i64>,
    pub millis: i32,
    pub finished_at: Option<DateTime<Utc>>,
}

/// Takes `count` ids from a table's identity sequence, so new rows can be referred to before
/// they are written.
async fn reserve_ids(transaction: &mut Transaction<'_, Postgres>, table: &str, count: usize) -> Result<Vec<i64>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let statement = format!("select nextval(pg_get_serial_sequence('{table}', 'id')) from generate_series(1, $1::int)");
    Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(statement))
        .bind(count as i32)
        .fetch_all(&mut **transaction)
        .await?)
}

fn resolve(target: &Target, new_ids: &[i64]) -> i64 {
    match target {
        Target::Existing(id) => *id,
        Target::New(position) => new_ids[*position],
    }
}

/// Applies an import in one transaction and records it; returns the new row ids per table for
/// the caller's report. A failure rolls everything back.
pub async fn apply(pool: &PgPool, changes: &DirectoryChanges, summary: &ImportSummary) -> Result<i64> {
    let mut transaction = pool.begin().await?;
    let organisation_ids = reserve_ids(&mut transaction, "organisations", changes.new_organisations.len()).await?;
    let network_ids = reserve_ids(&mut transaction, "networks", changes.new_networks.len()).await?;
    let location_ids = reserve_ids(&mut transaction, "locations", changes.new_locations.len()).await?;
    let clinician_ids = reserve_ids(&mut transaction, "clinicians", changes.new_clinicians.len()).await?;
    let plan_ids = reserve_ids(&mut transaction, "insurance_plans", changes.new_plans.len()).await?;

    // Organisations.
    let organisations = changes
        .new_organisations
        .iter()
        .zip(&organisation_ids)
        .map(|(organisation, id)| (*id, organisation))
        .chain(
            changes
                .updated_organisations
                .iter()
                .map(|organisation| (organisation.id, organisation)),
        );
    let (ids, names, kinds): (Vec<i64>, Vec<&str>, Vec<&str>) = organisations.fold(
        (Vec::new(), Vec::new(), Vec::new()),
        |(mut ids, mut names, mut kinds), (id, organisation)| {
            ids.push(id);
            names.push(&organisation.name);
            kinds.push(organisation.kind.as_str());
            (ids, names, kinds)
        },
    );
    sqlx::query(
        "insert into organisations (id, name, kind) select * from unnest($1::bigint[], $2::text[], $3::text[])
         on conflict (id) do update set name = excluded.name, kind = excluded.kind",
    )
    .bind(&ids)
    .bind(&names)
    .bind(&kinds)
    .execute(&mut *transaction)
    .await?;

    // Networks and their owners.
    let networks: Vec<(i64, &Network, Option<i64>)> = changes
        .new_networks
        .iter()
        .zip(&network_ids)
        .map(|((network, owner), id)| {
            (
                *id,
                network,
                owner.as_ref().map(|owner| resolve(owner, &organisation_ids)),
            )
        })
        .chain(changes.updated_networks.iter().map(|(network, owner)| {
            (
                network.id,
                network,
                owner.as_ref().map(|owner| resolve(owner, &organisation_ids)),
            )
        }))
        .collect();
    for (id, network, owner) in &networks {
        sqlx::query(
            "insert into networks (id, name, owner_organisation_id, coverage_states) values ($1, $2, $3, $4)
             on conflict (id) do update set name = excluded.name, owner_organisation_id = excluded.owner_organisation_id,
                 coverage_states = excluded.coverage_states",
        )
        .bind(id)
        .bind(&network.name)
        .bind(owner)
        .bind(&network.coverage_states)
        .execute(&mut *transaction)
        .await?;
    }

    // Locations.
    let locations: Vec<(i64, &Location, i64)> = changes
        .new_locations
        .iter()
        .zip(&location_ids)
        .map(|((location, organisation), id)| (*id, location, resolve(organisation, &organisation_ids)))
        .chain(
            changes
                .updated_locations
                .iter()
                .map(|(location, organisation)| (location.id, location, resolve(organisation, &organisation_ids))),
        )
        .collect();
    write_locations(&mut transaction, &locations).await?;

    // Clinicians.
    let clinicians: Vec<(i64, &Clinician)> = changes
        .new_clinicians
        .iter()
        .zip(&clinician_ids)
        .map(|(clinician, id)| (*id, clinician))
        .chain(
            changes
                .updated_clinicians
                .iter()
                .map(|clinician| (clinician.id, clinician)),
        )
        .collect();
    write_clinicians(&mut transaction, &clinicians).await?;

    // Links: drop the source's old ones (and the pair, unless another source still has it),
    // then hold the wanted ones.
    if !changes.dropped_links.is_empty() {
        let roles: Vec<&str> = changes.dropped_links.iter().map(|(role, _, _)| role.as_str()).collect();
        let clinicians: Vec<i64> = changes
            .dropped_links
            .iter()
            .map(|(_, clinician, _)| *clinician)
            .collect();
        let locations: Vec<i64> = changes.dropped_links.iter().map(|(_, _, location)| *location).collect();
        sqlx::query(
            "delete from directory_role_links d using unnest($2::text[], $3::bigint[], $4::bigint[]) as gone(role_id, clinician_id, location_id)
             where d.source = $1 and d.role_id = gone.role_id and d.clinician_id = gone.clinician_id
               and d.location_id = gone.location_id",
        )
        .bind(&changes.source)
        .bind(&roles)
        .bind(&clinicians)
        .bind(&locations)
        .execute(&mut *transaction)
        .await?;
        sqlx::query(
            "delete from clinician_locations l using unnest($1::bigint[], $2::bigint[]) as gone(clinician_id, location_id)
             where l.clinician_id = gone.clinician_id and l.location_id = gone.location_id
               and not exists (select 1 from directory_role_links d
                               where d.clinician_id = gone.clinician_id and d.location_id = gone.location_id)",
        )
        .bind(&clinicians)
        .bind(&locations)
        .execute(&mut *transaction)
        .await?;
    }
    if !changes.links.is_empty() {
        let roles: Vec<&str> = changes.links.iter().map(|(role, _, _)| role.as_str()).collect();
        let clinicians: Vec<i64> = changes
            .links
            .iter()
            .map(|(_, clinician, _)| resolve(clinician, &clinician_ids))
            .collect();
        let locations: Vec<i64> = changes
            .links
            .iter()
            .map(|(_, _, location)| resolve(location, &location_ids))
            .collect();
        sqlx::query(
            "insert into clinician_locations (clinician_id, location_id)
             select * from unnest($1::bigint[], $2::bigint[]) on conflict do nothing",
        )
        .bind(&clinicians)
        .bind(&locations)
        .execute(&mut *transaction)
        .await?;
        sqlx::query(
            "insert into directory_role_links (source, role_id, clinician_id, location_id)
             select $1, * from unnest($2::text[], $3::bigint[], $4::bigint[]) on conflict do nothing",
        )
        .bind(&changes.source)
        .bind(&roles)
        .bind(&clinicians)
        .bind(&locations)
        .execute(&mut *transaction)
        .await?;
    }

    // Network memberships.
    if !changes.memberships.is_empty() {
        let networks: Vec<i64> = changes
            .memberships
            .iter()
            .map(|(network, _)| resolve(network, &network_ids))
            .collect();
        let organisations: Vec<i64> = changes
            .memberships
            .iter()
            .map(|(_, organisation)| resolve(organisation, &organisation_ids))
            .collect();
        sqlx::query(
            "insert into network_organisations (network_id, organisation_id)
             select * from unnest($1::bigint[], $2::bigint[]) on conflict do nothing",
        )
        .bind(&networks)
        .bind(&organisations)
        .execute(&mut *transaction)
        .await?;
    }

    // Plans and their networks.
    let plans = changes
        .new_plans
        .iter()
        .zip(&plan_ids)
        .map(|(plan, id)| (*id, plan))
        .chain(changes.updated_plans.iter().map(|plan| (plan.0.id, plan)));
    for (id, (plan, owner, administrator, networks)) in plans {
        sqlx::query(
            "insert into insurance_plans (id, name, product_type, owned_by_organisation_id,
                 administered_by_organisation_id, coverage_states) values ($1, $2, $3, $4, $5, $6)
             on conflict (id) do update set name = excluded.name, product_type = excluded.product_type,
                 owned_by_organisation_id = excluded.owned_by_organisation_id,
                 administered_by_organisation_id = excluded.administered_by_organisation_id,
                 coverage_states = excluded.coverage_states",
        )
        .bind(id)
        .bind(&plan.name)
        .bind(&plan.product_type)
        .bind(owner.as_ref().map(|owner| resolve(owner, &organisation_ids)))
        .bind(
            administrator
                .as_ref()
                .map(|administrator| resolve(administrator, &organisation_ids)),
        )
        .bind(&plan.coverage_states)
        .execute(&mut *transaction)
        .await?;
        let network_ids: Vec<i64> = networks.iter().map(|network| resolve(network, &network_ids)).collect();
        sqlx::query("delete from insurance_plan_networks where plan_id = $1 and not (network_id = any($2))")
            .bind(id)
            .bind(&network_ids)
            .execute(&mut *transaction)
            .await?;
        sqlx::query(
            "insert into insurance_plan_networks (plan_id, network_id) select $1, * from unnest($2::bigint[])
             on conflict do nothing",
        )
        .bind(id)
        .bind(&network_ids)
        .execute(&mut *transaction)
        .await?;
    }

    // Identities.
    if !changes.identities.is_empty() {
        let mut types = Vec::new();
        let mut ids = Vec::new();
        let mut entities = Vec::new();
        let mut entity_ids = Vec::new();
        for (resource_type, resource_id, entity) in &changes.identities {
            let (kind, id) = match entity {
                EntityTarget::Organisation(target) => (Entity::Organisation(0), resolve(target, &organisation_ids)),
                EntityTarget::Network(target) => (Entity::Network(0), resolve(target, &network_ids)),
                EntityTarget::Location(target) => (Entity::Location(0), resolve(target, &location_ids)),
                EntityTarget::Clinician(target) => (Entity::Clinician(0), resolve(target, &clinician_ids)),
                EntityTarget::InsurancePlan(target) => (Entity::InsurancePlan(0), resolve(target, &plan_ids)),
            };
            types.push(resource_type.as_str());
            ids.push(resource_id.as_str());
            entities.push(kind.kind());
            entity_ids.push(id);
        }
        sqlx::query(
            "insert into directory_identities (source, resource_type, resource_id, entity, entity_id)
             select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::bigint[])
             on conflict (source, resource_type, resource_id)
             do update set entity = excluded.entity, entity_id = excluded.entity_id",
        )
        .bind(&changes.source)
        .bind(&types)
        .bind(&ids)
        .bind(&entities)
        .bind(&entity_ids)
        .execute(&mut *transaction)
        .await?;
    }

    remove(&mut transaction, &changes.source, &changes.removals).await?;

    let import_id: i64 = sqlx::query_scalar(
        "insert into directory_imports (source, file, format, full_import, resources, added, changed, removed,
             unchanged, rejected, published, generation, millis)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id",
    )
    .bind(&summary.source)
    .bind(&summary.file)
    .bind(&summary.format)
    .bind(summary.full_import)
    .bind(summary.resources)
    .bind(summary.added)
    .bind(summary.changed)
    .bind(summary.removed)
    .bind(summary.unchanged)
    .bind(summary.rejected)
    .bind(&summary.published)
    .bind(summary.generation)
    .bind(summary.millis)
    .fetch_one(&mut *transaction)
    .await?;
    transaction.commit().await?;
    Ok(import_id)
}

async fn write_locations(
    transaction: &mut Transaction<'_, Postgres>,
    locations: &[(i64, &Location, i64)],
) -> Result<()> {
    if locations.is_empty() {
        return Ok(());
    }
    // One statement per column group keeps the arrays typed; a million-row import still sends
    // each column once.
    let column = |get: fn(&Location) -> String| -> Vec<String> { locations.iter().map(|(_, l, _)| get(l)).collect() };
    let flag = |get: fn(&Location) -> bool| -> Vec<bool> { locations.iter().map(|(_, l, _)| get(l)).collect() };
    let ids: Vec<i64> = locations.iter().map(|(id, _, _)| *id).collect();
    let organisations: Vec<i64> = locations.iter().map(|(_, _, organisation)| *organisation).collect();
    let lats: Vec<f64> = locations.iter().map(|(_, l, _)| l.lat).collect();
    let lngs: Vec<f64> = locations.iter().map(|(_, l, _)| l.lng).collect();
    let states_served: Vec<String> = locations.iter().map(|(_, l, _)| l.virtual_states.join(",")).collect();
    let service_types: Vec<String> = locations
        .iter()
        .map(|(_, l, _)| l.service_type_codes.join(","))
        .collect();
    let pediatric_min: Vec<Option<i16>> = locations.iter().map(|(_, l, _)| l.pediatric_min_age).collect();
    let pediatric_max: Vec<Option<i16>> = locations.iter().map(|(_, l, _)| l.pediatric_max_age).collect();
    let last_verified: Vec<Option<chrono::DateTime<chrono::Utc>>> =
        locations.iter().map(|(_, l, _)| l.last_verified).collect();
    let hours: Vec<Option<String>> = locations
        .iter()
        .map(|(_, l, _)| l.hours.as_ref().map(|hours| hours.to_json().to_string()))
        .collect();
    let time_zones: Vec<Option<&str>> = locations
        .iter()
        .map(|(_, l, _)| l.time_zone.map(|zone| zone.as_str()))
        .collect();
    let languages: Vec<String> = locations
        .iter()
        .map(|(_, l, _)| l.languages.codes().join(","))
        .collect();
    let accessibility: Vec<String> = locations
        .iter()
        .map(|(_, l, _)| l.accessibility.codes().join(","))
        .collect();
    sqlx::query(
        "insert into locations (id, organisation_id, name, location_name, address1, city, state, zip, lat, lng,
             position_approximate, phone, website, logo, accepting_new_patients, is_virtual, virtual_states,
             home_care, at_clinic, at_work, in_home, phone_visits, text_chat, video_visits, service_type_codes,
             pediatric_min_age, pediatric_max_age, last_verified, hours, time_zone, languages, accessibility,
             telehealth)
         select id, organisation_id, name, location_name, address1, city, state, zip, lat, lng,
             position_approximate, phone, website, logo, accepting, is_virtual,
             coalesce(string_to_array(nullif(states, ''), ','), '{}'), home_care, at_clinic, at_work, in_home, phone_visits,
             text_chat, video_visits, coalesce(string_to_array(nullif(services, ''), ','), '{}'), pediatric_min, pediatric_max,
             last_verified, hours::jsonb, time_zone, coalesce(string_to_array(nullif(languages, ''), ','), '{}'),
             coalesce(string_to_array(nullif(accessibility, ''), ','), '{}'), telehealth
         from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::float8[], $10::float8[], $11::bool[], $12::text[], $13::text[], $14::text[],
                     $15::bool[], $16::bool[], $17::text[], $18::bool[], $19::bool[], $20::bool[], $21::bool[],
                     $22::bool[], $23::bool[], $24::bool[], $25::text[], $26::int2[], $27::int2[], $28::timestamptz[],
                     $29::text[], $30::text[], $31::text[], $32::text[], $33::bool[])
           as u(id, organisation_id, name, location_name, address1, city, state, zip, lat, lng,
                position_approximate, phone, website, logo, accepting, is_virtual, states, home_care, at_clinic,
                at_work, in_home, phone_visits, text_chat, video_visits, services, pediatric_min, pediatric_max,
                last_verified, hours, time_zone, languages, accessibility, telehealth)
         on conflict (id) do update set organisation_id = excluded.organisation_id, name = excluded.name,
             location_name = excluded.location_name, address1 = excluded.address1, city = excluded.city,
             state = excluded.state, zip = excluded.zip, lat = excluded.lat, lng = excluded.lng,
             position_approximate = excluded.position_approximate, phone = excluded.phone,
             website = excluded.website, logo = excluded.logo,
             accepting_new_patients = excluded.accepting_new_patients, is_virtual = excluded.is_virtual,
             virtual_states = excluded.virtual_states, home_care = excluded.home_care,
             at_clinic = excluded.at_clinic, at_work = excluded.at_work, in_home = excluded.in_home,
             phone_visits = excluded.phone_visits, text_chat = excluded.text_chat,
             video_visits = excluded.video_visits, service_type_codes = excluded.service_type_codes,
             pediatric_min_age = excluded.pediatric_min_age, pediatric_max_age = excluded.pediatric_max_age,
             last_verified = excluded.last_verified, hours = excluded.hours, time_zone = excluded.time_zone,
             languages = excluded.languages, accessibility = excluded.accessibility, telehealth = excluded.telehealth",
    )
    .bind(&ids)
    .bind(&organisations)
    .bind(column(|l| l.name.clone()))
    .bind(column(|l| l.location_name.clone()))
    .bind(column(|l| l.address1.clone()))
    .bind(column(|l| l.city.clone()))
    .bind(column(|l| l.state.clone()))
    .bind(column(|l| l.zip.clone()))
    .bind(&lats)
    .bind(&lngs)
    .bind(flag(|l| l.position_approximate))
    .bind(column(|l| l.phone.clone()))
    .bind(column(|l| l.website.clone()))
    .bind(column(|l| l.logo.clone()))
    .bind(flag(|l| l.accepting_new_patients))
    .bind(flag(|l| l.is_virtual))
    .bind(&states_served)
    .bind(flag(|l| l.home_care))
    .bind(flag(|l| l.modalities.at_clinic))
    .bind(flag(|l| l.modalities.at_work))
    .bind(flag(|l| l.modalities.in_home))
    .bind(flag(|l| l.modalities.phone))
    .bind(flag(|l| l.modalities.text_chat))
    .bind(flag(|l| l.modalities.video))
    .bind(&service_types)
    .bind(&pediatric_min)
    .bind(&pediatric_max)
    .bind(&last_verified)
    .bind(&hours)
    .bind(&time_zones)
    .bind(&languages)
    .bind(&accessibility)
    .bind(flag(|l| l.telehealth))
    .execute(&mut **transaction)
    .await?;
    Ok(())
}

async fn write_clinicians(transaction: &mut Transaction<'_, Postgres>, clinicians: &[(i64, &Clinician)]) -> Result<()> {
    if clinicians.is_empty() {
        return Ok(());
    }
    let column = |get: fn(&Clinician) -> &str| -> Vec<&str> { clinicians.iter().map(|(_, c)| get(c)).collect() };
    let ids: Vec<i64> = clinicians.iter().map(|(id, _)| *id).collect();
    let accepting: Vec<bool> = clinicians.iter().map(|(_, c)| c.accepting_new_patients).collect();
    let last_verified: Vec<Option<chrono::DateTime<chrono::Utc>>> =
        clinicians.iter().map(|(_, c)| c.last_verified).collect();
    let languages: Vec<String> = clinicians.iter().map(|(_, c)| c.languages.codes().join(",")).collect();
    let telehealth: Vec<bool> = clinicians.iter().map(|(_, c)| c.telehealth).collect();
    sqlx::query(
        "insert into clinicians (id, npi, first_name, last_name, credentials, category, speciality, gender,
             accepting_new_patients, logo, last_verified, languages, telehealth)
         select id, npi, first_name, last_name, credentials, category, speciality, gender, accepting, logo,
             last_verified, coalesce(string_to_array(nullif(languages, ''), ','), '{}'), telehealth
         from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::bool[], $10::text[], $11::timestamptz[], $12::text[], $13::bool[])
           as u(id, npi, first_name, last_name, credentials, category, speciality, gender, accepting, logo,
                last_verified, languages, telehealth)
         on conflict (id) do update set npi = excluded.npi, first_name = excluded.first_name,
             last_name = excluded.last_name, credentials = excluded.credentials, category = excluded.category,
             speciality = excluded.speciality, gender = excluded.gender,
             accepting_new_patients = excluded.accepting_new_patients, logo = excluded.logo,
             last_verified = excluded.last_verified, languages = excluded.languages, telehealth = excluded.telehealth",
    )
    .bind(&ids)
    .bind(column(|c| &c.npi))
    .bind(column(|c| &c.first_name))
    .bind(column(|c| &c.last_name))
    .bind(column(|c| &c.credentials))
    .bind(column(|c| &c.category))
    .bind(column(|c| &c.speciality))
    .bind(column(|c| c.gender.as_str()))
    .bind(&accepting)
    .bind(column(|c| &c.logo))
    .bind(&last_verified)
    .bind(&languages)
    .bind(&telehealth)
    .execute(&mut **transaction)
    .await?;
    Ok(())
}

async fn remove(transaction: &mut Transaction<'_, Postgres>, source: &str, removals: &Removals) -> Result<()> {
    if !removals.identities.is_empty() {
        let types: Vec<&str> = removals.identities.iter().map(|(kind, _)| kind.as_str()).collect();
        let ids: Vec<&str> = removals.identities.iter().map(|(_, id)| id.as_str()).collect();
        sqlx::query(
            "delete from directory_identities d using unnest($2::text[], $3::text[]) as gone(resource_type, resource_id)
             where d.source = $1 and d.resource_type = gone.resource_type and d.resource_id = gone.resource_id",
        )
        .bind(source)
        .bind(&types)
        .bind(&ids)
        .execute(&mut **transaction)
        .await?;
    }
    for (table, ids) in [
        ("insurance_plans", &removals.plans),
        ("networks", &removals.networks),
        ("locations", &removals.locations),
        ("clinicians", &removals.clinicians),
        ("organisations", &removals.organisations),
    ] {
        if ids.is_empty() {
            continue;
        }
        let statement = format!("delete from {table} where id = any($1)");
        sqlx::query(sqlx::AssertSqlSafe(statement))
            .bind(ids)
            .execute(&mut **transaction)
            .await?;
        sqlx::query("delete from directory_identities where entity = $1 and entity_id = any($2)")
            .bind(match table {
                "insurance_plans" => "insurance_plan",
                "networks" => "network",
                "locations" => "location",
                "clinicians" => "clinician",
                _ => "organisation",
            })
            .bind(ids)
            .execute(&mut **transaction)
            .await?;
    }
    Ok(())
}

/// Records how long a written import took in all, and the generation a rebuild published.
pub async fn finish_import(pool: &PgPool, import_id: i64, millis: i32, generation: Option<i64>) -> Result<()> {
    sqlx::query("update directory_imports set millis = $2, generation = $3 where id = $1")
        .bind(import_id)
        .bind(millis)
        .bind(generation)
        .execute(pool)
        .await?;
    Ok(())
}

/// The last import of each source, newest first.
pub async fn last_imports(pool: &PgPool) -> Result<Vec<ImportSummary>> {
    let rows = sqlx::query(
        "select distinct on (source) source, file, format, full_import, resources, added, changed, removed,
                unchanged, rejected, published, generation, millis, finished_at
         from directory_imports order by source, id desc",
    )
    .fetch_all(pool)
    .await?;
    let mut imports = rows
        .iter()
        .map(|row| {
            Ok(ImportSummary {
                source: row.try_get("source")?,
                file: row.try_get("file")?,
                format: row.try_get("format")?,
                full_import: row.try_get("full_import")?,
                resources: row.try_get("resources")?,
                added: row.try_get("added")?,
                changed: row.try_get("changed")?,
                removed: row.try_get("removed")?,
                unchanged: row.try_get("unchanged")?,
                rejected: row.try_get("rejected")?,
                published: row.try_get("published")?,
                generation: row.try_get("generation")?,
                millis: row.try_get("millis")?,
                finished_at: row.try_get("finished_at")?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    imports.sort_by_key(|import| std::cmp::Reverse(import.finished_at));
    Ok(imports)
}
