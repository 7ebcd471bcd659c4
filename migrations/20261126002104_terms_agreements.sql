-- Each agreement to the Terms of Use: which version (a digest of the text shown, see
-- legal/README.md) and when. Kept as rows, not a column, so a later agreement to a new version
-- adds to the history instead of overwriting it.
create table terms_agreements (
    id bigserial primary key,
    member_id bigint not null references members (id) on delete cascade,
    version text not null check (version ~ '^[0-9a-f]{16}$'),
    agreed_at timestamptz not null default now()
);
create index terms_agreements_member on terms_agreements (member_id, agreed_at desc);
