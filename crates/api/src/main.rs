//! `nearcare-server`: the API and the SPA on one port.

use clap::Parser;

#[tokio::main]
async fn main() {
    api::telemetry::init();
    api::install_tls_provider();
    let config = api::config::Config::parse();
    let outcome = async { api::app::Application::build(config).await?.run_until_stopped().await }.await;
    if let Err(error) = outcome {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}
