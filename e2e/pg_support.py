"""A PostgreSQL server of the tests' own (Debian's `postgresql`): a fresh cluster in a temporary
folder, on a free loopback port, its socket in that folder, run as the `postgres` user when the
tests run as root (PostgreSQL refuses root). It is removed by `destroy()`, and, should the test
process die first, by a watchdog process that waits for it. Without PostgreSQL, making one
raises: the tests that need it fail saying so (`make test` installs it)."""
import glob
import os
import shutil
import signal
import subprocess
import tempfile

from conftest import free_port

USER = "mlive"


class Postgres:
    def __init__(self):
        found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
        if not found:
            raise RuntimeError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
                               "these tests need it; `make test` installs Debian's postgresql")
        self.bin = os.path.dirname(max(found, key=lambda p: int(p.split("/")[4])))
        self.dir = tempfile.mkdtemp(prefix="matchismo-pg-")
        self.port = free_port()
        self.databases = 0
        root = os.geteuid() == 0
        self.prefix = ["runuser", "-u", "postgres", "--"] if root else []
        if root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._watch()
        self._run("initdb", "-D", self.data, "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()

    @property
    def data(self):
        return os.path.join(self.dir, "data")

    def start(self):
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "60",
                  "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self):
        """A fast shutdown: clients are disconnected, nothing committed is lost."""
        self._run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")

    def pause(self):
        """Stops every process of the cluster (SIGSTOP) without closing anything: a server that
        stops answering, as behind a network that silently drops everything."""
        self._paused = self._processes()
        for pid in self._paused:
            os.kill(pid, signal.SIGSTOP)

    def resume(self):
        """Lets the processes `pause` stopped go on (harmless when none are stopped)."""
        for pid in reversed(getattr(self, "_paused", [])):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self._paused = []

    def _processes(self):
        """The postmaster (first, so that it forks nothing more) and its children."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            postmaster = int(f.readline())
        children = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    # pid (comm) state ppid ...: the name may hold spaces, so split after ')'.
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == postmaster:
                children.append(int(entry))
        return [postmaster, *children]

    def new_database(self):
        """A new, empty database's URL."""
        self.databases += 1
        name = f"test{self.databases}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        return f"postgres://{USER}@127.0.0.1:{self.port}/{name}"

    def destroy(self):
        self.resume()  # a stopped postmaster would not hear the stop
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        except RuntimeError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def log(self):
        try:
            with open(os.path.join(self.dir, "log"), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def _watch(self):
        stop = " ".join([*self.prefix, os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"])
        subprocess.Popen(["/bin/sh", "-c", f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; "
                                           f"{stop}; rm -rf {self.dir}"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)

    def _run(self, tool, *args):
        # Output to a file, not a pipe: the server pg_ctl starts must not hold our pipes open.
        with tempfile.TemporaryFile("w+") as out:
            done = subprocess.run([*self.prefix, os.path.join(self.bin, tool), *args], stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=subprocess.STDOUT, timeout=90)
            if done.returncode != 0:
                out.seek(0)
                raise RuntimeError(f"{tool} failed ({done.returncode}): {out.read()}")
