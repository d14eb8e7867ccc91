"""Table settings and the re-deal vote end to end, against the real binary over real WebSockets:
settings a game does not take are refused (and change nothing), good ones are shown; at a
multiplayer table the host's re-deal is a vote like anyone's."""
from face_ledger import check_fresh, set_card_label
from mp_support import connect, converge, run, shutdown, start_server  # noqa: F401 (fixture)
from table_state import TableState


# ---------------------------------------------------------------------------------------------
# Table settings
BAD_SETTINGS = [
    ("set", {"boardSize": 10}),
    ("set", {"boardSize": 24}),
    ("set", {"matchSize": 2}),
    ("set", {"scoring": "fancy"}),
    ("set", {"costToChoose": 0}),                       # constants need scoring custom
    ("set", {"scoring": "course", "matchBonus": 2}),
    ("set", {"scoring": "custom", "costToChoose": 11}),
    ("set", {"scoring": "custom", "mismatchPenalty": 21}),
    ("set", {"scoring": "custom", "matchBonus": 0}),
    ("set", {"scoring": "custom", "matchBonus": 21}),
    ("set", {"turnSeconds": 30}),
    ("set", {"theme": 1}),
    ("matchismo", {"matchSize": 4}),
    ("matchismo", {"matchSize": 1}),
    ("matchismo", {"boardSize": 11}),
    ("matchismo", {"boardSize": 41}),
    ("matchismo", {"scoring": "classic"}),
    ("matchismo", {"theme": 0}),
    ("matchismo", {"turnSeconds": 10}),
    ("matchismo", {"scoring": "custom", "costToChoose": 11}),
    ("concentration", {"boardSize": 7}),
    ("concentration", {"boardSize": 9}),
    ("concentration", {"boardSize": 6}),
    ("concentration", {"boardSize": 22}),
    ("concentration", {"theme": 6}),
    ("concentration", {"matchSize": 3}),
    ("concentration", {"scoring": "course"}),
    ("concentration", {"scoring": "classic"}),
    ("concentration", {"turnSeconds": 4}),
    ("concentration", {"turnSeconds": 1}),
    ("concentration", {"turnSeconds": 301}),
    ("concentration", {"scoring": "custom", "matchBonus": 0}),
]


# Not the right type, or outside the broad range every integer setting has (0...1000): the
# decoder refuses these as a bad field before the game looks at them.
BAD_FIELDS = [
    ("matchismo", {"boardSize": "24"}),
    ("matchismo", {"boardSize": -1}),
    ("concentration", {"turnSeconds": -5}),
    ("set", {"scoring": 3}),
    ("concentration", {"theme": 1001}),
]


async def settings_checks(url):
    (ada,) = await connect(url, "Ada")
    home = await ada.request({"type": "playSolo", "game": "set"})
    assert home["type"] == "snapshot", home
    home_id = home["table"]["id"]
    home_state = TableState(home["table"]).comparable()
    refusals = 0
    for expected, cases in (("badSettings", BAD_SETTINGS), ("badField", BAD_FIELDS)):
        for game, fields in cases:
            for message in ({"type": "playSolo", "game": game, **fields},
                            {"type": "createTable", "game": game, "seats": 2, **fields}):
                answer = await ada.request(message)
                assert answer["type"] == "error" and answer["code"] == expected, (message, answer)
                assert answer["message"], answer
                after = await ada.request({"type": "resync"})
                assert after["type"] == "snapshot" and after["table"]["id"] == home_id, (message, after)
                assert TableState(after["table"]).comparable() == home_state, message
                refusals += 1
    assert not ada.problems, ada.problems
    print(f"settings: {refusals} refusals, the sender stayed at {home_id}")

    async def opened(message):
        (c,) = await connect(url, "Bea")
        answer = await c.request(message)
        assert answer["type"] == "snapshot", (message, answer)
        await check_fresh(c)
        await shutdown(c)
        return answer["table"]

    t = await opened({"type": "playSolo", "game": "matchismo", "boardSize": 30, "matchSize": 3})
    assert t["settings"] == {"boardSize": 30, "matchSize": 3, "costToChoose": 1, "mismatchPenalty": 2,
                             "matchBonus": 4, "scoring": "course", "faceDown": True}, t["settings"]
    assert len(t["board"]) == 30 and t["deckCount"] == 22 and "turn" not in t

    t = await opened({"type": "playSolo", "game": "matchismo", "scoring": "custom", "costToChoose": 0,
                      "mismatchPenalty": 3, "matchBonus": 5})
    s = t["settings"]
    assert (s["costToChoose"], s["mismatchPenalty"], s["matchBonus"], s["scoring"], s["matchSize"],
            s["boardSize"]) == (0, 3, 5, "custom", 2, 24), s

    t = await opened({"type": "playSolo", "game": "set"})
    assert t["settings"]["scoring"] == "course", t["settings"]

    t = await opened({"type": "playSolo", "game": "set", "scoring": "classic", "boardSize": 15})
    s = t["settings"]
    assert (s["scoring"], s["costToChoose"], s["mismatchPenalty"], s.get("matchPoints"),
            s["boardSize"]) == ("classic", 0, 1, 1, 15), s
    assert len(t["board"]) >= 15

    t = await opened({"type": "playSolo", "game": "set", "scoring": "custom", "costToChoose": 2,
                      "mismatchPenalty": 0, "matchBonus": 7})
    s = t["settings"]
    assert (s["scoring"], s["costToChoose"], s["mismatchPenalty"], s["matchBonus"]) == ("custom", 2, 0, 7), s

    t = await opened({"type": "playSolo", "game": "concentration", "boardSize": 20, "theme": 2})
    s = t["settings"]
    assert s["boardSize"] == 20 and s["turnBased"] and s["faceDown"] and s["scoring"] == "custom", s
    assert s["theme"] == 2, s
    assert len(t["board"]) == 20 and t["turn"] == 0 and "turnSeconds" not in t, t  # no clock alone

    t = await opened({"type": "createTable", "game": "concentration", "seats": 3, "theme": 5,
                      "boardSize": 8})
    assert t["turnSeconds"] == 30 and t["settings"]["boardSize"] == 8 and t["phase"] == "waiting", t
    assert t["settings"]["theme"] == 5, t["settings"]

    t = await opened({"type": "createTable", "game": "concentration", "seats": 2, "turnSeconds": 0})
    assert "turnSeconds" not in t, t

    t = await opened({"type": "createTable", "game": "concentration", "seats": 2, "turnSeconds": 300})
    assert t["turnSeconds"] == 300, t

    t = await opened({"type": "createTable", "game": "set", "seats": 3})
    assert t["settings"]["scoring"] == "classic", t["settings"]

    t = await opened({"type": "createTable", "game": "matchismo", "seats": 2, "matchSize": 3,
                      "boardSize": 12})
    assert t["settings"]["matchSize"] == 3 and t["settings"]["boardSize"] == 12, t["settings"]
    await shutdown(ada)


