"""The journal on PostgreSQL (`--database`), end to end: the database stopped in the middle of a
game (moves refused with `unavailable`, no crash, play on once it is back, nothing lost), the
database that stops answering in the middle of a game (the same, once a write has taken the
stall limit), and a database that cannot be used at start (a clear message and a non-zero
exit). The crash and restart tests of test_journal.py run on PostgreSQL too."""
import asyncio
import contextlib
import functools
import random
import signal
import socket
import subprocess
import time

import pytest

from conftest import BINARY, RunningServer, free_port
from mp_support import connect, converge, run
from pg_support import Postgres
from test_journal import pair_at, restart, resume, without_version
from journal_faults import game_through_a_fault


def open_cards(client):
    return [c["id"] for c in client.state.board if not c.get("matched")]


async def wait_for_log(server, text, timeout=15):
    deadline = time.monotonic() + timeout
    while text not in server.output():
        assert time.monotonic() < deadline, f"the server never logged {text!r}:\n{server.output()}"
        await asyncio.sleep(0.05)


async def database_stopped_mid_game(servers, cluster):
    server = servers[0]
    ada, bob = await connect(server.ws_url, "Ada", "Bob")
    await pair_at("set", ada, bob)
    rng = random.Random(3)
    for step in range(10):
        mover = (ada, bob)[step % 2]
        reply = await mover.request({"type": "choose", "card": rng.choice(open_cards(mover))})
        assert reply["type"] == "diff", reply
    before = await converge(ada, bob)

    cluster.stop()
    # The first move finds the journal well: the table takes it, its write fails, and its diff
    # waits (the writer tries again and again) so that nobody sees a move that is not saved.
    ada_mark, bob_mark = ada.mark(), bob.mark()
    first = await ada.send({"type": "choose", "card": rng.choice(open_cards(ada))})
    await wait_for_log(server, "journal write failed")
    # From then on moves are refused with `unavailable`, at once (a refusal shows nothing
    # unsaved); nothing else leaves while the write fails.
    refused = await bob.send({"type": "choose", "card": rng.choice(open_cards(bob))})
    refusal = await bob.reply(refused, timeout=5)
    assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
    redeal = await ada.send({"type": "redeal"})
    refusal = await ada.reply(redeal, timeout=5)
    assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
    # Time for the writer to try again a few times; then a barrier on each connection (a move
    # refused at once): a frame let go meanwhile would have come before it.
    await asyncio.sleep(1.5)
    for client in (ada, bob):
        barrier = await client.request({"type": "choose", "card": rng.choice(open_cards(client))})
        assert barrier["type"] == "error" and barrier["code"] == "unavailable", barrier
    assert server.process.poll() is None, f"the server stopped:\n{server.output()}"
    unsaved = [m for m in ada.log[ada_mark:] + bob.log[bob_mark:] if m.get("code") != "unavailable"]
    assert unsaved == [], f"a frame left while the write failed: {unsaved}"
    assert ada.state.version == before["version"]

    cluster.start()
    first_reply = await ada.reply(first, timeout=15)
    assert first_reply["type"] == "diff", first_reply
    await wait_for_log(server, "journal writes again")

    # Moves are taken again.
    accepted = 0
    for step in range(8):
        mover = (ada, bob)[step % 2]
        cards = open_cards(mover)
        if not cards or mover.state.over:
            break
        reply = await mover.request({"type": "choose", "card": rng.choice(cards)})
        assert reply["type"] in ("diff", "error"), reply
        assert reply.get("code") != "unavailable", reply
        accepted += reply["type"] == "diff"
    assert accepted > 0
    played = await converge(ada, bob)
    assert played["version"] > before["version"]

    # Nothing anyone saw was lost: a killed server comes back with the table as it was.
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)
    for c in (ada, bob):
        await asyncio.wait_for(c.closed.wait(), 10)
    servers.append(restart(server, "--countdown", "0.3", "--executors", "0"))
    again = [await resume(servers[-1].ws_url, c) for c in (ada, bob)]
    after = await converge(*again)
    assert without_version(after) == without_version(played), f"the table changed:\n{played}\n{after}"


