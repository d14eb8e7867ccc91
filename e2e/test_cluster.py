"""Many nodes, one lobby, end to end: three real `matchismo` nodes sharing one real PostgreSQL
database, each test run twice: with clients connecting to the nodes directly (each node gives its
own URL with `--advertise-url`), and through the front door (`scripts/cluster.sh up`: a real
HAProxy with the generated configuration; a client reaches a given node with `/ws?node=N`, as a
redirect's path does). A table made on one node is listed on the others within half a second;
joining, quick match and invite codes across nodes answer with a `redirect` that the client
follows with its session (naming the node's URL only where it gives one); a spectator watches
from the node it reached, which links to the table's node at the address the nodes give each
other, whether or not they give one to clients (issue 36); the game is played to its end on the
table's node, seen alike by everyone; a high score finished on one node is read on another, and its replay; a rated
game's ratings are the same on every node; a `hello`
that resumes on the wrong node is sent on; a forged table or node in the URL never reaches a
table through a node that does not hold it; each node counts what it did."""
import asyncio
import json
import pathlib
import subprocess
import tempfile
import time

import pytest

from conftest import BINARY, ROOT, RunningServer, free_port, scrape_metric
from mp_support import FAST, converge, run, until_playing
from protocol_client import LiveClient
from table_state import find_sets
from test_records import PLAYER_A as RATED_A, PLAYER_B as RATED_B, ask, play_set_to_the_end
from test_ratings import a_rated_quick_match


class Node:
    """One node as the tests reach it: its id, where a client connects to reach it, and its
    port for /metrics (its own, or `--metrics-port`'s)."""

    def __init__(self, node_id, ws_url, port):
        self.id = node_id
        self.ws_url = ws_url
        self.port = port

    def metric(self, name):
        """The sum of every sample of metric `name` on this node's /metrics."""
        return scrape_metric(self.port, name)


class Cluster(list):
    """The three nodes, and the front door's WebSocket URL (None: clients go to nodes directly)."""
    door = None


@pytest.fixture(params=["direct", "front door"])
def nodes(request, pg_cluster):
    """Three nodes n1, n2, n3 on one fresh database, reached directly or through the front door;
    stopped after the test (logs printed when it failed)."""
    database = pg_cluster.new_database()
    cluster = Cluster()
    logs = []
    if request.param == "direct":
        servers = []
        for index in range(1, 4):
            port = free_port()
            servers.append(RunningServer(
                port=port, database=database,
                extra_args=["--node-id", f"n{index}", "--advertise-url", f"ws://127.0.0.1:{port}/",
                            *FAST]))
            cluster.append(Node(f"n{index}", servers[-1].ws_url, port))
        stop = lambda: [server.stop() for server in servers]  # noqa: E731
        logs = lambda: [(f"n{i}", s.output()) for i, s in enumerate(servers, start=1)]  # noqa: E731
    else:
        folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-cluster-"))
        port = free_port()
        up = subprocess.run(
            [str(ROOT / "scripts" / "cluster.sh"), "up", "--dir", str(folder), "--nodes", "3",
             "--port", str(port), "--database", database, "--binary", BINARY, "--no-prometheus",
             "--", *FAST],
            capture_output=True, text=True, timeout=90)
        assert up.returncode == 0, f"cluster.sh up failed:\n{up.stdout}\n{up.stderr}"
        state = json.loads((folder / "cluster.json").read_text())
        cluster.door = f"ws://127.0.0.1:{port}/"
        for node in state["nodes"]:
            cluster.append(Node(node["id"], f"{cluster.door}ws?node={node['id']}", node["metrics_port"]))
        stop = lambda: subprocess.run(  # noqa: E731
            [str(ROOT / "scripts" / "cluster.sh"), "down", "--dir", str(folder)], timeout=60)
        logs = lambda: [(p.name, p.read_text(errors="replace")) for p in sorted(folder.glob("*.log"))]  # noqa: E731
    yield cluster
    stop()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        for name, text in logs():
            print(f"---- {name} ----\n{text}")


async def open_client(node, name, label=None):
    client, welcome = await LiveClient.open(node.ws_url, name, label or name)
    return client, welcome


async def counted_after(node):
    """A barrier for `node`'s metrics, whose tables are counted at most twice a second: a new
    client opens a Matchismo table there, and once `node` counts that table, the count (and
    every counter, exported with it) was taken after every decision answered before the barrier
    began. Returns how many other tables `node` holds then."""
    client, _ = await open_client(node, "Barrier")
    made = await client.request({"type": "createTable", "game": "matchismo", "seats": 2})
    assert made["type"] == "snapshot", made
    deadline = time.monotonic() + 5
    while node.metric('matchismo_tables{game="matchismo",phase="waiting"}') < 1:
        assert time.monotonic() < deadline, f"{node.id} never counted the table just made"
        await asyncio.sleep(0.05)
    return node.metric("matchismo_tables") - 1


