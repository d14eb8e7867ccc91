"""Database faults on the embedded SQLite journal, end to end against the real binary: a journal
that is garbage or damaged at start, the journal made read-only in the middle of a game, and a
full disk in the middle of a game (README, "When the database fails").

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
import functools
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

from conftest import BINARY, ROOT, RunningServer, free_port
from mp_support import converge, run, shutdown
from protocol_client import LiveClient
from test_journal import pair_at, restart, resume, without_version
from test_metrics import scrape, scrape_until, value

FAST = ("--countdown", "0.3")


# ---------------------------------------------------------------------------------------------
# Mounts: made for one test, always unmounted and removed after it.

def _run(*args):
    return subprocess.run(args, capture_output=True, text=True, timeout=30)


def _mount_problem(*args):
    """Mounts something on a throwaway folder to see whether this machine lets us; returns why
    not, or None."""
    if os.geteuid() != 0:
        return "mounting a small file system for a database fault needs root"
    probe = tempfile.mkdtemp(prefix="matchismo-probe-")
    try:
        result = _run("mount", *args, probe)
        if result.returncode != 0:
            return f"cannot mount here ({' '.join(args)}): {result.stderr.strip()}"
        _run("umount", probe)
        return None
    finally:
        os.rmdir(probe)


def _unmount(path):
    """Unmounts `path`, retrying while a process that was just stopped lets go of its files;
    lazily as a last resort, so that nothing stays mounted after the test."""
    for _ in range(50):
        if _run("umount", path).returncode == 0:
            return
        time.sleep(0.1)
    _run("umount", "-l", path)


@pytest.fixture
def tmpfs():
    """`tmpfs(size)` mounts a tmpfs of `size` (e.g. "8m") and returns its path."""
    problem = _mount_problem("-t", "tmpfs", "-o", "size=1m", "tmpfs")
    if problem:
        pytest.fail(problem)
    mounts = []

    def make(size):
        path = tempfile.mkdtemp(prefix="matchismo-tmpfs-")
        mounts.append(path)
        result = _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", path)
        assert result.returncode == 0, result.stderr
        return pathlib.Path(path)

    yield make
    for path in mounts:
        _unmount(path)
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
            made = _run("mkfs.ext4", "-q", "-F", image)
            assert made.returncode == 0, made.stderr
            result = _run("mount", "-o", "loop", image, mount)
            if result.returncode != 0:
                pytest.fail(f"cannot loop-mount an ext4 image here: {result.stderr.strip()}")
            mounted = True
            return pathlib.Path(mount)

        yield make
    finally:
        if mounted:
            _run("chattr", "-R", "-i", mount)
            _unmount(mount)
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
# 1. A journal that cannot be used at start.

def start_and_fail(data_dir):
    """Runs the server on `data_dir`, which must not start; returns its exit code and output."""
    result = subprocess.run(
        [BINARY, "--host", "127.0.0.1", "--port", str(free_port()), "--web-root",
         str(ROOT / "web-client"), "--data-dir", str(data_dir)],
        capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout + result.stderr


async def play_a_little(url):
    ada, _ = await LiveClient.open(url, "Ada", "Ada")
    bob, _ = await LiveClient.open(url, "Bob", "Bob")
    await pair_at("set", ada, bob)
    rng = random.Random(3)
    for step in range(12):
        client = (ada, bob)[step % 2]
        await choose(client, rng, wait=True)
    await shutdown(ada, bob)


def real_journal(folder, servers):
    """A journal the server wrote (a table, sessions, moves), shut down cleanly and folded into
    one file; returns the file's path."""
    server = RunningServer(extra_args=FAST, data_dir=str(folder))
    servers.append(server)
    run(play_a_little, server.ws_url, timeout=60)
    assert server.signal(signal.SIGTERM) == 0
    path = folder / "journal.sqlite"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert integrity(path) == "ok"
    assert not (folder / "journal.sqlite-wal").exists()
    return path


def garbage(path, servers):
    path.write_bytes(random.Random(1).randbytes(20_000))
    return "is damaged: SQLite error 26: file is not a database"


def truncated(path, servers):
    real_journal(path.parent, servers)
    data = path.read_bytes()
    assert len(data) >= 5 * 4096, f"the journal is too small to cut: {len(data)} bytes"
    path.write_bytes(data[: 2 * 4096 + 1000])
    return "is damaged: SQLite error 11: database disk image is malformed"


def damaged_pages(path, servers):
    real_journal(path.parent, servers)
    data = bytearray(path.read_bytes())
    # Every page but the first (the header and the schema) overwritten with noise; the header
    # says how long a page is (bytes 16-17, big-endian; 1 stands for 65,536).
    page = int.from_bytes(data[16:18], "big")
    page = 65536 if page == 1 else page
    noise = random.Random(2).randbytes(len(data) - page)
    data[page:] = noise
    path.write_bytes(bytes(data))
    # The quick check finds it, or the schema's own pages already fail to read (with 1 KiB
    # pages the schema does not fit in the first): either way the start says it is damaged.
    return "is damaged: "


def someone_elses(path, servers):
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE accounts (name TEXT, balance INTEGER)")
        db.execute("INSERT INTO accounts VALUES ('Ada', 100)")
        db.commit()
    return "is not a journal of this server: it holds other tables"


def another_game(path, servers):
    """A table of a game this server does not deal (a journal of another version, say): it must
    neither come back as another game nor be dropped without a word."""
    real_journal(path.parent, servers)
    with contextlib.closing(sqlite3.connect(path)) as db:
        changed = db.execute(
            """UPDATE game_table SET record = replace(record, '"game":"set"', '"game":"twins"')""").rowcount
        db.commit()
    assert changed == 1, f"{changed} tables"
    return "which this server does not deal"


