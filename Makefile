# The two commands of the README. Everything else is in scripts/.
.PHONY: run test bench load-test bench-peer

comma := ,

## Builds the web app and the server, then serves http://127.0.0.1:8080 (private PostgreSQL,
## seeded data and the search index are set up on first run).
run:
	./scripts/run.sh

## Runs every test: formatting, lints, Rust unit/property/integration tests against a private
## PostgreSQL, the web app's component tests and its browser tests in Chromium.
test:
	./scripts/test.sh

## Criterion benchmarks (10,000 and 1,000,000 locations; `make bench SIZE=1000000` for one size).
bench:
	NEARCARE_BENCH_SIZES=$(or $(SIZE),$(NEARCARE_BENCH_SIZES),10000$(comma)1000000) cargo bench -p benches

## Load test of the HTTP search path against a release server (`make load-test SIZE=1000000`;
## default 1,500 clinics).
load-test:
	SIZE=$(or $(SIZE),1500) ./scripts/load-test.sh

## Peer benchmark: the same searches, pins and area pins against PostGIS and Nearcare's HTTP API,
## answers compared (`make bench-peer SIZE=1000000`; default 1,500 clinics; installs PostGIS).
bench-peer:
	SIZE=$(or $(SIZE),1500) ./scripts/bench-peer.sh
