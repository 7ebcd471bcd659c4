//! Insurance data members are checked against: the payers' rosters, plans and the employer
//! groups that tie a plan to an employer.

use chrono::NaiveDate;
use sqlx::PgPool;

use crate::Result;

/// One roster line.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RosterRow {
    pub payer_id: String,
    pub member_id: String,
    pub first_name: String,
    pub last_name: String,
    pub date_of_birth: NaiveDate,
    pub plan_id: String,
    pub group_number: String,
    pub relation: String,
    pub subscriber_member_id: String,
    pub pediatric_covered: bool,
}

/// The roster lines of a member id (case-insensitive), with one payer or any.
pub async fn lines_for_member(pool: &PgPool, payer_id: Option<&str>, member_id: &str) -> Result<Vec<RosterRow>> {
    Ok(sqlx::query_as(
        "select payer_id, member_id, first_name, last_name, date_of_birth, plan_id, group_number, relation,
                subscriber_member_id, pediatric_covered
         from eligibility_roster
         where lower(member_id) = lower($1) and ($2::text is null or payer_id = $2)
         order by payer_id, first_name",
    )
    .bind(member_id)
    .bind(payer_id)
    .fetch_all(pool)
    .await?)
}

/// How many other people the roster lists under the same subscriber.
pub async fn family_size(
    pool: &PgPool,
    payer_id: &str,
    subscriber_member_id: &str,
    except_member_id: &str,
) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "select count(*) from eligibility_roster
         where payer_id = $1 and lower(subscriber_member_id) = lower($2) and lower(member_id) <> lower($3)",
    )
    .bind(payer_id)
    .bind(subscriber_member_id)
    .bind(except_member_id)
    .fetch_one(pool)
    .await?)
}

/// The employer a payer's group number belongs to.
pub async fn employer_of_group(pool: &PgPool, payer_id: &str, group_number: &str) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "select employer_id from employer_groups where payer_id = $1 and group_number = $2 order by employer_id limit 1",
    )
    .bind(payer_id)
    .bind(group_number)
    .fetch_optional(pool)
    .await?)
}

/// A plan as the plan pickers show it. `group_id` is the employer's group number when the
/// plan is seen through an employer, else the plan's own group id.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlanRow {
    pub plan_id: String,
    pub name: String,
    pub payer_id: String,
    pub payer_name: String,
    pub group_id: String,
}

/// The plans an employer offers (through its groups), or every plan without an employer;
/// optionally only one payer's.
pub async fn plans(pool: &PgPool, employer_id: Option<i64>, payer_id: Option<&str>) -> Result<Vec<PlanRow>> {
    let rows = match employer_id {
        Some(employer_id) => {
            sqlx::query_as(
                "select distinct on (p.plan_id) p.plan_id, p.name, p.payer_id, y.name as payer_name,
                        g.group_number as group_id
                 from employer_groups g join plans p on p.plan_id = g.plan_id join payers y on y.id = p.payer_id
                 where g.employer_id = $1 and ($2::text is null or p.payer_id = $2)
                 order by p.plan_id, g.group_number",
            )
            .bind(employer_id)
            .bind(payer_id)
            .fetch_all(pool)
            .await?
        }
        None => {
            sqlx::query_as(
                "select p.plan_id, p.name, p.payer_id, y.name as payer_name, p.group_id
                 from plans p join payers y on y.id = p.payer_id
                 where ($1::text is null or p.payer_id = $1)
                 order by p.plan_id",
            )
            .bind(payer_id)
            .fetch_all(pool)
            .await?
        }
    };
    Ok(rows)
}

/// One plan by id (case-sensitive), seen through `employer_id` when given.
pub async fn plan(pool: &PgPool, plan_id: &str, employer_id: Option<i64>) -> Result<Option<PlanRow>> {
    Ok(sqlx::query_as(
        "select p.plan_id, p.name, p.payer_id, y.name as payer_name,
                coalesce((select g.group_number from employer_groups g
                          where g.employer_id = $2 and g.plan_id = p.plan_id
                          order by g.group_number limit 1), p.group_id) as group_id
         from plans p join payers y on y.id = p.payer_id
         where p.plan_id = $1",
    )
    .bind(plan_id)
    .bind(employer_id)
    .fetch_optional(pool)
    .await?)
}

/// An employer's groups: (group number, payer id, plan id).
pub async fn employer_groups(pool: &PgPool, employer_id: i64) -> Result<Vec<(String, String, String)>> {
    Ok(sqlx::query_as(
        "select group_number, payer_id, plan_id from employer_groups where employer_id = $1 order by group_number",
    )
    .bind(employer_id)
    .fetch_all(pool)
    .await?)
}

/// The roster lines of a subscriber's spouse and dependents.
pub async fn family_lines(pool: &PgPool, payer_id: &str, subscriber_member_id: &str) -> Result<Vec<RosterRow>> {
    Ok(sqlx::query_as(
        "select payer_id, member_id, first_name, last_name, date_of_birth, plan_id, group_number, relation,
                subscriber_member_id, pediatric_covered
         from eligibility_roster
         where payer_id = $1 and lower(subscriber_member_id) = lower($2) and relation <> 'Self'
         order by member_id",
    )
    .bind(payer_id)
    .bind(subscriber_member_id)
    .fetch_all(pool)
    .await?)
}
