"""What the failover tests share: a cluster of real nodes behind a real HAProxy
(`scripts/cluster.sh`) on a real PostgreSQL, made for one test and always stopped after it, and
players seated at its nodes who play a little, look at what must survive and come back to a
table wherever it went."""
import asyncio
import json
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import time

import pytest

from conftest import BINARY, ROOT, free_port
from mp_support import converge, until_playing
from protocol_client import LiveClient
from table_state import find_sets


SCRIPT = ROOT / "scripts" / "cluster.sh"


DATABASE = []


def cluster_up(folder, nodes, database, *node_args, prometheus=False, advertise=False):
    """`scripts/cluster.sh up` in `folder` (on `database`, or with None on a highly available
    database of its own, `--ha`; with Prometheus if told; with `--advertise`, each node naming
    its own URL, if told): its cluster.json with `dir` and `door` (the front door's WebSocket
    URL)."""
    port = free_port()
    where = ["--database", database] if database else ["--ha"]
    up = subprocess.run(
        [str(SCRIPT), "up", "--dir", str(folder), "--nodes", str(nodes), "--port", str(port),
         *where, "--binary", BINARY, *([] if prometheus else ["--no-prometheus"]),
         *(["--advertise"] if advertise else []),
         "--", "--countdown", "0", *node_args],
        capture_output=True, text=True, timeout=90)
    assert up.returncode == 0, f"cluster.sh up failed:\n{up.stdout}\n{up.stderr}"
    state = json.loads((folder / "cluster.json").read_text())
    DATABASE[:] = [database or state["postgres"]["url"]]
    state.update(dir=str(folder), door=f"ws://127.0.0.1:{port}/")
    return state


def cluster_down(request, folder):
    """Wakes any frozen node, stops everything, and prints the logs when the test failed."""
    for node in json.loads((folder / "cluster.json").read_text())["nodes"]:
        try:
            os.kill(node["pid"], signal.SIGCONT)
        except ProcessLookupError:
            pass
    subprocess.run([str(SCRIPT), "down", "--dir", str(folder)], timeout=60)
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        for log in sorted(folder.glob("*.log")):
            print(f"---- {log.name} ----\n{log.read_text(errors='replace')}")


@pytest.fixture
def cluster(request, pg_cluster):
    """3 nodes behind the front door on a fresh database (cluster_up's state)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-failover-"))
    try:
        yield cluster_up(folder, 3, pg_cluster.new_database())
    finally:
        cluster_down(request, folder)


def pid_of(state, node_id):
    return next(n["pid"] for n in state["nodes"] if n["id"] == node_id)


TOOK_OVER = re.compile(r"took over table (\S+) from (\S+) ")


def takeovers(state):
    """Every table takeover the nodes logged, as (node, table, from whom) in each node's order.
    A node logs a takeover before it plays the table (and after it counts it in
    `matchismo_takeovers_total`): once a client played a table on its new node, its takeover
    is here. A live node may take a table again from a node that stood still past its lease on
    a loaded machine: the takeovers *from* a node say what it lost."""
    found = []
    for node in state["nodes"]:
        log = pathlib.Path(state["dir"]) / f"{node['id']}.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        found += [(node["id"], table, owner) for table, owner in TOOK_OVER.findall(text)]
    return found


def lasting(table_state):
    """What a player saw of a game that must survive: the board, the scores, the selections,
    the history (not who is connected, nor the versions their coming and going took)."""
    seen = table_state.comparable()
    players = {seat: {k: p.get(k) for k in ("name", "score", "matches", "selection")}
               for seat, p in seen["players"].items()}
    return {"id": seen["id"], "board": seen["board"], "deckCount": seen["deckCount"],
            "over": seen["over"], "matched": seen["matched"], "history": seen["history"],
            "players": players}


async def seat_pair(door, node, names):
    """Two players on `node` (through the front door) at a new 2-seat Set table, playing."""
    url = f"{door}ws?node={node}"
    a, _ = await LiveClient.open(url, names[0], names[0])
    b, _ = await LiveClient.open(url, names[1], names[1])
    created = await a.request({"type": "createTable", "game": "set", "seats": 2})
    joined = await b.request({"type": "join", "table": created["table"]["id"]})
    assert joined["type"] == "snapshot", joined
    await until_playing(a, b)
    return a, b


async def play_some(players, rng, sets=2, misses=1):
    """A few sets and a miss or two (selections left on the board), one mover at a time."""
    for step in range(sets + misses):
        mover = players[step % 2]
        await mover.until(lambda m=mover: m.state.version == max(p.state.version for p in players),
                          5, "caught up")
        board = [c for c in mover.state.board if not c.get("matched")]
        if step < sets:
            for card in find_sets(board)[0]:
                reply = await mover.request({"type": "choose", "card": card["id"]})
                assert reply["type"] == "diff", reply
        else:
            reply = await mover.request({"type": "choose", "card": rng.choice(board)["id"]})
            assert reply["type"] == "diff", reply
    await converge(*players)


async def come_back(old, door, first_url, deadline):
    """What the web client does after its connection drops: say hello again (with its session
    and the last version it applied) where it was, following any redirect, trying again until
    it sits at its table. Returns the new client. A snapshot that comes back must be at least
    at the version the client had seen (a lost move would take the table back)."""
    url = first_url
    seen_version = old.state.version
    while True:
        if time.monotonic() >= deadline:
            import glob
            psql = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
            dump = subprocess.run([psql, DATABASE[0], "-c", "SELECT id, owner, epoch, open FROM game_table",
                                   "-c", "SELECT token, table_id, seat, owner FROM session",
                                   "-c", "SELECT id, lease_until, now() FROM cluster_node"],
                                  capture_output=True, text=True)
            print(dump.stdout, dump.stderr)
        assert time.monotonic() < deadline, f"{old.label} not back in time"
        try:
            client, welcome = await LiveClient.open(
                url, old.label, old.label + "'", resume=old.session, version=old.state.version,
                read=False)
        except Exception:
            await asyncio.sleep(0.1)
            url = first_url
            continue
        assert welcome["resumed"] is True, welcome
        client.state = old.state
        client.seat = old.seat
        client.start_reading()
        try:
            arrived = await client.wait_for(
                lambda m: m.get("type") in ("redirect", "snapshot", "diff"), 0,
                max(0.1, deadline - time.monotonic()), "the table or a redirect")
        except AssertionError:
            await client.shutdown()
            continue
        if arrived["type"] == "snapshot":
            assert arrived["table"]["version"] >= seen_version, (arrived["table"]["version"], seen_version)
        if arrived["type"] == "redirect":
            await client.shutdown()
            await asyncio.sleep(0.1)  # the web client backs off redirects that chase each other
            url = door.rstrip("/") + arrived["path"]
            continue
        return client


def database_rows(query):
    import glob
    psql = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    answer = subprocess.run([psql, DATABASE[0], "-Atc", query], capture_output=True, text=True,
                            check=True)
    return answer.stdout.strip()
