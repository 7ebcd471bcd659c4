//! Requests to be called back by a representative (`/confirm-info`): the row and the email to
//! support are written in one transaction, so a request support was told of is always kept.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgPool;

use crate::Result;
use crate::outbox::NewEmail;

/// A member's request to be contacted.
#[derive(Debug, Clone)]
pub struct NewContactRequest<'a> {
    pub member_id: i64,
    /// The member's login, where support can also write.
    pub email: Option<&'a str>,
    pub first_name: &'a str,
    pub last_name: &'a str,
    /// E.164.
    pub phone: &'a str,
}

/// A stored request.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContactRequest {
    pub id: i64,
    pub member_id: Option<i64>,
    pub email: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub created_at: DateTime<Utc>,
}

/// Records the request and writes the `contact_request` email to `support_email` in the same
/// transaction; answers the request.
pub async fn record(pool: &PgPool, request: &NewContactRequest<'_>, support_email: &str) -> Result<ContactRequest> {
    let mut transaction = pool.begin().await?;
    let stored: ContactRequest = sqlx::query_as(
        "insert into contact_requests (member_id, email, first_name, last_name, phone)
         values ($1, $2, $3, $4, $5)
         returning id, member_id, email, first_name, last_name, phone, created_at",
    )
    .bind(request.member_id)
    .bind(request.email)
    .bind(request.first_name)
    .bind(request.last_name)
    .bind(request.phone)
    .fetch_one(&mut *transaction)
    .await?;
    crate::outbox::enqueue(
        &mut transaction,
        &NewEmail {
            to_email: support_email,
            kind: "contact_request",
            link: None,
            facts: json!({
                "request_id": stored.id,
                "member_id": stored.member_id,
                "first_name": stored.first_name,
                "last_name": stored.last_name,
                "phone": stored.phone,
                "email": stored.email,
                "requested_at": stored.created_at.format("%Y-%m-%d %H:%M UTC").to_string(),
            }),
        },
    )
    .await?;
    transaction.commit().await?;
    Ok(stored)
}
