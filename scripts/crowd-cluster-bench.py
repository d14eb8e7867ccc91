#!/usr/bin/env python3
"""A crowd across nodes (issue 36): a release cluster of three nodes that name their own URLs
(`scripts/cluster.sh up --advertise`, its own PostgreSQL), one table of four players on n1
choosing forty times a second in all, and N spectators connected to n1 itself, or to n2, or to
n2 and n3 (which watch n1's table for them through one link each). One line per case: the
players' and the spectators' latency, and each node's CPU per move over the measured window.
Usage: scripts/crowd-cluster-bench.py [CASE ...], a CASE being N@where with where one of
n1, n2, n2+n3 (default: 0@n1 1000@n1 5000@n1 1000@n2 5000@n2 1000@n2+n3 5000@n2+n3);
BIN=.build/release."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ("ready", "setup_failures", "closes", "resyncs", "moves", "lat_p50_us", "lat_p99_us",
        "spec_lat_p50_us", "spec_lat_p99_us", "spec_lat_max_us", "spectator_diffs")


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_case(binaries, nodes, spectators, where):
    ports = {n["id"]: n["port"] for n in nodes}
    pids = {n["id"]: n["pid"] for n in nodes}
    others = [ports[n] for n in where.split("+") if n != "n1"]
    crowd = (["--crowd-threads", "1", "--crowd-nice", "10"] if spectators else []) + \
        (["--spectator-ports", ",".join(map(str, others))] if others and spectators else [])
    load = subprocess.Popen(
        [f"{binaries}/matchismo-load", "--mode", "open", "--port", str(ports["n1"]), "--tables", "1",
         "--seats", "4", "--spectators", str(spectators), "--rate", "40", "--warmup", "3",
         "--duration", "10", "--json", *crowd],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The window: from the end of setup and warm-up to its end (the load generator says when).
    began = {}
    for line in load.stderr:
        if "load for" in line:
            time.sleep(3)  # the warm-up
            began = {n: cpu_seconds(pid) for n, pid in pids.items()}
            began_at = time.monotonic()
        if "window over" in line:
            used = {n: cpu_seconds(pid) - began[n] for n, pid in pids.items()}
            window = time.monotonic() - began_at
    report = json.loads(load.stdout.read())
    load.wait()
    moves = max(1, report["moves"])
    row = {"spectators": spectators, "at": where, **{k: report[k] for k in KEYS if k in report}}
    for n in sorted(used):
        row[f"{n}_cpu_pct"] = round(100 * used[n] / window, 1)
        row[f"{n}_cpu_us_per_move"] = round(1e6 * used[n] / moves)
    return row


def main():
    binaries = os.environ.get("BIN", ".build/release")
    cases = sys.argv[1:] or ["0@n1", "1000@n1", "5000@n1", "1000@n2", "5000@n2", "1000@n2+n3",
                             "5000@n2+n3"]
    folder = tempfile.mkdtemp(prefix="crowd-cluster.")
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    door = probe.getsockname()[1]
    probe.close()
    up = subprocess.run(
        [f"{ROOT}/scripts/cluster.sh", "up", "--dir", folder, "--nodes", "3", "--port", str(door),
         "--binary", f"{binaries}/matchismo", "--advertise", "--no-prometheus", "--",
         "--countdown", "0.3", "--spectator-limit", "20000"],
        capture_output=True, text=True, timeout=120)
    if up.returncode != 0:
        sys.exit(f"cluster.sh up failed:\n{up.stdout}\n{up.stderr}")
    try:
        nodes = json.load(open(f"{folder}/cluster.json"))["nodes"]
        for case in cases:
            count, where = case.split("@")
            print(json.dumps(run_case(binaries, nodes, int(count), where)), flush=True)
    finally:
        subprocess.run([f"{ROOT}/scripts/cluster.sh", "down", "--dir", folder],
                       capture_output=True, timeout=60)


if __name__ == "__main__":
    main()
