#!/usr/bin/env python3
"""A crowd at one table (issue 36): a fresh release server (journal on, SQLite in a temporary
folder, --spectator-limit 20000), then one load run of four players choosing forty times a second
in all, watched by N spectators on a load-generator thread of their own; one line of the report
per N. Usage: scripts/crowd-bench.py [N ...] (default 0 1000 10000); BIN=.build/release.
STORM=join|leave|reconnect: a 20 s window, and 10 s into it every spectator joins, leaves or
reconnects at once (`matchismo-load --storm`); the line then compares the players' latency in the
5 s before it with the 5 s after, and says when the spectators were back. SERVER_ARGS: more options
for the server (e.g. "--executors 2", the sharded lobby). The line ends with the server's own count
of the run's moves and of those over 1 ms and 5 ms from read to frames let go (its /metrics,
`matchismo_move_broadcast_latency_seconds`), and the journal's entries, commits, and commits over
1 ms and 5 ms (`matchismo_journal_entries_total`, `matchismo_journal_commit_seconds`), and the
frames and payload bytes written (`matchismo_frames_out_total`, `matchismo_bytes_out_total`)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

KEYS = ("ready", "setup_failures", "closes", "resyncs", "lat_p50_us", "lat_p99_us", "lat_max_us",
        "spec_lat_p50_us", "spec_lat_p99_us", "spec_lat_max_us", "crowd_counts", "server_cpu_pct",
        "loadgen_cpu_pct", "other_cpu_pct", "server_rss_end_kib", "storm", "storm_before_p50_us",
        "storm_before_p99_us", "storm_during_p50_us", "storm_during_p99_us", "storm_p99_ratio",
        "storm_spectators", "storm_returned", "storm_returned_p50_s", "storm_returned_latest_s",
        "storm_resumed")
STORM = os.environ.get("STORM")


def run(binaries, spectators):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    data = tempfile.mkdtemp(prefix="crowd-bench.")
    server = subprocess.Popen(
        [f"{binaries}/matchismo", "--port", str(port), "--data-dir", data,
         "--spectator-limit", "20000", "--countdown", "0.3",
         *os.environ.get("SERVER_ARGS", "").split()],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        crowd = ["--crowd-threads", "1", "--crowd-nice", os.environ.get("CROWD_NICE", "10")] if spectators else []
        storm = ["--storm", STORM, "--storm-at", "10", "--storm-window", "5"] if STORM and spectators else []
        result = subprocess.run(
            [f"{binaries}/matchismo-load", "--mode", "open", "--port", str(port), "--tables", "1",
             "--seats", "4", "--spectators", str(spectators), "--rate", "40", "--warmup", "3",
             "--duration", "20" if STORM else "10", "--json", "--server-pid", str(server.pid),
             *crowd, *storm],
            capture_output=True, text=True, timeout=300)
        report = json.loads(result.stdout)
        return {**{k: report[k] for k in KEYS if k in report}, **server_moves(port)}
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data, ignore_errors=True)


def histogram(text, name):
    """The count of histogram `name` in a /metrics text, and its buckets by upper bound."""
    buckets, count = {}, 0
    for line in text.splitlines():
        if line.startswith(name + "_bucket"):
            buckets[line.split('le="')[1].split('"')[0]] = int(float(line.split()[-1]))
        elif line.startswith(name + "_count"):
            count = int(float(line.split()[-1]))
    return count, buckets


def counter(text, name):
    """The value of counter `name` in a /metrics text (0 when it is not there)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return int(float(line.split()[-1]))
    return 0


def server_moves(port):
    """The server's moves so far, and how many took over 1 and 5 ms inside it; the journal's
    entries and commits, and the commits over 1 and 5 ms."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    count, buckets = histogram(text, "matchismo_move_broadcast_latency_seconds")
    commits, times = histogram(text, "matchismo_journal_commit_seconds")
    return {"server_moves": count,
            "server_moves_over_250us": count - buckets.get("0.00025", count),
            "server_moves_over_500us": count - buckets.get("0.0005", count),
            "server_moves_over_1ms": count - buckets.get("0.001", count),
            "server_moves_over_5ms": count - buckets.get("0.005", count),
            "journal_entries": counter(text, "matchismo_journal_entries_total"),
            "journal_commits": commits,
            "journal_commits_over_1ms": commits - times.get("0.001", commits),
            "journal_commits_over_5ms": commits - times.get("0.005", commits),
            "frames_out": counter(text, "matchismo_frames_out_total"),
            "bytes_out": counter(text, "matchismo_bytes_out_total")}


def main():
    binaries = os.environ.get("BIN", ".build/release")
    for n in [int(a) for a in sys.argv[1:]] or [0, 1000, 10000]:
        print(json.dumps({"spectators": n, **run(binaries, n)}), flush=True)


if __name__ == "__main__":
    main()
