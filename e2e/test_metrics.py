"""`GET /metrics`: the Prometheus text page moves with real play over a real WebSocket."""
import asyncio
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request

from conftest import BINARY, free_port
from mp_support import start_server  # noqa: F401  (a fixture)
from protocol_client import Client

# One sample line of the text format: a name, optional labels, a value.
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def scrape(server):
    """Every sample of the page, by (name, frozenset of label pairs)."""
    with urllib.request.urlopen(server.http_url + "metrics", timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        text = response.read().decode("utf-8")
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        name, labels, value = match.groups()
        samples[(name, frozenset(LABEL.findall(labels or "")))] = float(value)
    return samples


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


def scrape_until(server, condition, timeout=10.0):
    """The lobby exports right after it hands a batch to the transport, so a client can see
    the answer a moment before the page counts it: scrape until `condition` holds."""
    deadline = time.monotonic() + timeout
    while True:
        samples = scrape(server)
        if condition(samples) or time.monotonic() > deadline:
            return samples
        time.sleep(0.05)


async def until(client, type_):
    """The next message of `type_`, skipping others (status lines, lobby news)."""
    while True:
        message = await client.recv()
        if message["type"] == type_:
            return message


def test_metrics_count_connections_moves_frames_and_latency(server):
    before = scrape(server)
    assert all(name.startswith("matchismo_") for name, _ in before), sorted(before)
    assert value(before, "matchismo_connections_open") == 0
    assert value(before, "matchismo_moves_accepted_total") == 0

    async def play():
        client = await Client.connect(server.ws_url)
        await client.hello("Counted")
        # A move before sitting anywhere is refused: notAtTable.
        await client.send({"type": "choose", "card": 0})
        error = await until(client, "error")
        assert error["code"] == "notAtTable"
        table, _ = await client.play_solo()
        for card in table["board"][:2]:
            await client.send({"type": "choose", "card": card["id"]})
            await until(client, "diff")
        return client

    async def run():
        client = await play()
        try:
            samples = await asyncio.get_running_loop().run_in_executor(
                None, scrape_until, server,
                lambda s: value(s, "matchismo_move_broadcast_latency_seconds_count") >= 2
                and value(s, "matchismo_tables", game="set", phase="playing") == 1)
            assert value(samples, "matchismo_connections_open") == 1
            assert value(samples, "matchismo_connections_opened_total") == 1
            assert value(samples, "matchismo_sessions") == 1
            assert value(samples, "matchismo_tables", game="set", phase="playing") == 1
            assert value(samples, "matchismo_moves_accepted_total") == 2
            assert value(samples, "matchismo_moves_rejected_total", reason="notAtTable") == 1
            assert value(samples, "matchismo_moves_rejected_total", reason="cardNotOnTable") == 0
            # welcome, error, snapshot and a diff per move at least.
            assert value(samples, "matchismo_frames_out_total") >= 5
            assert value(samples, "matchismo_bytes_out_total") > 200
            assert value(samples, "matchismo_move_broadcast_latency_seconds_count") == 2
            assert value(samples, "matchismo_move_broadcast_latency_seconds_sum") > 0
            assert value(samples, "matchismo_move_broadcast_latency_seconds_bucket", le="+Inf") == 2
        finally:
            await client.close()

    asyncio.run(asyncio.wait_for(run(), 30))

    after = scrape_until(server, lambda s: value(s, "matchismo_connections_open") == 0)
    assert value(after, "matchismo_connections_open") == 0
    assert value(after, "matchismo_connections_opened_total") == 1


def test_metrics_count_rate_limit_closes_by_code(server):
    async def flood():
        client = await Client.connect(server.ws_url)
        # Far past the burst of 40, without the client's own pacing.
        for _ in range(200):
            try:
                await client.ws.send('{"type":"lobby"}')
            except Exception:
                break
        try:
            while True:
                await client.recv()
        except Exception:
            pass
        assert client.ws.close_code == 1008

    asyncio.run(asyncio.wait_for(flood(), 30))
    samples = scrape_until(server, lambda s: value(s, "matchismo_rate_limit_closes_total") >= 1)
    assert value(samples, "matchismo_rate_limit_closes_total") == 1
    assert value(samples, "matchismo_closes_total", code="1008") == 1
    assert value(samples, "matchismo_too_slow_closes_total") == 0


def http_status(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


def test_metrics_on_a_listener_of_their_own(start_server):
    """Issue 35: `--metrics-port` serves /metrics on a loopback listener of its own, and nothing
    else there (no page, no WebSocket); the game's port then serves the page and no metrics."""
    port = free_port()
    server = start_server("--metrics-port", port)
    own = f"http://127.0.0.1:{port}"
    status, text = http_status(own + "/metrics")
    assert status == 200 and "matchismo_connections_open" in text, (status, text[:200])
    assert http_status(own + "/")[0] == 404
    assert http_status(own + "/index.html")[0] == 404
    assert http_status(server.http_url + "metrics")[0] == 404
    assert http_status(server.http_url)[0] == 200
    # The game still plays on its own port, and the listener of its own counts it.
    async def hello():
        client = await Client.connect(server.ws_url)
        await client.hello("Ada")
        status, text = http_status(own + "/metrics")
        assert re.search(r"^matchismo_connections_open\s+1", text, re.M), text[:400]
        await client.ws.close()
    asyncio.run(asyncio.wait_for(hello(), 30))


def test_a_metrics_port_that_cannot_be_bound_stops_the_server_with_a_reason():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        stopped = subprocess.run(
            [BINARY, "--host", "127.0.0.1", "--port", "0", "--metrics-port", str(port), "--no-journal"],
            capture_output=True, text=True, timeout=30)
    finally:
        taken.close()
    assert stopped.returncode != 0
    assert f"127.0.0.1:{port} is already in use" in stopped.stderr, stopped.stderr[-500:]
