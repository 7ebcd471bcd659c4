//! Routers by feature, one module each. A route module reads the request, calls the
//! services and the store, and writes the answer; it never imports another route module.

pub mod analytics;
pub mod catalogue;
pub mod clinic_panel;
pub mod contact;
pub mod dev_mailbox;
pub mod eligibility;
pub mod enrolment;
pub mod family;
pub mod favourites;
pub mod fhir;
pub mod geo;
pub mod health;
pub mod legal;
pub mod listing_codes;
pub mod listings;
pub mod login;
pub mod market;
pub mod members;
pub mod participation_review;
pub mod passwords;
pub mod profiles;
pub mod providers;
pub mod sessions;
pub mod signup;
pub mod verification;
pub mod waitlist;
