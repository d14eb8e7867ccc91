"""Fixtures that start the real `matchismo` binary on a free loopback port."""
import os
import pathlib
import signal
import sys
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

import pytest
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.timeouts import Timeouts

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = os.environ.get("MATCHISMO_BIN", str(ROOT / ".build" / "debug" / "matchismo"))


def scrape_metric(port, name):
    """The sum of every sample of metric `name` on the `/metrics` of the server at `port`; a name
    with its labels (`x{code="4000"}`) is that one sample."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    if "{" in name:
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith(name) and line[len(name)] in " {")


# A port for a server to listen on (scripts/free_port.py: below the kernel's ephemeral range,
# in this worker's own slice).
sys.path.insert(0, str(ROOT / "scripts"))
from free_port import free_port  # noqa: E402


class RunningServer:
    """One `matchismo` process; stopped (and its log printed on failure) by the fixture."""

    def __init__(self, extra_args=(), scheme="http", web_root=None, data_dir=None, port=None, database=None,
                 env=None):
        # Not a port the test named among the options (its own `--metrics-port`, drawn just
        # before: two draws can coincide until a server binds them).
        named = {str(a) for a in extra_args}

        def draw():
            while str(drawn := free_port()) in named:
                pass
            return drawn

        self.port = port or draw()
        self.scheme = scheme
        self.log = tempfile.NamedTemporaryFile("w+", prefix="matchismo-", suffix=".log", delete=False)
        # Every server journals into a folder of its own (a restart test passes the same one), or
        # into the PostgreSQL database `database` (a URL) when given.
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="matchismo-data-")
        self.database = database
        # A port found free may be taken by another worker's server before this one binds it:
        # then this one exits ("already in use") and is started again on another port (unless
        # the test named the port). It counts as started once its log says it listens, not
        # when the port answers (the other server would).
        for attempt in range(3):
            args = [BINARY, "--host", "127.0.0.1", "--port", str(self.port),
                    "--web-root", str(web_root or ROOT / "web-client"), "--log-level", "info",
                    "--data-dir", self.data_dir, *(["--database", database] if database else []),
                    *extra_args]
            # `env`: more environment variables for the server (a test's LD_PRELOAD, say).
            self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                            env={**os.environ, **env} if env else None)
            if self._listening():
                return
            if port is None and attempt < 2 and "is already in use" in self.output():
                self.port = draw()
                continue
            raise RuntimeError(f"server exited early:\n{self.output()}")

    def _listening(self) -> bool:
        """Waits until the server says it listens (True) or exits (False); fails after 20 s."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if "Matchismo Live is listening on" in self.output():
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server did not start listening:\n{self.output()}")

    @property
    def http_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/"

    @property
    def ws_url(self) -> str:
        return f"{'wss' if self.scheme == 'https' else 'ws'}://127.0.0.1:{self.port}/"

    def output(self) -> str:
        self.log.flush()
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def signal(self, sig) -> int:
        """Sends `sig` and returns the exit code (waits at most 15 s)."""
        self.process.send_signal(sig)
        return self.process.wait(timeout=15)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


@pytest.fixture
def server(request):
    running = RunningServer()
    yield running
    running.stop()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        print("---- server log ----\n" + running.output())


@pytest.fixture(scope="session")
def pg_cluster():
    """A PostgreSQL cluster of the tests' own, shared by the session (see pg_support)."""
    from pg_support import Postgres
    cluster = Postgres()
    yield cluster
    cluster.destroy()


@pytest.fixture(params=["sqlite", "postgres"])
def journal_database(request):
    """The journal's store, for tests run on both: None (SQLite in the server's data folder), or
    the URL of a fresh PostgreSQL database for `--database`."""
    if request.param == "sqlite":
        return None
    return request.getfixturevalue("pg_cluster").new_database()


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "alone: a load test that measures time under load, run after the others with nothing beside "
        "it (`make e2e-test` runs it in a second pass; `make test` beside nothing but work at "
        "the idle CPU priority, SCHED_IDLE): beside three other test files and two "
        "browsers, a debug server on two cores answered moves at p50 41 ms and p99 4.5 s, and the "
        "load generator's own clock fell seconds behind what it measures.")
    config.addinivalue_line(
        "markers",
        "disk: a load test that times the disk's own pauses (besides `alone`): `make test` runs it "
        "last, when nothing else writes (beside the fuzz build's writes and the Swift tests' "
        "databases, its worst move took 283 ms where it takes 37 alone).")


