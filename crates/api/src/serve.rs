//! The connection loop: what `axum::serve` does, plus the limits it does not offer. Each
//! connection must send its request headers within the header read timeout (a deadline for the
//! whole head, not reset by each byte), and a kept-alive connection that sends nothing for as
//! long is closed too (hyper starts the same timer while it waits for the next request's
//! headers); a request body must keep to a minimum rate (`body_rate`); one client address holds
//! at most `per_address` of the connections (`address_slots`: a connection over it is answered
//! 429 and closed at once), and at most `max_connections` are served at once, further ones
//! waiting in the kernel's listen queue until one closes.

use std::convert::Infallible;
use std::future::Future;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::{Body as _, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::address_slots::AddressSlots;
use crate::body_rate::{BodyRate, MinimumRate};

/// The limits of the connection loop.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// Time allowed for a request's headers, and for an idle kept-alive connection.
    pub header_read_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections per client address; share one table between listeners.
    pub per_address: Arc<AddressSlots>,
    /// The minimum rate of request bodies.
    pub body_rate: BodyRate,
}

/// What a connection over its address's limit is told before it is closed: the 429 of the
/// JSON error contract, written without reading the request.
static TOO_MANY_CONNECTIONS: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let body = serde_json::json!({
        "message": "Too many connections from your address. Please try again in a moment.",
        "code": crate::error_codes::TOO_MANY_REQUESTS.code,
    })
    .to_string();
    format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n\
         retry-after: 10\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
});

/// How long connections still open at shutdown get to finish their requests.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

/// Serves `router` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (at most [`SHUTDOWN_GRACE`]).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(address_slot) = limits.per_address.try_take(peer.ip()) else {
            refuse(&stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let body_rate = limits.body_rate;
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let request = request.map(|body| {
                if body.is_end_stream() || body_rate.bytes_per_second == 0 {
                    axum::body::Body::new(body)
                } else {
                    axum::body::Body::new(MinimumRate::new(body, body_rate))
                }
            });
            let router = router.clone();
            async move { Ok::<_, Infallible>(router.oneshot(request).await.unwrap_or_else(|never| match never {})) }
        });
        // Each request body wakes the connection from inside its own poll (see `repoll`).
        let connection =
            crate::repoll::repoll_in_place(graceful.watch(builder.serve_connection(TokioIo::new(stream), service)));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, %peer, "connection ended with an error");
            }
            drop(address_slot);
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        tracing::warn!("connections still open after the shutdown grace period");
    }
}

/// Answers a connection over its address's limit and closes it, without waiting for it: the
/// answer fits an empty socket buffer, so the write never waits (if it cannot be written the
/// connection is closed all the same). What the client already sent is read away first, so the
/// close is a FIN after the answer rather than a reset that could discard it.
fn refuse(stream: &TcpStream) {
    let _ = stream.try_write(TOO_MANY_CONNECTIONS.as_slice());
    let mut sent = [0u8; 4096];
    for _ in 0..16 {
        match stream.try_read(&mut sent) {
            Ok(read) if read > 0 => {}
            _ => break,
        }
    }
}
