"""The ports the tests' servers listen on (scripts/free_port.py): never from the kernel's
ephemeral range, where a client's outgoing connection could take one before the server binds
it, and each parallel worker's from a slice of its own."""
import os
import subprocess
import sys

from conftest import ROOT, free_port

EPHEMERAL_START = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])


def test_a_port_is_below_the_ephemeral_range_and_free():
    for _ in range(50):
        port = free_port()
        assert 10000 <= port < EPHEMERAL_START, port


def test_each_worker_draws_from_its_own_slice():
    def ports(worker):
        env = dict(os.environ, PYTEST_XDIST_WORKER=f"gw{worker}", PYTEST_XDIST_WORKER_COUNT="4")
        script = ROOT / "scripts" / "free_port.py"
        return {int(subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                                   text=True, check=True).stdout) for _ in range(10)}

    slices = [ports(worker) for worker in range(4)]
    for worker, drawn in enumerate(slices):
        for other in slices[worker + 1:]:
            assert max(drawn) < min(other), (worker, sorted(drawn), sorted(other))


def test_a_server_is_not_given_a_port_its_options_already_name(monkeypatch):
    """A test's own `--metrics-port`, drawn just before the server's port, can be drawn again
    (neither is bound yet): the server's draw skips it (it once refused to start)."""
    import conftest

    metrics = free_port()
    game = next(p for p in iter(free_port, None) if p != metrics)
    draws = iter([metrics, game])
    monkeypatch.setattr(conftest, "free_port", lambda: next(draws))
    server = conftest.RunningServer(extra_args=["--metrics-port", str(metrics), "--no-journal"])
    try:
        assert server.port == game
    finally:
        server.stop()


def test_a_port_browsers_refuse_is_never_drawn(monkeypatch):
    """Chromium will not load a page from 10080 (`ERR_UNSAFE_PORT`): a browser test whose server
    drew it failed at its first script, on the browser's own error page."""
    import free_port as module

    draws = iter([10080, 10081])
    monkeypatch.setattr(module.random, "randrange", lambda low, high: next(draws))
    monkeypatch.setattr(module, "_slice", lambda: (10000, 11000))
    assert module.free_port() == 10081
