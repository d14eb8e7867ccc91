"""A player drops mid-game and comes back (the missed diffs, then its return); a second connection
takes the session over (4001); a seat not reclaimed within the grace is released."""
import asyncio
import copy
import time

from mp_support import (FAST, connect, converge, replies_ok, run, seat_at_new_table, shutdown,
                        start_server, until_playing)  # noqa: F401  (start_server is a fixture)
from protocol_client import LiveClient
from table_state import find_sets
from test_metrics import scrape_until, value


def test_dropped_player_resumes_with_the_missed_diffs(start_server):
    server = start_server("--reconnect-grace", "30", *FAST)
    run(resume_with_missed_diffs, server)


async def resume_with_missed_diffs(server):
    url = server.ws_url
    ada, bob, cyd = await connect(url, "Ada", "Bob", "Cyd")
    await seat_at_new_table(ada, [bob, cyd], seats=3)  # the last seat fills: it starts
    await until_playing(ada, bob, cyd)
    await converge(ada, bob, cyd)

    # Cyd has applied everything up to `last`, then the tab goes away.
    last = cyd.state.version
    kept = copy.deepcopy(cyd.state)
    token = cyd.session
    marks = {c.label: c.mark() for c in (ada, bob)}
    await cyd.drop()
    for c in (ada, bob):
        diff, away = await c.event("away", marks[c.label], seat=2)
        assert 0 < away["seconds"] <= 30, away
        assert diff["version"] == last + 1, diff
    state = await converge(ada, bob)
    assert state["players"][2]["connected"] is False
    assert ada.state.players[2]["name"] == "Cyd"

    # Others move while Cyd is away: Ada claims a set, Bob chooses a card.
    for card in find_sets(ada.state.board)[0]:
        answer = await ada.request({"type": "choose", "card": card["id"]})
        assert replies_ok(answer, ada), answer
    await bob.until(lambda: bob.state.version == ada.state.version, what="Bob sees Ada's set")
    answer = await bob.request({"type": "choose", "card": bob.state.board[0]["id"]})
    assert replies_ok(answer, bob), answer
    missed_up_to = (await converge(ada, bob))["version"]
    assert missed_up_to >= last + 5
    marks = {c.label: c.mark() for c in (ada, bob)}

    cyd2, welcome = await LiveClient.open(url, "Cyd", "Cyd2", resume=token, version=last, read=False)
    assert welcome["resumed"] is True and welcome["name"] == "Cyd", welcome
    versions = []
    # Protocol v2: the missed diffs, then the `back` of this very return; no status frames.
    while not versions or versions[-1] < missed_up_to + 1:
        message = await cyd2.recv(timeout=5)
        assert message["type"] == "diff", f"expected only the missed diffs, got {message}"
        kept.apply(message)
        versions.append(message["version"])
    assert versions == list(range(last + 1, last + 1 + len(versions))), versions
    # Every missed diff; at most one more, the `back` of this very return.
    assert versions and versions[-1] in (missed_up_to, missed_up_to + 1), (versions, missed_up_to)
    assert kept.status, "the diffs carried the status line"
    cyd2.state, cyd2.seat = kept, kept.you
    cyd2.start_reading()

    for c in (ada, bob):
        await c.event("back", marks[c.label], seat=2)
    state = await converge(ada, bob, cyd2)
    assert state["players"][2]["connected"] is True and cyd2.state.you == 2
    answer = await cyd2.request({"type": "choose", "card": cyd2.state.board[0]["id"]})
    assert replies_ok(answer, cyd2), answer

    # The same session from another connection: it takes over, the older one is closed with 4001.
    cyd3, welcome3 = await LiveClient.open(url, "Cyd", "Cyd3", resume=welcome["session"])
    assert welcome3["resumed"] is True
    snapshot = await cyd3.wait_for(lambda m: m["type"] == "snapshot", what="snapshot after resume")
    assert snapshot["table"]["you"] == 2
    await asyncio.wait_for(cyd2.closed.wait(), 10)
    assert cyd2.close_code == 4001, cyd2.close_code
    # The barrier: once the transport has let go of the replaced connection (3 open: Ada, Bob,
    # Cyd's new one), its close is in the lobby's queue ahead of the requests that converge
    # sends, so an `away` it caused would come before their answers.
    samples = scrape_until(server, lambda samples: value(samples, "matchismo_connections_open") == 3)
    assert value(samples, "matchismo_connections_open") == 3, samples
    state = await converge(ada, bob, cyd3)
    assert state["players"][2]["connected"] is True, state["players"][2]
    answer = await cyd3.request({"type": "choose", "card": cyd3.state.board[1]["id"]})
    assert replies_ok(answer, cyd3), answer
    await converge(ada, bob, cyd3)
    await shutdown(ada, bob, cyd3)


def test_seat_is_released_after_the_grace(start_server):
    server = start_server("--reconnect-grace", "1", *FAST)
    run(grace_expires, server.ws_url)


async def grace_expires(url):
    ada, bob = await connect(url, "Ada", "Bob")
    await seat_at_new_table(ada, [bob], seats=2)
    await until_playing(ada, bob)
    await converge(ada, bob)
    token = bob.session

    since = ada.mark()
    await bob.drop()
    _, away = await ada.event("away", since, seat=1)
    assert 0 < away["seconds"] <= 1, away
    dropped = time.monotonic()
    _, leave = await ada.event("leave", since, timeout=12, seat=1)
    waited = time.monotonic() - dropped
    assert waited >= 0.7, f"the seat was released {waited:.2f}s after the drop, before the 1 s grace"
    state = await converge(ada)
    assert sorted(state["players"]) == [0]

    bob2, welcome = await LiveClient.open(url, "Bob", "Bob2", resume=token)
    assert welcome["resumed"] is False and welcome["session"] != token, welcome
    for message in ({"type": "resync"}, {"type": "choose", "card": 0}):
        answer = await bob2.request(message)
        assert answer["type"] == "error" and answer["code"] == "notAtTable", answer
    # Those answers came after anything the server sent for the welcome: no snapshot among it.
    assert not [m for m in bob2.log if m["type"] == "snapshot"], bob2.log
    state = await converge(ada)
    assert sorted(state["players"]) == [0]
    await shutdown(ada, bob2)
