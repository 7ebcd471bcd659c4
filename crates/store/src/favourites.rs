//! Members' favourite clinics, clinicians, vendors and solutions.

use sqlx::PgPool;

use crate::Result;

/// What a favourite points at, named as on marketplace cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entity {
    /// A clinic location (`locations`).
    Location,
    /// A clinician (`clinicians`).
    Provider,
    /// A point-solution vendor (`vendors`).
    Vendor,
    /// A marketplace solution (`solutions`).
    Solution,
}

impl Entity {
    pub const ALL: [Self; 4] = [Self::Location, Self::Provider, Self::Vendor, Self::Solution];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Location => "location",
            Self::Provider => "provider",
            Self::Vendor => "vendor",
            Self::Solution => "solution",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|entity| entity.as_str() == text)
    }
}

/// Whether the catalogue has an item of this kind with this id.
pub async fn exists_in_catalogue(pool: &PgPool, entity: Entity, id: i64) -> Result<bool> {
    // One fixed statement per kind: table names cannot be bound.
    let statement = match entity {
        Entity::Location => "select exists (select 1 from locations where id = $1)",
        Entity::Provider => "select exists (select 1 from clinicians where id = $1)",
        Entity::Vendor => "select exists (select 1 from vendors where id = $1)",
        Entity::Solution => "select exists (select 1 from solutions where id = $1)",
    };
    Ok(sqlx::query_scalar(statement).bind(id).fetch_one(pool).await?)
}

/// Marks or unmarks a favourite; doing either twice changes nothing.
pub async fn set(pool: &PgPool, member_id: i64, entity: Entity, id: i64, favourite: bool) -> Result<()> {
    let statement = if favourite {
        "insert into member_favorites (member_id, entity, entity_id) values ($1, $2, $3) on conflict do nothing"
    } else {
        "delete from member_favorites where member_id = $1 and entity = $2 and entity_id = $3"
    };
    sqlx::query(statement)
        .bind(member_id)
        .bind(entity.as_str())
        .bind(id)
        .execute(pool)
        .await?;
    Ok(())
}

pub async fn is_favourite(pool: &PgPool, member_id: i64, entity: Entity, id: i64) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "select exists (select 1 from member_favorites where member_id = $1 and entity = $2 and entity_id = $3)",
    )
    .bind(member_id)
    .bind(entity.as_str())
    .bind(id)
    .fetch_one(pool)
    .await?)
}

/// The solutions `member_id` (a member or a provider account) marked, ascending.
pub async fn favourite_solution_ids(pool: &PgPool, member_id: i64) -> Result<Vec<i64>> {
    Ok(sqlx::query_scalar(
        "select entity_id from member_favorites where member_id = $1 and entity = 'solution' order by entity_id",
    )
    .bind(member_id)
    .fetch_all(pool)
    .await?)
}

/// The member's favourite location ids and clinician ids, each sorted ascending (so a caller
/// may `binary_search` them), for the flags on search cards and pins and the `favorites`
/// search filter.
pub async fn favourite_ids(pool: &PgPool, member_id: i64) -> Result<(Vec<i64>, Vec<i64>)> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "select entity, entity_id from member_favorites
         where member_id = $1 and entity in ('location', 'provider')
         order by entity_id",
    )
    .bind(member_id)
    .fetch_all(pool)
    .await?;
    let mut locations = Vec::new();
    let mut clinicians = Vec::new();
    for (entity, id) in rows {
        if entity == Entity::Location.as_str() {
            locations.push(id);
        } else {
            clinicians.push(id);
        }
    }
    Ok((locations, clinicians))
}
