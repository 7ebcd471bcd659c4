-- The clinic panel's search (docs/clinic-panel-contract.md): a word must start a word of the
-- member's first or last name or be their insurance member id. A trigram index over the three
-- finds the few members whose text contains the longest word, so an organisation of 20,000
-- members is not scanned with a regular expression per name; the exact rule is then checked
-- on those alone. pg_trgm is a trusted extension of PostgreSQL's contrib.
create extension if not exists pg_trgm;

create index members_panel_search on members using gin (
    lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(member_id, '')) gin_trgm_ops
);
