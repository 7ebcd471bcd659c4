# The two commands of the README. Everything else is in scripts/.
.PHONY: run test bench load-test

## Builds the web app and the server, then serves http://127.0.0.1:8080 (private PostgreSQL,
## seeded data and the search index are set up on first run).
run:
	./scripts/run.sh

## Runs every test: formatting, lints, Rust unit/property/integration tests against a private
## PostgreSQL, the web app's component tests and its browser tests in Chromium.
test:
	./scripts/test.sh

## Criterion benchmarks (10,000 and 1,000,000 locations).
bench:
	cargo bench -p benches

## Load test of the HTTP search path against a release server.
load-test:
	./scripts/load-test.sh
