-- Sessions: one row per sign-in (password, magic link, sign-up, provider accounts alike) and one
-- per switch into a family member's account (a child of the subscriber's session, ended with it).
-- The access token names its row (`sid`). Servers check sessions in memory: an ended row reaches
-- them through NOTIFY session_ended, and every second through a resync that reads the rows ended
-- by transactions its last database snapshot could not see (`end_xid`, as the catalogue's
-- `change_xid`), so a missed notification or a restart costs at most that second.
--
-- `member_id` has no foreign key: a deleted account's sessions must stay readable as ended (a
-- cascade would delete them, and no server would hear of it); the trigger below ends them.

create table sessions (
    -- Random and below 2^53 (exact in JSON and JavaScript), so ids say nothing about how many
    -- sign-ins there were and cannot be guessed.
    id              bigint primary key check (id > 0 and id < 9007199254740992),
    member_id       bigint not null,
    -- A switched session's subscriber session; null for a sign-in.
    parent_id       bigint references sessions on delete cascade,
    -- The subscriber acting in a switched session (the parent's member).
    actor_id        bigint,
    created_at      timestamptz not null,
    -- Batched from every server's memory (at most one write per session per half minute).
    last_active_at  timestamptz not null,
    -- The absolute limit; the access token's `exp`.
    expires_at      timestamptz not null,
    -- "Chrome on macOS": the user agent, shortened.
    device          text not null,
    -- The client address's network (an IPv4 /24 or an IPv6 /48), never the address.
    network         text not null,
    ended_at        timestamptz,
    end_reason      text check (end_reason in ('signed_out', 'ended_elsewhere', 'password_changed', 'idle',
                                               'account_deleted', 'family_changed', 'account_changed',
                                               'switched_back')),
    -- The transaction that ended the session: the resync cursor reads by it.
    end_xid         xid8,
    check ((ended_at is null) = (end_reason is null) and (ended_at is null) = (end_xid is null)),
    check ((parent_id is null) = (actor_id is null))
);
create index sessions_member on sessions (member_id) where ended_at is null;
create index sessions_actor on sessions (actor_id) where ended_at is null and actor_id is not null;
create index sessions_parent on sessions (parent_id) where parent_id is not null;
create index sessions_end_xid on sessions (end_xid) where end_xid is not null;
create index sessions_expires on sessions (expires_at);

-- Ends sessions when the account behind them changes underneath: deleted (its own sessions and
-- the switched sessions it acted in), a family member detached from or moved away from the
-- subscriber (that subscriber's switched sessions into it), or a login that becomes another kind
-- of account or acts for another organisation (its sessions: the tokens name the old one).
create or replace function end_sessions_of_changed_member() returns trigger language plpgsql as $$
begin
    if tg_op = 'DELETE' then
        update sessions set ended_at = now(), end_reason = 'account_deleted', end_xid = pg_current_xact_id()
         where ended_at is null and (member_id = old.id or actor_id = old.id);
    elsif old.subscriber_id is distinct from new.subscriber_id then
        update sessions set ended_at = now(), end_reason = 'family_changed', end_xid = pg_current_xact_id()
         where ended_at is null and member_id = new.id and actor_id = old.subscriber_id;
    elsif old.account_kind is distinct from new.account_kind
          or old.organisation_id is distinct from new.organisation_id then
        update sessions set ended_at = now(), end_reason = 'account_changed', end_xid = pg_current_xact_id()
         where ended_at is null and (member_id = new.id or actor_id = new.id);
    else
        return null;
    end if;
    if found then
        perform pg_notify('session_ended', '');
    end if;
    return null;
end
$$;

create trigger members_end_sessions
    after delete or update of subscriber_id, account_kind, organisation_id on members
    for each row execute function end_sessions_of_changed_member();

-- Where a link was sent: a magic, reset or verification link works only while the account's
-- login is still the address it went to (a change of email link goes to the new address, kept
-- in new_email). Null for links issued before this column.
alter table one_time_tokens add column sent_to text;
