//! Family members a subscriber manages: adding, reading, editing and removing them. A family
//! member added here has no login; `contact_email` is where to reach them. Changes to one
//! family lock the subscriber's row, so two requests cannot add the same person twice.

use chrono::NaiveDate;
use sqlx::{PgConnection, PgPool};

use crate::members::{Identity, MEMBER_COLUMNS, MEMBER_FROM, Member, unconfirmed_when};
use crate::{Result, convert_sqlx_err};

/// The family members of a subscriber, oldest first (the subscriber excluded). One of them by
/// id is [`crate::members::find`].
pub async fn list(pool: &PgPool, subscriber_id: i64) -> Result<Vec<Member>> {
    let statement = format!("select {MEMBER_COLUMNS} from {MEMBER_FROM} where m.subscriber_id = $1 order by m.id");
    Ok(sqlx::query_as::<_, Member>(sqlx::AssertSqlSafe(statement))
        .bind(subscriber_id)
        .fetch_all(pool)
        .await?)
}

/// A family member to add. Insurance and employer fields come from the subscriber.
#[derive(Debug, Clone)]
pub struct NewFamilyMember {
    pub subscriber_id: i64,
    pub relation: &'static str,
    pub first_name: String,
    pub last_name: String,
    pub dob: NaiveDate,
    pub gender: &'static str,
    pub contact_email: Option<String>,
    pub phone: Option<String>,
    pub member_id: String,
    pub plan_id: Option<String>,
    pub payer_id: Option<String>,
    pub group_id: Option<String>,
    pub subscriber_member_id: Option<String>,
    pub employer_id: Option<i64>,
    pub company_name: Option<String>,
}

/// What an add or an edit came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FamilyWrite {
    /// Written; the family member's id.
    Saved(i64),
    /// Someone in the family already has this first name, last name and date of birth.
    AlreadyInFamily,
    /// The family member is gone, or is not this subscriber's.
    NotInFamily,
}

/// Locks the subscriber's row for the rest of the transaction; false when it is gone.
async fn lock_family(connection: &mut PgConnection, subscriber_id: i64) -> Result<bool> {
    let locked: Option<i64> = sqlx::query_scalar("select id from members where id = $1 for update")
        .bind(subscriber_id)
        .fetch_optional(&mut *connection)
        .await?;
    Ok(locked.is_some())
}

/// Whether another member of the family is this person (names compared case-insensitively).
async fn already_in_family(
    connection: &mut PgConnection,
    subscriber_id: i64,
    except: Option<i64>,
    first_name: &str,
    last_name: &str,
    dob: Option<NaiveDate>,
) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "select exists(select 1 from members
                       where subscriber_id = $1 and id is distinct from $2 and lower(first_name) = lower($3)
                         and lower(last_name) = lower($4) and dob is not distinct from $5)",
    )
    .bind(subscriber_id)
    .bind(except)
    .bind(first_name)
    .bind(last_name)
    .bind(dob)
    .fetch_one(&mut *connection)
    .await?)
}

/// Adds a family member under the subscriber, who must exist.
pub async fn add(pool: &PgPool, new: &NewFamilyMember) -> Result<FamilyWrite> {
    let mut transaction = pool.begin().await?;
    if !lock_family(&mut transaction, new.subscriber_id).await? {
        return Ok(FamilyWrite::NotInFamily);
    }
    if already_in_family(
        &mut transaction,
        new.subscriber_id,
        None,
        &new.first_name,
        &new.last_name,
        Some(new.dob),
    )
    .await?
    {
        return Ok(FamilyWrite::AlreadyInFamily);
    }
    let id: i64 = sqlx::query_scalar(
        "insert into members (subscriber_id, subscriber_relation, first_name, last_name, dob, gender, contact_email,
                              phone, member_id, plan_id, payer_id, group_id, subscriber_member_id, employer_id,
                              company_name)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         returning id",
    )
    .bind(new.subscriber_id)
    .bind(new.relation)
    .bind(&new.first_name)
    .bind(&new.last_name)
    .bind(new.dob)
    .bind(new.gender)
    .bind(&new.contact_email)
    .bind(&new.phone)
    .bind(&new.member_id)
    .bind(&new.plan_id)
    .bind(&new.payer_id)
    .bind(&new.group_id)
    .bind(&new.subscriber_member_id)
    .bind(new.employer_id)
    .bind(&new.company_name)
    .fetch_one(&mut *transaction)
    .await
    .map_err(convert_sqlx_err)?;
    transaction.commit().await?;
    Ok(FamilyWrite::Saved(id))
}

/// Changes to a family member; `None` keeps the stored value.
#[derive(Debug, Clone, Default)]
pub struct FamilyChanges {
    pub relation: Option<&'static str>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub dob: Option<NaiveDate>,
    pub gender: Option<&'static str>,
    pub contact_email: Option<String>,
    pub phone: Option<String>,
    pub zip_code: Option<String>,
    pub member_id: Option<String>,
    pub plan_id: Option<String>,
    /// The subscriber's member id, which may have been confirmed since the member was added.
    pub subscriber_member_id: Option<String>,
}