@contextlib.contextmanager
def own_cluster():
    """A cluster of the test's own (it is stopped or paused in the middle) and a list for the
    test's servers: their logs and the cluster's are printed if the test fails, and all are
    stopped and removed after it."""
    cluster = Postgres()
    servers = []
    try:
        yield cluster, servers
    except BaseException:
        for s in servers:
            print(f"---- server log (port {s.port}) ----\n" + s.output())
        print("---- PostgreSQL log ----\n" + cluster.log())
        raise
    finally:
        cluster.resume()  # before the servers stop: one waiting for the database stops late
        for s in servers:
            s.stop()
        cluster.destroy()


def test_postgres_stopped_mid_game_refuses_moves_then_plays_on_and_loses_nothing():
    with own_cluster() as (cluster, servers):
        servers.append(RunningServer(extra_args=["--countdown", "0.3", "--executors", "0"],
                                     database=cluster.new_database()))
        run(database_stopped_mid_game, servers, cluster, timeout=120)


@pytest.mark.parametrize("pause", [3, 14])
def test_postgres_that_stops_answering_mid_game_refuses_moves_then_plays_on(pause):
    """Every process of the database server stopped (SIGSTOP) mid-game: the connection stays
    open and nothing answers, as behind a network that drops everything. After the stall limit
    (1 s) moves are refused at once. Resumed after 3 s, the write in progress just ends; after
    14 s, the query's time limit (10 s) has closed the connection, and the writer connects
    again. Either way play goes on and a restart loses nothing anyone saw."""
    args = ("--countdown", "0.3", "--executors", "1")
    with own_cluster() as (cluster, servers):
        servers.append(RunningServer(extra_args=list(args), database=cluster.new_database()))

        def again():
            servers.append(restart(servers[-1], *args))
            return servers[-1]

        async def lift():
            await asyncio.sleep(max(0.0, paused + pause - time.monotonic()))
            cluster.resume()

        def fault():
            nonlocal paused
            cluster.pause()
            paused = time.monotonic()

        paused = 0.0
        hang = functools.partial(game_through_a_fault, logged="journal write has taken over 1 s",
                                 counter="matchismo_journal_stalls_total", refused_within=5)
        run(hang, servers[0], fault, lift, again, timeout=180)
        if pause > 10:
            assert "no answer within 10 s" in servers[0].output()


