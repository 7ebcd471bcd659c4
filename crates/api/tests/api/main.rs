//! The HTTP API against the real application, a fresh PostgreSQL database and a real snapshot.

mod helpers;

mod accounts;
mod contact;
mod eligibility;
mod email;
mod enrolment;
mod errors;
mod family;
mod favourites;
mod fleet;
mod geocoder;
mod hardening;
mod marketplace;
mod metadata;
mod profiles;
mod providers;
mod reindex;
mod security;
mod smtp;
mod waitlist;
