"""Latency histograms pooled over many runs (issue 36's storms): `matchismo-load --histograms`
reports each window's moves as counts by microseconds ({"1234": 5, ...}, each value the highest
of its bucket). One run's p99 over a 5 s window at 40 moves a second is its third slowest move;
merged, R runs give one p99 over R times as many moves. Used by crowd-bench.py and
pool-storms.py."""
import math


def merge(histograms):
    """One histogram of all of `histograms` ({microseconds: count} each, keys text or numbers)."""
    merged = {}
    for histogram in histograms:
        for value, count in histogram.items():
            merged[int(value)] = merged.get(int(value), 0) + count
    return merged


def percentile(histogram, p):
    """The value at percentile `p` by the load generator's own rule: the first value at which
    the count reaches p % of the total, rounded up (0 for an empty histogram)."""
    pairs = sorted((int(v), c) for v, c in histogram.items())
    total = sum(c for _, c in pairs)
    rank, seen = max(1, math.ceil(p * total / 100 - 1e-9)), 0
    for value, count in pairs:
        seen += count
        if seen >= rank:
            return value
    return 0


def summary(name, histograms):
    """`name_n`, `name_p50_us` and `name_p99_us` of `histograms` merged (empty if none holds a
    move)."""
    merged = merge(histograms)
    if not merged:
        return {}
    return {f"{name}_n": sum(merged.values()), f"{name}_p50_us": percentile(merged, 50),
            f"{name}_p99_us": percentile(merged, 99)}


def ratio(line, name):
    """Adds `name_p99_ratio` (the p99 from the storm over the one before it) where `line`
    holds both."""
    before, during = line.get(f"{name}_before_p99_us"), line.get(f"{name}_during_p99_us")
    if before and during is not None:
        line[f"{name}_p99_ratio"] = round(during / before, 2)
    return line
