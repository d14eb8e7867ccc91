"""A crowd at one table (issue 36): two thousand spectators watch four players, nobody is cut and
the players barely feel them; the crowd's count reaches everyone coalesced (at most once a
second); a client that spectates and leaves in a loop is cut by the rate limit and changes
nothing for the players; a spectator that stops reading is cut alone."""
import asyncio
import json
import os
import signal
import socket
import subprocess
import time

import pytest
import websockets

from conftest import BINARY, scrape_metric
from mp_support import FAST, connect, replies_ok, run, start_server, until_playing  # noqa: F401
from protocol_client import SUBPROTOCOL
from silent_socket import (TCP_CLOSE, TCP_CLOSE_WAIT, masked, open_silent, read_upgrade, tcp_state,
                           unread_bytes, upgrade_request)

CROWD = 2000


def load(server, spectators, seconds, warmup=3, extra=()):
    """The load generator (a real client in Swift): one table of four players choosing forty
    times a second in all, watched by `spectators`, with `extra` options; its report."""
    binary = os.path.join(os.path.dirname(BINARY), "matchismo-load")
    result = subprocess.run(
        [binary, "--mode", "open", "--port", str(server.port), "--tables", "1", "--seats", "4",
         "--spectators", str(spectators), "--rate", "40", "--warmup", str(warmup),
         "--duration", str(seconds), "--json"]
        # The spectators on a loop of their own: the players' latency is then the server's.
        + (["--crowd-threads", "1"] if spectators else []) + list(extra),
        capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_passes_slowed_by_their_cost_leave_the_journals_writer_batched(start_server):
    """Passes slowed by their cost are no sign of a pressed service thread (`PressureHold`):
    fast play slows them too, and a writer on the short slice woken at every decision cost real
    play four times the commits. With a pass budget of one microsecond every pass that reads an
    event is over it (`PassPacing` slowed all along), yet a table of four players moving forty
    times a second never switches the writer from its batch policy."""
    server = start_server(*FAST, "--pass-budget", "1")
    report = load(server, 0, 3, warmup=1)
    assert report["closes"] == {} and report["errors"] == {}, report
    assert report["moves"] > 0, report
    # The load generator's report came after every move was answered: nothing is still to come.
    assert scrape_metric(server.port, "matchismo_journal_urgent_turns_total") == 0


# Issue 36's bound on the players: their p99 with the crowd at most this many times the same
# table's without it, on the same server.
PLAYERS_BOUND = 1.5
# A p99 of 160 or 400 moves is their second or fourth slowest: one hiccup of this machine sets
# it (the table without a crowd gave 1.1-2.0 ms in three runs a minute apart). Where the
# bound is missed both windows are measured again, up to this many times in all. A crowd that
# costs the players every time misses it in each: with 150 of its writes a pass rather than 4
# (a scratch build) the players' p99 was 6.5-7.9 ms against 1.4-2.7 without it, three times.
ATTEMPTS = 3


@pytest.mark.alone  # timed under load: run with nothing beside it (see conftest)
def test_two_thousand_spectators_watch_and_nobody_is_cut(start_server):
    """Two thousand spectators join one table at once (when its invite code is known) and
    watch it play: nobody is cut, every spectator reads every version in order (no gap, no
    resync), the count reaches the 2,004 members a few times rather than once per arrival (the
    old rule made 2,000 diffs for each member: two million frames, and cut everyone), the
    players see each move before the crowd does, and the crowd adds at most half to the
    players' p99."""
    server = start_server(*FAST)  # the default --spectator-limit takes the crowd
    tries = []
    for attempt in range(ATTEMPTS):
        # The table without a crowd (4 s of moves after 1 s of warm-up), then with it.
        quiet = load(server, 0, 4, warmup=1)
        if attempt == 0:
            # The journal's writer keeps the batch policy at a table without a crowd, and takes
            # the short slice while the crowd's fan-out holds the service thread.
            assert scrape_metric(server.port, "matchismo_journal_urgent_turns_total") == 0
        crowd = load(server, CROWD, 10)
        if attempt == 0:
            assert scrape_metric(server.port, "matchismo_journal_urgent_turns_total") > 0
        watched_without_a_cut(crowd)
        tries.append((quiet["lat_p99_us"], crowd["lat_p99_us"]))
        print(f"players' p50/p99 without a crowd {quiet['lat_p50_us']}/{quiet['lat_p99_us']} µs, "
              f"with {CROWD} spectators {crowd['lat_p50_us']}/{crowd['lat_p99_us']} µs")
        if crowd["lat_p99_us"] <= PLAYERS_BOUND * quiet["lat_p99_us"]:
            break
    else:
        pytest.fail(f"the players' p99 (µs, without and with {CROWD} spectators) was over "
                    f"{PLAYERS_BOUND}× in each of {ATTEMPTS} tries: {tries}")


def watched_without_a_cut(crowd):
    """A crowd's run, its report `crowd`: everyone seated and nobody cut, every spectator read
    every version in order within a quarter of a second (p99), the players first, and the count
    coalesced."""
    print(json.dumps({k: crowd[k] for k in crowd if k.startswith(("lat_", "spec", "crowd", "server", "setup"))}))
    members = 4 + CROWD
    assert crowd["ready"] == members and crowd["setup_failures"] == 0, crowd
    assert crowd["closes"] == {} and crowd["errors"] == {}, crowd
    assert crowd["resyncs"] == 0 and crowd["unanswered"] == 0 and crowd["protocol_errors"] == 0, crowd
    # Every spectator read every diff the players' moves made (and those before the window).
    assert crowd["spectator_diffs"] >= CROWD * crowd["moves"], crowd
    assert crowd["spec_lat_n"] >= CROWD * crowd["moves"] * 0.99, crowd
    # Coalesced: at most one count a second for each member over the run, not one per arrival.
    seconds = crowd["setup_s"] + 3 + 10 + 3
    assert 0 < crowd["crowd_counts"] <= members * (seconds + 1), crowd
    # The spectators see each move within a quarter of a second (p99), the players first.
    assert crowd["spec_lat_p99_us"] <= 250_000, crowd
    assert crowd["lat_p50_us"] <= crowd["spec_lat_p50_us"], crowd


STORMED = 300


def test_a_crowd_that_drops_at_once_resumes_its_sessions_and_watches_again(start_server):
    """Three hundred spectators' connections drop at once, without a close frame (as when their
    node's network goes), and each connects again at once with its session's token, as the web
    client does: every one is welcomed back to its session (`resumed`) and watches again,
    nobody is cut, and the server holds no session twice."""
    server = start_server(*FAST)
    report = load(server, STORMED, 4, warmup=1,
                  extra=["--storm", "reconnect", "--storm-at", "2", "--storm-window", "2"])
    assert report["ready"] == 4 + STORMED and report["setup_failures"] == 0, report
    assert report["storm_spectators"] == STORMED, report
    assert report["storm_resumed"] == STORMED, report
    assert report["storm_returned"] == STORMED and report["storm_returned_latest_s"] >= 0, report
    assert report["closes"] == {} and report["errors"] == {}, report
    assert report["protocol_errors"] == 0 and report["resyncs"] == 0, report
    run(one_session_each, server, 4 + STORMED)


async def one_session_each(server, sessions):
    """The server holds `sessions` (the load's, all detached now) and a newcomer's: the gauge,
    refreshed on the server's clock, is read until it counts the newcomer, which comes after
    everything the load did; a session opened twice would count more."""
    (newcomer,) = await connect(server.ws_url, "Newcomer")
    deadline = time.monotonic() + 10
    counted = scrape_metric(server.port, "matchismo_sessions")
    while counted < sessions + 1 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        counted = scrape_metric(server.port, "matchismo_sessions")
    assert counted == sessions + 1, (counted, sessions)
    await newcomer.shutdown()


def test_spectating_and_leaving_in_a_loop_is_cut_and_changes_nothing_for_the_players(start_server):
    server = start_server(*FAST)
    run(spectate_and_leave_in_a_loop, server.ws_url)


async def spectate_and_leave_in_a_loop(url):
    ada, bob = await connect(url, "Ada", "Bob")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2, "private": True})
    code = created["table"]["code"]
    assert (await bob.request({"type": "join", "code": code}))["type"] == "snapshot"
    await ada.until(lambda: ada.state.phase == "playing", what="the table playing")
    version = ada.state.version
    mark = ada.mark()
    began = time.monotonic()
    # A raw client that never waits: spectate, leave, spectate... as fast as it can write.
    async with websockets.connect(url, subprotocols=[SUBPROTOCOL]) as eve:
        await eve.send(json.dumps({"type": "hello", "id": 1, "name": "Eve"}))
        assert json.loads(await eve.recv())["type"] == "welcome"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for n in range(1000):
                await eve.send(json.dumps({"type": "spectate", "id": 2 + 2 * n, "code": code}))
                await eve.send(json.dumps({"type": "leave", "id": 3 + 2 * n}))
            while True:
                await eve.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, closed.value
    # A barrier: Ada's round trip comes after anything the server still had for her.
    assert (await ada.request({"type": "resync"}))["type"] == "snapshot"
    elapsed = time.monotonic() - began
    assert ada.state.version == version, "a spectator's coming and going changed the game"
    diffs = [m for m in ada.log[mark:] if m.get("type") == "diff"]
    assert diffs == [], diffs
    counts = [m for m in ada.log[mark:] if m.get("type") == "spectators"]
    assert len(counts) <= elapsed + 2, (elapsed, counts)


