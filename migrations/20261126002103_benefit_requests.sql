-- Requests to have an employer offer the benefit: "We will email you when {employer} offers the
-- benefit" (Notify Me) and "A representative will contact the company" (Notify Me, and a member
-- refused enrolment because their employer does not participate). Each new request is emailed to
-- the operator's sales address in the same transaction (email_outbox kind 'sales_lead'); when an
-- operator makes the employer active (`indexer employers set-status ID active`), each consenting
-- address still waiting is emailed once (kind 'benefit_offered') and notified_at is set.
create table benefit_requests (
    id            bigserial primary key,
    -- Null for a company the catalogue does not know: company_name is what was typed, and a
    -- request is matched to an employer of that name (case-insensitive) when it becomes active.
    employer_id   bigint references employers (id) on delete set null,
    company_name  text not null,
    email         text not null check (email = lower(email)),
    member_id     bigint references members (id) on delete set null,
    -- The person agreed to be emailed about it (Notify Me's consent box).
    consent       boolean not null,
    source        text not null check (source in ('notify_me', 'enrolment')),
    created_at    timestamptz not null default now(),
    notified_at   timestamptz
);

-- Asking again for the same company from the same place is the same request: sales hears once.
create unique index benefit_requests_once on benefit_requests (source, lower(company_name), email);
create index benefit_requests_waiting on benefit_requests (employer_id) where notified_at is null and consent;
create index benefit_requests_created on benefit_requests (created_at desc);
