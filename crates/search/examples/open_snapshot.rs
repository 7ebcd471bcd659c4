//! Opens a published generation and reports how long each phase took and the resident memory
//! after it: `cargo run --release -p search --example open_snapshot -- GENERATION_DIR`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn resident_megabytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
        .map_or(0, |kilobytes| kilobytes / 1024)
}

fn main() {
    tracing_subscriber::fmt().with_env_filter("info").init();
    let directory = std::env::args().nth(1).expect("usage: open_snapshot GENERATION_DIR");
    let started = std::time::Instant::now();
    let snapshot = search::Snapshot::open(std::path::Path::new(&directory), 0).expect("the snapshot opens");
    println!(
        "opened {} locations in {:.2} s, {} MB RSS",
        snapshot.location_count(),
        started.elapsed().as_secs_f64(),
        resident_megabytes()
    );
}