SILENT = 3
WATCHERS = 20


@pytest.mark.parametrize("pause", [0, 0.1], ids=["brisk", "calm"])
def test_spectators_that_stop_reading_are_cut_alone(start_server, pause):
    """Three spectators who never read (4 KiB receive buffers) beside twenty who do, at a table
    whose two players make moves, one after the other or a tenth of a second apart: the three
    are cut with 4000 once the drain clock (1 s here) runs out on their shut windows (the
    server's send buffers are 4 KiB here too, so they shut within a few dozen diffs); the
    players and the twenty read every version, in order, and nobody else is cut.

    At the calm table each of a spectator's turns writes a frame or two, which the kernel takes
    whole until its send buffer is too full to take more: the server used to watch a
    spectator's drain only after a write that lws could not send whole, so these were never
    cut in 45 s (822 moves) and waited for the crowd's queue bounds."""
    server = start_server(*FAST, "--drain-timeout", "1", "--send-buffer", "4096")
    run(silent_spectators, server, pause, timeout=120)


async def two_playing(server):
    """Ada and Bob playing Set at a private table: both clients and its invite code."""
    ada, bob = await connect(server.ws_url, "Ada", "Bob")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2, "private": True})
    code = created["table"]["code"]
    assert (await bob.request({"type": "join", "code": code}))["type"] == "snapshot"
    await until_playing(ada, bob)
    return ada, bob, code


