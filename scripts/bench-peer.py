#!/usr/bin/python3
"""Peer benchmark: the same query classes against PostGIS (bare SQL, one connection) and against
Nearcare's HTTP API (one keep-alive client), interleaved, over the same origins; prints p50/p95
per class for both, the ratio, and checks that the answers are the same.

Run by scripts/bench-peer.sh (`make bench-peer`), which provides the seeded cluster, the release
server and PostGIS. Usage: bench-peer.py DATABASE_URL BASE_URL
Environment: ORIGINS (200), ROUNDS (3), SEED (20261124), PEER_REBUILD=1 (recopy the table),
CLASSES (all; "pins zoom 14|area pins" runs the classes whose names contain a part).

What "the same" means, class by class:
  search      the page's physical clinics, location ids in order (ties: locations at the very same
              position may come in either order; such swaps are counted as ties, not mismatches)
  pins        overLimit alike, and the same set of location ids when not over the limit
  area pins   the same cells (x, y at the answer's level) with the same counts and new-patient
              counts
Text: Nearcare matches every word as a whole word with one typo allowed from 4 characters, the
last word also as a prefix; a tsquery `word:*` matches only the prefix. The benchmark therefore
queries words for which both must agree: words of the indexed vocabulary whose one-edit
neighbours in that vocabulary all start with the word itself (so the typo adds nothing the prefix
does not already match). Every class must agree; any mismatch makes the run exit non-zero.
"""

import json
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse

import psycopg2

from wrk_stats import corrected_as_wrk

EARTH_RADIUS_MILES = 3958.7613  # crates/domain/src/geo.rs; PostGIS's sphere is 6,371,008.77 m
METRES_PER_MILE = 1609.344
MAX_MERCATOR_LAT = 85.05112878
MORTON_LEVELS = 24
LIMIT = 6
# 30 miles is slider position 5, 100 miles position 0 (crates/domain/src/filters.rs).
SLIDER = {30: 5, 100: 0}
VIEWPORT = (1280, 800)  # pixels, 256-pixel tiles
MAX_PINS = 2000

SETUP = """
create extension if not exists postgis;
drop schema if exists peer cascade;
create schema peer;
-- Physical locations only (virtual ones are never on a map and come after every physical match).
-- The texts are those of the search index (crates/search/src/rows.rs, location_text): clinic,
-- location and organisation names and the names of the clinicians there, split like tantivy's
-- SimpleTokenizer (runs of letters and digits), lower-cased, words of 40 bytes or more dropped.
create table peer.locations as
with people as (
    select cl.location_id, string_agg(c.first_name || ' ' || c.last_name, ' ') as names
    from clinician_locations cl join clinicians c on c.id = cl.clinician_id
    group by cl.location_id
)
select l.id, l.lat, l.lng, l.accepting_new_patients as new_patients,
       -- The languages spoken there, as the language filter reads them: the location's own and
       -- its clinicians' (docs/listings-contract.md).
       array(select unnest(l.languages)
             union select unnest(c.languages) from clinician_locations cl join clinicians c on c.id = cl.clinician_id
                   where cl.location_id = l.id) as languages,
       st_setsrid(st_makepoint(l.lng, l.lat), 4326)::geography as geog,
       st_setsrid(st_makepoint(l.lng, l.lat), 4326) as geom,
       array_to_tsvector(array(
           select distinct w
           from regexp_split_to_table(lower(concat_ws(' ', l.name, l.location_name, o.name, p.names)),
                                      '[^[:alnum:]]+') as w
           where w <> '' and octet_length(w) < 40)) as tsv,
       -- The level-24 Web Mercator cell, as Nearcare's Morton codes hold it (spatial.rs).
       least(floor(greatest(least((l.lng + 180) / 360, 1), 0) * 16777216), 16777215)::bigint as cx,
       least(floor(greatest(least((1 - ln(tan(radians(greatest(least(l.lat, 85.05112878), -85.05112878)))
                                            + 1 / cos(radians(greatest(least(l.lat, 85.05112878), -85.05112878))))
                                      / pi()) / 2, 1), 0) * 16777216), 16777215)::bigint as cy
from locations l
join organisations o on o.id = l.organisation_id
left join people p on p.location_id = l.id
where not l.is_virtual;
alter table peer.locations add primary key (id);
create index on peer.locations using gist (geog);
create index on peer.locations using gist (geom);
create index on peer.locations using gin (tsv);
create index on peer.locations using gin (languages);
analyze peer.locations;
create table peer.words as select word, ndoc from ts_stat('select tsv from peer.locations');
create table peer.meta as select (select count(*) from locations) as source_locations;
"""

SEARCH_SQL = """
select id, lat, lng, count(*) over () from (
    select id, lat, lng, st_distance(geog, %(origin)s::geography, false) as d
    from peer.locations
    where st_dwithin(geog, %(origin)s::geography, %(metres)s, false) {where}
) m
order by d, id limit %(limit)s offset %(offset)s
"""

