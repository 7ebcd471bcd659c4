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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::{Body as _, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, oneshot, watch};
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

/// The connections each serving thread holds. The threads accept from one socket, and a burst of
/// connections used to go to whichever thread was awake first: 32 of wrk's connections were
/// seen on one thread while the other idled, halving the throughput (issue 28). A thread that
/// holds more than another leaves the next connection to it, so the threads stay within one
/// connection of each other while connections only open.
#[derive(Debug)]
struct Shares {
    held: Box<[AtomicUsize]>,
    /// Told of every change of `held`, for a thread waiting its turn to accept.
    changed: Notify,
}

impl Shares {
    fn new(threads: usize) -> Arc<Self> {
        Arc::new(Self {
            held: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
            changed: Notify::new(),
        })
    }

    /// Whether `thread` holds more connections than another thread.
    fn holds_more(&self, thread: usize) -> bool {
        let own = self.held[thread].load(Ordering::Acquire);
        self.held.iter().any(|other| other.load(Ordering::Acquire) < own)
    }

    /// Waits until `thread` holds no more connections than any other.
    async fn my_turn(&self, thread: usize) {
        loop {
            // Made before the check, so a change between the two is not missed.
            let changed = self.changed.notified();
            if !self.holds_more(thread) {
                return;
            }
            changed.await;
        }
    }

    fn opened(&self, thread: usize) {
        self.held[thread].fetch_add(1, Ordering::AcqRel);
        self.changed.notify_waiters();
    }

    fn closed(&self, thread: usize) {
        self.held[thread].fetch_sub(1, Ordering::AcqRel);
        self.changed.notify_waiters();
    }
}

/// A serving thread's place in [`Shares`].
#[derive(Debug, Clone)]
struct Share {
    shares: Arc<Shares>,
    thread: usize,
}

/// How long connections still open at shutdown get to finish their requests.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

/// The serving threads after their connections have ended. Their event loops still drive the
/// PostgreSQL connections that requests opened on them (a socket belongs to the event loop it
/// was opened on, wherever it is used), so they run until [`Serving::end`], which the
/// application calls once its pool is closed.
#[derive(Debug, Default)]
pub struct Serving {
    release: Option<watch::Sender<bool>>,
    finished: Vec<oneshot::Receiver<()>>,
}

impl Serving {
    /// Ends the serving threads' event loops and waits for the threads.
    pub async fn end(mut self) {
        if let Some(release) = self.release.take() {
            release.send_replace(true);
        }
        for finished in self.finished.drain(..) {
            let _ = finished.await;
        }
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (at most [`SHUTDOWN_GRACE`]).
///
/// With `threads` of 0 the connections are tasks of the caller's runtime. Otherwise each of
/// `threads` threads runs its own single-threaded event loop on a clone of the listening
/// socket: the thread that accepts a connection reads, serves and writes all of its requests.
/// On a multi-threaded runtime a woken connection may be run by another worker than the one
/// that polled its socket, and idle workers are woken to steal work; on a two-core machine
/// those hand-overs and wake-ups, not the requests, made the slow tail (issue 28).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    threads: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<Serving> {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    if threads == 0 {
        serve_connections(listener, router, limits, permits, None, shutdown).await;
        return Ok(Serving::default());
    }
    let listener = listener.into_std()?;
    let port = listener.local_addr()?.port();
    let (stop, stopping) = watch::channel(false);
    let (release, released) = watch::channel(false);
    let mut served = Vec::with_capacity(threads);
    let mut finished = Vec::with_capacity(threads);
    let shares = Shares::new(threads);
    for index in 0..threads {
        let share = Share {
            shares: Arc::clone(&shares),
            thread: index,
        };
        let listener = listener.try_clone()?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let (router, limits, permits) = (router.clone(), limits.clone(), Arc::clone(&permits));
        let (mut stopping, mut released) = (stopping.clone(), released.clone());
        let (served_sender, served_receiver) = oneshot::channel();
        let (finished_sender, finished_receiver) = oneshot::channel();
        std::thread::Builder::new()
            // "serve-8080-0": Linux keeps 15 bytes of a thread's name, enough for this.
            .name(format!("serve-{port}-{index}"))
            .spawn(move || {
                runtime.block_on(async move {
                    match TcpListener::from_std(listener) {
                        Ok(listener) => {
                            // A dropped `stop` (the caller gone) stops serving as firing it does.
                            let stopped = async move {
                                let _ = stopping.wait_for(|stopped| *stopped).await;
                            };
                            serve_connections(listener, router, limits, permits, Some(share), stopped).await;
                        }
                        Err(error) => tracing::error!(%error, "a serving thread could not listen"),
                    }
                    let _ = served_sender.send(());
                    let _ = released.wait_for(|released| *released).await;
                });
                drop(runtime);
                let _ = finished_sender.send(());
            })?;
        served.push(served_receiver);
        finished.push(finished_receiver);
    }
    drop(listener);
    shutdown.await;
    stop.send_replace(true);
    for thread in served {
        let _ = thread.await;
    }
    Ok(Serving {
        release: Some(release),
        finished,
    })
}

