//! A minimum rate for request bodies. A body must have arrived by
//! `start + grace + received / bytes_per_second`: the deadline moves on with every byte, so a
//! body that trickles (60 KB declared, a byte every 3 s) is cut off after the grace period
//! instead of holding its connection until the 30 s request timeout, while a slow but honest
//! upload keeps going. The reader sees a [`BodyTooSlow`] error, answered 408 with
//! `Connection: close` (see `extract` and `edge`).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The error a reader of a body gets when it arrives below the minimum rate.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the request body arrived too slowly")]
pub struct BodyTooSlow;

/// The minimum rate of request bodies.
#[derive(Debug, Clone, Copy)]
pub struct BodyRate {
    /// The time allowed before any byte counts against the rate.
    pub grace: Duration,
    /// Bytes a second, on average since the body began (0: no minimum).
    pub bytes_per_second: u64,
}

/// A body held to a [`BodyRate`].
pub struct MinimumRate<B> {
    inner: B,
    rate: BodyRate,
    started: Instant,
    received: u64,
    /// Armed the first time the body has nothing to give, so a body that arrives with its head
    /// (nearly all of them) never sets a timer.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<B> MinimumRate<B> {
    pub fn new(inner: B, rate: BodyRate) -> Self {
        Self {
            inner,
            rate,
            started: Instant::now(),
            received: 0,
            deadline: None,
        }
    }

    fn due(&self) -> Instant {
        let earned = Duration::from_secs_f64(self.received as f64 / self.rate.bytes_per_second.max(1) as f64);
        self.started + self.rate.grace + earned
    }
}

impl<B> Body for MinimumRate<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    let due = this.due();
                    if let Some(deadline) = this.deadline.as_mut() {
                        deadline.as_mut().reset(due);
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending if this.rate.bytes_per_second == 0 => Poll::Pending,
            Poll::Pending => {
                let due = this.due();
                let deadline = this
                    .deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(due)));
                match deadline.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTooSlow)))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Whether an error (a body rejection's, with its sources) is a body that came too slowly.
pub fn is_too_slow(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(current) = cause {
        if current.is::<BodyTooSlow>() {
            return true;
        }
        cause = current.source();
    }
    false
}
