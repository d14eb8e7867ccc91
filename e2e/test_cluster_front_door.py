"""The cluster behind its front door, end to end: `scripts/cluster.sh up` starts three real nodes
on one PostgreSQL database (the tests' own) and a real HAProxy in front of them with the
generated configuration; clients know only the front door's address. Lobby connections are
spread over the nodes (least connections); a redirect's path on the front door reaches the node
it names; a spectator watches from the node it reached, which links to the table's node at the
address the nodes give each other (no `--advertise-url` here); a forged node in the URL reaches
another node, where the client watches too."""
import json
import pathlib
import socket
import subprocess
import tempfile
import urllib.error
import urllib.request

import pytest
import websockets

from conftest import BINARY, ROOT, free_port, scrape_metric
from mp_support import run
from protocol_client import SUBPROTOCOL, LiveClient
from test_cluster import follow, listed, play_to_the_end

SCRIPT = ROOT / "scripts" / "cluster.sh"


@pytest.fixture
def front_door(request, pg_cluster):
    """`scripts/cluster.sh up` with 3 nodes and fast countdowns; its cluster.json, read back.
    Stopped with `down` after the test (its logs printed when the test failed)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-cluster-"))
    port = free_port()
    up = subprocess.run(
        [str(SCRIPT), "up", "--dir", str(folder), "--nodes", "3", "--port", str(port),
         "--database", pg_cluster.new_database(), "--binary", BINARY, "--no-prometheus", "--",
         "--countdown", "0.3"],
        capture_output=True, text=True, timeout=90)
    try:
        assert up.returncode == 0, f"cluster.sh up failed:\n{up.stdout}\n{up.stderr}"
        state = json.loads((folder / "cluster.json").read_text())
        assert state["url"] == f"http://127.0.0.1:{port}/"
        assert [n["id"] for n in state["nodes"]] == ["n1", "n2", "n3"]
        state["dir"] = str(folder)
        yield state
    finally:
        subprocess.run([str(SCRIPT), "down", "--dir", str(folder)], timeout=60)
        if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
            for log in sorted(folder.glob("*.log")):
                print(f"---- {log.name} ----\n{log.read_text(errors='replace')}")


def ws_url(state):
    return state["url"].replace("http://", "ws://")


async def through_the_front_door(state):
    door = ws_url(state)
    ada, welcome_a = await LiveClient.open(door, "Ada", "Ada")
    bob, welcome_b = await LiveClient.open(door, "Bob", "Bob")
    cy, welcome_c = await LiveClient.open(door, "Cy", "Cy")
    # Least connections: three connections, three nodes.
    assert sorted({welcome_a["node"], welcome_b["node"], welcome_c["node"]}) == ["n1", "n2", "n3"]
    for watcher in (bob, cy):
        await watcher.request({"type": "lobby"})
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2})
    table_id = created["table"]["id"]
    for watcher in (bob, cy):
        await watcher.until(lambda w=watcher: listed(w, table_id), 5, "listed")
        assert watcher.lobby.tables[table_id]["node"] == welcome_a["node"]
    # No node gives its own URL here: the redirect is a path on the front door.
    redirect = await bob.request({"type": "join", "table": table_id})
    assert "url" not in redirect, redirect
    bob, moved, joined = await follow(bob, redirect, "Bob", front_door=door)
    assert moved["node"] == welcome_a["node"] and joined["table"]["you"] == 1, joined
    # Cy watches from her own node, which links to Ada's: no redirect, no URL for clients.
    watching = await cy.request({"type": "spectate", "table": table_id})
    assert watching["type"] == "snapshot" and watching["table"]["id"] == table_id, watching
    await play_to_the_end((ada, bob), (cy,))
    assert node_metric(state, welcome_c["node"], "matchismo_redirects_total") == 0

    # A URL that names another node for Ada's table: the front door sends it there, and the
    # client watches from there.
    other = next(n["id"] for n in state["nodes"] if n["id"] != welcome_a["node"])
    dan, welcome = await LiveClient.open(f"{door}ws?table={table_id}&node={other}", "Dan", "Dan")
    assert welcome["node"] == other
    await dan.request({"type": "lobby"})
    await dan.until(lambda: listed(dan, table_id), 5, "listed")
    watching = await dan.request({"type": "spectate", "table": table_id})
    assert watching["type"] == "snapshot" and watching["table"]["id"] == table_id, watching
    # A node that does not exist: the front door picks one, which answers for itself.
    eve, welcome = await LiveClient.open(f"{door}ws?table={table_id}&node=n9", "Eve", "Eve")
    assert welcome["node"] in ("n1", "n2", "n3")


def test_players_meet_and_play_through_the_front_door(front_door):
    # The generated configuration: every node, checked with GET, pinned by the URL's node.
    config = (pathlib.Path(front_door["dir"]) / "haproxy.cfg").read_text()
    for node in front_door["nodes"]:
        assert f"server {node['id']} 127.0.0.1:{node['port']} check" in config, config
    assert "http-check send meth GET" in config and "use-server %[urlp(node)]" in config
    assert "noreuseport" in config and "on-marked-down shutdown-sessions" in config
    run(through_the_front_door, front_door, timeout=120)
    metrics_are_the_operators(front_door)


def status_of(url):
    """The HTTP status a GET of `url` gets (the path sent exactly as written)."""
    request = urllib.request.Request(url)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def metrics_are_the_operators(state):
    """Issue 35: /metrics is not served through the front door, however its path is spelled
    (the nodes decode and fold paths, and know a forwarded request), while each node serves
    it to the operator on a loopback port of its own (`--metrics-port`, what Prometheus
    scrapes), and the page is still served through the door."""
    door = state["url"].rstrip("/")
    for path in ("/metrics", "/%6detrics", "//metrics", "/./metrics", "/js/../metrics", "/metrics?x=1"):
        assert status_of(door + path) == 404, path
    assert status_of(door + "/") == 200
    for node in state["nodes"]:
        assert status_of(f"http://127.0.0.1:{node['metrics_port']}/metrics") == 200, node
        assert status_of(f"http://127.0.0.1:{node['port']}/metrics") == 404, node


def node_metric(state, node_id, name):
    """The sum of every sample of `name` on node `node_id`'s /metrics (`cluster.json` state)."""
    return scrape_metric(next(n["metrics_port"] for n in state["nodes"] if n["id"] == node_id), name)


