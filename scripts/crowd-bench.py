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
1 ms and 5 ms (`matchismo_journal_entries_total`, `matchismo_journal_commit_seconds`), the
service loop's passes whose events took over 1 ms and 5 ms of its CPU
(`matchismo_loop_long_passes_total`: the server's own stalls, whatever the host does), and the
frames and payload bytes written (`matchismo_frames_out_total`, `matchismo_bytes_out_total`).

FLOOR=1 (with STORM): what the machine's CPU share alone costs a table through the storm. A
second server of its own (the control) holds a quiet table of 4 players at 40 moves a second,
driven by two more load runs started when the crowd is seated, timed to measure the same 5 s
before the storm and 5 s from it (`floor_before_p99_us`, `floor_during_p99_us`,
`floor_p99_ratio`; `during_over_floor`: the crowd's players' p99 from the storm over the
control's at the same moments). Nothing of the crowd reaches the control: its players feel
only the cores that the crowd's server and load generator take. Where the crowd's players'
ratio is near the control's, the storm costs them the machine's share, not the server's own
waits.

ROUNDS=R: every N R times (the Ns alternating within a round), one line a run, then one line per
N with the players' latency of all R runs pooled (`"pooled": R`; the load runs' `--histograms`
merged): p50 and p99 of every move in the windows, and with STORM the pooled before and from the
storm (and FLOOR: the control's), and their ratio. A 5 s window at 40 moves a second holds 200
moves, so one run's p99 is its third slowest move, which one hiccup of the machine sets; the
pool's rests on R times as many. MAX_STEAL=P: the pools leave out the runs whose window the
hypervisor took more than P % of a core from (`steal_cpu_pct`; the run's line says
`"left_out_of_pool": true`)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import latency_pool

KEYS = ("ready", "setup_failures", "closes", "resyncs", "lat_p50_us", "lat_p99_us", "lat_max_us",
        "spec_lat_p50_us", "spec_lat_p99_us", "spec_lat_max_us", "crowd_counts", "server_cpu_pct",
        "loadgen_cpu_pct", "other_cpu_pct", "steal_cpu_pct", "server_rss_end_kib", "storm",
        "storm_before_p50_us", "storm_before_p99_us", "storm_during_p50_us", "storm_during_p99_us",
        "storm_p99_ratio", "storm_spectators", "storm_returned", "storm_returned_p50_s",
        "storm_returned_latest_s", "storm_resumed")
HISTS = ("lat_hist_us", "storm_before_hist_us", "storm_during_hist_us")
STORM = os.environ.get("STORM")


FLOOR = os.environ.get("FLOOR") == "1"


def start_server(binaries):
    """A fresh release server on a free loopback port, ready: (process, port, data folder)."""
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
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return server, port, data


def stop_server(server, data):
    server.terminate()
    server.wait()
    shutil.rmtree(data, ignore_errors=True)


def quiet_table(binaries, port, warmup):
    """A load run of one quiet table (4 players, 40 moves/s) whose 5 s window begins `warmup`
    seconds after its players are seated."""
    return subprocess.Popen(
        [f"{binaries}/matchismo-load", "--mode", "open", "--port", str(port), "--tables", "1",
         "--seats", "4", "--rate", "40", "--warmup", str(warmup), "--duration", "5", "--json",
         "--histograms"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def run(binaries, spectators):
    server, port, data = start_server(binaries)
    control = start_server(binaries) if FLOOR and STORM and spectators else None
    try:
        crowd = ["--crowd-threads", "1", "--crowd-nice", os.environ.get("CROWD_NICE", "10")] if spectators else []
        storm = ["--storm", STORM, "--storm-at", "10", "--storm-window", "5"] if STORM and spectators else []
        load = subprocess.Popen(
            [f"{binaries}/matchismo-load", "--mode", "open", "--port", str(port), "--tables", "1",
             "--seats", "4", "--spectators", str(spectators), "--rate", "40", "--warmup", "3",
             "--duration", "20" if STORM else "10", "--json", "--histograms",
         "--server-pid", str(server.pid),
             *crowd, *storm],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        floor = []
        if control:
            # The crowd's window begins 3 s after it is seated ("... seated in ..." on stderr),
            # its storm 10 s into it: the control's windows are the 5 s before and from it.
            for line in load.stderr:
                if "seated" in line:
                    break
            floor = [quiet_table(binaries, control[1], warmup) for warmup in (8, 13)]
        out, _ = load.communicate(timeout=300)
        report = json.loads(out)
        fields = {**{k: report[k] for k in KEYS if k in report}, **server_moves(port)}
        hists = {k: report[k] for k in HISTS if k in report}
        if floor:
            before, during = (json.loads(p.communicate(timeout=60)[0]) for p in floor)
            fields.update(floor_before_p99_us=before["lat_p99_us"],
                          floor_during_p99_us=during["lat_p99_us"],
                          floor_p99_ratio=round(during["lat_p99_us"] / before["lat_p99_us"], 2),
                          during_over_floor=round(
                              report["storm_during_p99_us"] / during["lat_p99_us"], 2))
            hists.update(floor_before_hist_us=before["lat_hist_us"],
                         floor_during_hist_us=during["lat_hist_us"])
        return fields, hists
    finally:
        stop_server(server, data)
        if control:
            stop_server(control[0], control[2])


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
            "server_passes_over_1ms": counter(text, 'matchismo_loop_long_passes_total{over="1ms"}'),
            "server_passes_over_5ms": counter(text, 'matchismo_loop_long_passes_total{over="5ms"}'),
            "frames_out": counter(text, "matchismo_frames_out_total"),
            "bytes_out": counter(text, "matchismo_bytes_out_total")}


def pooled(n, runs):
    """One line of `runs`' latencies pooled: the p50 and p99 of each kind of window, and the
    ratios of the windows from the storm to the ones before it."""
    line = {"pooled": len(runs), "spectators": n}
    for key in (*HISTS, "floor_before_hist_us", "floor_during_hist_us"):
        line.update(latency_pool.summary(key.removesuffix("_hist_us"),
                                         [hists[key] for hists in runs if key in hists]))
    line = latency_pool.ratio(latency_pool.ratio(line, "storm"), "floor")
    if line.get("floor_during_p99_us"):
        line["during_over_floor"] = round(
            line["storm_during_p99_us"] / line["floor_during_p99_us"], 2)
    return line


def main():
    binaries = os.environ.get("BIN", ".build/release")
    rounds = int(os.environ.get("ROUNDS", "1"))
    max_steal = float(os.environ.get("MAX_STEAL", "inf"))
    ns = [int(a) for a in sys.argv[1:]] or [0, 1000, 10000]
    runs = {n: [] for n in ns}
    for _ in range(rounds):
        for n in ns:
            fields, hists = run(binaries, n)
            if fields.get("steal_cpu_pct", 0) > max_steal:
                fields["left_out_of_pool"] = True
            else:
                runs[n].append(hists)
            print(json.dumps({"spectators": n, **fields}), flush=True)
    if rounds > 1:
        for n in ns:
            line = pooled(n, runs[n])
            if max_steal != float("inf"):
                line["steal_at_most"] = max_steal
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