impl FamilyChanges {
    /// The insured person `member` becomes with these changes.
    pub fn identity_over<'a>(&'a self, member: &'a Member) -> Identity<'a> {
        let stored = Identity::of(member);
        Identity {
            first_name: self.first_name.as_deref().unwrap_or(stored.first_name),
            last_name: self.last_name.as_deref().unwrap_or(stored.last_name),
            dob: self.dob.or(stored.dob),
            member_id: self.member_id.as_deref().or(stored.member_id),
            payer_id: stored.payer_id,
            plan_id: self.plan_id.as_deref().or(stored.plan_id),
            relation: self.relation.unwrap_or(stored.relation),
            subscriber_member_id: self.subscriber_member_id.as_deref().or(stored.subscriber_member_id),
        }
    }
}

/// Saves changes to one of the subscriber's family members. `unconfirm`: the changes name
/// another insured person than a confirmed (or pending) eligibility was for, so it is withdrawn
/// in the same statement and the caller checks the new details at once.
pub async fn update(
    pool: &PgPool,
    subscriber_id: i64,
    id: i64,
    changes: &FamilyChanges,
    unconfirm: bool,
) -> Result<FamilyWrite> {
    let mut transaction = pool.begin().await?;
    if !lock_family(&mut transaction, subscriber_id).await? {
        return Ok(FamilyWrite::NotInFamily);
    }
    let current: Option<(String, String, Option<NaiveDate>)> =
        sqlx::query_as("select first_name, last_name, dob from members where id = $1 and subscriber_id = $2")
            .bind(id)
            .bind(subscriber_id)
            .fetch_optional(&mut *transaction)
            .await?;
    let Some((first_name, last_name, dob)) = current else {
        return Ok(FamilyWrite::NotInFamily);
    };
    let first_name = changes.first_name.clone().unwrap_or(first_name);
    let last_name = changes.last_name.clone().unwrap_or(last_name);
    let dob = changes.dob.or(dob);
    if already_in_family(&mut transaction, subscriber_id, Some(id), &first_name, &last_name, dob).await? {
        return Ok(FamilyWrite::AlreadyInFamily);
    }
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "update members set
             {unconfirmed},
             first_name = $3, last_name = $4, dob = $5, gender = coalesce($6, gender),
             contact_email = coalesce($7, contact_email), phone = coalesce($8, phone),
             member_id = coalesce($9, member_id), plan_id = coalesce($10, plan_id),
             subscriber_relation = coalesce($11, subscriber_relation), zip_code = coalesce($12, zip_code),
             subscriber_member_id = coalesce($13, subscriber_member_id)
         where id = $1 and subscriber_id = $2",
        unconfirmed = unconfirmed_when("$14")
    )))
    .bind(id)
    .bind(subscriber_id)
    .bind(&first_name)
    .bind(&last_name)
    .bind(dob)
    .bind(changes.gender)
    .bind(&changes.contact_email)
    .bind(&changes.phone)
    .bind(&changes.member_id)
    .bind(&changes.plan_id)
    .bind(changes.relation)
    .bind(&changes.zip_code)
    .bind(&changes.subscriber_member_id)
    .bind(unconfirm)
    .execute(&mut *transaction)
    .await
    .map_err(convert_sqlx_err)?;
    transaction.commit().await?;
    Ok(FamilyWrite::Saved(id))
}

/// Takes a family member off the subscriber's account; their names, or `None` when they are
/// not in this family. A family member added by the subscriber (no login) is deleted with
/// their tokens (and, by their foreign keys, anything else that is theirs), and their membership
/// at a clinic is cancelled; one who has a login of their own keeps their account (and their
/// membership) and is only detached from this family.
pub async fn remove(pool: &PgPool, subscriber_id: i64, id: i64) -> Result<Option<(String, String)>> {
    let mut transaction = pool.begin().await?;
    let removed: Option<(String, String, bool)> = sqlx::query_as(
        "select first_name, last_name, email is not null from members where id = $1 and subscriber_id = $2 for update",
    )
    .bind(id)
    .bind(subscriber_id)
    .fetch_optional(&mut *transaction)
    .await?;
    let Some((first_name, last_name, has_login)) = removed else {
        return Ok(None);
    };
    let statement = if has_login {
        "update members set subscriber_id = null where id = $1"
    } else {
        // The clinic loses a member: their membership is cancelled (and its facts kept) first,
        // and a place may open at a full clinic (`crate::capacity`).
        crate::memberships::cancel_for_removal(&mut transaction, id, subscriber_id, chrono::Utc::now().date_naive())
            .await?;
        "delete from members where id = $1"
    };
    sqlx::query(statement).bind(id).execute(&mut *transaction).await?;
    transaction.commit().await?;
    Ok(Some((first_name, last_name)))
}
