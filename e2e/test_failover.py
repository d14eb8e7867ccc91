"""A node dies, nothing is lost (issue 20), end to end: real nodes behind a real HAProxy
(`scripts/cluster.sh`), a real PostgreSQL. kill -9 of the node that holds several tables in the
middle of play: each table plays again on another node within 5 s, with every move any client
saw, every player back in their seat, and versions that go on. A node frozen past its lease
(SIGSTOP) and woken again (SIGCONT) writes nothing more: a move it is sent is refused, its client
is closed (4005) and comes back at the table's new node. Repeated kills time the failover; a page plays on through a reconnect while its node is
killed (restarts: test_failover_restarts.py)."""
import asyncio
import json
import pathlib
import random
import subprocess
import time

from conftest import BINARY
from failover_cluster import (SCRIPT, cluster, come_back, database_rows, lasting, pid_of,  # noqa: F401
                              play_some, seat_pair, takeovers)
from mp_support import converge, run, until_playing
from protocol_client import LiveClient
from table_state import find_sets
from test_cluster_front_door import node_metric


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
    # The live nodes took the three tables over, each once, and say so.
    assert tables_taken_from(state, "n2") == sorted(pair[0].state.id for pair in pairs)
    return played_again


def tables_taken_from(state, dead):
    """The tables the live nodes took from the node `dead` (killed), sorted, each taken from it
    once; their metrics count every takeover they logged (a live node that stood still past its
    lease on a loaded machine may lose a table to another: counted, and not from `dead`)."""
    live = [node["id"] for node in state["nodes"] if node["id"] != dead]

    def counted(name):
        return sum(node_metric(state, node, name) for node in live)

    # The metrics count a takeover just before its node logs it: wait for the logs to catch up.
    deadline = time.monotonic() + 5
    while (counted("matchismo_takeovers_total") != len(takeovers(state))
           and time.monotonic() < deadline):
        time.sleep(0.05)
    taken = takeovers(state)
    assert counted("matchismo_takeovers_total") == len(taken), taken
    # (A table nobody held has no time since its holder's renewal.)
    timed = sum(owner != "nobody" for _, _, owner in taken)
    assert counted("matchismo_takeover_seconds_count") == timed, taken
    return sorted(table for _, table, owner in taken if owner == dead)


def test_a_killed_nodes_tables_play_again_on_another_node_within_5_s(cluster):
    played_again = run(killed_mid_play, cluster, timeout=90)
    print(f"tables played again {', '.join(f'{t:.2f}' for t in played_again)} s after the kill")
    assert max(played_again) < 5, f"tables played again after {played_again} s"


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
    from browser_games import (CARDS, SHOWN_CARDS, claim_a_set, seat_two_through_the_front_door,
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
    assert len(tables_taken_from(cluster, "n2")) == 1
    for driver in (ann, bob):
        assert not severe_errors(driver), severe_errors(driver)
