"""A journal that cannot be used at start, end to end against the real binary: garbage, a cut or
damaged file, someone else's database, a game this server does not deal, or a read-only data
folder stops the start, says what is wrong and leaves the journal as it is (README, "When the
database fails"; the mounts: journal_faults.py)."""
import contextlib
import os
import pathlib
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile

import pytest

from conftest import BINARY, ROOT, RunningServer, free_port
from journal_faults import (FAST, choose, command, integrity, servers, sha256, tmpfs,  # noqa: F401 (fixtures)
                            unmount)
from mp_support import run, shutdown
from protocol_client import LiveClient
from test_journal import pair_at


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
        assert command("mount", "--bind", str(folder), view).returncode == 0
        try:
            remounted = command("mount", "-o", "remount,bind,ro", view)
            assert remounted.returncode == 0, remounted.stderr
            code, output = start_and_fail(view)
        finally:
            unmount(view)
    finally:
        os.rmdir(view)
    assert code == 1, output
    shown = os.path.join(view, "journal.sqlite")
    assert shown in output, f"the message does not name the file:\n{output}"
    assert "cannot be written" in output and "Read-only file system" in output, output
    assert sha256(path) == before, "the journal was changed"
