//! Sessions, checked in memory. Every sign-in is a row in PostgreSQL (`store::sessions`) and
//! every access token names one; a request's session is judged here without a query:
//!
//! - **Known sessions** are kept in a map. A session this server has not seen yet is read once
//!   (a sign-in on another server, or after a restart), then kept.
//! - **Ended sessions** reach every server through `NOTIFY session_ended` and a resync every
//!   `resync` interval (one second by default) that reads the rows ended since its last
//!   database snapshot (`store::sessions::ended_since`): a missed notification, or a listener
//!   that reconnected, costs at most that interval. A server whose resync has failed for
//!   [`SessionPolicy::trust`] no longer trusts its map and reads each session from PostgreSQL.
//! - **Idle and absolute limits**: each entry knows its expiry and the newest activity this
//!   server has seen; requests only move that time forward in memory, and a background task
//!   writes the batch every `flush` interval. A session that looks idle here is read again
//!   before it is refused, since another server may have served it meanwhile.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::json;
use sqlx::postgres::PgListener;
use store::PgPool;
use store::sessions::{EndReason, Ending, SESSION_ENDED_CHANNEL, SessionRow};
use tokio::sync::Notify;

use crate::clock::Clock;
use crate::error::{ApiError, ApiResult};
use crate::error_codes as codes;
use crate::shutdown::Shutdown;

/// How long sessions last and how closely servers follow each other.
#[derive(Debug, Clone, Copy)]
pub struct SessionPolicy {
    /// Ends a session after this long without a request.
    pub idle: Duration,
    /// Ends a session this long after its sign-in, however active.
    pub absolute: Duration,
    /// How often ended sessions are read from PostgreSQL, notification or not.
    pub resync: Duration,
    /// How often the newest activity of each session is written to PostgreSQL.
    pub flush: Duration,
}

impl SessionPolicy {
    /// How long the map is trusted without a successful resync.
    pub fn trust(&self) -> Duration {
        (self.resync * 5).max(Duration::from_secs(5))
    }
}

/// The session a request's token names, once checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRef {
    /// The token's own session (a switched session's, under a switched token).
    pub id: i64,
    /// The sign-in it belongs to: `id` itself, or the subscriber's session a switch came from.
    pub sign_in: i64,
    /// When the sign-in happened, seconds since the epoch.
    pub signed_in_at: i64,
    /// The sign-in's absolute limit, seconds since the epoch.
    pub expires_at: i64,
}

/// Where a sign-in came from: what the sessions list shows (read from a request by
/// `crate::access`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInOrigin {
    /// The browser and system, from the user agent ("Firefox on Windows").
    pub device: String,
    /// The client address's network, never the address ("203.0.113.0/24").
    pub network: String,
}

/// A session as this server knows it.
#[derive(Debug)]
struct Entry {
    member_id: i64,
    created_at: i64,
    parent_id: Option<i64>,
    actor_id: Option<i64>,
    expires_at: i64,
    /// The newest request this server knows of, seconds since the epoch.
    last_active: AtomicI64,
    /// The newest time written to (or read from) PostgreSQL.
    stored_active: AtomicI64,
    /// 0 while open, else the [`EndReason`]'s index in `EndReason::ALL` plus one.
    ended: AtomicU8,
}

impl Entry {
    /// A session just started at `now` (a sign-in, or with `parent` its session and the
    /// subscriber, a switch), as stored.
    fn open(member_id: i64, parent: Option<(i64, i64)>, now: i64, expires_at: i64) -> Self {
        Self {
            member_id,
            created_at: now,
            parent_id: parent.map(|(session, _)| session),
            actor_id: parent.map(|(_, subscriber)| subscriber),
            expires_at,
            last_active: AtomicI64::new(now),
            stored_active: AtomicI64::new(now),
            ended: AtomicU8::new(0),
        }
    }

    fn from_row(row: &SessionRow) -> Self {
        let last_active = row.last_active_at.timestamp();
        let entry = Self {
            member_id: row.member_id,
            created_at: row.created_at.timestamp(),
            parent_id: row.parent_id,
            actor_id: row.actor_id,
            expires_at: row.expires_at.timestamp(),
            last_active: AtomicI64::new(last_active),
            stored_active: AtomicI64::new(last_active),
            ended: AtomicU8::new(0),
        };
        if let Some(reason) = row.ended() {
            entry.end(reason);
        }
        entry
    }

