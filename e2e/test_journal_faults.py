"""Database faults on the embedded SQLite journal in the middle of a game, end to end against the
real binary: the journal made read-only, a full disk, a disk that hangs (README, "When the
database fails"; at start: test_journal_start_faults.py; how each fault is made:
journal_faults.py). Every fault is lifted while the server runs: moves are taken again, and a
restart on the same folder brings back everything any client was shown."""
import functools
import os
import shutil
import sqlite3

import pytest

from journal_faults import (command, ext4, game_through_a_fault, integrity, restarter, servers,  # noqa: F401
                            start, tmpfs)
from mp_support import run


@pytest.mark.parametrize("executors", ["0", "1"])
def test_a_journal_made_read_only_mid_game(servers, ext4, executors):
    disk = ext4(64)
    folder = disk / "data"
    folder.mkdir()
    server = start(servers, folder, executors)
    files = [str(folder / "journal.sqlite"), str(folder / "journal.sqlite-wal"), str(folder)]

    def fault():
        result = command("chattr", "+i", *files)
        assert result.returncode == 0, result.stderr

    def lift():
        result = command("chattr", "-i", *files)
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
        result = command("fsfreeze", "--freeze", str(disk))
        assert result.returncode == 0, result.stderr

    def lift():
        result = command("fsfreeze", "--unfreeze", str(disk))
        assert result.returncode == 0, result.stderr

    try:
        hang = functools.partial(game_through_a_fault, logged="journal write has taken over 1 s",
                                 counter="matchismo_journal_stalls_total", refused_within=5)
        run(hang, server, fault, lift, restarter(servers, executors), timeout=120)
    finally:
        # Before anything else: a process writing to a frozen file system cannot even be killed.
        # (Thawing one that is not frozen only fails.)
        command("fsfreeze", "--unfreeze", str(disk))
    assert "journal write failed" not in servers[0].output(), "the write failed instead"
    assert integrity(folder / "journal.sqlite") == "ok"
