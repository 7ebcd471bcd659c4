//! The server's stop signal for background tasks (the snapshot listener, and any task that
//! polls the database): they finish when it fires, and the server awaits them before it closes
//! the pool, so none of them works against a closed pool.

use tokio::sync::watch;

/// Fires the signal (held by the application).
#[derive(Debug)]
pub struct Trigger(watch::Sender<bool>);

/// Waits for the signal; cheap to clone, one per task (also in `AppState::shutdown`).
#[derive(Debug, Clone)]
pub struct Shutdown(watch::Receiver<bool>);

/// A new signal, not fired.
pub fn channel() -> (Trigger, Shutdown) {
    let (sender, receiver) = watch::channel(false);
    (Trigger(sender), Shutdown(receiver))
}

impl Trigger {
    pub fn fire(&self) {
        self.0.send_replace(true);
    }
}

impl Shutdown {
    /// Completes once the signal has fired (at once if it already has, or if the trigger is gone).
    pub async fn wait(&mut self) {
        let _ = self.0.wait_for(|stopped| *stopped).await;
    }

    /// The signal as a plain watch receiver (true once fired), for tasks that select on it.
    pub fn receiver(&self) -> watch::Receiver<bool> {
        self.0.clone()
    }

    pub fn is_fired(&self) -> bool {
        *self.0.borrow()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiting_ends_when_the_signal_fires() {
        let (trigger, mut shutdown) = channel();
        assert!(!shutdown.is_fired());
        let waiting = tokio::spawn(async move { shutdown.wait().await });
        trigger.fire();
        tokio::time::timeout(std::time::Duration::from_secs(1), waiting)
            .await
            .expect("the wait ends")
            .unwrap();
    }
}
