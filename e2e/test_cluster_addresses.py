"""Behind the front door, a node counts each client's own address (issue 35): HAProxy adds the
address it saw to X-Forwarded-For (`option forwardfor`), and the nodes, started by
`scripts/cluster.sh` with `--trusted-proxy 127.0.0.1`, take it from there and only from there.
So `--max-connections-per-address` limits each client, not the front door (which every
connection comes from), and unknown invite codes are counted per client address across its
sessions and across nodes (each node tells the others of the misses it saw). Clients come from
several loopback addresses (127.0.0.2, …)."""
import asyncio
import json
import pathlib
import socket
import tempfile

import pytest
import websockets

from conftest import scrape_metric
from failover_cluster import cluster_down, cluster_up
from mp_support import run
from protocol_client import SUBPROTOCOL


@pytest.fixture
def limited_cluster(request, pg_cluster):
    """1 node behind the front door, 2 connections per client address."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-addresses-"))
    try:
        yield cluster_up(folder, 1, pg_cluster.new_database(), "--max-connections-per-address", "2")
    finally:
        cluster_down(request, folder)


async def open_from(source, url, headers=None):
    """A WebSocket from the loopback address `source` to `url`; its welcome, or the close."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect((host, int(port)))
    ws = await websockets.connect(url, sock=sock, subprotocols=[SUBPROTOCOL], open_timeout=10,
                                  additional_headers=headers or {})
    try:
        await ws.send(json.dumps({"type": "hello", "id": "h", "name": "P"}))
        answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert answer["type"] == "welcome", answer
        return ws, None
    except websockets.ConnectionClosed as closed:
        return ws, closed.rcvd.code if closed.rcvd else None


async def addresses(state):
    door = f"{state['door']}ws?node=n1"
    node = f"ws://127.0.0.1:{state['nodes'][0]['port']}/ws"
    kept = []
    # Four connections through the door, two from each of two clients: all welcome (the node
    # once counted them all as the front door's and cut two).
    for source in ("127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"):
        ws, closed = await open_from(source, door)
        assert closed is None, (source, closed)
        kept.append(ws)
    # A third from one of them is one too many.
    ws, closed = await open_from("127.0.0.2", door)
    assert closed == 4002, closed
    # Straight to the node, a client's own X-Forwarded-For names nobody: it counts as itself.
    for _ in range(2):
        ws, closed = await open_from("127.0.0.4", node, {"X-Forwarded-For": "127.0.0.5"})
        assert closed is None, closed
        kept.append(ws)
    ws, closed = await open_from("127.0.0.4", node, {"X-Forwarded-For": "127.0.0.6"})
    assert closed == 4002, closed
    for ws in kept:
        await ws.close()


def test_the_nodes_count_each_clients_address_behind_the_front_door(limited_cluster):
    run(addresses, limited_cluster, timeout=60)


@pytest.fixture
def three_nodes(request, pg_cluster):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-guesses-"))
    try:
        yield cluster_up(folder, 3, pg_cluster.new_database())
    finally:
        cluster_down(request, folder)


async def guesses(source, url, codes):
    """A new session from `source` at `url` tries each of `codes`; the answers' codes."""
    ws, closed = await open_from(source, url)
    assert closed is None, closed
    answers = []
    for n, code in enumerate(codes, start=1):
        await ws.send(json.dumps({"type": "join", "id": n, "code": code}))
        while True:
            answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if answer.get("replyTo") == n:
                break
        answers.append(answer.get("code"))
    await ws.close()
    return answers


async def heard_every_miss(nodes, count, seconds=20):
    """Waits until every node of `nodes` has heard `count` invite-code misses from the others."""
    name = "matchismo_cluster_misses_received_total"
    for _ in range(int(seconds / 0.1)):
        heard = [scrape_metric(n["metrics_port"], name) for n in nodes]
        if all(h >= count for h in heard):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the nodes heard {heard} misses from the others, not {count} each")


async def guessing(state):
    door = state["door"]
    nodes = [f"{door}ws?node={n['id']}" for n in state["nodes"]]
    wrong = (f"Q{n:09d}" for n in range(10_000))
    # A new session every ten guesses, on each node in turn: the first 30 are answered (each
    # session's own limit is 10, the address's 30).
    for url in nodes:
        answers = await guesses("127.0.0.2", url, [next(wrong) for _ in range(10)])
        assert answers == ["unknownTable"] * 10, answers
    # The barrier: each node has heard, and handed to its lobby, the 20 misses the other two
    # saw (a notice can take a while on a loaded machine; twice a node answered all ten
    # guesses below before its neighbours' notices came).
    await heard_every_miss(state["nodes"], 20)
    # Now a new session on any node is held back within a few guesses; without the other
    # nodes' count it would take 20 more, and a session's own limit (10) is not reached by 10.
    for url in nodes:
        answers = await guesses("127.0.0.2", url, [next(wrong) for _ in range(10)])
        assert "tooManyGuesses" in answers, answers
    # Another client is not held back.
    answers = await guesses("127.0.0.3", nodes[1], [next(wrong) for _ in range(3)])
    assert answers == ["unknownTable"] * 3, answers


def test_invite_code_guesses_are_limited_per_address_across_sessions_and_nodes(three_nodes):
    run(guessing, three_nodes, timeout=60)