# `geom && box` compares float32 boxes rounded outwards, so on its own it admits points a hair
# outside the box; the exact comparison on the double columns decides (edges included, as
# Nearcare's MapBox::contains).
BOX = "geom && st_makeenvelope(%(w)s, %(s)s, %(e)s, %(n)s, 4326) and lat between %(s)s and %(n)s and lng between %(w)s and %(e)s"
PINS_SQL = f"select id from peer.locations where {BOX} limit {MAX_PINS + 1}"
# The page alone, nearest first through the GiST index's distance ordering, without the total
# that the answer also holds (Nearcare's totalResults): what a PostGIS page costs at best. Only a
# bare `order by geog <-> origin` is walked in the index (adding `, id` makes PostgreSQL read and
# sort the whole circle), so locations at one position come in any order: counted as ties.
KNN_SQL = """
select id, lat, lng from peer.locations
where st_dwithin(geog, %(origin)s::geography, %(metres)s, false) {where}
order by geog <-> %(origin)s::geography limit %(limit)s offset %(offset)s
"""
AREA_SQL = f"""
select cx >> %(shift)s, cy >> %(shift)s, count(*), count(*) filter (where new_patients)
from peer.locations where {BOX} group by 1, 2
"""


def mercator(lat, lng):
    x = (lng + 180.0) / 360.0
    lat = math.radians(max(-MAX_MERCATOR_LAT, min(MAX_MERCATOR_LAT, lat)))
    y = (1.0 - math.log(math.tan(lat) + 1.0 / math.cos(lat)) / math.pi) / 2.0
    return min(max(x, 0.0), 1.0), min(max(y, 0.0), 1.0)


def inverse_mercator_lat(y):
    return math.degrees(math.atan(math.sinh(math.pi * (1.0 - 2.0 * y))))


def viewport(lat, lng, zoom):
    """A 1280x800-pixel map viewport centred on the origin: (west, south, east, north)."""
    x, y = mercator(lat, lng)
    world = 256.0 * 2**zoom
    half_w, half_h = VIEWPORT[0] / 2 / world, VIEWPORT[1] / 2 / world
    west, east = (x - half_w) * 360 - 180, (x + half_w) * 360 - 180
    north, south = inverse_mercator_lat(max(y - half_h, 0.0)), inverse_mercator_lat(min(y + half_h, 1.0))
    return max(west, -180.0), south, min(east, 180.0), north


def area_level(box, zoom):
    """The cell level of an area-pins answer (crates/search/src/pins.rs)."""
    west, south, east, north = box
    x0, y0 = mercator(north, west)
    x1, y1 = mercator(south, east)
    area = max(x1 - x0, 1e-9) * max(y1 - y0, 1e-9)
    level = min(zoom + 2, MORTON_LEVELS)
    while level > 0 and area * 4.0**level > 4096.0:
        level -= 1
    return level


