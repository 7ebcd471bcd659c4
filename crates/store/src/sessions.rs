//! Sessions: a row per sign-in and per switch into a family member's account, ended by signing
//! out, from another device, by a password change, after the idle limit, or by the account
//! changing underneath (the `members_end_sessions` trigger). Every statement that ends sessions
//! also sends `NOTIFY session_ended` (delivered at commit), and stamps the ending transaction in
//! `end_xid`, which [`ended_since`] reads by.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

use crate::{Result, convert_sqlx_err};

/// The channel every server LISTENs on for ended sessions.
pub const SESSION_ENDED_CHANNEL: &str = "session_ended";

/// Why a session ended: the values of `sessions.end_reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The person signed out (POST logout).
    SignedOut,
    /// Ended from another of the account's sessions (the sessions list).
    EndedElsewhere,
    /// The password was changed or reset.
    PasswordChanged,
    /// No request within the idle limit.
    Idle,
    /// The account was deleted.
    AccountDeleted,
    /// The family member of a switched session left the subscriber's family.
    FamilyChanged,
    /// The login became another kind of account, or acts for another organisation.
    AccountChanged,
    /// The subscriber switched back from a family member's account.
    SwitchedBack,
}

impl EndReason {
    pub const ALL: [Self; 8] = [
        Self::SignedOut,
        Self::EndedElsewhere,
        Self::PasswordChanged,
        Self::Idle,
        Self::AccountDeleted,
        Self::FamilyChanged,
        Self::AccountChanged,
        Self::SwitchedBack,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignedOut => "signed_out",
            Self::EndedElsewhere => "ended_elsewhere",
            Self::PasswordChanged => "password_changed",
            Self::Idle => "idle",
            Self::AccountDeleted => "account_deleted",
            Self::FamilyChanged => "family_changed",
            Self::AccountChanged => "account_changed",
            Self::SwitchedBack => "switched_back",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == text)
    }
}

/// A session as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    pub id: i64,
    pub member_id: i64,
    pub parent_id: Option<i64>,
    pub actor_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub last_active_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub device: String,
    pub network: String,
    pub ended_at: Option<DateTime<Utc>>,
    pub end_reason: Option<String>,
}

impl SessionRow {
    /// Why it ended; `None` while it is open.
    pub fn ended(&self) -> Option<EndReason> {
        // A reason this build does not know still ends the session.
        self.end_reason
            .as_deref()
            .map(|reason| EndReason::parse(reason).unwrap_or(EndReason::EndedElsewhere))
    }
}

const COLUMNS: &str =
    "id, member_id, parent_id, actor_id, created_at, last_active_at, expires_at, device, network, ended_at, end_reason";

/// What a new session records.
#[derive(Debug, Clone)]
pub struct NewSession<'a> {
    pub id: i64,
    pub member_id: i64,
    /// For a switched session: the subscriber's session and the subscriber.
    pub parent: Option<(i64, i64)>,
    pub now: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub device: &'a str,
    pub network: &'a str,
}

/// Stores a new session; an id already taken is [`crate::StoreError::AlreadyExists`] (the caller draws
/// another).
pub async fn create(pool: &PgPool, new: &NewSession<'_>) -> Result<()> {
    sqlx::query(
        "insert into sessions (id, member_id, parent_id, actor_id, created_at, last_active_at, expires_at, device, network)
         values ($1, $2, $3, $4, $5, $5, $6, $7, $8)",
    )
    .bind(new.id)
    .bind(new.member_id)
    .bind(new.parent.map(|(parent, _)| parent))
    .bind(new.parent.map(|(_, actor)| actor))
    .bind(new.now)
    .bind(new.expires_at)
    .bind(new.device)
    .bind(new.network)
    .execute(pool)
    .await
    .map_err(convert_sqlx_err)?;
    Ok(())
}

/// A session by id, ended or not.
pub async fn find(pool: &PgPool, id: i64) -> Result<Option<SessionRow>> {
    let statement = format!("select {COLUMNS} from sessions where id = $1");
    Ok(sqlx::query_as::<_, SessionRow>(sqlx::AssertSqlSafe(statement))
        .bind(id)
        .fetch_optional(pool)
        .await?)
}

/// The open sign-in sessions of a member (switched sessions are part of their subscriber's
/// session and not listed), unexpired at `now`, most recently active first.
pub async fn open_of_member(pool: &PgPool, member_id: i64, now: DateTime<Utc>) -> Result<Vec<SessionRow>> {
    let statement = format!(
        "select {COLUMNS} from sessions
          where member_id = $1 and parent_id is null and ended_at is null and expires_at > $2
          order by last_active_at desc, id"
    );
    Ok(sqlx::query_as::<_, SessionRow>(sqlx::AssertSqlSafe(statement))
        .bind(member_id)
        .bind(now)
        .fetch_all(pool)
        .await?)
}

