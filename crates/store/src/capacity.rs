//! Panel capacity (docs/listings-contract.md): a location's panel is its members whose
//! subscription is pending or active. When a membership change brings the panel to the
//! location's capacity it stops accepting new patients by itself; when members leave and the
//! panel falls below, a location closed that way accepts again, and the reopen trigger on
//! `locations` emails its waitlist in the same transaction.
//!
//! Every function runs in the caller's transaction. A membership transaction locks the
//! locations it touches ([`lock`], in id order, so two transactions never wait on each other
//! crosswise) before it decides and counts: two members racing for the last place are decided
//! one after the other, and the second sees the location closed.

use serde_json::json;
use sqlx::PgConnection;

use crate::Result;

/// The audit trail's actor for changes the panel makes by itself.
pub const CAPACITY_ACTOR: &str = "capacity";

/// A location's panel against its capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Panel {
    pub organisation_id: i64,
    pub members: i64,
    pub capacity: Option<i32>,
    pub accepting_new_patients: bool,
    /// Closed by the panel filling up (not by the clinic).
    pub full: bool,
}

impl Panel {
    /// Whether the panel has no place left.
    pub fn at_capacity(&self) -> bool {
        self.capacity
            .is_some_and(|capacity| self.members >= i64::from(capacity))
    }
}

/// Locks locations for a membership change, in id order; ids that do not exist are skipped.
pub async fn lock(connection: &mut PgConnection, location_ids: &[i64]) -> Result<()> {
    let mut ids: Vec<i64> = location_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    sqlx::query("select id from locations where id = any($1) order by id for no key update")
        .bind(&ids)
        .fetch_all(&mut *connection)
        .await?;
    Ok(())
}

/// The members counted against a location's capacity.
pub async fn members(connection: &mut PgConnection, location_id: i64) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "select count(*) from members
         where location_id = $1 and subscription_status in ('pending', 'active')",
    )
    .bind(location_id)
    .fetch_one(&mut *connection)
    .await?)
}

/// A location's panel; `None` when there is no such location.
pub async fn panel(connection: &mut PgConnection, location_id: i64) -> Result<Option<Panel>> {
    Ok(sqlx::query_as::<_, Panel>(
        "select l.organisation_id,
                (select count(*) from members m
                 where m.location_id = l.id and m.subscription_status in ('pending', 'active')) as members,
                l.panel_capacity as capacity, l.accepting_new_patients, l.panel_full as full
         from locations l where l.id = $1",
    )
    .bind(location_id)
    .fetch_optional(&mut *connection)
    .await?)
}

/// What [`settle`] did to a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    Unchanged,
    /// The panel reached its capacity: the location stopped accepting new patients.
    Closed,
    /// The panel fell below its capacity: the location accepts again (its waitlist is emailed).
    Reopened,
}

/// Brings a location's "accepting new patients" in line with its panel after a membership
/// change (the location locked by the caller): closes it at capacity, reopens it when it was
/// closed by a full panel and has a place again. Writes the audit row.
pub async fn settle(connection: &mut PgConnection, location_id: i64) -> Result<Settled> {
    let Some(panel) = panel(connection, location_id).await? else {
        return Ok(Settled::Unchanged);
    };
    let settled = if panel.accepting_new_patients && panel.at_capacity() {
        Settled::Closed
    } else if panel.full && !panel.at_capacity() {
        Settled::Reopened
    } else {
        return Ok(Settled::Unchanged);
    };
    let accepting = settled == Settled::Reopened;
    sqlx::query("update locations set accepting_new_patients = $2, panel_full = $3 where id = $1")
        .bind(location_id)
        .bind(accepting)
        .bind(!accepting)
        .execute(&mut *connection)
        .await?;
    crate::listings::audit(
        connection,
        &crate::listings::AuditRow {
            actor: CAPACITY_ACTOR,
            organisation_id: panel.organisation_id,
            entity: crate::listings::Entity::Location,
            entity_id: location_id,
            field: "acceptingNewPatients",
            before: json!(!accepting),
            after: json!(accepting),
        },
    )
    .await?;
    tracing::info!(location = location_id, members = panel.members, capacity = ?panel.capacity, ?settled, "panel capacity");
    Ok(settled)
}

/// Settles the locations a membership change touched: the one a member joined and the one
/// they left (each locked by the caller).
pub async fn after_change(connection: &mut PgConnection, joined: Option<i64>, left: Option<i64>) -> Result<()> {
    for location in [joined, left].into_iter().flatten() {
        settle(connection, location).await?;
    }
    Ok(())
}