def one_edit(word, alphabet):
    """Every string one edit (insert, delete, substitute, swap neighbours) away from `word`."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = set()
    for a, b in splits:
        if b:
            out.add(a + b[1:])
            for c in alphabet:
                out.add(a + c + b[1:])
        if len(b) > 1:
            out.add(a + b[1] + b[0] + b[2:])
        for c in alphabet:
            out.add(a + c + b)
    out.discard(word)
    return out


def agreeing_words(vocabulary, count):
    """The most frequent words for which Nearcare (typo-tolerant, prefix) and `word:*` agree."""
    words = set(vocabulary)
    alphabet = sorted({c for w in words for c in w})
    chosen = []
    for word, _ in sorted(vocabulary.items(), key=lambda item: (-item[1], item[0])):
        if not (4 <= len(word) <= 12 and word.isascii() and word.isalpha()):
            continue
        if all(t.startswith(word) for t in one_edit(word, alphabet) if t in words):
            chosen.append(word)
            if len(chosen) == count:
                break
    return chosen


def compare_search(nearcare, postgis):
    """Returns 'same', 'tie' or 'mismatch' for two pages of (id, lat, lng)."""
    if [r[0] for r in nearcare] == [r[0] for r in postgis]:
        return "same"
    positions = lambda rows: [(round(r[1], 9), round(r[2], 9)) for r in rows]  # noqa: E731
    if positions(nearcare) != positions(postgis):
        return "mismatch"
    # Same positions in the same order: the ids differ only among locations at one position.
    groups = {}
    for (ident, *_), position in zip(nearcare, positions(nearcare)):
        groups.setdefault(position, [set(), set()])[0].add(ident)
    for (ident, *_), position in zip(postgis, positions(postgis)):
        groups[position][1].add(ident)
    last = positions(nearcare)[-1]
    for position, (ours, theirs) in groups.items():
        # The page may cut a group of locations at one position anywhere.
        if ours != theirs and position != last:
            return "mismatch"
    return "tie"


def compare_sets(nearcare, postgis):
    return "same" if nearcare == postgis else "mismatch"


class Nearcare:
    """One keep-alive HTTP/1.1 connection, read as lean as psycopg2 reads PostgreSQL's protocol
    (libpq, in C): the request's bytes are written once, and the answer is read up to its
    Content-Length into one buffer kept for the connection's life, as libpq keeps its input
    buffer. http.client parses headers in Python, which cost 0.04-0.07 ms a request here, and
    `socket.recv(n)` allocates n bytes each call, which cost 0.027 ms a 22 KB search answer at 1M
    against `recv_into` the kept buffer: the client's time, not either engine's."""

    def __init__(self, base, buffer_size=1 << 20):
        parsed = urllib.parse.urlparse(base)
        self.host = parsed.hostname
        self.socket = socket.create_connection((parsed.hostname, parsed.port))
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = bytearray(buffer_size)
        self.view = memoryview(self.buffer)
        # Bytes at the buffer's start already read, of answers not yet asked for.
        self.filled = 0

    def request(self, method, path, body=None):
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        payload = b""
        if body is not None:
            payload = body.encode()
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        message = head.encode() + b"\r\n" + payload
        started = time.perf_counter()
        self.socket.sendall(message)
        filled = self.filled
        while (header_end := self.buffer.find(b"\r\n\r\n", 0, filled)) < 0:
            filled = self.receive(filled)
        length = CONTENT_LENGTH.search(self.buffer, 0, header_end)
        if length is None:
            raise SystemExit(f"{method} {path} answered without a Content-Length: {bytes(self.buffer[:header_end])!r}")
        answer_end = header_end + 4 + int(length.group(1))
        while filled < answer_end:
            filled = self.receive(filled)
        elapsed = time.perf_counter() - started
        status = int(bytes(self.buffer[:header_end]).split(b" ", 2)[1])
        data = bytes(self.buffer[header_end + 4 : answer_end])
        self.buffer[: filled - answer_end] = self.buffer[answer_end:filled]
        self.filled = filled - answer_end
        if status != 200:
            raise SystemExit(f"{method} {path} answered {status}: {data[:300]!r}")
        return elapsed, json.loads(data)

    def receive(self, filled):
        """Reads more after the first `filled` bytes; returns how many the buffer now holds."""
        if filled == len(self.buffer):
            self.view.release()
            self.buffer.extend(bytes(len(self.buffer)))
            self.view = memoryview(self.buffer)
        count = self.socket.recv_into(self.view[filled:])
        if not count:
            raise SystemExit("the server closed the connection")
        return filled + count


CONTENT_LENGTH = re.compile(rb"(?im)^content-length:\s*(\d+)\s*$")


def self_test():
    """The comparison logic, on hand-made answers (`bench-peer.py --self-test`)."""
    vocabulary = {"care": 9, "card": 1, "cares": 5, "family": 7, "familz": 1, "health": 8, "ab": 3}
    # "care" has "card" one edit away (no prefix of it): Nearcare's typo would find more.
    assert agreeing_words(vocabulary, 5) == ["health"], agreeing_words(vocabulary, 5)
    a, b, c = (1, 40.0, -105.0), (2, 40.0, -105.0), (3, 40.1, -105.0)
    assert compare_search([a, b, c], [a, b, c]) == "same"
    assert compare_search([b, a, c], [a, b, c]) == "tie"  # same position, either order
    assert compare_search([a, c], [b, c]) == "mismatch"  # a different location at that place
    assert compare_search([c, a], [c, b]) == "tie"  # the page cuts a group at one position
    assert compare_search([a, c], [c, a]) == "mismatch"
    assert compare_sets(frozenset({1, 2}), frozenset({2, 1})) == "same"
    assert compare_sets("overLimit", frozenset({1})) == "mismatch"
    assert area_level(viewport(39.74, -104.99, 8), 8) == 10
    west, south, east, north = viewport(39.74, -104.99, 12)
    assert west < -104.99 < east and south < 39.74 < north
    # One connection, 10 requests over 1,000 µs (a mean interval of 100 µs): the 450 µs one
    # stands for three more (350, 250, 150), as wrk counts them; the others for none.
    assert sorted(corrected_as_wrk([50] * 9 + [450], 1_000, 1)) == [50] * 9 + [150, 250, 350, 450]
    assert corrected_as_wrk([50, 60], 1_000, 4) == [50, 60]  # fewer requests than connections
    client_self_test()
    print("self-test passed")


def client_self_test():
    """The lean client against a server that answers in pieces: an answer split across reads,
    the start of the next answer read with the end of the one before, answers larger than the
    client's buffer, and a refusal."""
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    answers = [json.dumps({"n": 1, "text": "x" * 100}).encode(), json.dumps({"n": 2}).encode()]

    def serve():
        connection, _ = listener.accept()
        with connection:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            wire = b"".join(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(a), a)
                for a in answers
            )
            wire += b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}"
            connection.recv(1 << 16)
            # The first answer in three pieces, the second's start glued to the first's end.
            cut = wire.index(b"\r\n\r\n") + 10
            for piece in (wire[:7], wire[7:cut], wire[cut : cut + 150]):
                connection.sendall(piece)
                time.sleep(0.01)
            connection.recv(1 << 16)
            connection.sendall(wire[cut + 150 : wire.index(b"HTTP/1.1 404")])
            connection.recv(1 << 16)
            connection.sendall(wire[wire.index(b"HTTP/1.1 404") :])

    server = threading.Thread(target=serve)
    server.start()
    client = Nearcare(f"http://127.0.0.1:{listener.getsockname()[1]}", buffer_size=16)
    assert client.request("GET", "/one")[1] == json.loads(answers[0])
    assert client.request("POST", "/two", "{}")[1] == {"n": 2}
    try:
        client.request("GET", "/missing")
        raise AssertionError("a 404 was taken for an answer")
    except SystemExit as refusal:
        assert "answered 404" in str(refusal), refusal
    server.join()
    listener.close()