async def follow(client, redirect, name, front_door=None):
    """What the web client does with a `redirect`: connects where it says (the node's own URL,
    or its path on the `front_door`) with its session, and asks there for what it asked here.
    Returns the new client, its welcome and its answer."""
    assert redirect["type"] == "redirect", redirect
    assert redirect["path"] == f"/ws?table={redirect['table']}&node={redirect['node']}", redirect
    await client.shutdown()
    target = redirect["url"] if front_door is None else front_door.rstrip("/") + redirect["path"]
    moved, welcome = await LiveClient.open(target, name, client.label + "'", resume=client.session)
    assert welcome["resumed"] is True and welcome["node"] == redirect["node"], welcome
    target = {"code": redirect["code"]} if "code" in redirect else {"table": redirect["table"]}
    kind = "join" if redirect["role"] == "player" else "spectate"
    answer = await moved.request({"type": kind, **target})
    return moved, welcome, answer


def listed(client, table_id):
    return client.lobby is not None and table_id in client.lobby.tables


async def across_nodes(nodes):
    n1, n2, n3 = nodes
    ada, welcome = await open_client(n1, "Ada")
    assert welcome["node"] == "n1"
    bob, _ = await open_client(n2, "Bob")
    cy, _ = await open_client(n3, "Cy")
    for watcher in (bob, cy):
        assert (await watcher.request({"type": "lobby"}))["type"] == "lobbySnapshot"

    # Made on n1, listed on n2 and n3 within half a second, naming its node.
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2})
    assert created["type"] == "snapshot", created
    made_at = time.monotonic()
    table_id = created["table"]["id"]
    for watcher in (bob, cy):
        await watcher.until(lambda w=watcher: listed(w, table_id), 5, f"{table_id} listed")
        seen = watcher.find(lambda m: m.get("type") in ("lobbyDiff", "lobbySnapshot")
                            and table_id in str(m))
        assert seen["_at"] - made_at < 0.5, f"listed after {seen['_at'] - made_at:.3f} s"
        row = watcher.lobby.tables[table_id]
        assert row["node"] == "n1", row

    # Bob joins from n2: sent to n1, where his session resumes and he sits.
    redirect = await bob.request({"type": "join", "table": table_id})
    bob, _, joined = await follow(bob, redirect, "Bob", nodes.door)
    assert joined["type"] == "snapshot" and joined["table"]["you"] == 1, joined
    # Cy watches from n3: she stays there, and n3 links to n1 to watch its table for her (issue
    # 36), at n1's `--advertise-url` or, behind the front door, its own address.
    watching = await cy.request({"type": "spectate", "table": table_id})
    assert watching["type"] == "snapshot" and "you" not in watching["table"], watching

    # Played to the end on n1; everyone sees the same diffs.
    await play_to_the_end((ada, bob), (cy,))


async def play_to_the_end(players, watchers):
    """The players of a full table (which starts by itself) take turns finding sets until the
    game is over; everyone's state, built from the diffs, must then be the same."""
    await until_playing(*players, *watchers)
    turn = 0
    while not any(p.state.over for p in players):
        mover = players[turn % len(players)]
        turn += 1
        # The last mover has its diffs: the next waits until it has them too.
        await mover.until(lambda m=mover: m.state.version == max(p.state.version for p in players),
                          5, "caught up")
        found = find_sets([c for c in mover.state.board if not c.get("matched")])
        assert found, "a game that is not over has a set on the board"
        for card in found[0]:
            reply = await mover.request({"type": "choose", "card": card["id"]})
            assert reply["type"] == "diff", reply
        assert turn < 200
    final = await converge(*players, *watchers)
    assert final["over"] is True
    assert sum(p["score"] for p in final["players"].values()) > 0, final
    return final


def test_two_players_on_different_nodes_meet_play_to_the_end_and_a_spectator_watches(nodes):
    run(across_nodes, nodes, timeout=120)


