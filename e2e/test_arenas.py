"""Arenas over the wire (issue 33, part 2): a private arena created and joined by code, its
players paired within 3 s of being free and seated at sprints (first to 5 sets), the standings
live and equal to the sum of the games' results, the featured game watched, a kill -9 of the
server in the middle of the arena (every point kept, the game in progress finished after the
restart), and bad requests answered with their reasons. Real binary, real WebSocket client."""
import asyncio
import time

from mp_support import FAST, converge, run, start_server  # noqa: F401  (a fixture)
from protocol_client import LiveClient
from table_state import find_sets
from test_journal import restart, resume

NAMES = ("Ann", "Bob", "Cy", "Dee")


def games_of(client, since=0):
    """The tables the arena seated `client` at, in order."""
    return [m["table"] for m in client.log[since:] if m.get("type") == "arenaGame" and not m["featured"]]


async def seated(client, count, timeout=10):
    """Waits until the arena has seated `client` at its `count`th game and its snapshot came;
    returns the table and when the `arenaGame` arrived."""
    await client.until(lambda: len(games_of(client)) >= count and client.state
                       and client.state.id == games_of(client)[count - 1], timeout,
                       f"game {count} of the arena")
    message = [m for m in client.log if m.get("type") == "arenaGame" and not m["featured"]][count - 1]
    return message["table"], message["_at"]


async def take_sets(client, count):
    """`client` takes `count` sets at its table (the sprint ends at 5)."""
    for _ in range(count):
        for card in list(client.state.players[client.seat]["selection"]):
            await client.request({"type": "choose", "card": card})
        found = find_sets(client.state.board)
        assert found, client.state.board
        for card in found[0]:
            answer = await client.request({"type": "choose", "card": card["id"]})
            assert answer["type"] == "diff", answer


def over_at(client, table):
    """The standings of `table`'s game as `client` saw it end, with when: (standings, time)."""
    for m in client.log:
        if m.get("type") == "diff" and m["table"] == table:
            for event in m["events"]:
                if event["kind"] == "over":
                    return event["standings"], m["_at"]
    return None, None


def test_an_arena_pairs_scores_survives_a_kill_and_refuses_bad_requests(start_server):
    server = start_server(*FAST)
    servers = [server]

    async def body():
        clients = [(await LiveClient.open(server.ws_url, name, name.lower()))[0] for name in NAMES]
        ann, bob, cy, dee = clients
        created = await ann.request({"type": "createArena", "game": "set", "minutes": 10, "startsIn": 0})
        assert created["type"] == "arena" and created["joined"] is True, created
        arena = created["arena"]
        assert arena["private"] is True and arena["phase"] == "running" and arena["sprint"]["sets"] == 5
        for c in (bob, cy, dee):
            joined = await c.request({"type": "joinArena", "code": arena["code"]})
            assert joined["type"] == "arena" and joined["joined"] is True, joined
        # Bad requests: each refused with its reason, nothing changed.
        twice = await bob.request({"type": "joinArena", "code": arena["code"]})
        assert twice["type"] == "error" and twice["code"] == "alreadyJoined", twice
        wrong = await bob.request({"type": "joinArena", "code": "NOSUCHCODE"})
        assert wrong["type"] == "error" and wrong["code"] == "unknownArena", wrong
        unknown = await bob.request({"type": "watchArena", "arena": "a-none"})
        assert unknown["type"] == "error" and unknown["code"] == "unknownArena", unknown
        listed = await bob.request({"type": "arenas"})
        mine = [a for a in listed["arenas"] if a["id"] == arena["id"]]
        assert mine and mine[0]["players"] == 4 and mine[0]["joined"] is True, listed

        # Round 1: everyone is paired within 3 s of joining; two tables of two.
        joined_at = time.monotonic()
        first = {c.label: (await seated(c, 1))[0] for c in clients}
        assert len(set(first.values())) == 2, first
        assert max(m["_at"] for c in clients for m in c.log if m.get("type") == "arenaGame") - joined_at < 3
        for c in clients:
            await c.until(lambda c=c: c.state.phase == "playing" and c.state.board, 10, "play")
        snapshot = [m for m in cy.log if m.get("type") == "snapshot"][-1]
        assert snapshot["table"]["arena"]["id"] == arena["id"], snapshot
        assert snapshot["table"]["arena"]["sets"] == 5, snapshot
        redeal = await ann.request({"type": "redeal"})
        assert redeal["type"] == "error" and redeal["code"] == "arenaRule", redeal
        # At each table one player takes five sets: the sprint is over.
        winners = []
        for table in set(first.values()):
            players = [c for c in clients if first[c.label] == table]
            await take_sets(players[0], 5)
            winners.append(players[0])
        # Each is paired again within 3 s of their game's end.
        for c in clients:
            _, at = await seated(c, 2)
            _, ended = over_at(c, first[c.label])
            assert ended is not None and at - ended < 3, (c.label, at - ended)
        second = {c.label: games_of(c)[1] for c in clients}
        for c in clients:
            await c.until(lambda c=c: c.state.phase == "playing" and c.state.board, 10, "play")
        # In the second round one player takes a set, then the server is killed.
        table = second[ann.label]
        partner = next(c for c in clients if c is not ann and second[c.label] == table)
        await take_sets(ann, 1)
        await converge(ann, partner)
        standings_before = [m for m in ann.log if m.get("type") == "arenaStandings"][-1]["standings"]
        points_before = sorted((r["name"], r["points"]) for r in standings_before)
        server.process.kill()
        server.process.wait(timeout=10)
        for c in clients:
            await asyncio.wait_for(c.closed.wait(), 10)
        servers.append(restart(server, *FAST))
        again = [await resume(servers[-1].ws_url, c) for c in clients]
        by_label = {c.label.rstrip("'"): c for c in again}
        # Every point is kept, and the game in progress goes on where it was.
        watched = await again[0].request({"type": "watchArena", "arena": arena["id"]})
        assert watched["type"] == "arena", watched
        assert sorted((r["name"], r["points"]) for r in watched["arena"]["standings"]) == points_before
        ann2 = by_label["ann"]
        assert ann2.state.id == table and ann2.state.players[ann2.seat]["matches"] == 1
        await take_sets(ann2, 4)
        bob2 = by_label["bob"]
        await bob2.until(
            lambda: any(r["name"] == "Ann" and r["played"] == 2
                        for m in bob2.log if m.get("type") == "arenaStandings" for r in m["standings"]),
            10, "Ann's second game in the standings")
        # The standings are the sum of the games' results as their players saw them end: 2 a
        # win (no one won twice in a row before, so nothing counts double), 0 a loss.
        wins = {name: 0 for name in NAMES}
        played = {name: 0 for name in NAMES}
        ended = set()
        for c in clients + again:
            for m in c.log:
                if m.get("type") != "diff" or m["table"] in ended:
                    continue
                for event in m["events"]:
                    if event["kind"] == "over":
                        ended.add(m["table"])
                        firsts = [row for row in event["standings"] if row["rank"] == 1]
                        for row in event["standings"]:
                            played[row["name"]] += 1
                        if len(firsts) == 1:
                            wins[firsts[0]["name"]] += 1
        assert len(ended) == 3, ended
        latest = [m for m in bob2.log if m.get("type") == "arenaStandings"][-1]["standings"]
        assert {r["name"]: r["points"] for r in latest} == {n: 2 * w for n, w in wins.items()}, latest
        assert {r["name"]: r["played"] for r in latest} == played, latest
        for c in again:
            assert not c.problems, c.problems

    try:
        run(body, timeout=90)
    finally:
        for s in servers[1:]:
            s.stop()