@pytest.mark.parametrize("spoil", [garbage, truncated, damaged_pages, someone_elses, another_game])
def test_a_journal_that_cannot_be_read_stops_the_start_and_is_left_as_it_is(servers, spoil):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-data-"))
    try:
        path = folder / "journal.sqlite"
        what = spoil(path, servers)
        for leftover in ("journal.sqlite-wal", "journal.sqlite-shm"):
            (folder / leftover).unlink(missing_ok=True)
        before = sha256(path)
        code, output = start_and_fail(folder)
        assert code == 1, output
        assert str(path) in output, f"the message does not name the file:\n{output}"
        assert what in output, f"the message does not say what is wrong ({what}):\n{output}"
        assert "listening" not in output, output
        assert sha256(path) == before, "the journal was changed"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_read_only_journal_stops_the_start_and_is_left_as_it_is(servers, tmpfs):
    """A data folder on a read-only mount (a read-only bind mount of a folder with a good
    journal): the server does not start without somewhere to write, and says so."""
    disk = tmpfs("16m")
    folder = disk / "data"
    folder.mkdir()
    path = real_journal(folder, servers)
    before = sha256(path)
    view = tempfile.mkdtemp(prefix="matchismo-ro-")
    try:
        assert _run("mount", "--bind", str(folder), view).returncode == 0
        try:
            remounted = _run("mount", "-o", "remount,bind,ro", view)
            assert remounted.returncode == 0, remounted.stderr
            code, output = start_and_fail(view)
        finally:
            _unmount(view)
    finally:
        os.rmdir(view)
    assert code == 1, output
    shown = os.path.join(view, "journal.sqlite")
    assert shown in output, f"the message does not name the file:\n{output}"
    assert "cannot be written" in output and "Read-only file system" in output, output
    assert sha256(path) == before, "the journal was changed"


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

    # A restart brings back everything anyone was shown.
    assert server.signal(signal.SIGTERM) == 0
    for c in (ada, bob):
        await asyncio.wait_for(c.closed.wait(), 10)
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


@pytest.mark.parametrize("executors", ["0", "1"])
def test_a_journal_made_read_only_mid_game(servers, ext4, executors):
    disk = ext4(64)
    folder = disk / "data"
    folder.mkdir()
    server = start(servers, folder, executors)
    files = [str(folder / "journal.sqlite"), str(folder / "journal.sqlite-wal"), str(folder)]

    def fault():
        result = _run("chattr", "+i", *files)
        assert result.returncode == 0, result.stderr

    def lift():
        result = _run("chattr", "-i", *files)
        assert result.returncode == 0, result.stderr

    meanwhile = functools.partial(game_through_a_fault, scores_meanwhile=True)
    run(meanwhile, server, fault, lift, restarter(servers, executors), timeout=120)
    assert "Operation not permitted" in servers[0].output()
    assert integrity(folder / "journal.sqlite") == "ok"


@pytest.mark.parametrize("executors", ["0", "1"])
def test_a_full_disk_mid_game(servers, tmpfs, executors):
    disk = tmpfs("8m")
    folder = disk / "data"
    folder.mkdir()
    server = start(servers, folder, executors)
    filler = disk / "filler"
    # A reader in the middle of a transaction from the start: the write-ahead log cannot start
    # over, so every commit of the game appends to it, and once the disk is full the next one
    # needs room it cannot have.
    reader = sqlite3.connect(f"file:{folder / 'journal.sqlite'}?mode=ro", uri=True,
                             isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM move").fetchone()

    def fault():
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            for size in (1 << 20, 4096, 1):
                try:
                    while os.write(fd, b"\1" * size):
                        pass
                except OSError:  # no room left for a write of this size
                    pass
        finally:
            os.close(fd)
        assert shutil.disk_usage(disk).free == 0

    def lift():
        filler.unlink()
        reader.execute("COMMIT")

    try:
        meanwhile = functools.partial(game_through_a_fault, scores_meanwhile=True)
        run(meanwhile, server, fault, lift, restarter(servers, executors), timeout=120)
    finally:
        reader.close()
        filler.unlink(missing_ok=True)
    assert "database or disk is full" in servers[0].output()
    assert integrity(folder / "journal.sqlite") == "ok"


@pytest.mark.parametrize("executors", ["0", "1"])
def test_a_disk_that_hangs_mid_game(servers, ext4, executors):
    """The file system under the journal frozen mid-game: the write in progress blocks (it
    neither fails nor ends). Once it has taken the stall limit (1 s), moves are refused at once
    rather than held unanswered for as long as the disk hangs; thawed, it all goes on."""
    if shutil.which("fsfreeze") is None:
        pytest.fail("fsfreeze is not installed (`make test` installs util-linux)")
    disk = ext4(64)
    folder = disk / "data"
    folder.mkdir()
    server = start(servers, folder, executors)

    def fault():
        result = _run("fsfreeze", "--freeze", str(disk))
        assert result.returncode == 0, result.stderr

    def lift():
        result = _run("fsfreeze", "--unfreeze", str(disk))
        assert result.returncode == 0, result.stderr

    try:
        hang = functools.partial(game_through_a_fault, logged="journal write has taken over 1 s",
                                 counter="matchismo_journal_stalls_total", refused_within=5)
        run(hang, server, fault, lift, restarter(servers, executors), timeout=120)
    finally:
        # Before anything else: a process writing to a frozen file system cannot even be killed.
        # (Thawing one that is not frozen only fails.)
        _run("fsfreeze", "--unfreeze", str(disk))
    assert "journal write failed" not in servers[0].output(), "the write failed instead"
    assert integrity(folder / "journal.sqlite") == "ok"
