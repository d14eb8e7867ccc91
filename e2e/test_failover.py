"""A node dies, nothing is lost (issue 20), end to end: real nodes behind a real HAProxy
(`scripts/cluster.sh`), a real PostgreSQL. kill -9 of the node that holds several tables in the
middle of play: each table plays again on another node within 5 s, with every move any client
saw, every player back in their seat, and versions that go on. A node frozen past its lease
(SIGSTOP) and woken again (SIGCONT) writes nothing more: a move it is sent is refused, its client
is closed (4005) and comes back at the table's new node."""
import asyncio
import json
import os
import pathlib
import random
import signal
import subprocess
import tempfile
import time

import pytest
import websockets

from conftest import BINARY, ROOT, free_port
from mp_support import converge, run, until_playing
from protocol_client import LiveClient, find_sets
from test_cluster_front_door import node_metric

SCRIPT = ROOT / "scripts" / "cluster.sh"
DATABASE = []


def cluster_up(folder, nodes, database, *node_args):
    """`scripts/cluster.sh up` in `folder`: its cluster.json with `dir` and `door` (the front
    door's WebSocket URL)."""
    port = free_port()
    up = subprocess.run(
        [str(SCRIPT), "up", "--dir", str(folder), "--nodes", str(nodes), "--port", str(port),
         "--database", database, "--binary", BINARY, "--", "--countdown", "0", *node_args],
        capture_output=True, text=True, timeout=90)
    assert up.returncode == 0, f"cluster.sh up failed:\n{up.stdout}\n{up.stderr}"
    DATABASE[:] = [database]
    state = json.loads((folder / "cluster.json").read_text())
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
        except AssertionError as error:
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


async def killed_mid_play(state):
    door = state["door"]
    rng = random.Random(7)
    pairs = [await seat_pair(door, "n2", (f"A{i}", f"B{i}")) for i in range(3)]
    for pair in pairs:
        await play_some(pair, rng)
    before = [lasting(pair[0].state) for pair in pairs]
    versions = [pair[0].state.version for pair in pairs]

    killed_at = time.monotonic()
    subprocess.run(["kill", "-9", str(pid_of(state, "n2"))], check=True)
    deadline = killed_at + 15
    back = []
    for pair in pairs:
        await asyncio.gather(*(p.closed.wait() for p in pair))
        back.append(await asyncio.gather(
            *(come_back(p, door, f"{door}ws?table={p.state.id}&node=n2", deadline) for p in pair)))
    played_again = []
    for (a, b), seen, version in zip(back, before, versions):
        # Both in their seats, the game as they saw it before the kill (a fresh snapshot: the
        # states built from the diffs since must agree with it, no gap in the versions).
        assert a.seat == 0 and b.seat == 1
        built, fresh = await a.fresh()
        assert built == fresh, "the diffs since the kill do not build the table"
        assert lasting(a.state) == seen, f"the game came back other than seen:\n{lasting(a.state)}\n{seen}"
        # The next move answers, its version after every one they saw.
        board = [c for c in a.state.board if not c.get("matched")]
        reply = await a.request({"type": "choose", "card": find_sets(board)[0][0]["id"]})
        assert reply["type"] == "diff" and reply["version"] > version, reply
        played_again.append(time.monotonic() - killed_at)
        await converge(a, b)
    # The live nodes took the three tables over, and say so.
    taken = sum(node_metric(state, node, "matchismo_takeovers_total") for node in ("n1", "n3"))
    assert taken == 3, taken
    assert sum(node_metric(state, node, "matchismo_takeover_seconds_count") for node in ("n1", "n3")) == 3
    return played_again


def test_a_killed_nodes_tables_play_again_on_another_node_within_5_s(cluster):
    played_again = run(killed_mid_play, cluster, timeout=90)
    print(f"tables played again {', '.join(f'{t:.2f}' for t in played_again)} s after the kill")
    assert max(played_again) < 5, f"tables played again after {played_again} s"


def database_rows(query):
    import glob
    psql = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    answer = subprocess.run([psql, DATABASE[0], "-Atc", query], capture_output=True, text=True,
                            check=True)
    return answer.stdout.strip()


