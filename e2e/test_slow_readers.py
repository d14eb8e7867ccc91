"""Clients that do not read (issue 22): cut within the drain timeout, at a bounded cost to the
machine, while everyone else plays on; and the per-address connection limit.

A client that never reads cannot be told anything: the server's only evidence is that what it
writes stops leaving (the peer's receive window shuts). Each silent socket here asks for a 4 KiB
receive buffer before it connects, so its window shuts within a few frames, as a phone's does
once its own buffers are full; the clocks below start when that happens, as the server's does.
"""
import asyncio
import json
import math
import os
import re
import resource
import socket
import subprocess
import time

import pytest
import websockets

from conftest import BINARY, scrape_metric
from mp_support import FAST, connect, run, start_server  # noqa: F401  (fixture)
from protocol_client import SUBPROTOCOL
from silent_socket import TCP_CLOSE, TCP_CLOSE_WAIT, open_silent, tcp_state, unread_bytes

pytestmark = pytest.mark.alone  # timed under load: run with nothing beside it (see conftest)

SEND_BUFFER = 64 * 1024  # the server's default --send-buffer


def metric(server, name):
    """The value of metric `name` (or of one sample: 'x{code="4000"}') on the server's /metrics."""
    return scrape_metric(server.port, name)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def kernel_send_memory(port, upgraded):
    """For the server's established sockets on `port`, from `ss -m`: the total and the largest
    `w` (bytes queued to send, with the kernel's overhead), the largest `tb` (send buffer) of
    those whose peer's port is in `upgraded` (connections known to be WebSockets: one still in
    its HTTP upgrade has the kernel's own buffer until the server takes it as a WebSocket), and
    how many sockets there were."""
    out = subprocess.run(["ss", "-tmnH", "state", "established", f"( sport = :{port} )"],
                         capture_output=True, text=True, check=True).stdout
    # One line per socket ("Recv-Q Send-Q local peer"), then its skmem on a line of its own.
    queued, buffers, peer = [], [], None
    for line in out.splitlines():
        memory = re.search(r"skmem:\([^)]*?,tb(\d+),[^)]*?,w(\d+)", line)
        if memory is None:
            fields = line.split()
            peer = int(fields[3].rsplit(":", 1)[1]) if len(fields) >= 4 else None
            continue
        queued.append(int(memory.group(2)))
        if peer in upgraded:
            buffers.append(int(memory.group(1)))
    return sum(queued), max(queued, default=0), max(buffers, default=0), len(queued)


# ---- a seat that never reads at a busy table --------------------------------------------------

def test_a_seat_that_never_reads_is_cut_and_its_table_plays_on(start_server):
    """Twenty busy tables, where three players make moves at the rate limit and the fourth
    only reads; at sixteen of them, one after another (every 1.5 s), the fourth stops reading.
    The load generator (a real client in Swift) times each stalled seat's cut (from the moment
    its window shut, when the server's clock starts: it watches the socket's unread bytes stop
    growing) and its `away` as its host saw it, and measures the other three players' move latency in the 5 s before and
    the 5 s after their seat stalled, and at the same moments at the tables without a stalled
    seat ("beside").

    The check compares the stalled tables' players with those beside them, at the same moments,
    rather than with themselves before: on two shared cores the p99 of 5 s windows moves by a
    third (up to 1.5×) from one stretch of a run to the next, since the machine's own ups and
    downs fall where they fall; the tables beside see the same ups and downs at the same moments,
    so what is left is what the silent seat costs.

    Even so, a p99 from 4,560 moves carries the sampling error of a tail: the same server gave
    0.95–1.11× in four runs. So "p99 within 10 %" is tested as what it means, with that error
    allowed for: at most 1 % of the moves during the stalls may be slower than 1.1 × the p99
    beside them, give or take three standard deviations of a 1 % share of 4,560 (0.44 %). A
    p99 over the line means more than 1 % of the moves are; a silent seat that slowed its mates'
    tail would put well over 1.44 % there and fail. Measured: 0.50–0.77 % in three runs (p99
    0.84–0.97× beside). Both p99 ratios are printed."""
    bound = 5.0
    server = start_server(*FAST)  # the defaults: --drain-timeout 5, --send-buffer 65536
    load = os.path.join(os.path.dirname(BINARY), "matchismo-load")
    result = subprocess.run(
        [load, "--mode", "open", "--port", str(server.port), "--tables", "20", "--seats", "4",
         # 19 moves a second for each of the three players who move: the rate limit is 20.
         "--rate", "1520", "--warmup", "2", "--duration", "35", "--stall-at", "5",
         "--stall-every", "1.5", "--stall-window", str(bound), "--stall-tables", "16", "--json"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    print(json.dumps({k: v for k, v in report.items() if k.startswith(("stall", "lat_"))}))
    assert report["ready"] == 80 and report["setup_failures"] == 0, report
    # Every stalled seat was cut within the bound and a second of its window shutting (a few
    # hundred ms after it stopped reading, or more on a machine so busy that the server is
    # slow to send what fills it), and its mates saw it go away with the cut.
    assert report["stall_cuts"] == 16 and 0 < report["stall_cut_after_shut_latest_s"] <= bound + 1, report
    assert 0 < report["stall_cut_latest_s"] <= bound + 5, report
    assert report["stall_aways"] == 16 and 0 <= report["stall_away_after_cut_latest_s"] <= 2, report
    assert metric(server, "matchismo_not_reading_cuts_total") == 16
    assert metric(server, 'matchismo_closes_total{code="4000"}') == 16
    # Nothing else about those tables changed for the others: one `away` each, no error, no
    # gap, every move answered.
    assert report["stall_events"] == {"away": 16}, report
    assert report["errors"] == {} and report["closes"] == {}, report
    assert report["resyncs"] == 0 and report["unanswered"] == 0, report
    assert report["answered_error"] == 0 and report["protocol_errors"] == 0, report
    # Their latency did not suffer: p99 within 10 % of the players' beside them at the same
    # moments (4,560 moves during the stalls against some 29,000), tested as the share of moves
    # over 1.1 × that p99, with three standard deviations of sampling error.
    n = report["stall_during_n"]
    assert n >= 4000 and report["stall_beside_n"] >= 20000, report
    print(f"p99 during/beside {report['stall_during_p99_us'] / report['stall_beside_p99_us']:.2f}, "
          f"during/before {report['stall_during_p99_us'] / report['stall_before_p99_us']:.2f}, "
          f"over 1.1 × beside p99: {report['stall_during_over_beside_p99x110_pct']:.2f} %")
    allowed = 1.0 + 3 * math.sqrt(0.01 * 0.99 / n) * 100
    assert 0 <= report["stall_during_over_beside_p99x110_pct"] <= allowed, (allowed, report)


# ---- a thousand connections that never read ---------------------------------------------------

SILENT = 1000


def test_a_thousand_silent_connections_are_cut_at_a_bounded_cost(start_server):
    server = start_server("--drain-timeout", "2", "--empty-table-grace", "0.3", *FAST)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < SILENT + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, SILENT + 1024), hard))
    run(thousand_silent, server, timeout=120)