async def silent_spectators(server, pause):
    ada, bob, code = await two_playing(server)
    watchers = await connect(server.ws_url, *(f"W{n}" for n in range(WATCHERS)))
    for watcher in watchers:
        assert (await watcher.request({"type": "spectate", "code": code}))["type"] == "snapshot"
    silent = [open_silent(server.port, f"S{n}", then=({"type": "spectate", "id": 2, "code": code},))
              for n in range(SILENT)]

    def cuts():
        return scrape_metric(server.port, 'matchismo_closes_total{code="4000"}')

    # The players toggle a card each (every choice a diff for all 25 members), paced under the
    # rate limit, until the silent three are cut (their windows shut within a few dozen diffs,
    # then the drain bound: 2.5 s brisk and 5-8 s calm here, where a loaded machine once took
    # 43 s, waiting for the crowd's bounds).
    deadline = time.monotonic() + 25
    moves = 0
    while cuts() < SILENT:
        assert time.monotonic() < deadline, f"{cuts()} of {SILENT} cut after {moves} moves"
        for player in (ada, bob):
            answer = await player.request({"type": "choose", "card": player.state.board[0]["id"]})
            assert replies_ok(answer, player)
            moves += 1
            await asyncio.sleep(pause)
    # The server closed them: the kernel says so once the FIN or reset arrived. The close frame
    # cannot reach a shut window, so the socket goes when the close's send timeout (10 s, the
    # transport's CloseHandshake.sendTimeoutSeconds) runs out: waited for up to 20 s.
    deadline = time.monotonic() + 20
    for s in silent:
        while tcp_state(s) not in (TCP_CLOSE, TCP_CLOSE_WAIT) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        how = {name: scrape_metric(server.port, name)
               for name in ("matchismo_not_reading_cuts_total", "matchismo_too_slow_closes_total")}
        assert tcp_state(s) in (TCP_CLOSE, TCP_CLOSE_WAIT), (tcp_state(s), how)
        s.close()
    # A barrier: one more move, and everyone has its version (nothing older can still come).
    answer = await ada.request({"type": "choose", "card": ada.state.board[0]["id"]})
    assert replies_ok(answer, ada)
    version = ada.state.version
    for client in [bob, *watchers]:
        await client.until(lambda c=client: c.state.version == version, what=f"{client.label} at {version}")
    assert cuts() == SILENT, "only the silent spectators were cut"
    for client in [ada, bob, *watchers]:
        assert client.problems == [] and client.close_code is None, (client.label, client.problems)
        versions = [m["version"] for m in client.log if m.get("type") == "diff"]
        assert versions == sorted(versions) and len(set(versions)) == len(versions), client.label
    print(f"{SILENT} silent spectators cut after {moves} moves")


