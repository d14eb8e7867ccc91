"""Command-line values that make no sense stop the server; the WebSocket Origin check."""
import asyncio
import subprocess

import pytest
import websockets

from conftest import BINARY, RunningServer, scrape_metric
from protocol_client import Client


@pytest.mark.parametrize("args, option", [
    (["--rate-limit", "nan"], "--rate-limit"),
    (["--rate-limit", "inf"], "--rate-limit"),
    (["--rate-limit=0"], "--rate-limit"),
    (["--reconnect-grace=-1"], "--reconnect-grace"),
    (["--countdown", "inf"], "--countdown"),
    (["--empty-table-grace=0"], "--empty-table-grace"),
    (["--spectator-limit=0"], "--spectator-limit"),
    (["--max-message-bytes=0"], "--max-message-bytes"),
    (["--allowed-origin", "not an origin"], "--allowed-origin"),
    (["--node-id", "a/b"], "--node-id"),
    (["--node-id="], "--node-id"),
    (["--max-connections", "0"], "--max-connections"),
])
def test_nonsense_values_exit_with_a_message(args, option):
    result = subprocess.run([BINARY, "--port", "0", *args], capture_output=True, text=True,
                            timeout=20)
    assert result.returncode != 0
    assert option in result.stderr


async def upgrade_status(server, origin):
    headers = {"Origin": origin} if origin else None
    try:
        async with websockets.connect(server.ws_url, additional_headers=headers,
                                      subprotocols=["matchismo.v2"], open_timeout=10):
            return 101
    except websockets.exceptions.InvalidStatus as refused:
        return refused.response.status_code


def test_foreign_origins_are_refused_with_403(server):
    own = f"http://127.0.0.1:{server.port}"
    statuses = [asyncio.run(upgrade_status(server, origin))
                for origin in (None, own, "http://evil.example", "null")]
    assert statuses == [101, 101, 403, 403]


def test_allowed_origins_are_accepted():
    server = RunningServer(["--allowed-origin", "https://game.example"])
    try:
        statuses = [asyncio.run(upgrade_status(server, origin))
                    for origin in ("https://game.example", "https://other.example")]
        assert statuses == [101, 403]
    finally:
        server.stop()
    anyone = RunningServer(["--allowed-origin", "*"])
    try:
        assert asyncio.run(upgrade_status(anyone, "https://other.example")) == 101
    finally:
        anyone.stop()


async def welcome_node(server):
    client = await Client.connect(server.ws_url)
    try:
        return (await client.hello("Ada"))["node"]
    finally:
        await client.close()


def test_welcome_names_the_node_given_or_the_host_and_port(server):
    # The fixture's server has no --node-id: its host name and port.
    assert asyncio.run(welcome_node(server)).endswith(f":{server.port}")
    named = RunningServer(["--node-id", "n2"])
    try:
        assert asyncio.run(welcome_node(named)) == "n2"
    finally:
        named.stop()


async def answered(client, request, answer):
    """Sends `request` and reads until a message of type `answer` (pushes may come between)."""
    await client.send(request)
    for _ in range(20):
        if (await client.recv())["type"] == answer:
            return True
    return False


async def at_the_connection_limit(server):
    players = [await Client.connect(server.ws_url) for _ in range(3)]
    for n, player in enumerate(players):
        await player.hello(f"P{n}")
    # The fourth upgrade is closed unanswered; the three play on.
    with pytest.raises(websockets.exceptions.InvalidHandshake):
        await Client.connect(server.ws_url)
    for player in players:
        assert await answered(player, {"type": "lobby"}, "lobbySnapshot")
    assert "connection limit reached" in server.output()
    # A place freed is a place taken.
    await players.pop().close()
    deadline = asyncio.get_running_loop().time() + 10
    while scrape_metric(server.port, "matchismo_connections_open") > 2:
        assert asyncio.get_running_loop().time() < deadline, "the server did not see the close"
        await asyncio.sleep(0.05)
    late = await Client.connect(server.ws_url)
    assert (await late.hello("Late"))["type"] == "welcome"
    for player in [*players, late]:
        await player.close()


def test_max_connections_refuses_upgrades_beyond_it_until_one_closes():
    server = RunningServer(["--max-connections", "3"])
    try:
        asyncio.run(at_the_connection_limit(server))
    finally:
        server.stop()