def ms(seconds):
    return f"{seconds * 1000:.3g}" if seconds < 0.1 else f"{seconds * 1000:.0f}"


def p95(values):
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def print_table(nearcare, rows, ratio_text):
    """Prints a table of (class, PostGIS times, Nearcare times, answer outcomes) rows against
    PostGIS; True when an answer differed."""
    print()
    print(f"| class | PostGIS p50 / p95 (ms) | {nearcare} p50 / p95 (ms) | ratio p50 (PostGIS / {nearcare}) "
          "| answers same / ties / mismatches (non-empty) |")
    print("|---|---|---|---|---|")
    failed = False
    for name, pg, nc, outcome in rows:
        ratio = statistics.median(pg) / statistics.median(nc)
        print(
            f"| {name} | {ms(statistics.median(pg))} / {ms(p95(pg))} | {ms(statistics.median(nc))} / {ms(p95(nc))} "
            f"| {ratio_text(ratio)} | {outcome['same']} / {outcome['tie']} / {outcome['mismatch']} ({outcome['non-empty']}) |"
        )
        failed |= outcome["mismatch"] > 0
    return failed


def report_inprocess(inprocess, queries, classes, times):
    """Runs round one's queries in-process (benches/examples/peer-inprocess.rs on the server's
    generation folder: the engine's call and the answer's JSON, no HTTP), compares every answer
    with PostGIS's and prints the table against PostGIS's times. True when an answer differs."""
    binary, folder = inprocess
    repeats = os.environ.get("INPROCESS_REPEATS", "5")
    queries_file = os.path.join(os.path.dirname(folder.rstrip("/")), "..", "peer-queries.jsonl")
    with open(queries_file, "w") as out:
        for _, query, _, _ in queries:
            out.write(json.dumps(query) + "\n")
    print(f"== the same {len(queries)} queries in-process ({repeats} runs each, median)", file=sys.stderr)
    lines = subprocess.run([binary, folder, queries_file, repeats], check=True, capture_output=True, text=True).stdout
    results = [json.loads(line) for line in lines.splitlines()]
    if len(results) != len(queries):
        raise SystemExit(f"peer-inprocess answered {len(results)} of {len(queries)} queries")
    seconds = {name: [] for name, _ in classes}
    outcomes = {name: {"same": 0, "tie": 0, "mismatch": 0, "non-empty": 0} for name, _ in classes}
    compare_of = {name: (compare_search if name.startswith("search") else compare_sets) for name, _ in classes}
    for (name, _, read, pg_answer), result in zip(queries, results):
        seconds[name].append(result["seconds"])
        answer = read(result["answer"])
        outcome = compare_of[name](answer, pg_answer)
        outcomes[name][outcome] += 1
        outcomes[name]["non-empty"] += bool(answer) or bool(pg_answer)
    failed = print_table(
        "Nearcare in-process",
        [(name, times[name][0], seconds[name], outcomes[name]) for name, _ in classes],
        lambda ratio: f"{ratio:.0f}x",
    )
    print("in-process: the engine's call and the answer's JSON on the server's generation folder, "
          f"median of {repeats} runs per query; PostGIS as above")
    return failed


class Captured(Exception):
    """Raised by the recorders below once they hold what a class would send."""


class RecordingCursor:
    """Stands in for the PostGIS cursor: keeps the statement a class would run, with its
    parameters written in as literals (psycopg2's own quoting), for pgbench."""

    def __init__(self, real):
        self.real = real
        self.sql = None

    def execute(self, sql, params=None):
        self.sql = " ".join(self.real.mogrify(sql, params).decode().split())
        raise Captured()


class RecordingApi:
    """Stands in for the Nearcare client: keeps the request a class would send, for wrk."""

    def __init__(self):
        self.request_line = None

    def request(self, method, path, body=None):
        self.request_line = (method, path, body)
        raise Captured()


