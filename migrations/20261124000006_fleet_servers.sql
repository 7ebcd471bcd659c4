-- The generation each running server serves, refreshed every few seconds: garbage collection
-- keeps the stored files of any generation a live server still serves (a server that falls
-- behind, or restarts on an old folder, can still fetch it).
create table fleet_servers (
    server_id     text primary key,
    generation    bigint not null,
    heartbeat_at  timestamptz not null default now()
);

-- A generation's file kept in an object store (NEARCARE_GENERATION_STORE) instead of chunks:
-- the object's URL (s3://bucket/key, file:///path). Null: the bytes are in
-- index_generation_chunks.
alter table index_generation_files add column object_url text;
