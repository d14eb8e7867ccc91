"""Multiplayer face-down tables end to end, against the real binary over real WebSockets: the
deal that starts play at a Matchismo or Concentration table shows no face, and two players take
turns at Concentration (flips, hides, the turn and its clock, scores from the events alone), a
`FaceLedger` inspecting every frame each client receives."""
import itertools

import pytest

from face_ledger import open_watched
from mp_support import converge, run, shutdown, start_server  # noqa: F401 (fixture)


# ---------------------------------------------------------------------------------------------
# Multiplayer face-down tables: the deal that starts play
@pytest.mark.parametrize("game", ["matchismo", "concentration"])
def test_multiplayer_face_down_deal_starts_face_down(start_server, game):
    server = start_server("--countdown", "0.3")
    run(face_down_start, server.ws_url, game, timeout=30)


async def face_down_start(url, game):
    """At a008a15 this fails: the `redeal` event of the diff that starts play at a multiplayer
    face-down table is written with card-id naming (`TableState.broadcast(…events:…)` adds game
    events without `CardNaming(game)`), so every player receives every face with its card id;
    and no `turn` event comes with it, so a client cannot know from diffs whose turn it is."""
    (ada, ada_ledger), (bob, bob_ledger) = [await open_watched(url, n) for n in ("Ada", "Bob")]
    created = await ada.request({"type": "createTable", "game": game, "seats": 2})
    assert created["type"] == "snapshot", created
    assert created["table"]["settings"]["faceDown"] is True
    joined = await bob.request({"type": "join", "table": created["table"]["id"]})
    assert joined["type"] == "snapshot", joined
    for c in (ada, bob):
        await c.until(lambda c=c: c.state and c.state.phase == "playing" and c.state.board,
                      10, "play begins")
        start, redeal = await c.event("redeal")
        size = created["table"]["settings"]["boardSize"]
        # The deal that starts play names cards by slot and shows no face (a face-down game).
        assert redeal["board"] == [{"id": i, "faceUp": False} for i in range(size)], (
            f"{c.label}: the deal that starts a {game} table shows the cards: {redeal['board'][:3]}...")
    # What a client builds from that diff is the table (whose turn it is, for Concentration).
    state = await converge(ada, bob)
    if game == "concentration":
        assert state["turn"] == 0, state
    # A first choice turns one card up, for both.
    chose = await ada.request({"type": "choose", "card": 0})
    assert chose["type"] == "diff", chose
    assert [e["kind"] for e in chose["events"]][:2] == ["select", "flip"], chose
    await bob.until(lambda: bob.state.version == chose["version"], 5, "bob sees the flip")
    state = await converge(ada, bob)
    assert state["board"][0]["faceUp"] is True and all(not e["faceUp"] for e in state["board"][1:])
    for c in (ada, bob):
        assert not c.problems, f"{c.label}: {c.problems}"
    await shutdown(ada, bob)


