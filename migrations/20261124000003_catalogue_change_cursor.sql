-- Catching up with the catalogue reads what changed since a snapshot of the database, not since
-- a time. Each location and clinician row records the transaction that last wrote it
-- (`change_xid`); a search snapshot keeps the PostgreSQL snapshot it was read under
-- (`pg_current_snapshot()`, as text), and the next catch-up reads exactly the rows whose writer
-- that snapshot could not see. Ties on a clock, rows committed out of the order they were
-- stamped in, and a seeded catalogue stamped with one time no longer matter: a catch-up costs
-- what changed, not what exists.

create or replace function stamp_change_xid() returns trigger language plpgsql as $$
begin
    new.change_xid := pg_current_xact_id();
    return new;
end
$$;

alter table locations add column change_xid xid8 not null default pg_current_xact_id();
alter table clinicians add column change_xid xid8 not null default pg_current_xact_id();
create index locations_change_xid on locations (change_xid);
create index clinicians_change_xid on clinicians (change_xid);
create trigger locations_stamp_change before update on locations for each row execute function stamp_change_xid();
create trigger clinicians_stamp_change before update on clinicians for each row execute function stamp_change_xid();

-- The database snapshot a published generation was read under ('' for generations built before).
alter table index_generations add column catalogue_cursor text not null default '';
