-- The request that enqueued an email or a job, so its delivery's log lines can be followed back
-- to the request's own (issue 29). The server binds it; a row written by SQL in a transaction
-- that set `nearcare.request_id` (set_config(..., true)) takes it from there; rows written by
-- the CLI or by triggers outside a request have none.
alter table email_outbox
    add column request_id text default nullif(current_setting('nearcare.request_id', true), '');
alter table jobs
    add column request_id text default nullif(current_setting('nearcare.request_id', true), '');

-- Failed jobs are counted by kind at every metrics scrape; done jobs stay in the table.
create index jobs_failed on jobs (kind) where state = 'failed';
