//! Structured logs: readable text by default, one JSON object a line with
//! `NEARCARE_LOG_FORMAT=json`. Either way a request's lines carry its `request_id` (the
//! `request` span of `crate::observe`), and an email's or job's lines the id of the request that
//! enqueued it.

use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use crate::config::LogFormat;

/// Installs the log subscriber: `RUST_LOG` or `info` for our crates, in `format`; and the layer
/// that times the database pool's acquires for the metrics.
pub fn init(format: LogFormat) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn,tantivy=warn".into());
    let lines = match format {
        LogFormat::Text => tracing_subscriber::fmt::layer().with_target(false).boxed(),
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .boxed(),
    };
    // sqlx reports each acquire's wait as an event of its own target; only that target reaches
    // the metrics layer, whatever RUST_LOG says.
    let acquires = tracing_subscriber::filter::Targets::new().with_target("sqlx::pool::acquire", tracing::Level::DEBUG);
    let _ = tracing_subscriber::registry()
        .with(lines.with_filter(filter))
        .with(crate::metrics::AcquireTimes.with_filter(acquires))
        .try_init();
}
