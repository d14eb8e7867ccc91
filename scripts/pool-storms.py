#!/usr/bin/env python3
"""The storms of a devbox run pooled (issue 36): reads OUTDIR/storm-*.json (matchismo-load's
reports with --histograms, as scripts/devbox-crowd.sh and devbox-ab.sh write them), groups the
runs whose labels differ only in their round numbers (storm-join-new-1 and storm-join-new-3 are
storm-join-new), and prints one JSON line a group: the players' p50 and p99 of all its runs'
moves in the 5 s before the storms and from them, and the ratio of the two p99s.
Usage: scripts/pool-storms.py OUTDIR"""
import glob
import json
import os
import re
import sys

import latency_pool


def main():
    groups = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "storm-*.json"))):
        label = os.path.basename(path).removesuffix(".json")
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            print(json.dumps({"label": label, "unreadable": True}))
            continue
        groups.setdefault(re.sub(r"-\d+(?=-|$)", "", label), []).append(report)
    for key, reports in groups.items():
        line = {"group": key, "runs": len(reports),
                "closes": sum(sum(r.get("closes", {}).values()) for r in reports)}
        for window in ("storm_before", "storm_during"):
            line.update(latency_pool.summary(
                window, [r[f"{window}_hist_us"] for r in reports if f"{window}_hist_us" in r]))
        print(json.dumps(latency_pool.ratio(line, "storm")))


if __name__ == "__main__":
    main()
