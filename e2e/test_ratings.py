"""Ratings end to end (issue 21), against the real binary on SQLite and on PostgreSQL: two people
with player tokens meet by quick match and play a game of Set to its end; both ratings change
as PROTOCOL.md documents (pairwise Elo from 1500, a provisional player's K is 64: the winner
+32, the loser -32), their table shows the new ratings (`seatRatings`, the snapshot), each
person's `ratings` answer gives the rating and its history, the high scores show each player's
change, and a restart (another process, the same store) gives the same ratings back."""
import asyncio

from conftest import RunningServer
from mp_support import run
from table_state import find_sets
from test_records import PLAYER_A, PLAYER_B, ask, hello, reply_to

QUICK = {"type": "quickMatch", "game": "set", "seats": 2, "scoring": "classic"}


async def until(client, wanted, timeout=10.0, seen=()):
    """Reads `client`'s messages until one satisfies `wanted` (or finds it in `seen`, what was
    read before); returns it."""
    for message in seen:
        if wanted(message):
            return message
    while True:
        message = await client.recv(timeout)
        if wanted(message):
            return message


async def answer(client, message, seen):
    """Sends `message` and reads until its answer; what came before it is kept in `seen`."""
    message_id = await client.send(message)
    while True:
        got = await client.recv(10.0)
        if got.get("replyTo") == message_id:
            return got
        seen.append(got)


def seat_ratings(message):
    return {s["seat"]: (s["rating"], s["games"], s["provisional"]) for s in message["seats"]}


async def a_rated_quick_match(url):
    ada = await hello(url, "Ada", PLAYER_A)
    bob = await hello(url, "Bob", PLAYER_B)
    await reply_to(ada, await ada.send(QUICK))
    await reply_to(bob, await bob.send(QUICK))
    # The quick match starts after its countdown; Ada takes every set, Bob takes none.
    table = None
    seen = []
    for _ in range(100):
        table = (await answer(ada, {"type": "resync"}, seen))["table"]
        if table["phase"] == "playing":
            break
        await until(ada, lambda m: m.get("type") == "diff")
    assert table["phase"] == "playing", table
    assert {p["name"]: p["seat"] for p in table["players"]} == {"Ada": 0, "Bob": 1}
    while not table["over"]:
        for card in find_sets(table["board"])[0]:
            reply = await answer(ada, {"type": "choose", "card": card["id"]}, seen)
            assert reply["type"] == "diff", reply
        table = (await answer(ada, {"type": "resync"}, seen))["table"]
    # Once the game is written, both hear their new ratings at the table.
    wanted = {0: (1532, 1, True), 1: (1468, 1, True)}
    for client, before in ((ada, seen), (bob, [])):
        told = await until(
            client, lambda m: m.get("type") == "seatRatings" and seat_ratings(m) == wanted, seen=before)
        assert told["table"] == table["id"], told
    snapshot = (await reply_to(bob, await bob.send({"type": "resync"})))["table"]
    assert {p["name"]: p["rating"] for p in snapshot["players"]} == {
        "Ada": {"rating": 1532, "games": 1, "provisional": True},
        "Bob": {"rating": 1468, "games": 1, "provisional": True},
    }, snapshot["players"]
    await ada.close()
    await bob.close()
    return table


async def ratings_are_kept(url):
    """Each person's rating and history, and the game's changes in the high scores."""
    ada = await ask(url, {"type": "ratings", "game": "set"}, PLAYER_A)
    bob = await ask(url, {"type": "ratings", "game": "set"}, PLAYER_B)
    assert (ada["rating"], ada["games"], ada["provisional"]) == (1532, 1, True), ada
    assert (bob["rating"], bob["games"], bob["provisional"]) == (1468, 1, True), bob
    assert [(h["rank"], h["rating"], h["change"]) for h in ada["history"]] == [(1, 1532, 32)], ada
    assert [(h["rank"], h["rating"], h["change"]) for h in bob["history"]] == [(2, 1468, -32)], bob
    assert ada["history"][0]["id"] == bob["history"][0]["id"]
    scores = await ask(url, {"type": "scores", "game": "set", "list": "multiplayer.classic"}, PLAYER_A)
    game = scores["games"][0]
    assert game["id"] == ada["history"][0]["id"], scores
    assert [(p["name"], p["rating"]["rating"], p["rating"]["change"]) for p in game["players"]] == [
        ("Ada", 1532, 32), ("Bob", 1468, -32)], game
    # Someone without a player token is never rated.
    nobody = await ask(url, {"type": "ratings", "game": "set"})
    assert (nobody["rating"], nobody["games"], nobody["history"]) == (1500, 0, []), nobody
    # Solo games do not count: nobody's rating at Matchismo moved.
    other = await ask(url, {"type": "ratings", "game": "matchismo"}, PLAYER_A)
    assert (other["rating"], other["games"]) == (1500, 0), other
    return ada


def test_a_rated_quick_match_changes_both_ratings_as_documented(journal_database):
    server = RunningServer(extra_args=["--countdown", "0.3"], database=journal_database)
    try:
        run(a_rated_quick_match, server.ws_url, timeout=120)
        before = run(ratings_are_kept, server.ws_url)
        server.stop()
        again = RunningServer(data_dir=server.data_dir, port=server.port, database=journal_database)
        try:
            after = run(ask, again.ws_url, {"type": "ratings", "game": "set"}, PLAYER_A)
            assert after == {**before, "replyTo": after["replyTo"]}, (before, after)
        finally:
            again.stop()
    finally:
        server.stop()
