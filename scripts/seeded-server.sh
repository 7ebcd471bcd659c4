# Sourced by the load test and the peer benchmark: builds the release binaries, seeds a
# catalogue of $size clinics once into its own private cluster and index ($local_dir), starts
# a release server on a free port and waits until it is ready. Sets url (the database),
# port, server (its pid) and started (when it was launched, epoch seconds); on exit stops the
# server, and the cluster if this run started it.
cargo build --release --quiet -p api -p indexer
indexer() { ./target/release/indexer --local-dir "$local_dir" "$@"; }
# A cluster already running is someone else's (another run on the same catalogue): it is left
# running at the end; only a cluster this run started is stopped.
cluster_pid=$(head -1 "$local_dir/postgres/data/postmaster.pid" 2>/dev/null || true)
if [ -n "$cluster_pid" ] && kill -0 "$cluster_pid" 2>/dev/null; then stop_cluster=false; else stop_cluster=true; fi
if [ ! -f "$local_dir/seeded" ]; then
  echo "== seeding ${size} clinics and building their index (once) in ${local_dir}" >&2
  indexer seed --clinics "$size" --replace >/dev/null
  indexer rebuild >/dev/null
  touch "$local_dir/seeded"
fi
url=$(indexer pg start)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
started=$(date +%s.%N)
# The load generator is one address: the per-address connection bound is off for it.
DATABASE_URL="$url" NEARCARE_LOCAL_DIR="$local_dir" PORT=$port RUST_LOG=warn NEARCARE_MAX_CONNECTIONS_PER_ADDRESS=0 \
  ./target/release/nearcare-server \
  >"$local_dir/server.log" 2>&1 &
server=$!
stop_own_cluster() { if $stop_cluster; then ./target/release/indexer --local-dir "$local_dir" pg stop >/dev/null 2>&1 || true; fi; }
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; stop_own_cluster' EXIT
for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:${port}/ready" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { tail -20 "$local_dir/server.log"; exit 1; }
  sleep 0.1
done
