//! `nearcare-server`: the API and the SPA on one port.

use clap::Parser;

/// A snapshot is millions of small strings (names, addresses, codes). glibc gives each at
/// least 32 bytes with a header; mimalloc's size classes hold them with no header, which
/// at a million locations is hundreds of megabytes of resident memory, and its per-thread
/// free lists are cheaper on the request path too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let config = api::config::Config::parse();
    api::telemetry::init(config.log_format);
    api::install_tls_provider();
    // With serving threads of their own (the default), the shared runtime only runs start-up and
    // the background tasks (snapshot sync, the sender, jobs, metrics): one thread is plenty, and
    // no idle worker of it competes with the serving threads for a core.
    let runtime = if config.serving_threads() == 0 {
        tokio::runtime::Builder::new_multi_thread().enable_all().build()
    } else {
        tokio::runtime::Builder::new_current_thread().enable_all().build()
    };
    let outcome = runtime.map_err(anyhow::Error::from).and_then(|runtime| {
        runtime.block_on(async { api::app::Application::build(config).await?.run_until_stopped().await })
    });
    if let Err(error) = outcome {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}
