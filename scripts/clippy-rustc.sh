#!/usr/bin/env bash
# The test command builds the workspace once, with clippy's lints: cargo runs this script as
# RUSTC_WORKSPACE_WRAPPER for our own crates ("$1" is rustc, which clippy-driver skips), so
# every dependency is compiled once, by rustc, instead of once more for `cargo clippy`'s check.
exec clippy-driver "$@" -D warnings
