-- The claim that holds a message (issue 25): a live sender renews the lease of its own claim
-- while it works, so the lease can be short and a crashed sender's messages are taken again
-- within seconds instead of minutes.
alter table email_outbox add column lease_holder text;
create index email_outbox_held on email_outbox (lease_holder) where locked_until is not null;
