"""Latencies as wrk reports them, for clients that log their own (pgbench): imported by
scripts/bench-peer.py and scripts/load-test.sh, so both compare one statistic."""


def corrected_as_wrk(latencies, runtime_us, connections):
    """The latencies (µs) with the samples wrk adds to its own before it reports percentiles
    (wrk.c's `stats_correct`, for coordinated omission): a request that took n µs, where a
    connection's mean interval is e, stands for the requests a steady client would have sent
    behind it, at n - e, n - 2e, ... while above e. wrk's p99 at one connection is thus one
    stall's length; pgbench reports its latencies as measured. Given pgbench's the same
    treatment, both sides' percentiles are one statistic."""
    per_connection = len(latencies) // connections
    if per_connection == 0:
        return list(latencies)
    expected = runtime_us // per_connection
    corrected = list(latencies)
    for value in latencies:
        if value < 2 * expected:
            continue
        behind = value - expected
        while behind > expected:
            corrected.append(behind)
            behind -= expected
    return corrected