/// Which sessions an end statement ends.
#[derive(Debug, Clone, Copy)]
pub enum Ending {
    /// One session and the sessions switched from it.
    One(i64),
    /// One of `member`'s sign-in sessions (and its switched ones); nothing when the session is
    /// not theirs, not a sign-in, or already ended.
    OneOf { member: i64, session: i64 },
    /// Every sign-in session of a member, and the sessions switched from them, except one
    /// sign-in session (the caller's).
    AllOf { member: i64, except: Option<i64> },
}

/// Ends sessions, on the caller's transaction (or the pool); answers the ids ended. Sends
/// `NOTIFY session_ended` when any ended.
pub async fn end(connection: &mut PgConnection, ending: Ending, reason: EndReason) -> Result<Vec<i64>> {
    const SET: &str = "update sessions set ended_at = now(), end_reason = $1, end_xid = pg_current_xact_id()";
    let query = match ending {
        Ending::One(id) => sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "{SET} where ended_at is null and (id = $2 or parent_id = $2) returning id"
        )))
        .bind(reason.as_str())
        .bind(id),
        Ending::OneOf { member, session } => sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "{SET} where ended_at is null
                     and (id = $2 or parent_id = $2)
                     and exists (select 1 from sessions own
                                  where own.id = $2 and own.member_id = $3 and own.parent_id is null)
               returning id"
        )))
        .bind(reason.as_str())
        .bind(session)
        .bind(member),
        Ending::AllOf { member, except } => sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "{SET} where ended_at is null
                     and ((member_id = $2 and parent_id is null) or actor_id = $2)
                     and coalesce(parent_id, id) is distinct from $3
               returning id"
        )))
        .bind(reason.as_str())
        .bind(member)
        .bind(except),
    };
    let ended: Vec<i64> = query.fetch_all(&mut *connection).await?;
    if !ended.is_empty() {
        sqlx::query("select pg_notify($1, '')")
            .bind(SESSION_ENDED_CHANNEL)
            .execute(&mut *connection)
            .await?;
    }
    Ok(ended)
}

/// The database snapshot to resync from: sessions ended by transactions it cannot see are read
/// by the next [`ended_since`].
pub async fn cursor(pool: &PgPool) -> Result<String> {
    Ok(sqlx::query_scalar("select pg_current_snapshot()::text")
        .fetch_one(pool)
        .await?)
}

/// Sessions ended by transactions the snapshot `cursor` could not see (committed after it was
/// taken, or running then), with why; and the cursor for the next call. The `end_xid` index
/// bounds the read by the cursor's oldest running transaction, so it costs what ended since.
pub async fn ended_since(pool: &PgPool, cursor: &str) -> Result<(Vec<(i64, EndReason)>, String)> {
    let mut transaction = pool.begin().await?;
    sqlx::query("set transaction isolation level repeatable read, read only")
        .execute(&mut *transaction)
        .await?;
    let next: String = sqlx::query_scalar("select pg_current_snapshot()::text")
        .fetch_one(&mut *transaction)
        .await?;
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "select id, end_reason from sessions
          where end_xid >= pg_snapshot_xmin($1::pg_snapshot) and not pg_visible_in_snapshot(end_xid, $1::pg_snapshot)",
    )
    .bind(cursor)
    .fetch_all(&mut *transaction)
    .await?;
    transaction.commit().await?;
    let ended = rows
        .into_iter()
        .map(|(id, reason)| (id, EndReason::parse(&reason).unwrap_or(EndReason::EndedElsewhere)))
        .collect();
    Ok((ended, next))
}

/// Records when sessions were last used, in one statement for a batch; a time older than the
/// stored one (another server's newer batch) is kept out.
pub async fn touch(pool: &PgPool, activity: &[(i64, DateTime<Utc>)]) -> Result<()> {
    if activity.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = activity.iter().map(|(id, _)| *id).collect();
    let times: Vec<DateTime<Utc>> = activity.iter().map(|(_, at)| *at).collect();
    sqlx::query(
        "update sessions s set last_active_at = greatest(s.last_active_at, batch.at)
           from unnest($1::bigint[], $2::timestamptz[]) as batch(id, at)
          where s.id = batch.id",
    )
    .bind(&ids)
    .bind(&times)
    .execute(pool)
    .await?;
    Ok(())
}

/// Deletes sessions expired or ended more than `keep_days` days before `now` (the resync reads
/// only recent ends; a server that missed them for that long trusts none of its cache).
pub async fn prune(pool: &PgPool, now: DateTime<Utc>, keep_days: i32) -> Result<u64> {
    let done = sqlx::query(
        "delete from sessions
          where expires_at < $1 - make_interval(days => $2)
             or ended_at < $1 - make_interval(days => $2)",
    )
    .bind(now)
    .bind(keep_days)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}
