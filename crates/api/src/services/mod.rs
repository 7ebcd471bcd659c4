//! Use cases several routes share. A service takes the state and parsed values and answers
//! domain values or JSON; it never reads a request. Routes call services; services call the
//! store, the access rules and each other, never a route.

pub mod account_notices;
pub mod accounts;
pub mod attestation;
pub mod eligibility_check;
pub mod favourites;
pub mod member_views;
pub mod participation_views;