    fn ended(&self) -> Option<EndReason> {
        match self.ended.load(Ordering::Acquire) {
            0 => None,
            code => EndReason::ALL.get(usize::from(code) - 1).copied(),
        }
    }

    fn end(&self, reason: EndReason) {
        let code = EndReason::ALL
            .iter()
            .position(|known| *known == reason)
            .map_or(1, |index| index + 1);
        // The first reason stays: a later one (the trigger's, a resync's) says nothing new.
        let _ = self
            .ended
            .compare_exchange(0, code as u8, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// The sessions this server knows, and how it keeps them current.
pub struct Sessions {
    pool: PgPool,
    clock: Clock,
    policy: SessionPolicy,
    entries: RwLock<HashMap<i64, Arc<Entry>>>,
    /// Moves whenever ends are applied; a read from PostgreSQL that overlapped one reads again
    /// (it may have read a session just before it ended, after the resync looked for it).
    epoch: AtomicU64,
    /// When the last resync succeeded, as milliseconds since `started`.
    synced_millis: AtomicU64,
    started: Instant,
    /// The database snapshot the next resync reads from.
    cursor: tokio::sync::Mutex<String>,
    /// Wakes the resync (a notification arrived, or the listener reconnected).
    wake: Notify,
    /// Whether the last resync failed (to log a failure once, and the recovery).
    failing: Mutex<bool>,
}

impl Sessions {
    /// Starts knowing no session, resyncing from the database's current snapshot.
    pub async fn new(pool: PgPool, clock: Clock, policy: SessionPolicy) -> anyhow::Result<Self> {
        let cursor = store::sessions::cursor(&pool).await?;
        Ok(Self {
            pool,
            clock,
            policy,
            entries: RwLock::new(HashMap::new()),
            epoch: AtomicU64::new(0),
            synced_millis: AtomicU64::new(0),
            started: Instant::now(),
            cursor: tokio::sync::Mutex::new(cursor),
            wake: Notify::new(),
            failing: Mutex::new(false),
        })
    }

    pub fn policy(&self) -> SessionPolicy {
        self.policy
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// Opens a session for a sign-in of `member_id`.
    pub async fn start(&self, member_id: i64, origin: &SignInOrigin) -> ApiResult<SessionRef> {
        let now = self.clock.now();
        let expires_at = now + TimeDelta::from_std(self.policy.absolute).unwrap_or(TimeDelta::days(30));
        let device = clip(&origin.device, 60);
        let network = clip(&origin.network, 60);
        let id = self
            .insert_with_fresh_id(|id| store::sessions::NewSession {
                id,
                member_id,
                parent: None,
                now,
                expires_at,
                device: &device,
                network: &network,
            })
            .await?;
        self.remember(
            id,
            Entry::open(member_id, None, now.timestamp(), expires_at.timestamp()),
        );
        tracing::info!(member = member_id, session = id, "session started");
        Ok(SessionRef {
            id,
            sign_in: id,
            signed_in_at: now.timestamp(),
            expires_at: expires_at.timestamp(),
        })
    }

    /// Opens a session for `subscriber`, signed in as `sign_in`, acting in family member
    /// `member_id`'s account: it ends with the sign-in, and when the member leaves the family.
    pub async fn start_switched(&self, sign_in: SessionRef, member_id: i64, subscriber: i64) -> ApiResult<SessionRef> {
        let now = self.clock.now();
        let expires_at = DateTime::from_timestamp(sign_in.expires_at, 0).unwrap_or(now);
        let parent = store::sessions::find(&self.pool, sign_in.sign_in)
            .await?
            .ok_or_else(|| self.refusal(Refusal::Ended(EndReason::EndedElsewhere)))?;
        let id = self
            .insert_with_fresh_id(|id| store::sessions::NewSession {
                id,
                member_id,
                parent: Some((sign_in.sign_in, subscriber)),
                now,
                expires_at,
                device: &parent.device,
                network: &parent.network,
            })
            .await?;
        self.remember(
            id,
            Entry::open(
                member_id,
                Some((sign_in.sign_in, subscriber)),
                now.timestamp(),
                sign_in.expires_at,
            ),
        );
        Ok(SessionRef { id, ..sign_in })
    }

    /// Inserts a row under a random id below 2^53, drawing again on the (unlikely) clash.
    async fn insert_with_fresh_id<'a>(&self, new: impl Fn(i64) -> store::sessions::NewSession<'a>) -> ApiResult<i64> {
        for _ in 0..4 {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes)?;
            let id = (i64::from_le_bytes(bytes) & ((1 << 53) - 1)).max(1);
            match store::sessions::create(&self.pool, &new(id)).await {
                Ok(()) => return Ok(id),
                Err(store::StoreError::AlreadyExists(_)) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ApiError::Internal(anyhow::anyhow!("no free session id after 4 draws")))
    }

    fn remember(&self, id: i64, entry: Entry) {
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, Arc::new(entry));
    }

    /// Checks the session a token names for its subject (and actor, under a switched token):
    /// open, within its limits, and the token's. Counts the request as activity. 401
    /// `session_ended` (with `reason`) when it ended, 401 `unauthorized` when it is not the
    /// token's.
    pub async fn check(&self, session_id: i64, subject: i64, actor: Option<i64>) -> ApiResult<SessionRef> {
        let fresh = !self.trusted();
        let entry = self.entry(session_id, fresh).await?;
        if entry.member_id != subject || entry.actor_id != actor {
            return Err(ApiError::known(codes::INVALID_ACCESS_TOKEN));
        }
        if let Some(reason) = entry.ended() {
            return Err(self.refusal(Refusal::Ended(reason)));
        }
        let (sign_in_id, sign_in) = match entry.parent_id {
            Some(parent) => {
                // A switched session's own time only keeps its entry in the map.
                entry.last_active.fetch_max(self.clock.now_seconds(), Ordering::Relaxed);
                (parent, self.entry(parent, fresh).await?)
            }
            None => (session_id, entry),
        };
        if let Some(reason) = sign_in.ended() {
            return Err(self.refusal(Refusal::Ended(reason)));
        }
        let now = self.clock.now_seconds();
        if now >= sign_in.expires_at {
            return Err(self.refusal(Refusal::Expired));
        }
        let idle = seconds(self.policy.idle);
        if now - sign_in.last_active.load(Ordering::Relaxed) > idle {
            self.confirm_idle(sign_in_id, &sign_in, now).await?;
        }
        sign_in.last_active.fetch_max(now, Ordering::Relaxed);
        Ok(SessionRef {
            id: session_id,
            sign_in: sign_in_id,
            signed_in_at: sign_in.created_at,
            expires_at: sign_in.expires_at,
        })
    }

    /// A session that looks idle here: another server may have served it since this one read
    /// it, so PostgreSQL's time (written every `flush`, hence the slack) decides.
    async fn confirm_idle(&self, id: i64, entry: &Entry, now: i64) -> ApiResult<()> {
        let row = store::sessions::find(&self.pool, id)
            .await?
            .ok_or_else(|| self.refusal(Refusal::Ended(EndReason::EndedElsewhere)))?;
        if let Some(reason) = row.ended() {
            entry.end(reason);
            return Err(self.refusal(Refusal::Ended(reason)));
        }
        let stored = row.last_active_at.timestamp();
        let local = entry.last_active.load(Ordering::Relaxed);
        // Activity elsewhere is known only up to a flush late.
        let limit = if stored > local {
            seconds(self.policy.idle) + seconds(self.policy.flush)
        } else {
            seconds(self.policy.idle)
        };
        if now - stored.max(local) <= limit {
            entry.last_active.fetch_max(stored, Ordering::Relaxed);
            return Ok(());
        }
        self.end(Ending::One(id), EndReason::Idle).await?;
        Err(self.refusal(Refusal::Ended(EndReason::Idle)))
    }

    /// The entry for a session: from the map, or read from PostgreSQL (always, with `fresh`).
    /// A session PostgreSQL does not have is refused as an invalid token.
    async fn entry(&self, id: i64, fresh: bool) -> ApiResult<Arc<Entry>> {
        if !fresh && let Some(entry) = self.entries.read().unwrap_or_else(PoisonError::into_inner).get(&id) {
            return Ok(Arc::clone(entry));
        }
        loop {
            let epoch = self.epoch.load(Ordering::Acquire);
            let row = store::sessions::find(&self.pool, id)
                .await?
                .ok_or_else(|| ApiError::known(codes::INVALID_ACCESS_TOKEN))?;
            let entry = Arc::new(Entry::from_row(&row));
            let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
            if self.epoch.load(Ordering::Acquire) != epoch {
                continue;
            }
            if let Some(known) = entries.get(&id) {
                entry
                    .last_active
                    .fetch_max(known.last_active.load(Ordering::Relaxed), Ordering::Relaxed);
                if let Some(reason) = known.ended() {
                    entry.end(reason);
                }
            }
            entries.insert(id, Arc::clone(&entry));
            return Ok(entry);
        }
    }

    fn trusted(&self) -> bool {
        let synced = Duration::from_millis(self.synced_millis.load(Ordering::Acquire));
        self.started.elapsed().saturating_sub(synced) <= self.policy.trust()
    }

    /// Ends sessions in PostgreSQL (telling every server) and in this server's map at once.
    pub async fn end(&self, ending: Ending, reason: EndReason) -> ApiResult<Vec<i64>> {
        let mut transaction = self.pool.begin().await?;
        let ended = store::sessions::end(&mut transaction, ending, reason).await?;
        transaction.commit().await?;
        self.forget(&ended, reason);
        Ok(ended)
    }

    /// Marks sessions ended in this server's map (after a transaction that ended them commits;
    /// the notification reaches the other servers).
    pub fn forget(&self, ended: &[i64], reason: EndReason) {
        if ended.is_empty() {
            return;
        }
        let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
        for id in ended {
            if let Some(entry) = entries.get(id) {
                entry.end(reason);
            }
        }
        self.epoch.fetch_add(1, Ordering::AcqRel);
    }

    /// The newest activity this server knows for a session, seconds since the epoch.
    pub fn last_active(&self, id: i64) -> Option<i64> {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
            .map(|entry| entry.last_active.load(Ordering::Relaxed))
    }

    /// Whether a session is idle at `now` by what this server knows.
    pub fn is_idle(&self, last_active: i64, now: i64) -> bool {
        now - last_active > seconds(self.policy.idle)
    }

    /// The 401 of a refused session, with the limits in words.
    fn refusal(&self, refusal: Refusal) -> ApiError {
        let entry = match refusal {
            Refusal::Expired => {
                let limit = in_words(self.policy.absolute);
                return ApiError::filled(codes::SESSION_EXPIRED, &[("limit", &limit)])
                    .with_details(json!({ "reason": "expired" }));
            }
            Refusal::Ended(EndReason::Idle) => {
                let limit = in_words(self.policy.idle);
                return ApiError::filled(codes::SESSION_IDLE, &[("limit", &limit)])
                    .with_details(json!({ "reason": EndReason::Idle.as_str() }));
            }
            Refusal::Ended(EndReason::SignedOut) => codes::SESSION_SIGNED_OUT,
            Refusal::Ended(EndReason::EndedElsewhere) => codes::SESSION_ENDED_ELSEWHERE,
            Refusal::Ended(EndReason::PasswordChanged) => codes::SESSION_PASSWORD_CHANGED,
            Refusal::Ended(EndReason::AccountDeleted) => codes::SESSION_ACCOUNT_DELETED,
            Refusal::Ended(EndReason::FamilyChanged) => codes::SESSION_FAMILY_CHANGED,
            Refusal::Ended(EndReason::AccountChanged) => codes::SESSION_ACCOUNT_CHANGED,
            Refusal::Ended(EndReason::SwitchedBack) => codes::SESSION_SWITCHED_BACK,
        };
        let reason = match refusal {
            Refusal::Ended(reason) => reason.as_str(),
            Refusal::Expired => "expired",
        };
        ApiError::known(entry).with_details(json!({ "reason": reason }))
    }

    /// The 401 of a token past its session's absolute limit.
    pub fn expired(&self) -> ApiError {
        self.refusal(Refusal::Expired)
    }

    // ---- Keeping current -----------------------------------------------------------------------

    /// Runs until the server stops: listens for ended sessions, resyncs on each notification
    /// and every `resync` interval, writes activity every `flush` interval (and once more on
    /// the way out), and prunes old rows hourly.
    pub async fn run(self: Arc<Self>, mut shutdown: Shutdown) {
        let listening = tokio::spawn(Arc::clone(&self).listen(shutdown.clone()));
        let mut last_flush = Instant::now();
        let mut last_sweep = Instant::now();
        let mut last_prune: Option<Instant> = None;
        loop {
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(self.policy.resync) => {}
                () = shutdown.wait() => break,
            }
            self.resync().await;
            if last_flush.elapsed() >= self.policy.flush {
                last_flush = Instant::now();
                self.flush().await;
            }
            if last_sweep.elapsed() >= Duration::from_secs(60) {
                last_sweep = Instant::now();
                self.sweep();
            }
            if last_prune.is_none_or(|at| at.elapsed() >= Duration::from_secs(3600)) {
                last_prune = Some(Instant::now());
                match store::sessions::prune(&self.pool, self.clock.now(), 7).await {
                    Ok(0) => {}
                    Ok(pruned) => tracing::info!(pruned, "pruned sessions ended or expired over a week ago"),
                    Err(error) => tracing::warn!(%error, "pruning sessions failed"),
                }
            }
        }
        self.flush().await;
        let _ = listening.await;
    }

    /// Wakes the resync on every `session_ended` notification, and when the listener had to
    /// reconnect (notifications sent meanwhile are lost; the resync reads what they said).
    async fn listen(self: Arc<Self>, mut shutdown: Shutdown) {
        loop {
            tokio::select! {
                Err(error) = self.listen_once() => {
                    if !self.pool.is_closed() {
                        tracing::warn!(%error, "session listener lost its connection, retrying");
                    }
                }
                () = shutdown.wait() => return,
            }
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
                () = shutdown.wait() => return,
            }
        }
    }

