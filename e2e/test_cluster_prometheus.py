"""The operator sees the cluster (issue 35, part 3): `scripts/cluster.sh up` starts Prometheus
(Debian's `prometheus`) scraping every node's own metrics port, with the alerts of
ops/prometheus/alerts.yml. Asked through its HTTP API: every node is `up`; after kill -9 of a
node that holds a table, its `up` drops to 0, the takeover counter of the live nodes moves, and
the alerts TablesTakenOver (firing) and NodeDown (pending, then firing) are raised. (The
alerts' own logic is unit-tested by `promtool test rules`; the database's failover alert by
e2e/test_database_failover.py.)"""
import pathlib
import random
import subprocess
import tempfile

import pytest

from failover_cluster import cluster_down, cluster_up, pid_of, play_some, seat_pair
from mp_support import run
from prometheus_api import alerts, query, until


@pytest.fixture
def watched_cluster(request, pg_cluster):
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-prometheus-"))
    try:
        yield cluster_up(folder, 3, pg_cluster.new_database(), prometheus=True)
    finally:
        cluster_down(request, folder)


async def watched(state):
    assert state["prometheus"]["pid"] > 0
    ups = await until("every node up", lambda: (lambda up: up if len(up) == 3 and all(
        v == 1 for v in up.values()) else None)(query(state, 'up{job="matchismo"}')))
    assert set(ups) == {"n1", "n2", "n3"}, ups
    assert query(state, "sum(matchismo_takeovers_total)") == {"": 0}
    pair = await seat_pair(state["door"], "n2", ("Ada", "Bob"))
    await play_some(pair, random.Random(3), sets=1, misses=0)
    subprocess.run(["kill", "-9", str(pid_of(state, "n2"))], check=True)
    await until("n2 down", lambda: query(state, 'up{job="matchismo", node="n2"}') == {"n2": 0})
    taken = await until("the takeover counter moving",
                        lambda: query(state, "sum(matchismo_takeovers_total) > 0"))
    assert taken == {"": 1}, taken
    await until("TablesTakenOver firing",
                lambda: any(a[:2] == ("TablesTakenOver", "firing") for a in alerts(state)))
    down = await until("NodeDown raised for n2", lambda: [a for a in alerts(state) if a[0] == "NodeDown"])
    assert down[0][2] == "n2" and down[0][1] in ("pending", "firing"), down
    for player in pair:
        await player.shutdown()


def test_prometheus_sees_every_node_and_a_takeover_after_a_kill(watched_cluster):
    run(watched, watched_cluster, timeout=90)
