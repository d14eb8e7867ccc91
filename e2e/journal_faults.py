"""What the tests of database faults on the embedded SQLite journal share: real faults of the
file system, made for one test and always lifted after it, and a game played through one.

The faults are real ones of the file system, which needs root (these machines run the tests as
root; elsewhere they fail and say what is missing: no test is ever skipped):

- Read-only: the data folder is on a small ext4 image mounted through a loop device, and the
  journal's files and folder are made immutable with `chattr +i`. Root cannot write an immutable
  file either, and ext4 refuses writes through descriptors opened before (EPERM), which is what a
  running server has. Remounting the file system read-only is not possible while the server
  holds its files open for writing (EBUSY, the same for a read-only bind mount), and tmpfs
  accepts `chattr +i` but still takes writes through open descriptors.
- Full disk: the data folder is on a small tmpfs (`mount -t tmpfs -o size=...`), filled with a
  filler file. SQLite appends to its write-ahead log and starts it over (in the room the file
  already has) once it is copied into the database, so a full disk stops a write only when the
  log has to grow; a read transaction held open on the journal from the start (as any reader,
  a backup say, may) keeps the log from starting over, so the first write after the disk fills
  needs room.

- A disk that hangs: the data folder is on an ext4 image that is frozen (`fsfreeze`) mid-game, so
  the journal's next write blocks until it is thawed, as on a disk or network file system that
  stops answering. The writer's watch notices a write that has taken over the stall limit, and
  moves are refused meanwhile.

Every fault is lifted while the server runs: moves are taken again, and a restart on the same
folder brings back everything any client was shown."""
import asyncio
import contextlib
import hashlib
import inspect
import os
import pathlib
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time

import pytest

from conftest import RunningServer
from mp_support import converge, shutdown
from protocol_client import LiveClient
from test_journal import pair_at, restart, resume, without_version
from test_metrics import scrape, scrape_until, value


FAST = ("--countdown", "0.3")


# ---------------------------------------------------------------------------------------------
# Mounts: made for one test, always unmounted and removed after it.
def command(*args):
    return subprocess.run(args, capture_output=True, text=True, timeout=30)


def mount_problem(*args):
    """Mounts something on a throwaway folder to see whether this machine lets us; returns why
    not, or None."""
    if os.geteuid() != 0:
        return "mounting a small file system for a database fault needs root"
    probe = tempfile.mkdtemp(prefix="matchismo-probe-")
    try:
        result = command("mount", *args, probe)
        if result.returncode != 0:
            return f"cannot mount here ({' '.join(args)}): {result.stderr.strip()}"
        command("umount", probe)
        return None
    finally:
        os.rmdir(probe)


def unmount(path):
    """Unmounts `path`, retrying while a process that was just stopped lets go of its files;
    lazily as a last resort, so that nothing stays mounted after the test."""
    for _ in range(50):
        if command("umount", path).returncode == 0:
            return
        time.sleep(0.1)
    command("umount", "-l", path)


@pytest.fixture
def tmpfs():
    """`tmpfs(size)` mounts a tmpfs of `size` (e.g. "8m") and returns its path."""
    problem = mount_problem("-t", "tmpfs", "-o", "size=1m", "tmpfs")
    if problem:
        pytest.fail(problem)
    mounts = []

    def make(size):
        path = tempfile.mkdtemp(prefix="matchismo-tmpfs-")
        mounts.append(path)
        result = command("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", path)
        assert result.returncode == 0, result.stderr
        return pathlib.Path(path)

    yield make
    for path in mounts:
        unmount(path)
        os.rmdir(path)