    async fn listen_once(&self) -> Result<std::convert::Infallible, sqlx::Error> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(SESSION_ENDED_CHANNEL).await?;
        self.wake.notify_one();
        loop {
            // `None` (the connection dropped and was re-established) wakes the resync as well.
            let _notification = listener.try_recv().await?;
            self.wake.notify_one();
        }
    }

    /// Reads the sessions ended since the last resync and marks those this server knows.
    pub async fn resync(&self) {
        let mut cursor = self.cursor.lock().await;
        let outcome = store::sessions::ended_since(&self.pool, &cursor).await;
        let mut failing = self.failing.lock().unwrap_or_else(PoisonError::into_inner);
        match outcome {
            Ok((ended, next)) => {
                if !ended.is_empty() {
                    let entries = self.entries.read().unwrap_or_else(PoisonError::into_inner);
                    for (id, reason) in &ended {
                        if let Some(entry) = entries.get(id) {
                            entry.end(*reason);
                        }
                    }
                    self.epoch.fetch_add(1, Ordering::AcqRel);
                }
                *cursor = next;
                let millis = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
                self.synced_millis.store(millis, Ordering::Release);
                if std::mem::replace(&mut *failing, false) {
                    tracing::info!("sessions resync recovered");
                }
            }
            Err(error) => {
                if !std::mem::replace(&mut *failing, true) {
                    tracing::warn!(%error, "sessions resync failed; sessions are read from PostgreSQL until it recovers");
                }
            }
        }
    }

    /// Writes the newest activity of each session that had any since the last write.
    pub async fn flush(&self) {
        let batch: Vec<(i64, Arc<Entry>, i64)> = self
            .entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter_map(|(id, entry)| {
                let last = entry.last_active.load(Ordering::Relaxed);
                (last > entry.stored_active.load(Ordering::Relaxed)).then(|| (*id, Arc::clone(entry), last))
            })
            .collect();
        if batch.is_empty() {
            return;
        }
        let activity: Vec<(i64, DateTime<Utc>)> = batch
            .iter()
            .filter_map(|(id, _, last)| DateTime::from_timestamp(*last, 0).map(|at| (*id, at)))
            .collect();
        match store::sessions::touch(&self.pool, &activity).await {
            Ok(()) => {
                for (_, entry, last) in &batch {
                    entry.stored_active.fetch_max(*last, Ordering::Relaxed);
                }
            }
            Err(error) => {
                tracing::warn!(%error, sessions = batch.len(), "writing session activity failed; retrying at the next flush")
            }
        }
    }

    /// Forgets sessions past a limit (read again if a token still names one): the map holds
    /// what is in use.
    fn sweep(&self) {
        let now = self.clock.now_seconds();
        let idle = seconds(self.policy.idle);
        self.entries
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|_, entry| {
                let last = entry.last_active.load(Ordering::Relaxed);
                // Unwritten activity stays until it is flushed.
                let unwritten = last > entry.stored_active.load(Ordering::Relaxed);
                unwritten || (now - last <= idle && now < entry.expires_at)
            });
    }
}