# ---------------------------------------------------------------------------------------------
# Concentration: two players take turns
async def concentration(url):
    (ada, ada_ledger), (bob, bob_ledger) = [await open_watched(url, n) for n in ("Ada", "Bob")]
    created = await ada.request({"type": "createTable", "game": "concentration", "seats": 2,
                                 "private": True, "turnSeconds": 5})
    assert created["type"] == "snapshot", created
    table = created["table"]
    assert table["turnSeconds"] == 5 and table["phase"] == "waiting" and table["board"] == []
    s = table["settings"]
    assert s["turnBased"] is True and s["faceDown"] is True and s["boardSize"] == 16, s
    assert (s["costToChoose"], s["mismatchPenalty"], s["scoring"]) == (0, 0, "custom"), s
    joined = await bob.request({"type": "join", "code": table["code"]})
    assert joined["type"] == "snapshot" and joined["table"]["you"] == 1, joined
    for c in (ada, bob):
        await c.until(lambda c=c: c.state and c.state.phase == "playing" and c.state.board,
                      10, "play begins")
    state = await converge(ada, bob)
    assert state["turn"] == 0, f"the first turn is seat 0's: {state}"
    assert len(state["board"]) == 16 and all(not e["faceUp"] for e in state["board"])
    fresh = await ada.request({"type": "resync"})
    assert 0 < fresh["table"]["turnLeft"] <= 5, fresh["table"]
    by_seat = {0: ada, 1: bob}

    # Out of turn: refused, nothing changes.
    before = await converge(ada, bob)
    refused = await bob.request({"type": "choose", "card": 0})
    assert refused["type"] == "error" and refused["code"] == "notYourTurn", refused
    assert await converge(ada, bob) == before

    memory = {}  # slot -> emoji: both players see every flip
    seen = {"miss": 0, "pair": 0, "pass": 0, "alreadyChosen": 0}

    async def flip(player, slot):
        answer = await player.request({"type": "choose", "card": slot})
        assert answer["type"] == "diff" and answer.get("seat") == player.seat, answer
        kinds = [e["kind"] for e in answer["events"]]
        assert kinds[:2] == ["select", "flip"] and "score" not in kinds[:3], answer
        memory[slot] = answer["events"][1]["card"]["emoji"]
        await converge(ada, bob)
        return answer

    def unmatched():
        return [e["id"] for e in ada.state.board if not e.get("matched")]

    def known_pair():
        slots = [s for s in unmatched() if s in memory]
        for a, b in itertools.combinations(slots, 2):
            if memory[a] == memory[b]:
                return a, b
        return None

    turns = 0
    while not ada.state.over:
        turns += 1
        assert turns < 60, "a 16-card game ends"
        seat = ada.state.turn
        player, other = by_seat[seat], by_seat[1 - seat]
        score_before = ada.state.players[seat]["score"]
        unknown = [s for s in unmatched() if s not in memory]

        if seat == 1 and seen["pass"] == 0 and unknown:
            # Bob turns one card up and then does nothing: after 5 s his turn passes by itself,
            # the card turns back down and nobody loses a point.
            shown = await flip(bob, unknown[0])
            since = ada.mark()
            flipped_at = shown["_at"]
            diff, _ = await ada.event("turn", since, timeout=12, seat=0)
            waited = diff["_at"] - flipped_at
            assert 4.0 <= waited <= 8.0, f"the idle turn passed after {waited:.2f}s, not ~5s"
            kinds = [e["kind"] for e in diff["events"]]
            assert kinds == ["deselect", "hide", "turn"], diff
            assert diff["events"][1]["cards"] == [unknown[0]]
            text = "".join(r["text"] for r in diff["status"])
            assert text.startswith("Bob passes."), diff["status"]
            assert "Ada's turn" in text, diff["status"]
            await bob.until(lambda: bob.state.version == ada.state.version, 5, "bob sees the pass")
            after = await converge(ada, bob)
            assert after["players"][1]["score"] == score_before and after["turn"] == 0
            seen["pass"] += 1
            continue

        pair = known_pair()
        if pair:
            a, b = pair
            await flip(player, a)
        else:
            a = unknown[0]
            await flip(player, a)
            partner = next((s for s in unmatched() if s != a and memory.get(s) == memory[a]), None)
            b = partner if partner is not None else next(s for s in unknown if s != a)
        if seen["alreadyChosen"] == 0:
            # Choosing one's own face-up card again is refused (no peeking for free), and
            # changes nothing.
            held = await converge(ada, bob)
            again = await player.request({"type": "choose", "card": a})
            assert again["type"] == "error" and again["code"] == "alreadyChosen", again
            assert await converge(ada, bob) == held
            seen["alreadyChosen"] += 1
        since = other.mark()
        answer = await flip(player, b)
        kinds = [e["kind"] for e in answer["events"]]
        await other.until(lambda: other.state.version == answer["version"], 5, "the other sees it")
        assert other.find(lambda m: m.get("version") == answer["version"], since) is not None
        state = await converge(ada, bob)
        if memory[a] == memory[b]:
            # A pair: a point, both stay up as matched, and the turn stays (no turn event).
            assert "match" in kinds and "turn" not in kinds and "hide" not in kinds, answer
            match = next(e for e in answer["events"] if e["kind"] == "match")
            assert sorted(match["cards"]) == sorted([a, b]) and match["points"] == 1, match
            assert state["players"][seat]["score"] == score_before + 1
            assert state["board"][a]["matched"] and state["board"][b]["matched"]
            assert state["turn"] == seat or state["over"]
            seen["pair"] += 1
        else:
            # A miss: no point lost, both turn back down, the turn passes.
            # (each mismatch is followed by its history entry)
            assert kinds[-6:] == ["mismatch", "history", "deselect", "deselect", "hide", "turn"], answer
            hide = answer["events"][-2]
            assert sorted(hide["cards"]) == sorted([a, b]), answer
            assert answer["events"][-1]["seat"] == 1 - seat
            assert state["board"][a] == {"id": a, "faceUp": False}
            assert state["players"][seat]["score"] == score_before and state["turn"] == 1 - seat
            text = "".join(r["text"] for r in answer["status"])
            assert "don't match" in text and f"{other.state.players[1 - seat]['name']}'s turn" in text, text
            seen["miss"] += 1

    final = await converge(ada, bob)
    assert final["over"] and final["phase"] == "finished"
    standings = ada.state.standings
    assert sum(r["matches"] for r in standings) == 8, standings
    assert sum(r["score"] for r in standings) == 8, standings
    assert sorted(final["matched"]) == list(range(16))
    assert sum(p["flips"] for p in final["players"].values()) == sum(
        1 for _, e in ada.events() if e["kind"] == "flip")
    assert len(memory) == 16 and len(set(memory.values())) == 8, memory
    for emoji in set(memory.values()):
        assert list(memory.values()).count(emoji) == 2, memory
    assert seen["miss"] and seen["pair"] and seen["pass"] and seen["alreadyChosen"], seen
    for ledger in (ada_ledger, bob_ledger):
        assert ledger.faces_seen > 0
    for c in (ada, bob):
        assert not c.problems, f"{c.label}: {c.problems}"
    print(f"concentration: {turns} turns, {seen}, standings {standings}")
    await shutdown(ada, bob)


def test_concentration_two_players_take_turns(start_server):
    server = start_server("--countdown", "0.3")
    run(concentration, server.ws_url, timeout=90)
