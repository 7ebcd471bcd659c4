-- Generations travel through PostgreSQL: `indexer rebuild` stores every file of a generation
-- folder here, in the same transaction that publishes the generation's row, so a failed or
-- killed upload is never published. A server without the folder fetches it into its own
-- index folder, checks each file's SHA-256 and opens it. Old generations are deleted after
-- each publish (the newest few are kept).
create table index_generation_files (
    generation bigint not null,
    -- The file's path inside the generation folder, '/'-separated.
    path       text not null,
    size       bigint not null check (size >= 0),
    chunks     integer not null check (chunks >= 0),
    sha256     bytea not null check (length(sha256) = 32),
    primary key (generation, path)
);

-- The files' bytes in chunks of at most 1 MiB, numbered from 0.
create table index_generation_chunks (
    generation bigint not null,
    path       text not null,
    chunk      integer not null check (chunk >= 0),
    data       bytea not null,
    primary key (generation, path, chunk)
);
-- Index files are already compact: storing them uncompressed saves the compression's time.
alter table index_generation_chunks alter column data set storage external;
