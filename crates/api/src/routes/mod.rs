//! Routers by feature.

use axum::Router;

use crate::app::AppState;

pub mod accounts;
pub mod analytics;
pub mod catalogue;
pub mod eligibility;
pub mod enrolment;
pub mod family;
pub mod favourites;
pub mod geo;
pub mod health;
pub mod market;
pub mod members;
pub mod profiles;
pub mod waitlist;

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
        .merge(enrolment::router())
        .merge(family::router())
        .merge(waitlist::router())
        .merge(favourites::router())
        .merge(analytics::router())
}
