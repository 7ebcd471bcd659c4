//! Pure types and rules of the Nearcare marketplace: catalogue rows, search filters, the distance
//! slider, ZIP codes, great-circle geometry, and member accounts (emails, passwords, phones,
//! dates of birth, the membership state machine), NPIs. Nothing in this crate does IO.

pub mod accounts;
pub mod catalogue;
pub mod clinic_panel;
pub mod enrolment;
pub mod filters;
pub mod geo;
pub mod listing;
pub mod membership;
pub mod npi;
pub mod participation;
pub mod zip;

pub use catalogue::*;
pub use filters::{DistanceSlider, MAX_SEARCH_MILES, PEDIATRICS_SERVICE_TYPE, SearchFilters};
pub use geo::{LatLng, haversine_miles};
pub use zip::ZipCode;