async def thousand_silent(server):
    bound = 2.0
    pid = server.process.pid
    churners = await connect(server.ws_url, "Cat", "Dan", "Eli", "Fay")
    lou, ida = await connect(server.ws_url, "Lou", "Ida")
    assert (await lou.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    # Ida reads everything the lobby sends and says nothing more: an honest idle client.
    assert (await ida.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    baseline_rss = rss_kib(pid)
    stop = asyncio.Event()

    async def churn(client):
        # A busy lobby: public tables made and left, each a change every lobby client is sent
        # (coalesced into at most four `lobbyDiff`s a second).
        while not stop.is_set():
            created = await client.request({"type": "createTable", "game": "set", "seats": 4})
            if created["type"] == "error" and created["code"] == "tooManyTables":
                # The tables just left are still listed for --empty-table-grace.
                await asyncio.sleep(0.1)
                continue
            assert created["type"] == "snapshot", created
            assert (await client.request({"type": "leave"}))["type"] == "left"
            await asyncio.sleep(0.05)

    answers = []

    async def keep_asking():
        # The server keeps answering: an honest lobby client's round trips all along.
        while not stop.is_set():
            sent = time.monotonic()
            answer = await lou.request({"type": "lobby"}, timeout=5)
            assert answer["type"] == "lobbySnapshot", answer
            answers.append(time.monotonic() - sent)
            await asyncio.sleep(0.25)

    tasks = [asyncio.create_task(churn(c)) for c in churners] + [asyncio.create_task(keep_asking())]
    silent, last_growth, last_unread, cut_at = [], [], [], []
    upgraded = set()  # the silent sockets' own ports, once their 101 came
    peak_rss = baseline_rss
    peak_kernel = (0, 0, 0, 0)

    slowest_poll = 0.0

    def poll():
        # A socket's unread bytes stop growing when its window shuts; its TCP state turns
        # CLOSE when the server resets it.
        nonlocal peak_rss, peak_kernel, slowest_poll
        now = time.monotonic()
        for i, s in enumerate(silent):
            if cut_at[i] is not None:
                continue
            if tcp_state(s) in (TCP_CLOSE, TCP_CLOSE_WAIT):
                cut_at[i] = now
                continue
            unread = unread_bytes(s)
            if unread > last_unread[i]:
                last_unread[i], last_growth[i] = unread, now
        peak_rss = max(peak_rss, rss_kib(pid))
        kernel = kernel_send_memory(server.port, upgraded)
        if kernel[0] > peak_kernel[0]:
            peak_kernel = kernel
        slowest_poll = max(slowest_poll, time.monotonic() - now)

    def open_fifty(first):
        return [open_silent(server.port, f"Quiet{first + i}") for i in range(50)]

    # Opened fifty at a time, watched from the start. A socket's opening blocks until its 101
    # comes, so the openings run on a thread while the sockets already open are watched: a slow
    # opening must not delay the look that sees a cut. A socket's clock starts when its batch
    # is in (at the latest, its window shut then).
    while len(silent) < SILENT:
        opening = asyncio.ensure_future(asyncio.to_thread(open_fifty, len(silent)))
        while not opening.done():
            poll()
            await asyncio.wait({opening}, timeout=0.02)
        opened = time.monotonic()
        for s in opening.result():
            silent.append(s)
            upgraded.add(s.getsockname()[1])
            last_growth.append(opened)
            last_unread.append(0)
            cut_at.append(None)
        poll()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and None in cut_at:
        poll()
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*tasks)
    for s in silent:
        s.close()

    missing = cut_at.count(None)
    assert missing == 0, f"{missing} of {SILENT} silent connections were never cut"
    # Each was cut within the bound and a second of its window shutting (its unread bytes
    # stopped growing: the server's writes stopped leaving then).
    waits = sorted(cut - grown for cut, grown in zip(cut_at, last_growth))
    print(f"cut after the window shut: median {waits[SILENT // 2]:.2f} s, worst {waits[-1]:.2f} s; "
          f"unread per socket at most {max(last_unread)} B; peak RSS +{(peak_rss - baseline_rss) / 1024:.1f} MiB; "
          f"kernel send memory peak {peak_kernel[0] / 2**20:.1f} MiB over {peak_kernel[3]} sockets, "
          f"largest {peak_kernel[1]} B, send buffer {peak_kernel[2]} B; "
          f"lobby answers: worst {max(answers) * 1000:.0f} ms over {len(answers)}; "
          f"slowest look at the sockets {slowest_poll * 1000:.0f} ms")
    assert waits[-1] <= bound + 1, waits[-10:]
    assert metric(server, "matchismo_not_reading_cuts_total") == SILENT
    # The cost stayed bounded: the kernel's send buffer is the one set (64 KiB, which Linux
    # counts twice), no socket held more (give or take the one packet the kernel queues past
    # the buffer), and all of them together at most the buffer each: 125 MiB for 1,000. How
    # much they held at once is not a bound but a moment (how many lobby diffs had gone out
    # when the first were cut: 40.5 MiB in one run here), so it is only printed.
    assert peak_kernel[2] == 2 * SEND_BUFFER, peak_kernel
    assert peak_kernel[1] <= 2 * SEND_BUFFER + 16 * 1024, peak_kernel
    assert peak_kernel[0] <= SILENT * 2 * SEND_BUFFER, peak_kernel
    # The server's RSS grew by less than 64 MiB.
    assert peak_rss - baseline_rss <= 64 * 1024, (peak_rss, baseline_rss)
    # The honest clients were never cut, and the server kept answering throughout.
    assert not any(c.closed.is_set() for c in (lou, ida, *churners))
    assert answers and max(answers) < 2.0, answers
    final = await lou.request({"type": "lobby"})
    assert final["type"] == "lobbySnapshot"
    # Ida followed every change, in order (a gap would be a problem), up to now.
    await ida.until(lambda: ida.lobby.version >= final["version"], what="Ida's lobby up to date")
    assert not lou.problems and not ida.problems, (lou.problems, ida.problems)
    await asyncio.sleep(0)
    assert metric(server, "matchismo_connections_open") == 6


# ---- the per-address limit -------------------------------------------------------------------

def test_the_per_address_limit_refuses_the_next_connection_and_no_more(start_server):
    server = start_server("--max-connections-per-address", "3", *FAST)
    run(per_address, server)


async def per_address(server):
    ada, bob, cy = await connect(server.ws_url, "Ada", "Bob", "Cy")
    # The fourth from 127.0.0.1 is upgraded, then closed at once with 4002 and a reason.
    ws = await websockets.connect(server.ws_url, subprotocols=[SUBPROTOCOL], open_timeout=10)
    try:
        await asyncio.wait_for(ws.recv(), 10)
        raise AssertionError("the fourth connection was sent a message")
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4002, closed
        assert closed.rcvd.reason == "too many connections from your address", closed
    assert metric(server, "matchismo_address_limit_refusals_total") == 1
    # No more than that one: the three play on, and another address is not counted with them.
    for c in (ada, bob, cy):
        assert (await c.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    other.bind(("127.0.0.2", 0))
    other.connect(("127.0.0.1", server.port))
    ws = await websockets.connect(server.ws_url, sock=other, subprotocols=[SUBPROTOCOL], open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "id": "h", "name": "Dee"}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
    await ws.close()
    # A place freed is a place taken: once Cy is gone, 127.0.0.1 may connect again.
    await cy.drop()
    deadline = time.monotonic() + 10
    while metric(server, "matchismo_connections_open") > 2:
        assert time.monotonic() < deadline, "the server did not see Cy's close"
        await asyncio.sleep(0.05)
    eve, = await connect(server.ws_url, "Eve")
    assert (await eve.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    assert metric(server, "matchismo_address_limit_refusals_total") == 1