def start_and_fail(*args):
    done = subprocess.run([BINARY, "--port", str(free_port()), *args], capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout + done.stderr


def test_a_database_that_cannot_be_reached_stops_the_server_at_start(pg_cluster):
    code, output = start_and_fail("--database", f"postgres://mlive@127.0.0.1:{free_port()}/none")
    assert code != 0
    assert "cannot use the journal at postgres://mlive@127.0.0.1:" in output and "refused" in output, output
    code, output = start_and_fail("--database", f"postgres://mlive@127.0.0.1:{pg_cluster.port}/missing")
    assert code != 0
    assert 'database "missing" does not exist' in output, output


def test_a_database_that_accepts_but_never_answers_stops_the_server_at_start():
    """A port that takes the TCP connection and then says nothing (as a stopped server, or a
    proxy in front of a dead one): the start-up is bounded, not hung."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # never accepted: the kernel completes the handshakes, nobody answers
        port = silent.getsockname()[1]
        started = time.monotonic()
        code, output = start_and_fail("--database", f"postgres://mlive@127.0.0.1:{port}/none")
    assert code != 0
    assert "Connect timeout (5 s)" in output, output
    assert time.monotonic() - started < 20


def test_a_bad_database_url_stops_the_server_naming_the_option():
    code, output = start_and_fail("--database", "postgres://ada:secret@host")
    assert code != 0
    assert "--database: no database name" in output, output
    assert "secret" not in output


@pytest.mark.parametrize("url, problem", [
    ("postgres://ada:secret@h1:5432,,h2:5432/games", "--database: an empty host in the list"),
    ("postgres://ada:secret@h1:5432,h2:port/games", "--database: 'h2:port': the port must be 1...65535"),
    ("postgres://ada:secret@h1,h2/games?target_session_attrs=standby",
     "--database: unknown target_session_attrs 'standby'"),
])
def test_a_bad_server_list_stops_the_server_naming_the_part(url, problem):
    code, output = start_and_fail("--database", url)
    assert code != 0
    assert problem in output, output
    assert "secret" not in output


def psql(url, *commands):
    import glob
    tool = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    args = [tool, url, "-Atq"]
    for command in commands:
        args += ["-c", command]
    subprocess.run(args, check=True, capture_output=True, timeout=30)


async def no_server_takes_writes(server, url, port):
    ada, bob = await connect(server.ws_url, "Ada", "Bob")
    await pair_at("set", ada, bob)
    rng = random.Random(5)
    reply = await ada.request({"type": "choose", "card": rng.choice(open_cards(ada))})
    assert reply["type"] == "diff", reply
    await converge(ada, bob)
    assert f"writing to 127.0.0.1:{port}, the server that accepts writes" in server.output()
    # The only server that answers stops taking writes (a primary demoted: its sessions end,
    # new ones are read-only); the other one listed is not there at all.
    name = url.rsplit("/", 1)[1]
    admin = url.replace(f"127.0.0.1:{server.dead_port},", "").replace(f"/{name}", "/postgres")
    await asyncio.to_thread(
        psql, admin,
        f"ALTER DATABASE {name} SET default_transaction_read_only = on",
        f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' "
        "AND pid <> pg_backend_pid()")
    first = await ada.send({"type": "choose", "card": rng.choice(open_cards(ada))})
    # The journal's writer's own line, logged once the lobby can see the journal down: the
    # lease's and the cluster's lines say "no server accepts writes" too, and may come first
    # (then a move could still be taken and held, unanswered; once in CI).
    await wait_for_log(server, "journal write failed")
    logged = server.output().count("journal write failed")
    began = time.monotonic()
    refusals = 0
    while time.monotonic() - began < 7:
        answer = await bob.request({"type": "choose", "card": rng.choice(open_cards(bob))})
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        refusals += 1
        await asyncio.sleep(0.2)
    # Refused all along, and said every few seconds (the writer tried every second or so, the
    # lease every 2/3 s, the look for dead nodes every 1/2 s): no more than two lines of each
    # in 7 s.
    failures = server.output().count("journal write failed") - logged
    assert refusals >= 20 and 1 <= failures <= 2, (refusals, failures)
    for what in ("cannot renew the lease", "cannot take tables over", "cluster: not listening"):
        assert server.output().count(what) <= 3, (what, server.output())
    await asyncio.to_thread(psql, admin, f"ALTER DATABASE {name} RESET default_transaction_read_only")
    assert (await ada.reply(first, timeout=15))["type"] == "diff"
    answer = await bob.request({"type": "choose", "card": rng.choice(open_cards(bob))})
    assert answer["type"] == "diff", answer
    await converge(ada, bob)


def test_no_server_that_takes_writes_keeps_moves_refused_and_says_so_every_few_seconds(pg_cluster):
    """A server list where none takes writes (one not there, one read-only): the node stays up,
    refuses moves with `unavailable`, and its log says why every few seconds, not at every try;
    once a server takes writes again the move that waited is answered and play goes on."""
    database = pg_cluster.new_database()
    dead = free_port()
    url = database.replace("@127.0.0.1:", f"@127.0.0.1:{dead},127.0.0.1:")
    server = RunningServer(extra_args=["--countdown", "0", "--executors", "0"], database=url)
    server.dead_port = dead
    try:
        run(no_server_takes_writes, server, url, pg_cluster.port, timeout=60)
    except BaseException:
        print(server.output())
        raise
    finally:
        server.stop()
