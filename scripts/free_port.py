#!/usr/bin/env python3
"""A free loopback port for a server to listen on: printed when run, `free_port()` when imported
(the end-to-end tests, and every script that starts a server, a node, PostgreSQL or HAProxy).

Between the check and the server's bind, the port must not go to anyone else. A port the kernel
hands out (`bind(0)`) comes from its ephemeral range, which every outgoing connection also draws
from: the load tests' thousands of clients could take it first. So the port is drawn from below
that range, where no connection's own port comes from. And each worker of a parallel test run
(pytest-xdist's `PYTEST_XDIST_WORKER`, `gw0`, `gw1`, ...) draws from a slice of its own, so two
workers never pick the same one; within a worker, draws are random and checked by binding.
Ports that browsers refuse to load a page from are never drawn: the browser tests' Chromium shows
its own error page for them (`ERR_UNSAFE_PORT`), and a test on one failed at its first script."""
import os
import random
import socket

LOWEST = 10000
# Chromium's restricted ports (net/base/port_util.cc) in the range drawn from: 10080 (Amanda,
# blocked since Chromium 90).
BROWSERS_REFUSE = {10080}


def _ephemeral_start():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _slice():
    """This worker's ports: [low, high)."""
    high = max(LOWEST + 1000, _ephemeral_start())
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if not worker.startswith("gw") or count < 2:
        return LOWEST, high
    index = int(worker[2:]) % count
    size = (high - LOWEST) // count
    return LOWEST + index * size, LOWEST + (index + 1) * size


def _bindable(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port():
    low, high = _slice()
    for _ in range(500):
        port = random.randrange(low, high)
        if port not in BROWSERS_REFUSE and _bindable(port):
            return port
    # Nothing free in the slice (it would take thousands of listeners): the kernel's choice.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__":
    print(free_port())