async def quick_match_and_codes(nodes):
    n1, n2, n3 = nodes
    ada, _ = await open_client(n1, "Ada")
    made = await ada.request({"type": "quickMatch", "game": "set", "seats": 2})
    assert made["type"] == "snapshot", made
    table_id = made["table"]["id"]
    dan, _ = await open_client(n3, "Dan")
    await dan.request({"type": "lobby"})
    await dan.until(lambda: listed(dan, table_id), 5, "listed")
    # Quick match on n3 finds the open seat on n1.
    redirect = await dan.request({"type": "quickMatch", "game": "set", "seats": 2})
    assert redirect["type"] == "redirect" and redirect["table"] == table_id, redirect
    dan, _, joined = await follow(dan, redirect, "Dan", nodes.door)
    assert joined["type"] == "snapshot" and joined["table"]["you"] == 1, joined
    # A private table on n2, joined by its code from n3.
    eve, _ = await open_client(n2, "Eve")
    private = await eve.request({"type": "createTable", "game": "set", "seats": 2, "private": True})
    code = private["table"]["code"]
    fay, _ = await open_client(n3, "Fay")
    deadline = time.monotonic() + 5
    while True:
        redirect = await fay.request({"type": "join", "code": code})
        if redirect["type"] == "redirect" or time.monotonic() > deadline:
            break
        # Not heard yet: an unknown code (counted against Fay's guesses; she has plenty).
        assert redirect.get("code") == "unknownTable", redirect
        await asyncio.sleep(0.05)
    assert redirect["type"] == "redirect" and redirect["code"] == code, redirect
    fay, _, joined = await follow(fay, redirect, "Fay", nodes.door)
    assert joined["type"] == "snapshot" and joined["table"]["id"] == private["table"]["id"], joined
    # A hello that resumes Fay's session on n1, which does not hold her table: sent on to n2.
    lost, welcome = await LiveClient.open(n1.ws_url, "Fay", "lost", resume=fay.session)
    assert welcome["resumed"] is True and welcome["node"] == "n1", welcome
    sent_on = await lost.wait_for(lambda m: m.get("type") == "redirect", 0, 5, "redirect")
    assert sent_on["node"] == "n2" and sent_on["table"] == private["table"]["id"], sent_on
    assert sent_on["role"] == "player", sent_on
    if nodes.door is None:
        assert sent_on["url"] == n2.ws_url, sent_on
    else:
        assert "url" not in sent_on, sent_on


def test_quick_match_and_invite_codes_across_nodes_and_a_resume_on_the_wrong_node(nodes):
    run(quick_match_and_codes, nodes, timeout=60)


def naming(nodes, node, table, named):
    """A URL that reaches `node` and names table `table` and node `named` (the front door sends
    it to the node it names; a node on its own takes whatever reaches its port)."""
    base = nodes.door if nodes.door is not None else f"ws://127.0.0.1:{node.port}/"
    return f"{base}ws?table={table}&node={named}"


async def forged_urls(nodes):
    n1, n2, _ = nodes
    ada, _ = await open_client(n1, "Ada")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2})
    table_id = created["table"]["id"]
    # A URL that reaches n2 and names Ada's table: n2 answers for itself and sends Bob on.
    bob, welcome = await LiveClient.open(naming(nodes, n2, table_id, "n2"), "Bob", "Bob")
    assert welcome["node"] == "n2"
    await bob.request({"type": "lobby"})
    await bob.until(lambda: listed(bob, table_id), 5, "listed")
    answer = await bob.request({"type": "join", "table": table_id})
    assert answer["type"] == "redirect" and answer["node"] == "n1", answer
    # A table that exists nowhere, named in the URL and asked for: no such table.
    ghost, _ = await LiveClient.open(naming(nodes, n2, "t999", "n2"), "Ghost", "Ghost")
    answer = await ghost.request({"type": "join", "table": "t999"})
    assert answer["type"] == "error" and answer["code"] == "unknownTable", answer
    # Ghost watches from n2, through n2's link to n1, which still holds the table alone (below).
    answer = await ghost.request({"type": "spectate", "table": table_id})
    assert answer["type"] == "snapshot" and answer["table"]["id"] == table_id, answer
    # Nothing of the table is on n2: n1 holds it alone (n2 counted after Bob's and Ghost's
    # answers, behind a barrier).
    deadline = time.monotonic() + 5
    while n1.metric("matchismo_tables") < 1 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert n1.metric("matchismo_tables") == 1
    assert await counted_after(n2) == 0
    assert n2.metric("matchismo_moves_accepted_total") == 0


def test_a_forged_table_or_node_in_the_url_never_reaches_a_table_through_another_node(nodes):
    run(forged_urls, nodes, timeout=60)


