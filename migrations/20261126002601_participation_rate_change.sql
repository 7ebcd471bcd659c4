-- A rate change asked for by an active participation (issue 26): the active rate stays in force,
-- and the rate asked for waits here until the solution facilitator approves it (it then becomes
-- the rate) or declines it (it is dropped, the participation stays active at its rate).
-- Copied in like rate_id, without a foreign key: `truncate ... cascade` of a re-seeded catalogue
-- would otherwise empty participations too.
alter table participations
    add column requested_rate_id bigint,
    add column requested_rate_group text,
    add column requested_base_rate_cents bigint,
    add constraint participations_requested_rate_whole check (
        (requested_rate_id is null) = (requested_base_rate_cents is null)
        and (requested_rate_group is null) = (requested_base_rate_cents is null)
    );
