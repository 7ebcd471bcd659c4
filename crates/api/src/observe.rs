//! Each request's id, span, route name and measurement, around everything else.
//!
//! A valid incoming `x-request-id` (see `store::request_id::RequestId::parse`) is kept, any
//! other is replaced by a new UUID; the answer carries it back in `x-request-id`. The request
//! runs inside a `request` span holding the id, so every log line it writes names it, and
//! inside `store::request_id::scope`, so the outbox and job rows it writes keep it. When it is
//! answered, the route (its template, named by [`NameRoute`]), method, status and time are
//! counted in the metrics and logged: at debug level, as a warning when slower than
//! `NEARCARE_SLOW_REQUEST_MS`, as an error for a 5xx. Only the path is ever logged, never the
//! query string (emailed links carry their tokens there).

use std::cell::Cell;
use std::sync::OnceLock;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;
use store::request_id::RequestId;
use tracing::Instrument;

use crate::metrics::{self, Route};

/// The header carrying a request's id, both ways.
pub static REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

tokio::task_local! {
    /// The route that answers the running request, set by [`NameRoute`] once routing chose it.
    static ROUTE: Cell<Option<&'static Route>>;
}

/// What [`observe`] needs from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Observe {
    /// Answers at least this slow are logged as warnings.
    pub slow_request: Duration,
}

/// The outermost layer: see the module's documentation.
pub async fn observe(
    axum::extract::State(settings): axum::extract::State<Observe>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let started = Instant::now();
    let id = request
        .headers()
        .get(&REQUEST_ID_HEADER)
        .and_then(|value| RequestId::parse(value.as_bytes()))
        .unwrap_or_else(new_id);
    let method = request.method().clone();
    let uri = request.uri().clone();
    let span = tracing::info_span!("request", request_id = %id);
    let answer = async move {
        let mut response = next.run(request).await;
        let elapsed = started.elapsed();
        let route = ROUTE
            .with(Cell::get)
            .unwrap_or_else(|| metrics::route(metrics::UNMATCHED));
        let status = response.status();
        route.record(&method, status, elapsed);
        let route_name = route.template();
        let path = uri.path();
        let duration_ms = elapsed.as_secs_f64() * 1000.0;
        if status.is_server_error() {
            tracing::error!(%method, route = %route_name, %path, status = status.as_u16(), duration_ms, "request failed with a server error");
        } else if elapsed >= settings.slow_request {
            tracing::warn!(%method, route = %route_name, %path, status = status.as_u16(), duration_ms, "slow request");
        } else {
            tracing::debug!(%method, route = %route_name, %path, status = status.as_u16(), duration_ms, "request finished");
        }
        if let Ok(value) = HeaderValue::from_str(id.as_str()) {
            response.headers_mut().insert(REQUEST_ID_HEADER.clone(), value);
        }
        response
    };
    ROUTE
        .scope(Cell::new(None), store::request_id::scope(id, answer))
        .instrument(span)
        .await
}

/// A new request id: 128 bits from a per-thread generator seeded from the operating system
/// (an id needs to be unique, not secret, and a system call per request would cost more
/// than the rest of this layer).
fn new_id() -> RequestId {
    thread_local! {
        static STATE: Cell<u64> = Cell::new({
            let mut seed = [0u8; 8];
            let _ = getrandom::fill(&mut seed);
            u64::from_le_bytes(seed) | 1
        });
    }
    // wyrand: one multiply per 64 bits.
    let next = || {
        STATE.with(|state| {
            let value = state.get().wrapping_add(0xa076_1d64_78bd_642f);
            state.set(value);
            let product = u128::from(value) * u128::from(value ^ 0xe703_7ed1_a0b4_28db);
            ((product >> 64) ^ product) as u64
        })
    };
    RequestId::from_random((u128::from(next()) << 64) | u128::from(next()))
}

/// Names a request refused at the edge before routing (`edge::guard`): `refused:{code}`, for
/// example `refused:payload_too_large`, so metrics and logs tell a refusal from an unknown path
/// (`unmatched`).
pub fn name_refusal(code: &str) {
    let route = metrics::route(&format!("{}{code}", metrics::REFUSED_PREFIX));
    let _ = ROUTE.try_with(|current| current.set(Some(route)));
}

/// A route layer that tells [`observe`] which route answers: each route's service (one per
/// route and method) learns its template from the first request it serves.
#[derive(Debug, Clone, Copy)]
pub struct NameRoute;

impl<S> tower::Layer<S> for NameRoute {
    type Service = NamedRoute<S>;

    fn layer(&self, inner: S) -> NamedRoute<S> {
        NamedRoute {
            inner,
            // One per route service, for the life of the router: a reference is copied with
            // each clone of the service (axum clones it per request) instead of an Arc's count.
            route: Box::leak(Box::new(OnceLock::new())),
        }
    }
}

#[derive(Debug, Clone)]
pub struct NamedRoute<S> {
    inner: S,
    route: &'static OnceLock<&'static Route>,
}

impl<S, B> tower::Service<axum::http::Request<B>> for NamedRoute<S>
where
    S: tower::Service<axum::http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(context)
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        let route = *self.route.get_or_init(|| {
            metrics::route(
                request
                    .extensions()
                    .get::<MatchedPath>()
                    .map_or(metrics::UNMATCHED, MatchedPath::as_str),
            )
        });
        let _ = ROUTE.try_with(|current| current.set(Some(route)));
        self.inner.call(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_ids_differ_and_are_valid_incoming_ids() {
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| new_id().as_str().to_owned()).collect();
        assert_eq!(ids.len(), 1000);
        assert!(ids.iter().all(|id| RequestId::parse(id.as_bytes()).is_some()));
    }
}
