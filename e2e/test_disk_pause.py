"""The embedded journal rides out a disk that pauses (issue 35, part 0): while the write-ahead log
has room, no move waits for a checkpoint's fsync.

The pause is made on purpose: the server runs with a small shim in LD_PRELOAD whose fsync and
fdatasync wait while a file exists (the test creates and removes it), as a shared disk that
stops answering for a moment does. Writes still reach the page cache meanwhile, as they do on
such a disk; only the waits for the disk wait. With `--sync process` (the default) a commit
never waits for the disk; a checkpoint does, twice (the log, then the database file).
"""
import json
import pathlib
import shutil
import subprocess
import time

import pytest

from conftest import BINARY, RunningServer, scrape_metric

# Timed under load, and the disk's own times: run with nothing beside it (see conftest).
pytestmark = [pytest.mark.alone, pytest.mark.disk]

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* While the file FSYNC_PAUSE_FILE names exists, every fsync and fdatasync waits. */
static void wait_while_paused(void) {
  const char *file = getenv("FSYNC_PAUSE_FILE");
  struct timespec tick = {0, 1000000};
  while (file && access(file, F_OK) == 0) nanosleep(&tick, NULL);
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  wait_while_paused();
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  wait_while_paused();
  return real(fd);
}
"""

MIB = 1 << 20
THRESHOLD = 2 * MIB  # --wal-checkpoint-mib 2: the copy ahead starts at 1.5 MiB, the writer alone at 2.5


def build_shim(folder):
    compiler = shutil.which("clang") or shutil.which("cc")
    assert compiler, "a C compiler (Swift's clang, or cc) is needed to build the fsync shim"
    source = folder / "pause.c"
    source.write_text(SHIM)
    library = folder / "libpause.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source), "-ldl"],
                   check=True, capture_output=True)
    return library


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"{what}: not within {seconds} s")


def test_moves_go_on_while_the_disk_pauses_and_the_log_has_room(tmp_path):
    """Load at 1,500 moves a second. The disk pauses once the log holds 60 % of the threshold
    (before the copy ahead begins at 75 %), and stays paused until the log has grown past the
    threshold, where the writer used to checkpoint: the copy ahead is then stuck in its fsync.
    Meanwhile the writer tries no checkpoint (it would have waited for the disk, or for the
    stuck copy's lock), the log goes on growing (the moves are committed), and no move waits
    for the whole pause. Once the disk answers, the copy and the writer's catch-up start the log
    again, and every move was answered."""
    shim = build_shim(tmp_path)
    pause = tmp_path / "pause"
    server = RunningServer(extra_args=["--wal-checkpoint-mib", str(THRESHOLD // MIB), "--countdown", "0"],
                           env={"LD_PRELOAD": str(shim), "FSYNC_PAUSE_FILE": str(pause)})
    load = None
    try:
        binary = pathlib.Path(BINARY).with_name("matchismo-load")
        load = subprocess.Popen(
            [str(binary), "--mode", "open", "--port", str(server.port), "--tables", "100", "--seats", "4",
             "--rate", "1500", "--warmup", "2", "--duration", "10", "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        def log_bytes():
            return scrape_metric(server.port, "matchismo_journal_log_bytes")

        def checkpoints():
            return scrape_metric(server.port, "matchismo_journal_checkpoints_total")

        # A first checkpoint, then the next log's 60 %: the copy ahead has not begun.
        wait_for(lambda: checkpoints() >= 1, 15, "a first checkpoint")
        wait_for(lambda: log_bytes() < THRESHOLD // 2, 10, "the log started again")
        wait_for(lambda: log_bytes() >= THRESHOLD * 6 // 10, 10, "the log at 60 %")
        before = checkpoints()
        pause.touch()
        paused_at = time.monotonic()
        try:
            # The copy ahead starts at 75 % and waits for the disk; the log grows past the
            # threshold (the writer does not wait) toward the quarter of room beyond it.
            grown = wait_for(lambda: (b := log_bytes()) >= THRESHOLD * 11 // 10 and b, 8,
                             "the log grew past the threshold while the disk paused")
            during = checkpoints()
        finally:
            pause.unlink()
        paused_for = time.monotonic() - paused_at
        print(f"paused {paused_for:.2f} s; the log grew to {grown / MIB:.2f} MiB; "
              f"writer's checkpoints during the pause: {during - before:.0f}")
        assert during == before, "the writer tried a checkpoint while the disk paused and the log had room"
        # The disk answers again: the copy ends, the writer catches up, the log starts again.
        wait_for(lambda: checkpoints() > before, 10, "the writer's catch-up after the pause")
        wait_for(lambda: log_bytes() < THRESHOLD, 10, "the log started again after the pause")

        out, err = load.communicate(timeout=60)
        assert load.returncode == 0, err
        report = json.loads(out)
        print(json.dumps({k: v for k, v in report.items() if k.startswith("lat_")}))
        assert report["unanswered"] == 0 and report["answered_error"] == 0, report
        assert report["errors"] == {} and report["protocol_errors"] == 0, report
        # No move waited for the pause.
        assert report["lat_max_us"] < paused_for * 1e6 / 2, (paused_for, report)
    finally:
        if load and load.poll() is None:
            load.kill()
            load.wait()
        if pause.exists():
            pause.unlink()
        server.stop()