/// Accepts and serves connections on the current runtime until `shutdown` completes, then lets
/// the requests in flight finish. With a `share`, the thread accepts only in its turn (see
/// [`Shares`]).
async fn serve_connections(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    permits: Arc<Semaphore>,
    share: Option<Share>,
    shutdown: impl Future<Output = ()>,
) {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        // The turn before the permit: a thread waiting its turn with a permit in hand could
        // leave the thread whose turn it is none.
        if let Some(share) = &share {
            tokio::select! {
                () = share.shares.my_turn(share.thread) => {}
                () = &mut shutdown => break,
            }
        }
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
            crate::metrics::rate_limit_refusal(crate::metrics::CONNECTIONS_PER_ADDRESS);
            continue;
        };
        let _ = stream.set_nodelay(true);
        if let Some(share) = &share {
            share.shares.opened(share.thread);
        }
        let held = share.clone();
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
            if let Some(share) = held {
                share.shares.closed(share.thread);
            }
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// Sends `GET /` on a keep-alive connection and reads the answer's body.
    async fn body_of_get(stream: &mut TcpStream) -> String {
        stream.write_all(b"GET / HTTP/1.1\r\nhost: test\r\n\r\n").await.unwrap();
        let mut answer = Vec::new();
        let mut buffer = [0u8; 1024];
        loop {
            let read = stream.read(&mut buffer).await.unwrap();
            assert!(read > 0, "the server closed the connection");
            answer.extend_from_slice(&buffer[..read]);
            let text = String::from_utf8_lossy(&answer).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length: usize = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length: "))
                    .expect("a content length")
                    .parse()
                    .unwrap();
                if body.len() >= length {
                    return body.to_owned();
                }
            }
        }
    }

    #[tokio::test]
    async fn connections_opened_together_are_shared_evenly_between_the_threads() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let router = Router::new().route(
            "/",
            axum::routing::get(|| async { std::thread::current().name().unwrap_or_default().to_owned() }),
        );
        let limits = ConnectionLimits {
            header_read_timeout: Duration::from_secs(10),
            max_connections: 1_000,
            per_address: AddressSlots::new(0),
            body_rate: BodyRate {
                grace: Duration::from_secs(10),
                bytes_per_second: 0,
            },
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let serving = tokio::spawn(serve(listener, router, limits, 2, async move {
            let _ = stopped.await;
        }));

        let mut streams = Vec::new();
        for _ in 0..32 {
            streams.push(TcpStream::connect(address).await.unwrap());
        }
        let mut served_by: HashMap<String, usize> = HashMap::new();
        for stream in &mut streams {
            *served_by.entry(body_of_get(stream).await).or_default() += 1;
        }
        let port = address.port();
        let expected = HashMap::from([(format!("serve-{port}-0"), 16), (format!("serve-{port}-1"), 16)]);
        assert_eq!(served_by, expected, "each thread serves half of the connections");

        drop(streams);
        stop.send(()).unwrap();
        let serving = tokio::time::timeout(Duration::from_secs(30), serving)
            .await
            .expect("serving stops once its connections closed")
            .unwrap()
            .unwrap();
        serving.end().await;
    }
}