def test_two_browsers_on_different_nodes_play_one_game_to_its_end(front_door, browsers):
    """Ann's page is on n1 and Bob's on n2 (each opened with `?node=`); Bob follows Ann's invite
    link: n2 sends his page to n1, which seats him, and the two race through one game of Set to
    its end, seeing the same standings."""
    from browser_games import race_to_the_end, seat_two_through_the_front_door, severe_errors, standings_of

    door = front_door["url"]
    ann, bob = browsers(), browsers()
    seat_two_through_the_front_door(ann, bob, door, "n1", "n2")
    assert node_metric(front_door, "n2", "matchismo_redirects_total") == 1
    claims = race_to_the_end((ann, bob))
    standings = [standings_of(d) for d in (ann, bob)]
    assert standings[0] == standings[1], standings
    assert sorted(name for name, _ in standings[0]) == ["Ann", "Bob"]
    assert sum(int(m) for _, m in standings[0]) == claims >= 20
    # The game was played on n1 alone.
    assert node_metric(front_door, "n1", "matchismo_moves_accepted_total") >= 3 * claims
    assert node_metric(front_door, "n2", "matchismo_moves_accepted_total") == 0
    for driver in (ann, bob):
        assert not severe_errors(driver), severe_errors(driver)


def test_the_front_door_limits_connections_per_address(pg_cluster):
    """`cluster.sh up --per-address 3`: HAProxy answers the fourth WebSocket upgrade from one
    address with 429 and a reason; the three connections play on, and another address is not
    counted with them. (The nodes see only HAProxy's address: the limit is the front door's.)"""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-cluster-"))
    port = free_port()
    up = subprocess.run(
        [str(SCRIPT), "up", "--dir", str(folder), "--nodes", "1", "--port", str(port),
         "--per-address", "3", "--database", pg_cluster.new_database(), "--binary", BINARY],
        capture_output=True, text=True, timeout=90)
    try:
        assert up.returncode == 0, f"cluster.sh up failed:\n{up.stdout}\n{up.stderr}"
        state = json.loads((folder / "cluster.json").read_text())
        assert "sc0_conn_cur gt 3" in (folder / "haproxy.cfg").read_text()
        run(limited_per_address, ws_url(state))
    finally:
        subprocess.run([str(SCRIPT), "down", "--dir", str(folder)], timeout=60)


async def limited_per_address(door):
    clients = [(await LiveClient.open(door, name, name))[0] for name in ("Ada", "Bob", "Cy")]
    try:
        await websockets.connect(door, subprotocols=[SUBPROTOCOL], open_timeout=10)
        raise AssertionError("the fourth upgrade from 127.0.0.1 was accepted")
    except websockets.InvalidStatus as refused:
        assert refused.response.status_code == 429, refused
        assert b"too many connections from your address" in refused.response.body, refused
    for client in clients:
        assert (await client.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    other.bind(("127.0.0.2", 0))
    other.connect(("127.0.0.1", int(door.rsplit(":", 1)[1].strip("/"))))
    ws = await websockets.connect(door, sock=other, subprotocols=[SUBPROTOCOL], open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "id": "h", "name": "Dee"}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.close()