/// Why a session is refused.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    Ended(EndReason),
    Expired,
}

fn seconds(duration: Duration) -> i64 {
    i64::try_from(duration.as_secs()).unwrap_or(i64::MAX)
}

/// "12 hours", "30 days", "90 minutes": a limit as the refusals say it.
pub fn in_words(limit: Duration) -> String {
    let minutes = limit.as_secs() / 60;
    let (count, unit) = if minutes >= 2 * 24 * 60 && minutes.is_multiple_of(24 * 60) {
        (minutes / (24 * 60), "day")
    } else if minutes >= 60 && minutes.is_multiple_of(60) {
        (minutes / 60, "hour")
    } else if minutes >= 1 {
        (minutes, "minute")
    } else {
        (limit.as_secs(), "second")
    };
    format!("{count} {unit}{}", if count == 1 { "" } else { "s" })
}

fn clip(text: &str, characters: usize) -> String {
    text.chars().take(characters).collect()
}

/// The browser and system a user agent names, shortened: "Chrome on macOS", "Safari on
/// iPhone"; "Unknown device" when it names neither.
pub fn device_name(user_agent: &str) -> String {
    let has = |needle: &str| user_agent.contains(needle);
    let browser = if has("Edg/") || has("EdgA/") || has("EdgiOS/") {
        Some("Edge")
    } else if has("OPR/") || has("Opera") {
        Some("Opera")
    } else if has("SamsungBrowser/") {
        Some("Samsung Internet")
    } else if has("Firefox/") || has("FxiOS/") {
        Some("Firefox")
    } else if has("CriOS/") || has("Chrome/") || has("Chromium/") {
        Some("Chrome")
    } else if has("Safari/") {
        Some("Safari")
    } else if user_agent.starts_with("curl/") {
        Some("curl")
    } else {
        None
    };
    let system = if has("iPhone") {
        Some("iPhone")
    } else if has("iPad") {
        Some("iPad")
    } else if has("Android") {
        Some("Android")
    } else if has("CrOS") {
        Some("ChromeOS")
    } else if has("Windows") {
        Some("Windows")
    } else if has("Macintosh") || has("Mac OS X") {
        Some("macOS")
    } else if has("Linux") {
        Some("Linux")
    } else {
        None
    };
    match (browser, system) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(browser), None) => browser.to_owned(),
        (None, Some(system)) => format!("A browser on {system}"),
        (None, None) => "Unknown device".to_owned(),
    }
}

