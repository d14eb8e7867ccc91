"""A whole solo Set game over a real WebSocket against the real binary."""
import asyncio

from protocol_client import Client
from table_state import TableState, find_non_set, find_sets


def test_whole_solo_game_state_from_diffs_equals_snapshots(server):
    asyncio.run(asyncio.wait_for(play_whole_game(server.ws_url), 120))


async def play_whole_game(url):
    client = await Client.connect(url)
    welcome = await client.hello("Ada")
    assert welcome["protocol"] == 2 and len(welcome["session"]) >= 22
    table, status = await client.play_solo()
    assert table["version"] == 0 and table["you"] == 0 and len(table["board"]) >= 12
    assert status, "a new table has a status line"
    state = TableState(table)
    assert "seed" not in str(table) and "deck" not in table

    moves = 0
    mistakes = 0
    while not state.over:
        assert moves < 600, "the game should end"
        sets = find_sets(state.board)
        if mistakes < 5 and moves % 7 == 3 and find_non_set(state.board):
            triple, mistakes = find_non_set(state.board), mistakes + 1
        else:
            assert sets, "the server must deal more cards when the board holds no set"
            triple = sets[0]
        for card in triple:
            message_id = await client.send({"type": "choose", "card": card["id"]})
            moves += 1
            diff = await client.expect("diff")
            assert diff["replyTo"] == message_id and diff["seat"] == 0
            state.apply(diff)
            assert diff["status"], "protocol v2: the status line travels in the diff"
            fresh = TableState(await client.snapshot())
            assert state.comparable() == fresh.comparable()
        # A triple that was not a set leaves its last card chosen: let it go (a free move).
        for card_id in list(state.players[0]["selection"]):
            await client.send({"type": "choose", "card": card_id})
            state.apply(await client.expect("diff"))

    final = await client.snapshot()
    assert final["over"] is True
    assert final["standings"][0]["score"] == state.players[0]["score"]
    assert state.players[0]["matches"] >= 20
    # After the end, a choice is refused with a typed reason and changes nothing.
    await client.send({"type": "choose", "card": state.board[0]["id"] if state.board else 0, "id": "late"})
    error = await client.expect("error")
    assert error["code"] == "gameOver" and error["replyTo"] == "late"
    assert TableState(await client.snapshot()).comparable() == state.comparable()
    await client.close()


def test_redeal_starts_a_new_game(server):
    async def run():
        client = await Client.connect(server.ws_url)
        await client.hello()
        table, _ = await client.play_solo()
        state = TableState(table)
        await client.send({"type": "choose", "card": state.board[0]["id"]})
        state.apply(await client.expect("diff"))
        assert state.players[0]["score"] == -1
        await client.send({"type": "redeal"})
        diff = await client.expect("diff")
        assert [e["kind"] for e in diff["events"]] == ["redeal"]
        state.apply(diff)
        assert {k: state.players[0][k] for k in ("score", "matches", "selection")} == {
            "score": 0, "matches": 0, "selection": []}
        assert state.comparable() == TableState(await client.snapshot()).comparable()
        await client.close()

    asyncio.run(asyncio.wait_for(run(), 30))


def test_resume_with_session_token_returns_to_the_table(server):
    async def run():
        first = await Client.connect(server.ws_url)
        await first.hello("Bea")
        table, _ = await first.play_solo()
        state = TableState(table)
        await first.send({"type": "choose", "card": state.board[0]["id"]})
        state.apply(await first.expect("diff"))
        await first.close()

        # Back with the last version applied: only what was missed comes (the drop itself),
        # then everyone hears the player is back.
        second = await Client.connect(server.ws_url)
        await second.send({"type": "hello", "resume": first.session, "version": state.version})
        welcome = await second.expect("welcome")
        assert welcome["resumed"] is True and welcome["name"] == "Bea"
        away = await second.expect("diff")
        assert [e["kind"] for e in away["events"]] == ["away"]
        state.apply(away)
        back = await second.expect("diff")
        assert [e["kind"] for e in back["events"]] == ["back"]
        state.apply(back)
        assert state.comparable() == TableState(await second.snapshot()).comparable()

        # Without a version, a resume gets a snapshot.
        third = await Client.connect(server.ws_url)
        await third.hello(resume=first.session)
        snapshot = await third.expect("snapshot")
        assert TableState(snapshot["table"]).comparable() == state.comparable()
        await third.close()
        await second.close()

    asyncio.run(asyncio.wait_for(run(), 30))
