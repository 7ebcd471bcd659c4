//! `nearcare-server`: the API and the SPA on one port.

use clap::Parser;

/// A snapshot is millions of small strings (names, addresses, codes). glibc gives each at
/// least 32 bytes with a header; mimalloc's size classes hold them with no header, which
/// at a million locations is hundreds of megabytes of resident memory, and its per-thread
/// free lists are cheaper on the request path too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    let config = api::config::Config::parse();
    api::telemetry::init(config.log_format);
    api::install_tls_provider();
    let outcome = async { api::app::Application::build(config).await?.run_until_stopped().await }.await;
    if let Err(error) = outcome {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}
