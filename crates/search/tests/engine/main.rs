//! The search engine against brute-force scans of the same rows.

mod brute;
mod fixture;

mod bad_input;
mod listings;
mod pins;
mod search;
mod snapshots;