async def scores_across(nodes):
    n1, n2, _ = nodes
    table = await play_set_to_the_end(n1.ws_url, "Solo", player="playerCLUSTERCLUSTER0001")
    assert table["over"]
    answer = await ask(n2.ws_url, {"type": "scores", "game": "set"})
    assert answer["type"] == "scores", answer
    assert answer["total"] >= 1 and "Solo" in str(answer["games"]), answer
    game_id = answer["games"][0]["id"]
    replay = await ask(n2.ws_url, {"type": "record", "record": game_id})
    assert replay["type"] == "record" and replay["record"]["id"] == game_id, replay


def test_a_high_score_finished_on_one_node_is_read_on_another(nodes):
    run(scores_across, nodes, timeout=120)


async def metrics_per_node(nodes):
    n1, n2, _ = nodes
    ada, _ = await open_client(n1, "Ada")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 3})
    table_id = created["table"]["id"]
    bob, _ = await open_client(n2, "Bob")
    await bob.request({"type": "lobby"})
    await bob.until(lambda: listed(bob, table_id), 5, "listed")
    redirect = await bob.request({"type": "join", "table": table_id})
    assert redirect["type"] == "redirect"
    # The barrier: n2's metrics counted after the join; besides the barrier's own table it holds
    # none (the joined table is n1's).
    return await counted_after(n2)


def test_each_node_counts_its_tables_redirects_and_the_changes_it_heard(nodes):
    n1, n2, _ = nodes
    n2_other_tables = run(metrics_per_node, nodes)
    assert n2_other_tables == 0
    assert n2.metric("matchismo_redirects_total") == 1
    assert n2.metric("matchismo_cluster_changes_received_total") >= 1
    assert n2.metric("matchismo_cluster_change_delay_seconds_count") >= 1
    # n1 holds the table (the tables gauge is counted every half second: waited for, which is
    # also the barrier for n1's counters: its one decision, Ada's table, was counted) and sent
    # nobody elsewhere.
    deadline = time.monotonic() + 5
    while n1.metric("matchismo_tables") < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert n1.metric("matchismo_tables") == 1
    assert n1.metric("matchismo_redirects_total") == 0


async def daily_across(nodes):
    n1, n2, n3 = nodes
    ada_player, bob_player = "playerDAILYDAILYDAILY0001", "playerDAILYDAILYDAILY0002"
    ada = await play_set_to_the_end(n1.ws_url, "Ada", player=ada_player, daily=True)
    bob = await play_set_to_the_end(n2.ws_url, "Bob", player=bob_player, daily=True)
    # The day's deal, the same on every node.
    assert ada["over"] and bob["over"] and ada["_dealt"] == bob["_dealt"], (ada["_dealt"], bob["_dealt"])
    # One board, read on a third node, with the asker's own place.
    board = await ask(n3.ws_url, {"type": "daily", "game": "set"}, ada_player)
    assert board["type"] == "daily" and board["total"] == 2, board
    assert sorted(r["name"] for r in board["results"]) == ["Ada", "Bob"], board
    assert board["you"]["name"] == "Ada" and board["you"]["matches"] == ada["players"][0]["matches"], board
    assert [r["place"] for r in board["results"]] in ([1, 2], [1, 1]), board
    yesterday = await ask(n3.ws_url, {"type": "daily", "game": "set", "day": "yesterday"})
    assert yesterday["total"] == 0 and yesterday["you"] is None, yesterday
    # One attempt each: Ada again, on the node she played on.
    again = await ask(n1.ws_url, {"type": "playDaily", "game": "set"}, ada_player)
    assert again["type"] == "error" and again["code"] == "alreadyPlayed", again


def test_a_daily_puzzle_played_on_two_nodes_lands_on_one_board(nodes):
    run(daily_across, nodes, timeout=120)


async def ratings_across(nodes):
    """A rated quick match on n1 (test_ratings: Ada takes every set from Bob): every node reads
    the same ratings from the shared database."""
    n1, n2, n3 = nodes
    await a_rated_quick_match(n1.ws_url)
    for node in (n2, n3):
        ada = await ask(node.ws_url, {"type": "ratings", "game": "set"}, RATED_A)
        bob = await ask(node.ws_url, {"type": "ratings", "game": "set"}, RATED_B)
        assert (ada["rating"], ada["games"], [h["change"] for h in ada["history"]]) == (1532, 1, [32]), ada
        assert (bob["rating"], bob["games"], [h["change"] for h in bob["history"]]) == (1468, 1, [-32]), bob


def test_a_rated_game_on_one_node_is_rated_the_same_on_every_node(nodes):
    run(ratings_across, nodes, timeout=120)
