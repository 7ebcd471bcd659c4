//! A real SMTP server for the email tests: `scripts/smtp-sink.py` (aiosmtpd) on a free loopback
//! port, writing each message it accepts to a folder as `.eml` and decoded `.json`.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub struct SmtpSink {
    pub port: u16,
    pub dir: PathBuf,
    reject: Vec<String>,
    defer: Vec<String>,
    defer_times: u32,
    /// How long each message takes to be accepted (a slow relay).
    delay: Duration,
    child: Option<Child>,
}

/// The python of the venv `scripts/smtp-venv.sh` made (scripts/test.sh exports it).
fn python() -> String {
    std::env::var("NEARCARE_SMTP_PYTHON").unwrap_or_else(|_| {
        panic!(
            "NEARCARE_SMTP_PYTHON is not set: the email tests need the real SMTP server aiosmtpd. Run \
             `export NEARCARE_SMTP_PYTHON=$(scripts/smtp-venv.sh)` (scripts/test.sh does it) and test again."
        )
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

impl SmtpSink {
    /// Starts a sink answering 550 for the recipients in `reject`.
    pub async fn start(reject: &[&str]) -> Self {
        Self::start_with(reject, &[], 0).await
    }

    /// A sink that takes `delay` to accept each message.
    pub async fn start_slow(delay: Duration) -> Self {
        Self::start_configured(&[], &[], 0, delay).await
    }

    /// The same, also answering 451 (try again later) the first `defer_times` times a
    /// recipient in `defer` is given.
    pub async fn start_with(reject: &[&str], defer: &[&str], defer_times: u32) -> Self {
        Self::start_configured(reject, defer, defer_times, Duration::ZERO).await
    }

    async fn start_configured(reject: &[&str], defer: &[&str], defer_times: u32, delay: Duration) -> Self {
        let dir = std::env::temp_dir().join(format!("nearcare-smtp-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&dir).expect("a sink folder");
        let mut sink = Self {
            port: free_port(),
            dir,
            reject: reject.iter().map(|address| (*address).to_owned()).collect(),
            defer: defer.iter().map(|address| (*address).to_owned()).collect(),
            defer_times,
            delay,
            child: None,
        };
        sink.resume().await;
        sink
    }

    /// `smtp://127.0.0.1:PORT`, for NEARCARE_SMTP_URL.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Stops the server: connections to its port are refused until `resume`.
    pub async fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.start_kill();
            let _ = child.wait().await;
        }
    }

    /// Starts the server (again) on the same port and folder.
    pub async fn resume(&mut self) {
        let script = testkit::workspace_root().join("scripts/smtp-sink.py");
        let mut child = Command::new(python())
            .arg(script)
            .args(["--port", &self.port.to_string(), "--dir"])
            .arg(&self.dir)
            .args(["--reject", &self.reject.join(",")])
            .args([
                "--defer",
                &self.defer.join(","),
                "--defer-times",
                &self.defer_times.to_string(),
                "--delay-ms",
                &self.delay.as_millis().to_string(),
            ])
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the SMTP sink starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .expect("the SMTP sink says it listens within 20 s")
            .expect("reading the sink's output");
        assert!(
            line.as_deref().is_some_and(|line| line.starts_with("listening")),
            "the SMTP sink did not start: {line:?}"
        );
        self.child = Some(child);
    }

    /// Every message received, oldest first (decoded by the sink: subject, text, html,
    /// message_id, rcpt_tos).
    pub fn messages(&self) -> Vec<Value> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                    .filter(|path| {
                        path.extension().is_some_and(|extension| extension == "json")
                            && !path
                                .file_name()
                                .is_some_and(|name| name.to_string_lossy().starts_with('.'))
                    })
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
            .iter()
            .map(|path| serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("json"))
            .collect()
    }

    /// The messages to `address`, oldest first.
    pub fn messages_to(&self, address: &str) -> Vec<Value> {
        self.messages()
            .into_iter()
            .filter(|message| {
                message["rcpt_tos"]
                    .as_array()
                    .is_some_and(|to| to.iter().any(|to| to.as_str() == Some(address)))
            })
            .collect()
    }

    /// Waits up to `timeout` until `count` messages went to `address`; returns the newest.
    pub async fn wait_for(&self, address: &str, count: usize, timeout: Duration) -> Value {
        let started = Instant::now();
        loop {
            let messages = self.messages_to(address);
            if messages.len() >= count {
                return messages[count - 1].clone();
            }
            assert!(
                started.elapsed() < timeout,
                "{count} message(s) to {address} expected within {timeout:?}; received {}",
                messages.len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until `count` messages in all were received.
    pub async fn wait_for_total(&self, count: usize, timeout: Duration) -> Vec<Value> {
        let started = Instant::now();
        loop {
            let messages = self.messages();
            if messages.len() >= count || started.elapsed() > timeout {
                return messages;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.start_kill();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The first http(s) address in a text part.
pub fn link_in(text: &str) -> String {
    text.split_whitespace()
        .find(|word| word.starts_with("http://") || word.starts_with("https://"))
        .unwrap_or_else(|| panic!("no link in {text:?}"))
        .to_owned()
}

/// The token of a one-time link (`token=` or `magicLink=`).
pub fn token_in(link: &str) -> String {
    link.split_once('?')
        .expect("a link with a query")
        .1
        .split('&')
        .find_map(|pair| pair.strip_prefix("token=").or_else(|| pair.strip_prefix("magicLink=")))
        .expect("a token in the link")
        .to_owned()
}

/// Asserts a message has both parts, the link absolute under `base` in both, and returns it.
pub fn checked_link(message: &Value, base: &str) -> String {
    assert_eq!(message["content_type"], "multipart/alternative", "{message}");
    let text = message["text"].as_str().expect("a text/plain part");
    let html = message["html"].as_str().expect("a text/html part");
    let link = link_in(text);
    assert!(link.starts_with(&format!("{base}/")), "{link} is under {base}");
    assert!(
        html.contains(&format!("href=\"{}\"", link.replace('&', "&amp;"))),
        "the HTML part links {link}: {html}"
    );
    assert!(
        message["message_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("<outbox-") && id.ends_with("@nearcare.example>")),
        "{message}"
    );
    link
}
