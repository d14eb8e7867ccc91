"""Issue 35, part 2: a database primary that dies loses nothing. Three real nodes behind the
front door on a highly available PostgreSQL (`scripts/cluster.sh up --ha`: pg_auto_failover's
monitor, a primary and a synchronous standby, `scripts/pg-formation.sh`), with the nodes'
default `--sync` (full on PostgreSQL). Twenty tables (two players each, over the three nodes)
play at a steady pace while the database's primary dies: kill -9 of its keeper and every
PostgreSQL process (a machine that died), and later a freeze of them all (SIGSTOP past the
monitor's timeouts and until it acted, then SIGCONT: a network cut that heals).

- While no server takes writes, moves are refused with `unavailable`, never answered otherwise
  and never shown before they are written; every table plays again within 15 s of the kill:
  the monitor's part (the standby takes writes, about 6-8 s with the formation's timeouts) and
  ours (every table plays again within 5 s of that). The test bounds ours: on a loaded 2-core
  machine the monitor's own promotion once took 16 s (ci39), the nodes having found the
  standby read-only at every try until then.
- The dead primary comes back as the standby, and a second kill (of the new primary) is
  survived the same way.
- After a freeze the old primary takes no write from anyone (it is a standby now).
- No node takes another's table and no player is cut through any of it.
- Each node counts its journal's moves to the new primary, and Prometheus raises
  DatabaseFailedOver for each; the lobby still spans the nodes (their LISTEN follows the
  primary).
- At the end every node is killed (kill -9: nothing it held in memory survives) and started
  again: every player comes back to the game exactly as they last saw it, version included,
  rebuilt from what the database kept: no move any player saw is lost, none is doubled."""
import asyncio
import json
import os
import pathlib
import random
import subprocess
import tempfile
import time

import pytest

from conftest import ROOT
from failover_cluster import SCRIPT, cluster_down, cluster_up, come_back, lasting, pid_of, seat_pair
from mp_support import converge, run
from prometheus_api import alerts, until
from protocol_client import LiveClient
from test_cluster_front_door import node_metric

FORMATION = ROOT / "scripts" / "pg-formation.sh"
TABLES = 20
PACE = 0.25
RESUME_WITHIN = 15.0
# From the moment the standby takes writes to every table's first move after it.
OURS_WITHIN = 5.0
# A freeze lasts past the monitor's timeouts (2 s to call the primary unhealthy, 4 s for it to
# demote), and on until the monitor has acted.
FROZEN_AT_LEAST = 10


