"""Shared pieces of the multiplayer end-to-end tests: a fixture that starts the real binary with
extra options, and small steps (seat players, wait for play, compare everyone's state)."""
import asyncio

import pytest

from conftest import RunningServer
from protocol_client import LiveClient

# Short timers keep the tests fast; every test can override them.
FAST = ("--countdown", "0.3")


@pytest.fixture
def start_server(request):
    """`start_server(*args)` starts `matchismo` with extra command-line options; every server it
    started is stopped after the test, and its log printed when the test failed."""
    servers = []

    def start(*args):
        running = RunningServer(extra_args=[str(a) for a in args])
        servers.append(running)
        return running

    yield start
    for running in servers:
        running.stop()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        for running in servers:
            print(f"---- server log (port {running.port}) ----\n" + running.output())


def run(coroutine_function, *args, timeout=30):
    """Runs one test body with a hard time limit and returns what it returned; every LiveClient
    it opened is closed after it, also when it fails (so the server stops at once and its log
    can be printed)."""
    async def body():
        first = len(LiveClient.instances)
        try:
            return await asyncio.wait_for(coroutine_function(*args), timeout)
        finally:
            opened = LiveClient.instances[first:]
            del LiveClient.instances[first:]
            await asyncio.wait_for(shutdown(*opened), 10)

    return asyncio.run(body())


async def connect(url, *names):
    """One LiveClient per name, said hello, reading; labels are the names."""
    clients = []
    for name in names:
        client, welcome = await LiveClient.open(url, name, name)
        assert welcome["resumed"] is False
        clients.append(client)
    return clients


async def shutdown(*clients):
    await asyncio.gather(*(c.shutdown() for c in clients), return_exceptions=True)


async def seat_at_new_table(host, others, seats, private=False):
    """`host` creates a table, `others` join it in order. Returns the host's snapshot table."""
    created = await host.request({"type": "createTable", "game": "set", "seats": seats, "private": private})
    assert created["type"] == "snapshot", created
    table = created["table"]
    target = {"code": table["code"]} if private else {"table": table["id"]}
    for i, other in enumerate(others, start=1):
        joined = await other.request({"type": "join", **target})
        assert joined["type"] == "snapshot", joined
        assert joined["table"]["id"] == table["id"] and joined["table"]["you"] == i, joined["table"]
    return table


async def until_playing(*clients, timeout=10):
    for c in clients:
        await c.until(lambda c=c: c.state is not None and c.state.phase == "playing" and c.state.board,
                      timeout, "phase playing with a board")


async def converge(*clients):
    """Everyone asks for a fresh snapshot: each one's diff-built state must equal its snapshot,
    and all snapshots must be equal (call it when no move is in flight). Returns the state."""
    pairs = await asyncio.gather(*(c.fresh() for c in clients))
    for c, (built, fresh) in zip(clients, pairs):
        assert built == fresh, f"{c.label}: state from diffs differs from a fresh snapshot:\n{built}\n{fresh}"
    first = pairs[0][1]
    for c, (_, fresh) in zip(clients, pairs):
        assert fresh == first, f"{c.label} sees another table state:\n{fresh}\n{first}"
    for c in clients:
        assert not c.problems, f"{c.label}: {c.problems}"
    return first


def replies_ok(reply, client):
    """An accepted move's answer is the diff it caused, carrying the mover's seat."""
    return reply["type"] == "diff" and reply.get("seat") == client.seat