def lua_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wrk_script(requests):
    """A wrk script rotating through `requests` (formatted once, in init), whose `done` prints
    "RESULT requests/s p50 p99" (µs)."""
    lines = ["local requests = {}", "local counter = 0", "init = function(args)"]
    for method, path, body in requests:
        headers = '{ ["Content-Type"] = "application/json" }' if body is not None else "{}"
        body_text = lua_string(body) if body is not None else "nil"
        lines.append(f"  requests[#requests + 1] = wrk.format({lua_string(method)}, {lua_string(path)}, {headers}, {body_text})")
    lines += [
        "end",
        "request = function()",
        "  counter = counter + 1",
        "  return requests[(counter % #requests) + 1]",
        "end",
        "done = function(summary, latency, requests)",
        '  io.write(string.format("RESULT %.1f %d %d\\n", summary.requests / (summary.duration / 1e6),',
        "    latency:percentile(50), latency:percentile(99)))",
        "end",
    ]
    return "\n".join(lines) + "\n"


def run_wrk(script, base, connections, seconds):
    """(requests/s, p50 s, p99 s) of one wrk run."""
    threads = 1 if connections == 1 else 2
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, base + "/"],
        check=True, capture_output=True, text=True,
    ).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"wrk saw failed requests:\n{out}")
    rate, p50, p99 = next(line.split()[1:] for line in out.splitlines() if line.startswith("RESULT "))
    return float(rate), int(p50) / 1e6, int(p99) / 1e6


def run_pgbench(files, database_url, connections, seconds, folder):
    """(transactions/s, p50 s, p99 s) of one pgbench run over `files`, one chosen at random per
    transaction, prepared, from pgbench's per-transaction log."""
    for old in os.listdir(folder):
        if old.startswith("pgbench_log"):
            os.remove(os.path.join(folder, old))
    threads = 1 if connections == 1 else 2
    command = ["pgbench", "-n", "-M", "prepared", f"-c{connections}", f"-j{threads}", f"-T{seconds}", "-l",
               "--log-prefix", os.path.join(folder, "pgbench_log")]
    for file in files:
        command += ["-f", f"{file}@1"]
    # pgbench's sessions get the tuning the Python session sets (`jit = off`, see main): with the
    # server's default, a statement counting a 30-mile circle is planned above `jit_above_cost`
    # and was compiled before it ran.
    environment = dict(os.environ, PGOPTIONS="-c jit=off")
    subprocess.run(command + [database_url], check=True, capture_output=True, text=True, env=environment)
    latencies = []
    for log in os.listdir(folder):
        if log.startswith("pgbench_log"):
            with open(os.path.join(folder, log)) as lines:
                latencies += [int(line.split()[2]) for line in lines]
    rate = len(latencies) / seconds
    latencies = corrected_as_wrk(latencies, seconds * 1_000_000, connections)
    latencies.sort()
    def at(q):
        return latencies[min(len(latencies) - 1, int(len(latencies) * q))] / 1e6
    return rate, at(0.5), at(0.99)


