//! Marketplace categories, vendors and employers, read from PostgreSQL (a solution, with the
//! provider side's participation, is in [`super::providers`]).

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;
use store::favourites::Entity;

use crate::access::MaybeCaller;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::extract::{Path, Query};
use crate::services::favourites::is_favourite;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/member/app/market", get(categories))
        .route("/dpcproviders/market/vendor/{id}", get(vendor))
        .route("/member/app/potential/employers", get(potential_employers))
}

/// Categories in their display order, each with its solutions and vendors.
async fn categories(State(state): State<AppState>, _caller: MaybeCaller) -> ApiResult<axum::Json<Value>> {
    let categories = sqlx::query("select id, name, slug from marketplace_categories order by position, id")
        .fetch_all(&state.pool)
        .await?;
    let items = sqlx::query(
        "select 'solution' as entity, id, name, logo, description, website, category_id, kind from solutions
         union all
         select 'vendor', id, company_name, logo, description, website, category_id, 'vendor' from vendors
         order by category_id, entity, name",
    )
    .fetch_all(&state.pool)
    .await?;
    let categories: Vec<Value> = categories
        .iter()
        .map(|category| {
            let id: i64 = category.get("id");
            let items: Vec<Value> = items
                .iter()
                .filter(|item| item.get::<i64, _>("category_id") == id)
                .map(|item| {
                    json!({
                        "entity": item.get::<String, _>("entity"),
                        "id": item.get::<i64, _>("id"),
                        "name": item.get::<String, _>("name"),
                        "logo": item.get::<String, _>("logo"),
                        "description": item.get::<String, _>("description"),
                        "website": item.get::<String, _>("website"),
                        "type": item.get::<String, _>("kind"),
                    })
                })
                .collect();
            json!({ "id": id, "name": category.get::<String, _>("name"), "slug": category.get::<String, _>("slug"), "items": items })
        })
        .collect();
    Ok(axum::Json(json!({ "categories": categories })))
}

async fn vendor(
    State(state): State<AppState>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<Value>> {
    let row = sqlx::query(
        "select v.id, v.company_name, c.name as category, v.logo, v.description, v.website, v.contact_first_name,
                v.contact_last_name, v.contact_email, v.address1
         from vendors v join marketplace_categories c on c.id = v.category_id where v.id = $1",
    )
    .bind(id)
    .fetch_optional(&state.pool)
    .await?
    .ok_or_else(|| ApiError::known(codes::VENDOR_NOT_FOUND))?;
    let favorite = is_favourite(&state, caller.map(|caller| caller.member_id), Entity::Vendor, id).await?;
    Ok(axum::Json(json!({
        "id": row.get::<i64, _>("id"),
        "companyName": row.get::<String, _>("company_name"),
        "category": row.get::<String, _>("category"),
        "logo": row.get::<String, _>("logo"),
        "favorite": favorite,
        "details": { "description": row.get::<String, _>("description"), "website": row.get::<String, _>("website") },
        "contact": {
            "firstName": row.get::<String, _>("contact_first_name"),
            "lastName": row.get::<String, _>("contact_last_name"),
            "email": row.get::<String, _>("contact_email"),
            "address1": row.get::<String, _>("address1"),
        },
    })))
}

#[derive(Debug, Deserialize)]
pub struct EmployerQuery {
    search: Option<String>,
    limit: Option<i64>,
}

/// Employers by company name: an exact match first, then names starting with the text
/// (case-insensitive). A search nobody matches answers an inactive employer of that name,
/// so the marketplace shows the "not yet participating" banner.
async fn potential_employers(
    State(state): State<AppState>,
    Query(query): Query<EmployerQuery>,
) -> ApiResult<axum::Json<Vec<Value>>> {
    let limit = query.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::with_message(
            codes::INVALID_PARAMETER,
            "limit must be between 1 and 500",
        ));
    }
    let search = query.search.as_deref().map(str::trim).unwrap_or_default();
    if search.len() > 200 {
        return Err(ApiError::with_message(
            codes::INVALID_PARAMETER,
            "search must be at most 200 characters",
        ));
    }
    let pattern = format!(
        "{}%",
        search
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
    let rows = sqlx::query(
        "select id, company_name, status from employers
         where lower(company_name) like $1
         order by lower(company_name) = lower($2) desc, company_name
         limit $3",
    )
    .bind(&pattern)
    .bind(search)
    .bind(limit)
    .fetch_all(&state.pool)
    .await?;
    let mut employers: Vec<Value> = rows
        .iter()
        .map(|row| json!({ "id": row.get::<i64, _>("id"), "companyName": row.get::<String, _>("company_name"), "status": row.get::<String, _>("status") }))
        .collect();
    if employers.is_empty() && !search.is_empty() {
        employers.push(json!({ "id": null, "companyName": search, "status": "inactive" }));
    }
    Ok(axum::Json(employers))
}