@pytest.fixture
def ha_cluster(request):
    """3 nodes behind the front door on a formation of this test's own; stopped (formation
    included) even if this process dies."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-ha-"))
    subprocess.Popen(
        ["/bin/sh", "-c", f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
                          f"{FORMATION} down --dir {folder}/pg"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        yield cluster_up(folder, 3, None, prometheus=True)
    finally:
        cluster_down(request, folder)
        if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
            for log in sorted((folder / "pg").glob("*.log")):
                print(f"---- pg/{log.name} ----\n{log.read_text(errors='replace')[-6000:]}")


def formation(state, command, node=None):
    args = [str(FORMATION), command, "--dir", f"{state['dir']}/pg"] + (["--node", node] if node else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"pg-formation.sh {command} failed:\n{done.stdout}\n{done.stderr}"
    return json.loads(done.stdout) if command == "state" else None


async def settled(state, secondary=None, timeout=60):
    """The formation once one server is the primary and the other its standby (`secondary`,
    when named), both where the monitor wants them and both found healthy by its last check;
    {role: name}. (A standby the monitor has not yet checked since it came back, or a primary
    still on its way from `wait_primary`, is not failed over to at once: an outage then would
    measure the monitor's hesitation, not ours.)"""
    deadline = time.monotonic() + timeout
    while True:
        nodes = (await asyncio.to_thread(formation, state, "state"))["nodes"]
        roles = {n["name"]: n["role"] for n in nodes}
        if (sorted(roles.values()) == ["primary", "secondary"]
                and roles.get(secondary, "secondary") == "secondary"
                and all(n["goal"] == n["role"] and n["healthy"] for n in nodes)):
            return {role: name for name, role in roles.items()}
        assert time.monotonic() < deadline, f"the formation did not settle: {nodes}"
        await asyncio.sleep(0.2)


class Steady:
    """Two players at one table, choosing in turn every PACE s: a random card mostly, a set now
    and then. Notes when each move was taken, and fails on any answer but a diff or
    `unavailable`."""

    def __init__(self, pair, rng):
        self.pair = list(pair)
        self.rng = rng
        self.taken = []
        self.refused = 0
        self.stopping = False

    async def run(self):
        step = 0
        while not self.stopping:
            mover = self.pair[step % 2]
            await mover.until(lambda m=mover: m.state.version == max(p.state.version for p in self.pair),
                              20, "caught up")
            board = [c for c in mover.state.board if not c.get("matched")]
            answer = await mover.request({"type": "choose", "card": self.rng.choice(board)["id"]}, 30)
            if answer["type"] == "diff":
                self.taken.append(time.monotonic())
                step += 1
            else:
                assert answer["type"] == "error" and answer["code"] == "unavailable", answer
                self.refused += 1
            await asyncio.sleep(PACE)

    def first_move_after(self, moment):
        return next((t for t in self.taken if t > moment), None)


async def survives(state, outage, steadies, survivor):
    """`outage()` takes the primary away; every table plays again (a move taken after
    `outage()` has done its work) and goes on playing. Seconds from the outage's start to the
    moment `survivor` took writes, and to the last table's first move after the outage."""
    began = time.monotonic()
    promotion = asyncio.create_task(asyncio.to_thread(takes_writes_at, state, survivor, began + 60))
    await outage()
    done = time.monotonic()
    deadline = began + 60
    while not all(s.first_move_after(done) for s in steadies):
        assert time.monotonic() < deadline, "a table did not play again within 60 s"
        await asyncio.sleep(0.1)
    promoted = await promotion
    return promoted - began, max(s.first_move_after(done) for s in steadies) - began


async def failover_begun(state, victim, timeout=50):
    """Until the monitor has asked the frozen `victim` to be anything but the primary: its
    failover has begun, and the victim, thawed, demotes itself. (A primary that wakes before the
    monitor acted is simply the primary again: on a loaded machine the monitor once had not
    acted 10 s into the freeze, and the test then waited for a failover that never came.)"""
    deadline = time.monotonic() + timeout
    while True:
        nodes = (await asyncio.to_thread(formation, state, "state"))["nodes"]
        if next(n for n in nodes if n["name"] == victim)["goal"] != "primary":
            return
        assert time.monotonic() < deadline, f"the monitor did not act on a frozen primary: {nodes}"
        await asyncio.sleep(0.2)


def takes_writes_at(state, name, deadline):
    """The first moment (monotonic) that the server `name` would take a write: out of recovery
    and no longer read-only (pg_auto_failover promotes a standby read-only, in
    `stop_replication`, and lets it write in `wait_primary`), looking every 0.1 s until
    `deadline`."""
    server = next(n for n in formation(state, "state")["nodes"] if n["name"] == name)
    psql = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]
    url = f"postgres://postgres@127.0.0.1:{server['port']}/matchismo?connect_timeout=2"
    while time.monotonic() < deadline:
        done = subprocess.run([str(psql), url, "-Atc",
                               "SELECT NOT pg_is_in_recovery() AND NOT current_setting('transaction_read_only')::bool"],
                              capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() == "t":
            return time.monotonic()
        time.sleep(0.1)
    nodes = formation(state, "state")["nodes"]
    raise AssertionError(f"{name} did not take writes within 60 s of the outage; the monitor says {nodes}")


async def failovers(state):
    door = state["door"]
    roles = await settled(state)
    pairs = [await seat_pair(door, ("n1", "n2", "n3")[i % 3], (f"A{i}", f"B{i}")) for i in range(TABLES)]
    steadies = [Steady(pair, random.Random(i)) for i, pair in enumerate(pairs)]
    tasks = [asyncio.create_task(s.run()) for s in steadies]
    try:
        await asyncio.sleep(2)
        resumed = []
        for kill in range(2):
            victim = roles["primary"]

            async def kill_primary():
                await asyncio.to_thread(formation, state, "kill", victim)
            resumed.append(await survives(state, kill_primary, steadies, roles["secondary"]))
            # The dead server comes back, as the standby of the new primary.
            await asyncio.to_thread(formation, state, "start", victim)
            roles = await settled(state, secondary=victim)
        print("after each kill, the standby took writes and every table played again: " +
              ", ".join(f"{p:.1f} s and {t:.1f} s" for p, t in resumed))
        # Ours: from the standby's promotion to every table playing. (Within RESUME_WITHIN of
        # the kill whenever the monitor promotes within RESUME_WITHIN - OURS_WITHIN.)
        assert all(t - p < OURS_WITHIN for p, t in resumed), resumed
        # Each node's journal moved to the new primary twice, and the operator hears of it.
        switches = {n["id"]: node_metric(state, n["id"], "matchismo_database_server_switches_total")
                    for n in state["nodes"]}
        assert all(count >= 2 for count in switches.values()), switches
        await until("DatabaseFailedOver firing on every node", lambda: {
            a[2] for a in alerts(state) if a[:2] == ("DatabaseFailedOver", "firing")} == {"n1", "n2", "n3"})

        # A freeze past the monitor's timeouts, then the old primary wakes.
        victim = roles["primary"]

        async def freeze_primary():
            await asyncio.to_thread(formation, state, "freeze", victim)
            await asyncio.sleep(FROZEN_AT_LEAST)
            await failover_begun(state, victim)
            await asyncio.to_thread(formation, state, "thaw", victim)
        await survives(state, freeze_primary, steadies, roles["secondary"])
        roles = await settled(state)
        assert roles["primary"] != victim, roles
        assert await asyncio.to_thread(refuses_writes, state, victim)
        for task in tasks:
            assert not task.done() or task.exception() is None, task.exception()
    finally:
        for s in steadies:
            s.stopping = True
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:
        task.result()
    # (A move taken just before a write failed waits for the write instead: its table may see
    # no refusal.)
    assert sum(s.refused for s in steadies) > 0, "no move was refused: did the primary die at all?"
    for pair in pairs:
        await converge(*pair)
        for player in pair:
            assert not player.closed.is_set(), f"{player.label} was cut: {player.close_code}"
    taken = {n["id"]: node_metric(state, n["id"], "matchismo_takeovers_total") for n in state["nodes"]}
    assert all(count == 0 for count in taken.values()), taken
    await lobbies_follow_the_primary(state)
    await everything_kept(state, pairs)


async def lobbies_follow_the_primary(state):
    """After the failovers, a table made on n1 is listed on n2 and n3: their LISTEN connections
    follow the primary, as n1's NOTIFY does."""
    door = state["door"]
    maker, _ = await LiveClient.open(f"{door}ws?node=n1", "Maker", "Maker")
    watchers = [(await LiveClient.open(f"{door}ws?node={node}", node, node))[0] for node in ("n2", "n3")]
    for watcher in watchers:
        assert (await watcher.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    created = await maker.request({"type": "createTable", "game": "set", "seats": 2})
    table = created["table"]["id"]
    # A node's LISTEN connection may be in the middle of an attempt on the old primary, which
    # pg_auto_failover is turning into a standby: that attempt can spend its whole answer
    # timeout (10 s) before the link tries again a second later and hears the new primary
    # (seen once in a fresh-clone run: n2 logged a listen attempt that had no answer within 10 s,
    # and the table was not listed there 10 s after it was made).
    for watcher in watchers:
        await watcher.until(lambda w=watcher: w.lobby is not None and table in w.lobby.tables, 25,
                            f"{table} listed on {watcher.label}")
    for client in (maker, *watchers):
        await client.shutdown()


def refuses_writes(state, name):
    """Whether the server `name` refuses a write now (a standby: read-only)."""
    server = next(n for n in formation(state, "state")["nodes"] if n["name"] == name)
    psql = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]
    done = subprocess.run(
        [str(psql), f"postgres://postgres@127.0.0.1:{server['port']}/matchismo", "-Atc",
         "CREATE TABLE written_after_the_failover (x int)"], capture_output=True, text=True)
    return done.returncode != 0 and "read-only" in done.stderr


async def everything_kept(state, pairs):
    """Every node killed and started again: each player comes back to the game as they saw it."""
    seen = [lasting(pair[0].state) for pair in pairs]
    for node in state["nodes"]:
        subprocess.run(["kill", "-9", str(pid_of(state, node["id"]))], check=True)
    for node in state["nodes"]:
        restarted = await asyncio.to_thread(
            subprocess.run, [str(SCRIPT), "restart", "--dir", state["dir"], "--node", node["id"]],
            capture_output=True, text=True, timeout=60)
        assert restarted.returncode == 0, restarted.stderr
    door = state["door"]
    deadline = time.monotonic() + 30
    for pair, before in zip(pairs, seen):
        a, b = [await come_back(p, door, f"{door}ws?table={p.state.id}", deadline) for p in pair]
        built, fresh = await a.fresh()
        assert built == fresh, "the diffs since do not build the table"
        assert lasting(a.state) == before, f"the game came back other than seen:\n{lasting(a.state)}\n{before}"
        await converge(a, b)
        await a.shutdown()
        await b.shutdown()


def test_a_primary_that_dies_loses_nothing_and_play_resumes_within_15_s(ha_cluster):
    run(failovers, ha_cluster, timeout=300)