def c_clients(workload, database_url, base, folder):
    """The C-client mode: each class's queries over the same origins through wrk (Nearcare's
    HTTP API) and pgbench (PostGIS, prepared statements), at one connection and at
    C_CONNECTIONS, in interleaved rounds; prints p50, p99 and throughput per class and side."""
    seconds = int(os.environ.get("C_DURATION", "3"))
    rounds = int(os.environ.get("C_ROUNDS", "2"))
    many = int(os.environ.get("C_CONNECTIONS", "32"))
    results = {}
    for class_index, (name, items) in enumerate(workload.items()):
        class_folder = os.path.join(folder, f"class-{class_index}")
        os.makedirs(class_folder, exist_ok=True)
        files = []
        for index, (sql, _) in enumerate(items):
            file = os.path.join(class_folder, f"origin-{index}.sql")
            with open(file, "w") as out:
                out.write(sql + ";\n")
            files.append(file)
        script = os.path.join(class_folder, "nearcare.lua")
        with open(script, "w") as out:
            out.write(wrk_script([request for _, request in items]))
        for connections in (1, many):
            runs = {"PostGIS": [], "Nearcare": []}
            for round_number in range(rounds):
                order = ["PostGIS", "Nearcare"] if (round_number + class_index) % 2 == 0 else ["Nearcare", "PostGIS"]
                for side in order:
                    if side == "PostGIS":
                        runs[side].append(run_pgbench(files, database_url, connections, seconds, class_folder))
                    else:
                        runs[side].append(run_wrk(script, base, connections, seconds))
            results[(name, connections)] = {
                side: tuple(statistics.median(run[i] for run in side_runs) for i in range(3))
                for side, side_runs in runs.items()
            }
        print(f"== C clients: {name} done", file=sys.stderr)
    print()
    print("| class | connections | PostGIS p50 / p99 (ms), req/s | Nearcare p50 / p99 (ms), req/s "
          "| ratio p50 / p99 / throughput |")
    print("|---|---|---|---|---|")
    for (name, connections), sides in results.items():
        pg_rate, pg_p50, pg_p99 = sides["PostGIS"]
        nc_rate, nc_p50, nc_p99 = sides["Nearcare"]
        print(
            f"| {name} | {connections} | {ms(pg_p50)} / {ms(pg_p99)}, {pg_rate:,.0f} | {ms(nc_p50)} / {ms(nc_p99)}, {nc_rate:,.0f} "
            f"| {pg_p50 / nc_p50:.1f}x / {pg_p99 / nc_p99:.1f}x / {nc_rate / pg_rate:.1f}x |"
        )
    origins = len(next(iter(workload.values())))
    print(
        f"C clients: wrk (Nearcare) and pgbench -M prepared (PostGIS) on the same {origins} origins, each query "
        f"chosen in rotation (wrk) or at random (pgbench); {seconds} s a run, medians of {rounds} interleaved rounds; "
        f"1 connection (1 client thread) and {many} connections (2 client threads); latency at the client, "
        f"both sides' p99 with wrk's correction for coordinated omission (pgbench's log given the samples wrk adds)"
    )


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    database_url, base = sys.argv[1], sys.argv[2]
    # The in-process run: the peer-inprocess example's binary and a generation folder.
    inprocess = sys.argv[3:5] if len(sys.argv) >= 5 else None
    origin_count = int(os.environ.get("ORIGINS", "200"))
    rounds = int(os.environ.get("ROUNDS", "3"))
    seed = int(os.environ.get("SEED", "20261124"))

    db = psycopg2.connect(database_url)
    db.autocommit = True
    cursor = db.cursor()
    # A table copied before the languages column existed is copied again.
    cursor.execute(
        "select to_regclass('peer.meta') is not null and exists (select 1 from information_schema.columns "
        "where table_schema = 'peer' and table_name = 'locations' and column_name = 'languages')"
    )
    ready = cursor.fetchone()[0]
    if ready:
        cursor.execute("select source_locations = (select count(*) from locations) from peer.meta")
        ready = cursor.fetchone()[0]
    if not ready or os.environ.get("PEER_REBUILD") == "1":
        started = time.time()
        print("== copying the catalogue into PostGIS (schema peer) and building its indexes", file=sys.stderr)
        cursor.execute(SETUP)
        # Settled before anything is timed: a table just written has no visibility map and no hint
        # bits, so the first reads dirty its pages, and autovacuum would come to it (and the
        # checkpointer write it out) in the middle of some later class's runs, on 2 cores.
        cursor.execute("vacuum (analyze) peer.locations, peer.words, peer.meta")
        cursor.execute("checkpoint")
        print(f"   done in {time.time() - started:.1f} s", file=sys.stderr)
    # PostgreSQL as it would be tuned for such queries: no JIT compilation of short queries.
    cursor.execute("set jit = off")
    cursor.execute("select count(*) from peer.locations")
    physical = cursor.fetchone()[0]
    cursor.execute("select word, ndoc from peer.words")
    words = agreeing_words(dict(cursor.fetchall()), 5)
    cursor.execute("select id, lat, lng from peer.locations order by id")
    rows = cursor.fetchall()
    rng = random.Random(seed)
    origins = rng.sample(rows, min(origin_count, len(rows)))
    del rows
    print(f"== {physical} physical locations; {len(origins)} origins (seed {seed}); "
          f"text words (both must agree): {', '.join(words)}", file=sys.stderr)

    api = Nearcare(base)

    def search_class(miles, page, text, new_patients, language=None):
        def run(index, lat, lng):
            word = words[index % len(words)] if text else None
            filters = {"searchDistance": SLIDER[miles]}
            where = ""
            if word:
                filters["searchByName"] = word
                where += " and tsv @@ to_tsquery('simple', %(query)s)"
            if new_patients:
                filters["newPatients"] = True
                where += " and new_patients"
            if language:
                filters["selectedLanguages"] = [language]
                where += " and languages @> array[%(language)s]"
            params = {
                "origin": f"SRID=4326;POINT({lng!r} {lat!r})",
                "metres": miles * METRES_PER_MILE,
                "limit": LIMIT,
                "offset": (page - 1) * LIMIT,
                "query": f"{word}:*" if word else None,
                "language": language,
            }
            sql = SEARCH_SQL.format(where=where)

            def postgis():
                started = time.perf_counter()
                cursor.execute(sql, params)
                found = cursor.fetchall()
                return time.perf_counter() - started, [row[:3] for row in found]

            def postgis_page_only():
                started = time.perf_counter()
                cursor.execute(KNN_SQL.format(where=where), params)
                found = cursor.fetchall()
                return time.perf_counter() - started, found

            def read(answer):
                clinics = [c for c in answer["clinics"] if not c["isVirtualLocation"]]
                return [(c["locationId"], c["coordinates"]["lat"], c["coordinates"]["lng"]) for c in clinics]

            def nearcare():
                path = f"/member/app/market/search?page={page}&limit={LIMIT}&lat={lat!r}&lng={lng!r}"
                elapsed, answer = api.request("POST", path, json.dumps({"search": {"filters": filters}}))
                return elapsed, read(answer)

            query = {"kind": "search", "lat": lat, "lng": lng, "filters": filters, "page": page, "limit": LIMIT}
            return postgis, nearcare, compare_search, postgis_page_only, (query, read)

        return run

    def pins_class(zoom):
        def run(_index, lat, lng):
            west, south, east, north = viewport(lat, lng, zoom)
            params = {"w": west, "s": south, "e": east, "n": north}

            def postgis():
                started = time.perf_counter()
                cursor.execute(PINS_SQL, params)
                found = cursor.fetchall()
                elapsed = time.perf_counter() - started
                return elapsed, ("overLimit" if len(found) > MAX_PINS else frozenset(r[0] for r in found))

            bounds = {"nwLng": west, "nwLat": north, "seLng": east, "seLat": south}

            def read(answer):
                return "overLimit" if answer["overLimit"] else frozenset(p["locationId"] for p in answer["pins"])

            def nearcare():
                query = urllib.parse.urlencode({key: repr(value) for key, value in bounds.items()})
                elapsed, answer = api.request("GET", f"/member/app/market/location/pins?{query}")
                return elapsed, read(answer)

            return postgis, nearcare, compare_sets, None, ({"kind": "pins", "bounds": bounds}, read)

        return run

    def area_class(zoom):
        def run(_index, lat, lng):
            box = viewport(lat, lng, zoom)
            west, south, east, north = box
            level = area_level(box, zoom)
            params = {"w": west, "s": south, "e": east, "n": north, "shift": MORTON_LEVELS - level}

            def postgis():
                started = time.perf_counter()
                cursor.execute(AREA_SQL, params)
                found = cursor.fetchall()
                elapsed = time.perf_counter() - started
                return elapsed, frozenset(tuple(r) for r in found)

            bounds = {"nwLng": west, "nwLat": north, "seLng": east, "seLat": south}

            def read(answer):
                if answer["cellLevel"] != level:
                    raise SystemExit(f"area pins at zoom {zoom} answered level {answer['cellLevel']}, expected {level}")
                cells = set()
                for area in answer["areas"]:
                    bounds = area["bounds"]
                    x, _ = mercator(0.0, bounds["nwLng"])
                    _, y = mercator(bounds["nwLat"], 0.0)
                    cells.add((round(x * 2**level), round(y * 2**level), area["count"], area["newPatients"]))
                return frozenset(cells)

            def nearcare():
                query = urllib.parse.urlencode({**{key: repr(value) for key, value in bounds.items()}, "zoom": zoom})
                elapsed, answer = api.request("GET", f"/member/app/market/location/areapins?{query}")
                return elapsed, read(answer)

            return postgis, nearcare, compare_sets, None, ({"kind": "areaPins", "bounds": bounds, "zoom": zoom}, read)

        return run

    classes = [
        ("search p1, 30 mi, no text", search_class(30, 1, False, False)),
        ("search p1, 30 mi, text", search_class(30, 1, True, False)),
        ("search p1, 30 mi, new patients", search_class(30, 1, False, True)),
        ("search p1, 30 mi, language (Spanish)", search_class(30, 1, False, False, language="es")),
        ("search p51, 100 mi, text", search_class(100, 51, True, False)),
        ("pins zoom 10", pins_class(10)),
        ("pins zoom 12", pins_class(12)),
        ("pins zoom 14", pins_class(14)),
        ("area pins zoom 6", area_class(6)),
        ("area pins zoom 8", area_class(8)),
    ]
    # CLASSES ("pins zoom 14|area pins") keeps the classes whose names contain one of its parts.
    wanted = [part.strip() for part in os.environ.get("CLASSES", "").split("|") if part.strip()]
    if wanted:
        classes = [(name, make) for name, make in classes if any(part in name for part in wanted)]
        if not classes:
            raise SystemExit(f"CLASSES={os.environ['CLASSES']!r} names none of the classes")
    knn_name = "{} (PostGIS: page by KNN, no total)".format
    names = [name for name, _ in classes] + [knn_name(name) for name, _ in classes if name.startswith("search")]
    names.sort(key=lambda name: [n for n, _ in classes].index(name.split(" (PostGIS")[0]))
    times = {name: ([], []) for name in names}
    outcomes = {name: {"same": 0, "tie": 0, "mismatch": 0, "non-empty": 0} for name in names}
    examples = {}

    # A side left idle while the other works (up to 150 ms for PostGIS's counts) answers its next
    # request slowly for a reason that is neither engine's: this machine's parked threads and idle
    # cores take time to wake (a Nearcare search after 27 ms of idle took 0.48 ms against 0.12 ms
    # back to back). So each timed query follows an untimed trivial one on the same connection,
    # `select 1` or `GET /health`: both sides are awake, and neither has the query's data warmed.
    # The wake-ups are timed too (not as a class): each side's round trip for nothing, the floor
    # under every timed query of that side.
    floors = ([], [])

    def wake_postgis():
        started = time.perf_counter()
        cursor.execute("select 1")
        cursor.fetchall()
        floors[0].append(time.perf_counter() - started)

    def wake_nearcare():
        floors[1].append(api.request("GET", "/health")[0])

    def awake(wake, timed):
        wake()
        return timed()

    # Round one's queries for the in-process run: (class, the query, how to read its answer,
    # PostGIS's answer).
    inprocess_queries = []
    def timed_pair(index, postgis, nearcare):
        # Alternate which side goes first, so neither always runs on a warmer cache.
        if index % 2:
            pg_time, pg_answer = awake(wake_postgis, postgis)
            nc_time, nc_answer = awake(wake_nearcare, nearcare)
        else:
            nc_time, nc_answer = awake(wake_nearcare, nearcare)
            pg_time, pg_answer = awake(wake_postgis, postgis)
        return pg_time, pg_answer, nc_time, nc_answer

    def record(row, round_number, lat, lng, compare, pg_time, pg_answer, nc_time, nc_answer):
        times[row][0].append(pg_time)
        times[row][1].append(nc_time)
        if round_number == 0:
            outcome = compare(nc_answer, pg_answer)
            outcomes[row][outcome] += 1
            outcomes[row]["non-empty"] += bool(nc_answer) or bool(pg_answer)
            if outcome == "mismatch" and row not in examples:
                examples[row] = (lat, lng, nc_answer, pg_answer)

    for round_number in range(rounds):
        started = time.time()
        for name, make in classes:
            for index, (_, lat, lng) in enumerate(origins):
                postgis, nearcare, compare, _, (query, read) = make(index, lat, lng)
                pg_time, pg_answer, nc_time, nc_answer = timed_pair(index, postgis, nearcare)
                if round_number == 0:
                    inprocess_queries.append((name, query, read, pg_answer))
                record(name, round_number, lat, lng, compare, pg_time, pg_answer, nc_time, nc_answer)
        # PostGIS's page alone is paired with its own Nearcare request, in a pass of its own:
        # timed right after the full statement of the same origin, it ran on the pages that
        # statement had just read, while Nearcare's request came after PostGIS's 20-odd ms.
        for name, make in classes:
            for index, (_, lat, lng) in enumerate(origins):
                _, nearcare, compare, page_only, _ = make(index, lat, lng)
                if page_only:
                    timed = timed_pair(index, page_only, nearcare)
                    record(knn_name(name), round_number, lat, lng, compare, *timed)
        print(f"== round {round_number + 1}/{rounds} in {time.time() - started:.1f} s", file=sys.stderr)

    failed = print_table(
        "Nearcare HTTP",
        [(name, *times[name], outcomes[name]) for name in names],
        lambda ratio: f"{ratio:.1f}x",
    )
    print(
        f"{physical} physical locations, {len(origins)} origins, {rounds} rounds (answers compared in the first); "
        f"each side one connection, each timed query after an untimed trivial one (select 1, GET /health), timed at the client (PostGIS: execute + fetch; Nearcare: request written + answer read to its Content-Length)"
    )
    print(
        f"round trips for nothing, the floor under each side's times (the wake-ups above, p50): "
        f"PostGIS `select 1` {ms(statistics.median(floors[0]))} ms, Nearcare `GET /health` {ms(statistics.median(floors[1]))} ms"
    )
    for name, (lat, lng, nc_answer, pg_answer) in examples.items():
        if isinstance(nc_answer, frozenset) and isinstance(pg_answer, frozenset):
            nc_answer, pg_answer = sorted(nc_answer - pg_answer)[:8], sorted(pg_answer - nc_answer)[:8]
            print(f"first mismatch in {name} at ({lat}, {lng}): only in Nearcare {nc_answer}; only in PostGIS {pg_answer}")
        else:
            print(f"first mismatch in {name} at ({lat}, {lng}):\n  Nearcare {nc_answer}\n  PostGIS  {pg_answer}")
    if inprocess:
        failed |= report_inprocess(inprocess, inprocess_queries, classes, times)
    if os.environ.get("C_CLIENTS", "1") != "0" and not failed:
        # The same classes' statements and requests for the first C_ORIGINS origins (pgbench
        # takes at most 128 script files), recorded by running each class against recorders.
        c_origins = min(int(os.environ.get("C_ORIGINS", "100")), 128)
        real_cursor, real_api = cursor, api
        cursor, api = RecordingCursor(real_cursor), RecordingApi()
        workload = {}
        for name, make in classes:
            for page_only in (False, True):
                items = []
                for index, (_, lat, lng) in enumerate(origins[:c_origins]):
                    postgis, nearcare, _, knn, _ = make(index, lat, lng)
                    if page_only and knn is None:
                        break
                    for call in (knn if page_only else postgis, nearcare):
                        try:
                            call()
                        except Captured:
                            pass
                    items.append((cursor.sql, api.request_line))
                if items:
                    workload[knn_name(name) if page_only else name] = items
        cursor, api = real_cursor, real_api
        c_clients(workload, database_url, base, os.environ.get("C_FOLDER", "/tmp/bench-peer-c"))
    if failed:
        print("MISMATCH: the answers differ in classes that must agree", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