def pytest_sessionfinish(session, exitstatus):
    """No test is ever skipped: a run with a skipped test fails (`-rs` says which and why). A test
    that cannot get what it needs fails and says what is missing."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and session.exitstatus == 0:
        reporter.ensure_newline()
        reporter.write_line(f"{len(skipped)} test(s) skipped: a skip fails the run", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


# The browser is Chromium's old headless shell (Debian's chromium-headless-shell): the same
# Blink and V8 as the full browser's headless mode, without the full browser around them. Over
# the same ten browser tests it took 99 s of CPU against the full browser's 146 s (renderers
# 74 s against 96 s, the browser process 12 s against 30 s, the GPU process 8 s against 13 s).
# The binary itself, not /usr/bin's wrapper script: chromedriver quits the process it started,
# and a wrapper that does not exec would leave the browser running.
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


# Chromium is started once per test worker and reused: a start costs about 0.9 s of CPU and the
# first page's set-up as much again, and the end-to-end pass starts some 120 browsers on 2 cores.
# Between tests a browser is handed back clean (see `_handed_back`), or quit when it cannot be.
_idle_browsers = []
# What every browser starts with, and is given again when it is handed back: the viewport of a
# 1280×900 window in the full browser, whose headless mode keeps 143 px of it for its bars (the
# shell has none, and its window is all viewport).
WINDOW = (1280, 757)
TIMEOUTS = Timeouts(implicit_wait=0, page_load=20, script=30)


# Browsers ask for reduced motion: the pages' animations (cards dealt, turned, shaken, flashed)
# then do not run, and the pass spent some 48 s of its CPU on them, on 2 cores. A test of the
# animations themselves turns motion back on in its tab (`browser_client.with_motion`).
def _launch_browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no browser at {CHROMIUM}: install Debian's chromium-headless-shell "
                    "(`make test` does)")
    options = Options()
    for flag in ("--headless", "--no-sandbox", "--disable-dev-shm-usage",
                 f"--window-size={WINDOW[0]},{WINDOW[1]}", "--disable-gpu",
                 "--force-prefers-reduced-motion"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.timeouts = TIMEOUTS
    return driver


def _handed_back(driver):
    """Makes a browser as a fresh one would be for the next test: the storage of every origin its
    tabs visited cleared (local and session storage, IndexedDB, caches, cookies), one new blank
    tab (which drops the old tabs' emulation, scripts and touch settings), the window's size and
    the timeouts as launched, and its console log read out. False when that failed."""
    try:
        origins = set()
        for handle in driver.window_handles:
            driver.switch_to.window(handle)
            history = driver.execute_cdp_cmd("Page.getNavigationHistory", {})
            for entry in history["entries"]:
                url = urllib.parse.urlsplit(entry["url"])
                if url.scheme in ("http", "https"):
                    origins.add(f"{url.scheme}://{url.netloc}")
        for origin in origins:
            driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        old = driver.window_handles
        driver.switch_to.new_window("tab")
        fresh = driver.current_window_handle
        for handle in old:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(fresh)
        driver.set_window_size(*WINDOW)
        driver.timeouts = TIMEOUTS
        driver.get_log("browser")
        return True
    except Exception:  # noqa: BLE001 - any failure: the browser is quit, not reused
        return False


@pytest.fixture
def browsers(request):
    """`browsers()` gives one more headless Chromium, fresh to this test (a clean one of this
    worker's, or a new one); after the test each is handed back clean, or quit after a failure."""
    drivers = []

    def open_browser():
        driver = _idle_browsers.pop() if _idle_browsers else _launch_browser()
        drivers.append(driver)
        return driver

    yield open_browser
    reports = (getattr(request.node, f"rep_{when}", None) for when in ("setup", "call"))
    failed = any(report is not None and report.failed for report in reports)
    for driver in drivers:
        if not failed and _handed_back(driver):
            _idle_browsers.append(driver)
        else:
            driver.quit()


@pytest.fixture(scope="session", autouse=True)
def _quit_idle_browsers():
    yield
    while _idle_browsers:
        _idle_browsers.pop().quit()
