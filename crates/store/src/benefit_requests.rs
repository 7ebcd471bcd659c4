//! Requests to have an employer offer the benefit (Notify Me, and a member refused enrolment
//! because their employer does not participate), the sales email each new one writes, and the
//! operator's change of an employer's status, which emails each consenting address once when
//! the employer becomes active. Rows and emails are written in one transaction, so what sales
//! or a member was told of is always kept.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};

use crate::Result;
use crate::outbox::NewEmail;

/// Where a request was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The Notify Me dialog of registration (with its consent box).
    NotifyMe,
    /// A signed-in member's enrolment refused with `employer_inactive`.
    Enrolment,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotifyMe => "notify_me",
            Self::Enrolment => "enrolment",
        }
    }
}

/// A request about to be recorded.
#[derive(Debug, Clone)]
pub struct NewBenefitRequest<'a> {
    /// Null for a company the catalogue does not know.
    pub employer_id: Option<i64>,
    pub company_name: &'a str,
    /// Lower-cased.
    pub email: &'a str,
    pub member_id: Option<i64>,
    /// The person agreed to be emailed when the employer offers the benefit.
    pub consent: bool,
    pub source: Source,
}

/// A stored request, with the employer's current status when the catalogue knows it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BenefitRequest {
    pub id: i64,
    pub employer_id: Option<i64>,
    pub company_name: String,
    pub email: String,
    pub member_id: Option<i64>,
    pub consent: bool,
    pub source: String,
    pub created_at: DateTime<Utc>,
    pub notified_at: Option<DateTime<Utc>>,
    pub employer_status: Option<String>,
}

/// Records the request and, when it is new, writes the `sales_lead` email to `sales_email` in
/// the caller's transaction. The same person asking again for the same company from the same
/// place is the request already kept: nothing is written and `None` is answered.
pub async fn record(
    connection: &mut PgConnection,
    request: &NewBenefitRequest<'_>,
    sales_email: &str,
) -> Result<Option<i64>> {
    let stored: Option<(i64, DateTime<Utc>)> = sqlx::query_as(
        "insert into benefit_requests (employer_id, company_name, email, member_id, consent, source)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (source, lower(company_name), email) do nothing
         returning id, created_at",
    )
    .bind(request.employer_id)
    .bind(request.company_name)
    .bind(request.email)
    .bind(request.member_id)
    .bind(request.consent)
    .bind(request.source.as_str())
    .fetch_optional(&mut *connection)
    .await?;
    let Some((id, created_at)) = stored else {
        return Ok(None);
    };
    crate::outbox::enqueue(
        connection,
        &NewEmail {
            to_email: sales_email,
            kind: "sales_lead",
            link: None,
            facts: json!({
                "request_id": id,
                "company_name": request.company_name,
                "employer_id": request.employer_id,
                "email": request.email,
                "member_id": request.member_id,
                "consent": request.consent,
                "source": request.source.as_str(),
                "requested_at": created_at.format("%Y-%m-%d %H:%M UTC").to_string(),
            }),
        },
    )
    .await?;
    Ok(Some(id))
}

/// Every request, newest first (`indexer employers leads`).
pub async fn list(pool: &PgPool) -> Result<Vec<BenefitRequest>> {
    Ok(sqlx::query_as(
        "select r.id, r.employer_id, r.company_name, r.email, r.member_id, r.consent, r.source,
                r.created_at, r.notified_at, e.status as employer_status
         from benefit_requests r left join employers e on e.id = r.employer_id
         order by r.created_at desc, r.id desc",
    )
    .fetch_all(pool)
    .await?)
}

/// An employer as the operator sees it, with the consenting addresses still waiting for it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EmployerRow {
    pub id: i64,
    pub company_name: String,
    pub alias: Option<String>,
    pub status: String,
    pub waiting: i64,
}

/// The requests `r` waiting for employer `e`: its own, and those typed with its name (a macro,
/// so the queries stay literal strings).
macro_rules! waiting_for {
    () => {
        "(r.employer_id = e.id or (r.employer_id is null and lower(r.company_name) = lower(e.company_name)))
         and r.consent and r.notified_at is null"
    };
}

/// Every employer by name (`indexer employers list`).
pub async fn employers(pool: &PgPool) -> Result<Vec<EmployerRow>> {
    Ok(sqlx::query_as(concat!(
        "select e.id, e.company_name, e.alias, e.status,
                (select count(distinct r.email) from benefit_requests r where ",
        waiting_for!(),
        ") as waiting
         from employers e order by lower(e.company_name), e.id"
    ))
    .fetch_all(pool)
    .await?)
}

/// What a change of status did.
#[derive(Debug, Clone)]
pub struct StatusChange {
    pub company_name: String,
    pub previous: String,
    /// The addresses emailed that the employer now offers the benefit.
    pub notified: Vec<String>,
}

/// Sets an employer's status (`active`, `inactive` or `pending`; the caller checks the word).
/// Made active, each consenting address waiting for it is emailed once (`benefit_offered`, with
/// the employer's name for the sign-up link) in the same transaction. `None`: no such employer.
pub async fn set_employer_status(pool: &PgPool, employer_id: i64, status: &str) -> Result<Option<StatusChange>> {
    let mut transaction = pool.begin().await?;
    let previous: Option<(String, String)> =
        sqlx::query_as("select company_name, status from employers where id = $1 for update")
            .bind(employer_id)
            .fetch_optional(&mut *transaction)
            .await?;
    let Some((company_name, previous)) = previous else {
        return Ok(None);
    };
    sqlx::query("update employers set status = $2, updated_at = now() where id = $1")
        .bind(employer_id)
        .bind(status)
        .execute(&mut *transaction)
        .await?;
    let mut notified = Vec::new();
    if status == "active" {
        // One email per address, however many times it asked; every request it made is answered.
        notified = sqlx::query_scalar::<_, String>(concat!(
            "with answered as (
                 update benefit_requests r set notified_at = now(), employer_id = e.id
                 from employers e where e.id = $1 and ",
            waiting_for!(),
            " returning r.email)
             select distinct email from answered order by email"
        ))
        .bind(employer_id)
        .fetch_all(&mut *transaction)
        .await?;
        for email in &notified {
            crate::outbox::enqueue(
                &mut transaction,
                &NewEmail {
                    to_email: email,
                    kind: "benefit_offered",
                    link: None,
                    facts: json!({ "employer_id": employer_id, "company_name": company_name }),
                },
            )
            .await?;
        }
    }
    transaction.commit().await?;
    Ok(Some(StatusChange {
        company_name,
        previous,
        notified,
    }))
}