def test_bad_settings_are_refused_and_good_ones_shown(start_server):
    server = start_server()
    run(settings_checks, server.ws_url, timeout=90)


# ---------------------------------------------------------------------------------------------
# Re-deal at a multiplayer table: the host only votes
async def host_redeal_is_a_vote(url):
    ada, bob, cyd = await connect(url, "Ada", "Bob", "Cyd")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 3})
    assert created["type"] == "snapshot" and created["table"]["host"] == 0, created
    for c in (bob, cyd):
        joined = await c.request({"type": "join", "table": created["table"]["id"]})
        assert joined["type"] == "snapshot", joined
    for c in (ada, bob, cyd):
        await c.until(lambda c=c: c.state and c.state.phase == "playing" and c.state.board, 10, "play")
    assert ada.state.settings["scoring"] == "classic"

    # Classic scoring: choosing is free; the status line names the card with its spoken label.
    card = ada.state.board[0]
    chose = await ada.request({"type": "choose", "card": card["id"]})
    assert chose["type"] == "diff", chose
    assert [e["kind"] for e in chose["events"]] == ["select"], chose
    runs = [r for r in chose["status"] if "card" in r]
    assert runs and runs[0]["card"] == card["id"] and runs[0]["label"] == set_card_label(card), chose
    before = await converge(ada, bob, cyd)
    assert before["players"][0]["selection"] == [card["id"]] and before["players"][0]["score"] == 0

    vote = await ada.request({"type": "redeal"})
    assert vote["type"] == "diff" and vote.get("seat") == 0, vote
    assert [e["kind"] for e in vote["events"]] == ["vote"], f"the host's re-deal dealt at once: {vote}"
    assert vote["events"][0]["seats"] == [0] and vote["events"][0]["needed"] == 2, vote
    during = await converge(ada, bob, cyd)
    assert during["vote"] == {"seats": [0], "needed": 2}
    assert during["board"] == before["board"] and during["players"] == before["players"]

    # Asking again adds no second vote.
    again = await ada.request({"type": "redeal"})
    assert again["type"] == "error" or all(e["kind"] == "vote" for e in again["events"]), again
    still = await converge(ada, bob, cyd)
    assert still["vote"] == {"seats": [0], "needed": 2} and still["board"] == before["board"]

    carried = await bob.request({"type": "redeal"})
    assert carried["type"] == "diff" and carried.get("seat") == 1, carried
    kinds = [e["kind"] for e in carried["events"]]
    assert kinds[:2] == ["vote", "redeal"] and carried["events"][0]["seats"] == [], carried
    after = await converge(ada, bob, cyd)
    assert after["vote"] is None and after["board"] != before["board"]
    assert all(p["selection"] == [] and p["score"] == 0 for p in after["players"].values())
    await shutdown(ada, bob, cyd)


def test_host_redeal_at_a_three_player_set_table_is_a_vote(start_server):
    server = start_server("--countdown", "0.3")
    run(host_redeal_is_a_vote, server.ws_url, timeout=45)