async def frozen_then_woken(state):
    door = state["door"]
    n2_port = next(n["port"] for n in state["nodes"] if n["id"] == "n2")
    rng = random.Random(11)
    # Ada talks to n2 directly (her connection outlives the freeze); Bob through the front door.
    ada, _ = await LiveClient.open(f"ws://127.0.0.1:{n2_port}/", "Ada", "Ada")
    bob, _ = await LiveClient.open(f"{door}ws?node=n2", "Bob", "Bob")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2})
    table = created["table"]["id"]
    assert (await bob.request({"type": "join", "table": table}))["type"] == "snapshot"
    await until_playing(ada, bob)
    await play_some((ada, bob), rng, sets=1, misses=0)
    seen = lasting(ada.state)
    subprocess.run(["kill", "-STOP", str(pid_of(state, "n2"))], check=True)
    frozen_at = time.monotonic()
    # Bob's tunnel is shut when the front door marks n2 down; he comes back at the new owner.
    await bob.closed.wait()
    bob = await come_back(bob, door, f"{door}ws?table={table}&node=n2", frozen_at + 15)
    owner = database_rows(f"SELECT owner || ' ' || epoch FROM game_table WHERE id = '{table}'")
    assert owner.split()[0] in ("n1", "n3") and owner.split()[1] == "2", owner
    moves = database_rows(f"SELECT count(*) FROM move WHERE table_id = '{table}'")

    subprocess.run(["kill", "-CONT", str(pid_of(state, "n2"))], check=True)
    # n2 still thinks the table is its own and takes Ada's move; its write is refused, so she
    # never sees it: her connection is closed at once (4005), with no diff of it.
    mark = ada.mark()
    board = [c for c in ada.state.board if not c.get("matched")]
    await ada.send({"type": "choose", "card": rng.choice(board)["id"]})
    await asyncio.wait_for(ada.closed.wait(), 10)
    assert ada.close_code == 4005, ada.close_code
    assert not any(m.get("type") == "diff" for m in ada.log[mark:]), ada.log[mark:]
    assert database_rows(f"SELECT count(*) FROM move WHERE table_id = '{table}'") == moves
    assert database_rows(f"SELECT owner || ' ' || epoch FROM game_table WHERE id = '{table}'") == owner
    assert node_metric(state, "n2", "matchismo_journal_fenced_writes_total") >= 1
    assert node_metric(state, "n2", "matchismo_tables_given_up_total") == 1
    # Ada comes back through the front door and sits at the new owner; nothing doubled.
    ada = await come_back(ada, door, f"{door}ws?table={table}&node=n2", time.monotonic() + 10)
    built, fresh = await ada.fresh()
    assert built == fresh
    assert lasting(ada.state) == seen, f"{lasting(ada.state)}\n{seen}"
    await converge(ada, bob)
    reply = await bob.request({"type": "choose", "card": find_sets(
        [c for c in bob.state.board if not c.get("matched")])[0][0]["id"]})
    assert reply["type"] == "diff", reply


def test_a_node_frozen_past_its_lease_writes_nothing_when_it_wakes(cluster):
    run(frozen_then_woken, cluster, timeout=90)


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