@pytest.fixture
def ext4():
    """`ext4(megabytes)` makes an ext4 image of that size, mounts it through a loop device and
    returns the mount's path; every immutable flag is cleared and the image removed after."""
    if os.geteuid() != 0:
        pytest.fail("mounting an ext4 image for a database fault needs root")
    for tool in ("mkfs.ext4", "chattr", "losetup"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed (`make test` installs e2fsprogs and util-linux)")
    work = tempfile.mkdtemp(prefix="matchismo-ext4-")
    image = os.path.join(work, "disk.img")
    mount = os.path.join(work, "mnt")
    os.mkdir(mount)
    mounted = False
    try:
        def make(megabytes):
            nonlocal mounted
            with open(image, "wb") as f:
                f.truncate(megabytes * 1024 * 1024)
            made = command("mkfs.ext4", "-q", "-F", image)
            assert made.returncode == 0, made.stderr
            result = command("mount", "-o", "loop", image, mount)
            if result.returncode != 0:
                pytest.fail(f"cannot loop-mount an ext4 image here: {result.stderr.strip()}")
            mounted = True
            return pathlib.Path(mount)

        yield make
    finally:
        if mounted:
            command("chattr", "-R", "-i", mount)
            unmount(mount)
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def servers(request):
    """A list to put the test's servers in: each is stopped after the test (before any mount
    goes), its log printed when the test failed and then removed."""
    started = []
    yield started
    for server in started:
        server.stop()
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for server in started:
        if failed:
            print(f"---- server log (port {server.port}) ----\n" + server.output())
        server.log.close()
        os.unlink(server.log.name)


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def integrity(path):
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


# ---------------------------------------------------------------------------------------------
# 2 and 3. A fault in the middle of a game, and the game after it.
async def choose(client, rng, wait=False):
    """Chooses a card still in play; returns the message id (and its answer if `wait`)."""
    cards = [c["id"] for c in client.state.board if not c.get("matched")]
    sent = await client.send({"type": "choose", "card": rng.choice(cards)})
    if wait:
        reply = await client.reply(sent)
        assert reply["type"] in ("diff", "error"), reply
        return sent, reply
    return sent


def answer(client, sent):
    return client.find(lambda m: m.get("replyTo") == sent)


async def game_through_a_fault(server, fault, lift, restart_server, logged="journal write failed",
                               counter="matchismo_journal_failed_writes_total",
                               refused_within=None, scores_meanwhile=False):
    """Two players through `fault` and `lift` (a function, or a coroutine function): held,
    refused, nothing unsaved shown, then played on and restored after a restart. The server logs
    `logged` and counts `counter` meanwhile; with `refused_within`, the first refusal comes
    within that many seconds of the fault; with `scores_meanwhile`, the high scores are answered
    during the fault without waiting for the journal (the store can still be read)."""
    ada, _ = await LiveClient.open(server.ws_url, "Ada", "Ada")
    bob, _ = await LiveClient.open(server.ws_url, "Bob", "Bob")
    await pair_at("set", ada, bob)
    rng = random.Random(7)
    for step in range(10):
        await choose((ada, bob)[step % 2], rng, wait=True)
    await converge(ada, bob)

    fault()
    faulted = time.monotonic()
    marks = {c: c.mark() for c in (ada, bob)}
    # The first move after the fault is taken (the lobby hears of the failure from the writer's
    # first failed write): its diff waits for the journal. From then on moves are refused, and
    # the refusal reaches the player at once.
    sent = [(ada, await choose(ada, rng))]
    refused = None
    for step in range(20):
        client = (bob, ada)[step % 2]
        move = await choose(client, rng)
        sent.append((client, move))
        started = time.monotonic()
        try:
            reply = await client.reply(move, timeout=2)
        except AssertionError:
            continue  # taken before the failure was known, and held
        if reply["type"] == "diff":
            # Written after all: a full disk still takes a commit that fits in the last block
            # the log's file holds (a 1 KiB page's frame does, three times in a 4 KiB block).
            continue
        if reply["type"] == "error" and reply["code"] == "cardNotOnTable":
            # Decided before the failure was known, at a table where the other player's move
            # (written after all, as above: this answer waited behind it) had taken the card.
            continue
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        refused = time.monotonic() - started
        break
    assert refused is not None, "no move was refused with unavailable while the journal failed"
    # The moves answered with a diff until then were written (the restart below checks it):
    # none after them may be shown while the journal fails.
    written = max([m["version"] for c, move in sent if (m := answer(c, move)) and m["type"] == "diff"],
                  default=0)
    if refused_within is not None:
        took = time.monotonic() - faulted
        assert took < refused_within, f"the first refusal came {took:.1f} s after the fault"
    # Again, for the other player, now that the lobby knows: at once.
    other = bob if client is ada else ada
    move = await choose(other, rng)
    sent.append((other, move))
    started = time.monotonic()
    reply = await other.reply(move, timeout=2)
    assert reply["type"] == "error" and reply["code"] == "unavailable", reply
    assert time.monotonic() - started < 1, "the refusal took a second"
    assert reply["message"], reply
    if scores_meanwhile:
        # The records thread does not wait for a journal that is down (it waited 2 s a question).
        started = time.monotonic()
        page = await bob.request({"type": "scores", "game": "set"}, timeout=5)
        took = time.monotonic() - started
        assert page["type"] == "scores", page
        assert took < 1.5, f"the high scores took {took:.1f} s while the journal was down"
    # Anything else waits with the held frames: a snapshot would show the move not written.
    resync = await ada.send({"type": "resync"})
    # The barrier: a move, refused at once; a snapshot not held would have come before it.
    barrier, refusal = await choose(ada, rng, wait=True)
    assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
    assert answer(ada, resync) is None, "a snapshot went out while the journal failed"
    # Nobody saw a move the journal does not have.
    for c, mark in marks.items():
        shown = [m for m in c.log[mark:] if m["type"] == "diff" and m["version"] > written]
        assert not shown, f"{c.label} saw a diff"
    assert server.process.poll() is None, "the server stopped"
    assert logged in server.output()
    samples = scrape(server)
    assert value(samples, counter) >= 1, counter
    assert value(samples, "matchismo_journal_down") == 1

    lifted = lift()
    if inspect.isawaitable(lifted):
        await lifted
    # What was held goes out once a write succeeds (within the retry's 2 s).
    for client, move in sent:
        got = await client.until(lambda: answer(client, move), 10, f"the answer to {move}")
        assert got["type"] in ("diff", "error"), got
    got = await ada.until(lambda: answer(ada, resync), 10, "the snapshot asked for")
    assert got["type"] == "snapshot", got
    # And moves are taken again.
    deadline = time.monotonic() + 10
    while True:
        move, reply = await choose(ada, rng, wait=True)
        if reply["type"] == "diff":
            break
        assert reply["code"] == "unavailable", reply
        assert time.monotonic() < deadline, "moves are still refused after the fault was lifted"
        await asyncio.sleep(0.2)
    for step in range(6):
        await choose((bob, ada)[step % 2], rng, wait=True)
    before = await converge(ada, bob)
    assert server.process.poll() is None, "the server stopped"
    assert "journal writes again" in server.output()
    samples = scrape_until(server, lambda samples: value(samples, "matchismo_journal_down") == 0)
    assert value(samples, "matchismo_journal_down") == 0

    # A restart brings back everything anyone was shown. (The exit is waited for off the event
    # loop, which answers the server's close frames meanwhile.)
    exited = asyncio.get_running_loop().run_in_executor(None, server.signal, signal.SIGTERM)
    for c in (ada, bob):
        await asyncio.wait_for(c.closed.wait(), 10)
    assert await exited == 0
    again = restart_server()
    back = [await resume(again.ws_url, c) for c in (ada, bob)]
    after = await converge(*back)
    assert without_version(after) == without_version(before), f"the table changed:\n{before}\n{after}"
    for c in (ada, bob, *back):
        assert not c.problems, f"{c.label}: {c.problems}"
    await shutdown(*back)
    assert again.signal(signal.SIGTERM) == 0


def start(servers, data_dir, executors):
    server = RunningServer(extra_args=[*FAST, "--executors", executors], data_dir=str(data_dir))
    servers.append(server)
    return server


def restarter(servers, executors):
    def again():
        server = restart(servers[-1], *FAST, "--executors", executors)
        servers.append(server)
        return server
    return again
