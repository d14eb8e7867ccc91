"""Issue 35, "Leases across the switch": a database that stops answering for a while (every
PostgreSQL process stopped with SIGSTOP for 3 s, longer than the nodes' 2 s leases, then let go)
must not make live nodes take each other's tables. Three real nodes behind the front door on a
PostgreSQL server of this test's own, four tables in play (two players each); the freeze comes
twice. Afterwards no node took a table over (the takeover counter of every node stays at 0, and
no node's log says it took one), no player was cut, and every table takes moves again on its
own node.

The decision itself (a lease counts as run out only a grace after this node's own unbroken
renewals began, `alive_since`) is shown against the real database with a manual clock in
TakeoverTests.afterTheDatabaseStoodStillALiveNodeKeepsItsTables, where the old rule takes a live
node's table; here, on this machine, the old rule did not happen to lose the race in three
tries, so this test guards the whole path rather than proving the race."""
import asyncio
import pathlib
import random
import tempfile
import time

import pytest

from failover_cluster import cluster_down, cluster_up, play_some, seat_pair
from mp_support import converge, run
from test_cluster_front_door import node_metric

FREEZE_SECONDS = 3.0


@pytest.fixture
def cluster_on_its_own_database(request):
    """3 nodes (default 2 s leases) behind the front door on a PostgreSQL server of this
    test's own, which the test freezes."""
    from pg_support import Postgres
    postgres = Postgres()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-dbfreeze-"))
    try:
        state = cluster_up(folder, 3, postgres.new_database())
        state["postgres"] = postgres
        yield state
    finally:
        postgres.resume()
        cluster_down(request, folder)
        postgres.destroy()


async def moves_again(pairs, rng, deadline):
    """Each table takes a move again (the journal writes again), each on the node it was on."""
    for a, b in pairs:
        while True:
            assert time.monotonic() < deadline, f"table {a.state.id} takes no move"
            board = [c for c in a.state.board if not c.get("matched")]
            answer = await a.request({"type": "choose", "card": rng.choice(board)["id"]})
            if answer["type"] == "diff":
                break
            assert answer["type"] == "error" and answer["code"] == "unavailable", answer
            await asyncio.sleep(0.2)
        await converge(a, b)


async def freezes(state):
    door = state["door"]
    postgres = state["postgres"]
    rng = random.Random(35)
    pairs = [await seat_pair(door, node, (f"A{i}", f"B{i}"))
             for i, node in enumerate(("n1", "n2", "n3", "n1"))]
    for pair in pairs:
        await play_some(pair, rng, sets=1, misses=0)
    for _ in range(2):
        await asyncio.to_thread(postgres.pause)
        await asyncio.sleep(FREEZE_SECONDS)
        await asyncio.to_thread(postgres.resume)
        await moves_again(pairs, rng, time.monotonic() + 20)
    for pair in pairs:
        for player in pair:
            assert not player.closed.is_set(), f"{player.label} was cut: {player.close_code}"
    # Each node still holds the tables it had.
    held = tables_held(state)
    assert held == {"n1": 2, "n2": 1, "n3": 1}, held


def tables_held(state):
    return {node["id"]: node_metric(state, node["id"], "matchismo_tables") for node in state["nodes"]}


def test_a_database_that_stands_still_makes_no_live_node_take_another_s_tables(cluster_on_its_own_database):
    state = cluster_on_its_own_database
    run(freezes, state, timeout=120)
    taken = {node["id"]: node_metric(state, node["id"], "matchismo_takeover_seconds_count")
             for node in state["nodes"]}
    assert all(count == 0 for count in taken.values()), taken
    for log in pathlib.Path(state["dir"]).glob("n*.log"):
        assert "took over table" not in log.read_text(errors="replace"), log.name
