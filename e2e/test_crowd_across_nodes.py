"""A crowd across nodes (issue 36), end to end: real nodes as `scripts/cluster.sh up` starts them
(no `--advertise-url`: clients know only the front door, and the nodes reach each other at the
addresses they listen on) behind a real HAProxy, on a real PostgreSQL. A spectator
watches a table of another node from the node it reached: that node links to the table's node,
shows it every version, tells the table's node how many it watches for and carries its lines
of chat; when the table's node is killed, the spectator, still connected
where it was, is shown the table again where it went, and watches on."""
import asyncio
import pathlib
import random
import subprocess
import tempfile
import time

import pytest

from failover_cluster import cluster_down, cluster_up, come_back, pid_of, play_some, seat_pair
from mp_support import converge, run
from protocol_client import LiveClient
from table_state import find_sets


@pytest.fixture
def linked(request, pg_cluster):
    """3 nodes behind the front door, as the cluster script starts them, on a fresh database."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="matchismo-crowd-"))
    try:
        yield cluster_up(folder, 3, pg_cluster.new_database())
    finally:
        cluster_down(request, folder)


async def watched_through_a_kill(state):
    door = state["door"]
    rng = random.Random(3)
    ada, bob = await seat_pair(door, "n2", ("Ada", "Bob"))
    table = ada.state.id
    # Cy reaches n3 and watches n2's table from there: no redirect.
    cy, welcome = await LiveClient.open(f"{door}ws?node=n3", "Cy", "Cy")
    assert welcome["node"] == "n3"
    # The barrier: n3 has heard of n2's table (its notice can come after Cy's welcome; once it
    # did, and n3 did not know the table yet).
    assert (await cy.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    await cy.until(lambda: table in cy.lobby.tables, 10, "n2's table listed on n3")
    watching = await cy.request({"type": "spectate", "table": table})
    assert watching["type"] == "snapshot" and watching["table"]["id"] == table, watching
    # Dee too, on n3: n3's one link watches for both, and tells n2 so; everyone counts two.
    dee, _ = await LiveClient.open(f"{door}ws?node=n3", "Dee", "Dee")
    assert (await dee.request({"type": "spectate", "table": table}))["type"] == "snapshot"
    for client in (ada, cy, dee):
        await client.until(lambda c=client: c.state.spectators == 2, 5, "two spectators counted")
    # Cy says a line at the table from n3: everyone there reads it under her name.
    marks = [c.mark() for c in (ada, bob, dee)]
    answer = await cy.request({"type": "chat", "text": "go Ada"})
    assert answer["type"] == "chat" and answer["name"] == "Cy", answer
    for client, since in zip((ada, bob, dee), marks):
        line = await client.wait_for(lambda m: m.get("type") == "chat" and m.get("text") == "go Ada",
                                     since, what="Cy's line")
        assert line["name"] == "Cy" and line.get("replyTo") is None, line
    await play_some((ada, bob), rng)
    # Every version reached her: her state, built from the diffs, is her fresh snapshot's, and
    # everyone's (a resync through the link).
    await converge(ada, bob, cy)
    version = ada.state.version
    mark = cy.mark()

    killed_at = time.monotonic()
    subprocess.run(["kill", "-9", str(pid_of(state, "n2"))], check=True)
    deadline = killed_at + 20
    await asyncio.gather(*(p.closed.wait() for p in (ada, bob)))
    ada, bob = await asyncio.gather(
        *(come_back(p, door, f"{door}ws?table={table}&node=n2", deadline) for p in (ada, bob)))
    # Cy never left n3: she is shown the table again where it went, unasked.
    shown = await cy.wait_for(
        lambda m: m.get("type") == "snapshot" and "replyTo" not in m, mark,
        max(0.1, deadline - time.monotonic()), "the table shown again")
    assert shown["table"]["id"] == table and shown["table"]["version"] >= version, shown
    print(f"Cy shown the table again {shown['_at'] - killed_at:.2f} s after the kill")
    # And watches on: the next move reaches her, and everyone agrees.
    board = [c for c in ada.state.board if not c.get("matched")]
    reply = await ada.request({"type": "choose", "card": find_sets(board)[0][0]["id"]})
    assert reply["type"] == "diff" and reply["version"] > version, reply
    await cy.until(lambda: cy.state.version == reply["version"], 5, "the move after the kill")
    await converge(ada, bob, cy)
    assert cy.close_code is None and not cy.problems, (cy.close_code, cy.problems)


def test_a_spectator_watches_another_nodes_table_from_where_it_is_through_that_nodes_death(linked):
    run(watched_through_a_kill, linked, timeout=90)


def test_a_page_on_another_node_watches_the_game_live(linked, browsers):
    """Ann and Bob play on n1 (their pages opened with `?node=n1`); Eve's page, pinned to n3,
    follows the table's link and chooses to watch: she stays on n3 (no redirect), which watches
    n1's table for her, and sees the game live to its end, with the players' standings."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from browser_games import race_to_the_end, seat_two_through_the_front_door, severe_errors
    from test_cluster_front_door import node_metric

    door = linked["door"].replace("ws://", "http://")
    ann, bob, eve = browsers(), browsers(), browsers()
    code = seat_two_through_the_front_door(ann, bob, door, "n1", "n1")
    eve.get(door + f"?node=n3#/t/{code}")
    WebDriverWait(eve, 10).until(lambda d: d.find_element(By.ID, "invite-name").is_displayed())
    eve.find_element(By.ID, "invite-watch").click()
    WebDriverWait(eve, 15).until(lambda d: d.find_element(By.ID, "spectating").is_displayed())
    assert node_metric(linked, "n3", "matchismo_redirects_total") == 0
    assert race_to_the_end((ann, bob), (eve,)) > 0
    scores = ("return [...document.querySelectorAll('#scoreboard [data-seat] .score')]"
              ".map((e) => e.textContent.trim());")
    WebDriverWait(eve, 10).until(lambda d: d.execute_script(scores) == ann.execute_script(scores))
    # Still on n3: nobody sent her page anywhere.
    assert node_metric(linked, "n3", "matchismo_redirects_total") == 0
    for driver in (ann, bob, eve):
        assert not severe_errors(driver), severe_errors(driver)
