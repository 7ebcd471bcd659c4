-- "A representative will contact you shortly" (/confirm-info): each request a member makes to be
-- called back, with the name and phone they gave, kept for support and emailed to the support
-- address in the same transaction (email_outbox kind 'contact_request').
create table contact_requests (
    id          bigserial primary key,
    member_id   bigint references members (id) on delete set null,
    email       text,
    first_name  text not null,
    last_name   text not null,
    -- E.164, as members.phone.
    phone       text not null,
    created_at  timestamptz not null default now()
);

create index contact_requests_created on contact_requests (created_at desc);
