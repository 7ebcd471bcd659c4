-- Analytics events are kept for a retention period (NEARCARE_ANALYTICS_RETENTION_DAYS); older
-- ones are counted into this table by day and name before they are deleted, so the totals stay
-- while the raw rows stop growing (issue 25).
create table analytics_daily (
    day         date not null,
    name        text not null,
    events      bigint not null,
    signed_in   bigint not null,
    primary key (day, name)
);