async def repeated_kills(state, kills):
    """`kills` rounds: two tables on the victim (n2 and n3 in turn), some play, kill -9, and the
    time from the kill to the first move answered again at each table; the victim is started
    again before the next round. Meanwhile a load generator keeps tables busy on n1
    (FAILOVER_LOAD_TABLES × 4 players, FAILOVER_LOAD_RATE moves/s: 100 and 1,000 by default;
    250 and 5,000 are scenario a)."""
    import os
    load_binary = os.path.join(os.path.dirname(BINARY), "matchismo-load")
    port = int(state["door"].rsplit(":", 1)[1].strip("/"))
    tables = os.environ.get("FAILOVER_LOAD_TABLES", "100")
    rate = os.environ.get("FAILOVER_LOAD_RATE", "1000")
    load = subprocess.Popen(
        [load_binary, "--mode", "open", "--port", str(port), "--path", "/ws?node=n1",
         "--tables", tables, "--seats", "4", "--rate", rate, "--warmup", "1",
         "--duration", str(20 * kills + 30), "--json"],
        stdout=open(pathlib.Path(state["dir"]) / "load.json", "w"), stderr=subprocess.DEVNULL)
    rng = random.Random(3)
    times = []
    try:
        for round_ in range(kills):
            victim = ("n2", "n3")[round_ % 2]
            pairs = [await seat_pair(state["door"], victim, (f"A{round_}{i}", f"B{round_}{i}"))
                     for i in range(2)]
            for pair in pairs:
                await play_some(pair, rng, sets=1, misses=1)
            killed_at = time.monotonic()
            subprocess.run(["kill", "-9", str(pid_of(state, victim))], check=True)

            async def first_move_again(pair):
                await asyncio.gather(*(p.closed.wait() for p in pair))
                url = f"{state['door']}ws?table={pair[0].state.id}&node={victim}"
                a = await come_back(pair[0], state["door"], url, killed_at + 20)
                board = [c for c in a.state.board if not c.get("matched")]
                reply = await a.request({"type": "choose", "card": rng.choice(board)["id"]})
                assert reply["type"] == "diff", reply
                return time.monotonic() - killed_at, a

            results = await asyncio.gather(*(first_move_again(pair) for pair in pairs))
            times += [seconds for seconds, _ in results]
            for _, client in results:
                await client.shutdown()
            for pair in pairs:
                for player in pair:
                    await player.shutdown()
            restarted = await asyncio.to_thread(
                subprocess.run, [str(SCRIPT), "restart", "--dir", state["dir"], "--node", victim],
                capture_output=True, text=True, timeout=60)
            assert restarted.returncode == 0, restarted.stderr
            state.update(json.loads((pathlib.Path(state["dir"]) / "cluster.json").read_text()))
        # The background load ran all along (its connections on n1, which no round killed).
        assert load.poll() is None, "the load generator stopped"
    finally:
        load.terminate()
        load.wait(timeout=10)
    return times


def test_failover_time_over_repeated_kills(cluster):
    """Median ≤ 3 s and worst ≤ 5 s from a kill -9 to the first move answered again at each of
    the dead node's tables. FAILOVER_KILLS sets the rounds (3 in `make test`; 20 for
    docs/BENCHMARKS.md)."""
    import os
    import statistics
    kills = int(os.environ.get("FAILOVER_KILLS", "3"))
    times = run(repeated_kills, cluster, kills, timeout=60 + 25 * kills)
    times.sort()
    print(f"failover over {kills} kills, {len(times)} tables: median {statistics.median(times):.2f} s, "
          f"worst {times[-1]:.2f} s; all {', '.join(f'{t:.2f}' for t in times)}")
    assert statistics.median(times) <= 3 and times[-1] <= 5, times


def test_a_page_plays_on_through_a_reconnect_while_its_node_is_killed(cluster, browsers):
    """Two pages play at a table on n2 (opened with `?node=n2`); n2 is killed: both pages
    reconnect through the front door on their own, are sent to the table's new node, and the
    game goes on there: a set claimed after the kill is seen by both, with the same scores."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_browser_games import (CARDS, SHOWN_CARDS, claim_a_set, seat_two_through_the_front_door,
                                    severe_errors)

    door = cluster["door"].replace("ws://", "http://")
    ann, bob = browsers(), browsers()
    seat_two_through_the_front_door(ann, bob, door, "n2", "n2")
    scores = ("return [...document.querySelectorAll('#scoreboard [data-seat] .score')]"
              ".map((e) => e.textContent.trim());")

    assert claim_a_set(ann, (ann, bob))
    before = ann.execute_script(scores)
    subprocess.run(["kill", "-9", str(pid_of(cluster, "n2"))], check=True)
    # Both pages notice, reconnect and come back to the table on its new node.
    for driver in (ann, bob):
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") != "online")
    for driver in (ann, bob):
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "online"
            and d.find_element(By.ID, "table").get_attribute("data-phase") == "playing"
            and d.execute_script(scores) == before)
    assert claim_a_set(bob, (ann, bob))
    for driver in (ann, bob):
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(scores) != before)
    assert ann.execute_script(scores) == bob.execute_script(scores)
    assert ann.execute_script(SHOWN_CARDS, CARDS) == bob.execute_script(SHOWN_CARDS, CARDS)
    taken = sum(node_metric(cluster, node, "matchismo_takeovers_total") for node in ("n1", "n3"))
    assert taken == 1, taken
    for driver in (ann, bob):
        assert not severe_errors(driver), severe_errors(driver)


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
