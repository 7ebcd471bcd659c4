//! Routers by feature.

use axum::Router;

use crate::app::AppState;

pub mod accounts;
pub mod catalogue;
pub mod eligibility;
pub mod geo;
pub mod health;
pub mod market;
pub mod members;
pub mod profiles;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(market::router())
        .merge(geo::router())
        .merge(profiles::router())
        .merge(catalogue::router())
        .merge(accounts::router())
        .merge(eligibility::router())
        .merge(members::router())
}
