"""Restarts lose nothing (issue 20), end to end: real nodes behind a real HAProxy
(`scripts/cluster.sh`), a real PostgreSQL. A rolling restart of every node while tables play, and
the database itself restarted while games run (a short outage moves no table; after a long one a
node whose lease ran out gives its tables up cleanly and its players come back at the new
owner)."""
import asyncio
import os
import pathlib
import random
import subprocess
import tempfile
import time

import pytest
import websockets

from failover_cluster import SCRIPT, cluster, cluster_down, cluster_up, come_back, play_some, seat_pair  # noqa: F401
from mp_support import converge, run
from test_cluster_front_door import node_metric


class Mover:
    """A pair of players who keep playing (toggling cards, one move at a time) through every
    reconnect, until told to stop; what they saw is checked at the end."""

    def __init__(self, door, pair, node):
        self.door = door
        self.players = list(pair)
        self.urls = [f"{door}ws?table={pair[0].state.id}&node={node}"] * 2
        self.accepted = 0
        self.errors = []
        self.reconnects = 0
        self.stopping = False

    async def back(self, index):
        old = self.players[index]
        self.reconnects += 1
        self.players[index] = await come_back(old, self.door, self.urls[index], time.monotonic() + 20)

    async def run(self, rng):
        turn = 0
        while not self.stopping:
            index = turn % 2
            turn += 1
            for i, player in enumerate(self.players):
                if player.closed.is_set():
                    await self.back(i)
            mover = self.players[index]
            try:
                await mover.until(
                    lambda: mover.state.version >= max(p.state.version for p in self.players)
                    or mover.closed.is_set(), 5, "caught up")
                if mover.closed.is_set():
                    continue
                board = [c for c in mover.state.board if not c.get("matched")]
                reply = await mover.request({"type": "choose", "card": rng.choice(board)["id"]}, 5)
            except (AssertionError, websockets.ConnectionClosed):
                continue  # its connection closed meanwhile: it comes back at the top
            if reply["type"] == "diff":
                self.accepted += 1
            else:
                self.errors.append(reply)
            await asyncio.sleep(0.02)


async def rolling_restart(state):
    door = state["door"]
    rng = random.Random(5)
    movers = []
    for index, node in enumerate(("n1", "n2", "n3")):
        pair = await seat_pair(door, node, (f"A{index}", f"B{index}"))
        movers.append(Mover(door, pair, node))
    tasks = [asyncio.create_task(m.run(rng)) for m in movers]
    try:
        for node in ("n1", "n2", "n3"):
            marks = [m.accepted for m in movers]
            restarted = await asyncio.to_thread(
                subprocess.run, [str(SCRIPT), "restart", "--dir", state["dir"], "--node", node],
                capture_output=True, text=True, timeout=60)
            assert restarted.returncode == 0, restarted.stderr
            # Every table plays on after this node's restart before the next one restarts.
            deadline = time.monotonic() + 20
            while any(m.accepted < mark + 5 for m, mark in zip(movers, marks)):
                for task in tasks:
                    if task.done():
                        task.result()  # a mover that failed says why
                assert time.monotonic() < deadline, [m.accepted - k for m, k in zip(movers, marks)]
                await asyncio.sleep(0.05)
    finally:
        for m in movers:
            m.stopping = True
        await asyncio.gather(*tasks, return_exceptions=True)
    for m in movers:
        for i, player in enumerate(m.players):
            if player.closed.is_set():
                await m.back(i)
        # Nothing lost: the states built from every diff (with no version gap) agree with a
        # fresh snapshot; no move was refused.
        await converge(*m.players)
        assert not m.errors, m.errors
        assert all(not p.problems for p in m.players)
    return [(m.accepted, m.reconnects) for m in movers]


def test_a_rolling_restart_of_every_node_loses_no_move(cluster):
    counts = run(rolling_restart, cluster, timeout=150)
    print(f"moves accepted and reconnects per table: {counts}")


@pytest.fixture
def own_database_cluster(request):
    """2 nodes behind the front door on a PostgreSQL server of this test's own (it stops it),
    with 6 s leases: an outage (stop, wait, start) shorter than that, and one longer."""
    from pg_support import Postgres
    postgres = Postgres()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-dbrestart-"))
    try:
        state = cluster_up(folder, 2, postgres.new_database(), "--lease", "6000")
        state["postgres"] = postgres
        yield state
    finally:
        if not postgres_running(postgres):
            postgres.start()
        cluster_down(request, folder)
        postgres.destroy()


def postgres_running(postgres):
    return os.path.exists(os.path.join(postgres.data, "postmaster.pid"))


async def database_restarts(state):
    door = state["door"]
    postgres = state["postgres"]
    rng = random.Random(13)
    pairs = [await seat_pair(door, node, (f"A{node}", f"B{node}")) for node in ("n1", "n2")]
    for pair in pairs:
        await play_some(pair, rng, sets=1, misses=0)
    for outage in (1.0, 8.0):
        await asyncio.to_thread(postgres.stop)
        # Moves are refused with `unavailable` while the journal cannot be written; nothing
        # else changes for the players.
        for a, _ in pairs:
            board = [c for c in a.state.board if not c.get("matched")]
            refused = None
            for _ in range(40):
                # The first move may be taken before a write fails: its diff then waits until
                # the database is back (nobody sees a move the journal does not have).
                sent = await a.send({"type": "choose", "card": rng.choice(board)["id"]})
                try:
                    answer = await a.reply(sent, 0.5)
                except AssertionError:
                    continue
                if answer["type"] == "error":
                    refused = answer
                    break
            assert refused and refused["code"] == "unavailable", refused
        await asyncio.sleep(outage)
        await asyncio.to_thread(postgres.start)
        # Every table plays again, on its node after a short outage, maybe on the other after
        # a long one (its node's lease ran out while the database was away: it gives the table
        # up cleanly, and its players come back at the new owner).
        deadline = time.monotonic() + 20
        for index, pair in enumerate(pairs):
            players = list(pair)
            while True:
                for i, player in enumerate(players):
                    if player.closed.is_set():
                        node = ("n1", "n2")[index]
                        players[i] = await come_back(
                            player, door, f"{door}ws?table={player.state.id}&node={node}", deadline)
                a = players[0]
                board = [c for c in a.state.board if not c.get("matched")]
                try:
                    answer = await a.request(
                        {"type": "choose", "card": rng.choice(board)["id"]}, 5)
                except (AssertionError, websockets.ConnectionClosed):
                    continue
                if answer["type"] == "diff":
                    break
                assert answer["code"] == "unavailable", answer
                assert time.monotonic() < deadline, "the table did not play again"
                await asyncio.sleep(0.2)
            await converge(*players)
            pairs[index] = tuple(players)
        takeovers = sum(node_metric(state, node, "matchismo_takeovers_total") for node in ("n1", "n2"))
        if outage < 6:
            assert takeovers == 0, "a short outage moved a table"
        print(f"after a {outage:.0f} s outage: {takeovers:.0f} tables taken over in all")


def test_the_database_restarted_while_games_run_loses_nothing(own_database_cluster):
    run(database_restarts, own_database_cluster, timeout=120)