def test_a_spectator_that_breaks_a_rule_with_its_window_shut_is_reset(start_server):
    """A spectator whose window is shut (it reads nothing) and who then sends more than the rate
    limit allows: its close (1008) can never be written, so the server gives up on it when the
    close's send timeout (10 s) runs out, and ends the socket with a reset. A plain close there
    would leave the kernel an orphaned socket holding what the spectator never read, and the
    spectator's end open, for minutes. The drain clock is off here (--drain-timeout 0), so only
    the close's own timeout can end it."""
    server = start_server(*FAST, "--drain-timeout", "0", "--send-buffer", "4096")
    run(rule_breaker_with_a_shut_window, server, timeout=120)


async def rule_breaker_with_a_shut_window(server):
    ada, bob, code = await two_playing(server)
    silent = open_silent(server.port, "S", then=({"type": "spectate", "id": 2, "code": code},))
    # Moves until its window has been shut for a while: its receive queue stops growing.
    deadline = time.monotonic() + 45
    last, still = -1, 0
    while still < 5:
        assert time.monotonic() < deadline, f"its window never shut ({unread_bytes(silent)} unread)"
        for player in (ada, bob):
            answer = await player.request({"type": "choose", "card": player.state.board[0]["id"]})
            assert replies_ok(answer, player)
        unread = unread_bytes(silent)
        still = still + 1 if unread == last else 0
        last = unread
    # Sixty messages at once: twenty a second, with bursts of forty, are allowed.
    silent.setblocking(True)
    silent.sendall(b"".join(masked(json.dumps({"type": "resync", "id": 10 + n})) for n in range(60)))
    deadline = time.monotonic() + 20
    while scrape_metric(server.port, 'matchismo_closes_total{code="1008"}') < 1:
        assert time.monotonic() < deadline, "the rate limit did not close it"
        await asyncio.sleep(0.05)
    closing = time.monotonic()
    while tcp_state(silent) not in (TCP_CLOSE, TCP_CLOSE_WAIT) and time.monotonic() < closing + 20:
        await asyncio.sleep(0.1)
    waited = time.monotonic() - closing
    assert tcp_state(silent) == TCP_CLOSE, (tcp_state(silent), waited)
    silent.close()
    print(f"reset {waited:.1f} s after its close was decided")
    # The players never noticed: a barrier move, answered, and nobody else closed.
    answer = await ada.request({"type": "choose", "card": ada.state.board[0]["id"]})
    assert replies_ok(answer, ada)
    assert ada.close_code is None and bob.close_code is None


def test_clients_that_connect_at_once_are_let_in_a_few_a_pass_and_all_come_in(start_server):
    """Three hundred clients connect and ask to upgrade while the server is stopped (SIGSTOP),
    so that when it runs again the kernel hands it all of them at once, as a node's spectators
    coming back together after it died. It lets them in a few a pass (the rest wait, counted by
    `matchismo_connections_paced_total`), and every one of them is upgraded and welcomed."""
    server = start_server(*FAST)
    count = 300
    os.kill(server.process.pid, signal.SIGSTOP)
    sockets = []
    try:
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(upgrade_request(server.port))
            sockets.append(s)
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    try:
        for n, s in enumerate(sockets):
            read_upgrade(s, f"connection {n} before its upgrade")
            s.sendall(masked(json.dumps({"type": "hello", "id": 1, "name": f"C{n}"})))
        for n, s in enumerate(sockets):
            welcome = read_frame(s)
            assert welcome["type"] == "welcome", (n, welcome)
        # The first few came in at once, the rest a few a pass after them.
        paced = scrape_metric(server.port, "matchismo_connections_paced_total")
        assert count // 2 <= paced <= count, paced
        assert scrape_metric(server.port, "matchismo_connections_open") == count
        # The budget is each pass's: clients that come one after another (each upgraded before
        # the next connects, so each in a pass of its own) never wait, however many come.
        for n in range(40):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sockets.append(s)
            s.sendall(upgrade_request(server.port))
            read_upgrade(s, f"connection {count + n} before its upgrade")
        assert scrape_metric(server.port, "matchismo_connections_paced_total") == paced
    finally:
        for s in sockets:
            s.close()


def read_frame(s):
    """One unmasked text frame from the server on blocking socket `s`, parsed."""
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            assert chunk, "closed"
            data += chunk
        return data
    first, second = exactly(2)
    length = second & 0x7F
    if length == 126:
        length = int.from_bytes(exactly(2), "big")
    elif length == 127:
        length = int.from_bytes(exactly(8), "big")
    assert first & 0x0F == 1, first
    return json.loads(exactly(length))
