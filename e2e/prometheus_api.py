"""Asking the Prometheus that `scripts/cluster.sh` starts (its HTTP API, `/api/v1/…`)."""
import asyncio
import json
import time
import urllib.parse
import urllib.request


def query(state, expression):
    """The instant vector of `expression`: {the series' `node` label (or ""): value}."""
    url = f"{state['prometheus']['url']}api/v1/query?" + urllib.parse.urlencode({"query": expression})
    with urllib.request.urlopen(url, timeout=5) as answer:
        body = json.load(answer)
    assert body["status"] == "success", body
    return {r["metric"].get("node", ""): float(r["value"][1]) for r in body["data"]["result"]}


def alerts(state):
    """The alerts now: [(name, state ("pending"/"firing"), node)]."""
    with urllib.request.urlopen(f"{state['prometheus']['url']}api/v1/alerts", timeout=5) as answer:
        body = json.load(answer)
    return [(a["labels"]["alertname"], a["state"], a["labels"].get("node", "")) for a in body["data"]["alerts"]]


async def until(what, check, timeout=30):
    """Polls `check()` (in a thread) until it returns something true; returns that."""
    deadline = time.monotonic() + timeout
    while True:
        found = await asyncio.to_thread(check)
        if found:
            return found
        assert time.monotonic() < deadline, f"Prometheus never showed {what}"
        await asyncio.sleep(0.5)
