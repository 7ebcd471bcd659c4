//! The HTTP API against the real application, a fresh PostgreSQL database and a real snapshot.

mod helpers;

mod account_notices;
mod accounts;
mod attestation;
mod clinic_panel;
mod contact;
mod dev_mailbox;
mod documented_answers;
mod edge_answers;
mod eligibility;
mod email;
mod employers;
mod enrolment;
mod errors;
mod family;
mod favourites;
mod fhir;
mod fleet;
mod geocoder;
mod hardening;
mod legal;
mod listings;
mod lockout;
mod marketplace;
mod metadata;
mod observability;
mod outbox_crash;
mod profiles;
mod providers;
mod reindex;
mod security;
mod sessions;
mod slow_clients;
mod smtp;
mod waitlist;