/// The network of a client address, never the address: an IPv4 /24 ("203.0.113.0/24") or an
/// IPv6 /48 ("2001:db8:7::/48"); "unknown network" for a request through no connection.
pub fn network_of(client: Option<IpAddr>) -> String {
    let Some(address) = client else {
        return "unknown network".to_owned();
    };
    let address = match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    match address {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        IpAddr::V6(v6) => {
            let [a, b, c, ..] = v6.segments();
            let prefix = std::net::Ipv6Addr::new(a, b, c, 0, 0, 0, 0, 0);
            format!("{prefix}/48")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_named_by_browser_and_system() {
        for (agent, device) in [
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on macOS",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
                "Firefox on Windows",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
                "Chrome on Android",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            ("curl/8.5.0", "curl"),
            ("", "Unknown device"),
        ] {
            assert_eq!(device_name(agent), device, "{agent}");
        }
    }

    #[test]
    fn a_network_is_a_prefix_never_the_address() {
        let network = |address: &str| network_of(Some(address.parse().unwrap()));
        assert_eq!(network("203.0.113.77"), "203.0.113.0/24");
        assert_eq!(network("::ffff:198.51.100.9"), "198.51.100.0/24");
        assert_eq!(network("2001:db8:7:1:2:3:4:5"), "2001:db8:7::/48");
        assert_eq!(network_of(None), "unknown network");
    }

    #[test]
    fn limits_are_said_in_words() {
        assert_eq!(in_words(Duration::from_secs(12 * 3600)), "12 hours");
        assert_eq!(in_words(Duration::from_secs(30 * 86_400)), "30 days");
        assert_eq!(in_words(Duration::from_secs(3600)), "1 hour");
        assert_eq!(in_words(Duration::from_secs(90 * 60)), "90 minutes");
        assert_eq!(in_words(Duration::from_secs(86_400)), "24 hours");
    }
}
