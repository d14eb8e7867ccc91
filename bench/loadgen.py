"""Load generator: bots racing at Set tables against a running `matchismo`, on loopback only.

Starts the server binary itself (release build by default) on a free 127.0.0.1 port, opens
`--tables` tables of `--seats` bots each (quick match), lets every bot play at `--rate` choices
per second for `--duration` seconds, then reports: messages sent and received, choose→diff
latency percentiles (the round trip a player feels), and the server's CPU time and resident
memory read from /proc. Bounded in count and time; stops by itself.

    .venv/bin/python bench/loadgen.py --tables 50 --seats 4 --duration 20
"""
import argparse
import asyncio
import json
import os
import pathlib
import random
import socket
import subprocess
import sys
import time

import websockets

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from protocol_client import find_sets  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_usage(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return cpu, rss  # seconds, KiB


class Bot:
    def __init__(self, url, name, stats, rate):
        self.url, self.name, self.stats, self.rate = url, name, stats, rate
        self.board, self.version, self.pending = [], 0, {}
        self.playing = asyncio.Event()

    async def run(self, seats, stop_at):
        async with websockets.connect(self.url, subprotocols=["matchismo.v1"], max_size=2**22) as ws:
            self.ws = ws
            await self.send({"type": "hello", "name": self.name})
            await self.send({"type": "quickMatch", "game": "set", "seats": seats})
            reader = asyncio.ensure_future(self.read())
            try:
                await asyncio.wait_for(self.playing.wait(), 30)
                next_id = 1000
                while time.monotonic() < stop_at:
                    await asyncio.sleep(random.expovariate(self.rate))
                    sets = find_sets(self.board)
                    if not sets:
                        continue
                    for card in random.choice(sets):
                        next_id += 1
                        self.pending[next_id] = time.perf_counter()
                        await self.send({"type": "choose", "id": next_id, "card": card["id"]})
            finally:
                reader.cancel()

    async def send(self, message):
        self.stats["sent"] += 1
        await self.ws.send(json.dumps(message))

    async def read(self):
        async for raw in self.ws:
            self.stats["received"] += 1
            m = json.loads(raw)
            kind = m["type"]
            if kind == "snapshot":
                t = m["table"]
                self.board = t["board"]
                if t.get("phase") == "playing":
                    self.playing.set()
            elif kind == "diff":
                started = self.pending.pop(m.get("replyTo"), None) if m.get("seat") is not None else None
                if started is not None:
                    self.stats["latency"].append(time.perf_counter() - started)
                for e in m["events"]:
                    k = e["kind"]
                    if k == "replace":
                        self.board[e["slot"]] = e["card"]
                    elif k == "remove":
                        self.board = [c for c in self.board if c["id"] not in e["cards"]]
                    elif k == "deal":
                        self.board += e["cards"]
                    elif k == "redeal":
                        self.board = e["board"]
                    elif k == "phase" and e["phase"] == "playing":
                        self.playing.set()
                    elif k == "over":
                        await self.send({"type": "redeal"})
            elif kind == "error":
                started = self.pending.pop(m.get("replyTo"), None)
                if started is not None:
                    self.stats["latency"].append(time.perf_counter() - started)
                self.stats["errors"] += 1


async def main(args):
    binary = args.binary or str(ROOT / ".build" / "release" / "matchismo")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", str(port), "--countdown", "0",
         "--log-level", "warning", "--web-root", str(ROOT / "web-client")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        cpu0, rss0 = proc_usage(server.pid)
        stats = {"sent": 0, "received": 0, "errors": 0, "latency": []}
        stop_at = time.monotonic() + args.duration
        bots = [Bot(f"ws://127.0.0.1:{port}/", f"bot{i}", stats, args.rate)
                for i in range(args.tables * args.seats)]
        started = time.monotonic()
        await asyncio.gather(*(b.run(args.seats, stop_at) for b in bots))
        elapsed = time.monotonic() - started
        cpu1, rss1 = proc_usage(server.pid)
        lat = sorted(stats["latency"]) or [0]
        pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
        result = {
            "bots": len(bots), "tables": args.tables, "seats": args.seats,
            "seconds": round(elapsed, 1),
            "sent_per_s": round(stats["sent"] / elapsed), "received_per_s": round(stats["received"] / elapsed),
            "errors": stats["errors"],
            "latency_ms_p50": round(pct(0.5), 2), "latency_ms_p99": round(pct(0.99), 2),
            "server_cpu_s": round(cpu1 - cpu0, 2),
            "server_cpu_us_per_received_msg": round((cpu1 - cpu0) / max(1, stats["received"]) * 1e6, 1),
            "server_rss_mib_idle": round(rss0 / 1024, 1), "server_rss_mib_end": round(rss1 / 1024, 1),
        }
        print(json.dumps(result, indent=2))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rate", type=float, default=1.0, help="set attempts per bot per second")
    parser.add_argument("--duration", type=float, default=15)
    parser.add_argument("--binary")
    asyncio.run(main(parser.parse_args()))
