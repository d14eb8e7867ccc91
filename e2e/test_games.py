"""Matchismo and Concentration end to end, table settings, and the re-deal vote, against the real
binary over real WebSockets (the `websockets` package).

What is checked throughout:
- the state a client builds from diffs (flip/hide/turn, matched flags, flips, turn) equals a fresh
  snapshot after every move;
- no frame ever shows the face of a card that was not turned up (a `FaceLedger` inspects every
  frame each client receives, before it is applied);
- scores follow the rules announced for each game, from the events alone.
"""
import asyncio
import itertools

import pytest

from mp_support import connect, converge, run, shutdown, start_server  # noqa: F401 (fixture)
from protocol_client import LiveClient, TableState

RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king"]
RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_NAMES = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}


def face_of(entry):
    """The face a board entry or flipped card shows: (rank, suit) or emoji."""
    if "emoji" in entry:
        return entry["emoji"]
    return (entry["rank"], entry["suit"])


def matchismo_score(faces):
    """The course's match score of playing cards: over every pair, 1 for a suit, 4 for a rank."""
    score = 0
    for (r1, s1), (r2, s2) in itertools.combinations(faces, 2):
        score += (s1 == s2) + 4 * (r1 == r2)
    return score


def playing_card_label(face):
    rank, suit = face
    return f"{RANK_NAMES[rank - 1]} of {SUIT_NAMES[suit]}"


def set_card_label(card):
    count = ["one", "two", "three"][card["number"] - 1]
    shape = card["symbol"] + ("s" if card["number"] > 1 else "")
    return f"{count} {card['shading']} {card['color']} {shape}"


class FaceLedger:
    """Watches every frame a client receives at a face-down table. A face (rank/suit or emoji)
    may appear only for a slot that a `flip` turned up before or in that frame, and it must be
    the face that slot showed then; a status-line card run must name such a slot, with its face
    as text and its spoken name as label. A re-deal starts a new ledger."""

    def __init__(self):
        self.faces = {}       # slot -> face, for every slot turned up this deal
        self.emoji_labels = {}  # emoji -> spoken name (one name per emoji)
        self.frames = 0
        self.faces_seen = 0

    def __call__(self, m):
        self.frames += 1
        kind = m.get("type")
        if kind == "snapshot":
            table = m["table"]
            for entry in table["board"]:
                self._check_entry(entry, table)
            self._check_status(table.get("status") or [])
            self._walk(table, "snapshot")
        elif kind == "diff":
            for e in m["events"]:
                if e["kind"] == "redeal":
                    self.faces = {}
                    for entry in e["board"]:
                        assert set(entry) == {"id", "faceUp"} and entry["faceUp"] is False, \
                            f"a re-dealt face-down board shows something: {entry}"
                elif e["kind"] == "flip":
                    card = e["card"]
                    face = face_of(card)
                    slot = card["id"]
                    if slot in self.faces:
                        assert self.faces[slot] == face, \
                            f"slot {slot} showed {self.faces[slot]} and now {face}"
                    self.faces[slot] = face
                self._walk(e, f"event {e['kind']}")
            self._check_status(m.get("status") or [])
        else:
            self._walk(m, kind)

    __name__ = "FaceLedger"

    def _check_entry(self, entry, table):
        slot = entry["id"]
        if entry["faceUp"]:
            assert slot in self.faces, f"snapshot shows slot {slot} face up, never flipped: {entry}"
        else:
            assert set(entry) == {"id", "faceUp"}, f"a face-down entry carries more: {entry}"

    def _walk(self, value, where):
        if isinstance(value, dict):
            # A card face: rank/suit or emoji (a standing's `rank` is a place, with a `seat`).
            if "suit" in value or "emoji" in value or ("rank" in value and "seat" not in value):
                slot = value.get("id")
                assert slot in self.faces, f"{where}: the face of never-flipped slot {slot}: {value}"
                assert face_of(value) == self.faces[slot], f"{where}: slot {slot} face changed: {value}"
                self.faces_seen += 1
            for k, v in value.items():
                if not k.startswith("_"):
                    self._walk(v, where)
        elif isinstance(value, list):
            for v in value:
                self._walk(v, where)

    def _check_status(self, runs):
        for run_ in runs:
            if "card" not in run_:
                continue
            slot = run_["card"]
            assert slot in self.faces, f"a status line names never-flipped slot {slot}: {run_}"
            face = self.faces[slot]
            label = run_.get("label")
            assert label, f"a card run without a spoken label: {run_}"
            if isinstance(face, tuple):
                assert label == playing_card_label(face), (run_, face)
                assert run_["text"] == RANK_TEXT[face[0] - 1] + face[1], (run_, face)
            else:
                assert run_["text"] == face, (run_, face)
                assert self.emoji_labels.setdefault(face, label) == label, (run_, self.emoji_labels)


async def open_watched(url, name):
    """A LiveClient with a FaceLedger inspecting every frame it receives."""
    (client,) = await connect(url, name)
    ledger = FaceLedger()
    client.inspectors.append(ledger)
    return client, ledger


async def check_fresh(*clients):
    for c in clients:
        built, fresh = await c.fresh()
        assert built == fresh, f"{c.label}: state from diffs differs from a fresh snapshot:\n{built}\n{fresh}"
        assert not c.problems, f"{c.label}: {c.problems}"


# ---------------------------------------------------------------------------------------------
# Solo Matchismo: a bot that knows only what it was shown

def pick_move(state, memory, match_size):
    """The next slot to choose: (slot, why). `memory` maps slots to the faces seen."""
    selection = list(state.players[0]["selection"])
    playable = [e["id"] for e in state.board if not e.get("matched")]
    known = {s: memory[s] for s in playable if s in memory}
    unknown = [s for s in playable if s not in memory]
    best = None
    for combo in itertools.combinations(sorted(known), match_size):
        score = matchismo_score([known[s] for s in combo])
        if score > 0:
            value = 4 * score - len(set(combo) - set(selection))
            if best is None or value > best[0]:
                best = (value, combo)
    if best is None and match_size == 3 and unknown:
        # A known pair that matches makes any third card a match.
        for a, b in itertools.combinations(sorted(known), 2):
            if matchismo_score([known[a], known[b]]) > 0:
                third = next((s for s in selection if s not in (a, b)), unknown[0])
                best = (0, (a, b, third))
                break
    if best is not None:
        target = best[1]
        for s in selection:
            if s not in target:
                return s, "let go"
        return next(s for s in target if s not in selection), "match"
    if unknown:
        return unknown[0], "explore"
    return None, "stuck"


async def play_solo_matchismo(url, settings, min_moves, max_moves):
    client, ledger = await open_watched(url, "Ada")
    opened = await client.request({"type": "playSolo", "game": "matchismo", **settings})
    assert opened["type"] == "snapshot", opened
    table = opened["table"]
    match_size = settings.get("matchSize", 2)
    board_size = settings.get("boardSize", 24)
    assert table["game"] == "matchismo" and table["settings"]["faceDown"] is True
    assert table["settings"]["matchSize"] == match_size and table["settings"]["scoring"] == "course"
    assert len(table["board"]) == board_size and table["deckCount"] == 52 - board_size
    assert all(e == {"id": i, "faceUp": False} for i, e in enumerate(table["board"])), table["board"]
    assert table["players"][0]["flips"] == 0 and "turn" not in table
    start = client.mark()

    memory = {}
    moves = 0
    why_counts = {}
    while not client.state.over:
        if moves >= max_moves:
            break
        state = client.state
        slot, why = pick_move(state, memory, match_size)
        if "let go" not in why_counts and state.players[0]["selection"] and moves >= 3:
            # Once, un-choose a card: free, and it turns back down (a `hide`).
            slot, why = state.players[0]["selection"][0], "let go"
        assert slot is not None, (
            "every playable card has been seen and none match, yet the game is not over: "
            f"{ {s: memory[s] for s in memory if not state.board[s].get('matched')} }")
        why_counts[why] = why_counts.get(why, 0) + 1
        was_selected = slot in state.players[0]["selection"]
        answer = await client.request({"type": "choose", "card": slot})
        moves += 1
        assert answer["type"] == "diff" and answer.get("seat") == 0, answer
        kinds = [e["kind"] for e in answer["events"]]
        if was_selected:
            assert kinds[:2] == ["deselect", "hide"], answer
            assert answer["events"][1]["cards"] == [slot]
        else:
            assert kinds[:3] == ["select", "flip", "score"], answer
            flip = answer["events"][1]
            assert flip["seat"] == 0 and flip["card"]["id"] == slot and flip["card"]["faceUp"] is True
            memory[slot] = face_of(flip["card"])
        for e in answer["events"]:
            if e["kind"] == "mismatch":
                # The course's rule: the newest card stays chosen (face up), the others turn down.
                assert e["penalty"] == 2 and matchismo_score([memory[s] for s in e["cards"]]) == 0, e
                released = sorted(e["cards"][:-1])
                hides = [x for x in answer["events"] if x["kind"] == "hide"]
                assert len(hides) == 1 and sorted(hides[0]["cards"]) == released, answer
                assert client.state.players[0]["selection"] == [e["cards"][-1]], answer
        await check_fresh(client)
        assert ledger.faces.keys() <= memory.keys() | {slot}

    # Score as the course counts it, from the events alone.
    predicted, selects, matches = 0, 0, 0
    for _, e in client.events(start):
        if e["kind"] == "select":
            predicted -= 1
            selects += 1
        elif e["kind"] == "mismatch":
            predicted -= e["penalty"]
        elif e["kind"] == "match":
            faces = [memory[s] for s in e["cards"]]
            assert len(e["cards"]) == match_size and e["points"] == 4 * matchismo_score(faces) > 0, (e, faces)
            predicted += e["points"]
            matches += 1
        elif e["kind"] == "score":
            assert e["score"] == predicted, (e, predicted)
    state = client.state
    assert state.players[0]["score"] == predicted
    assert state.players[0]["flips"] == selects and state.players[0]["matches"] == matches
    assert sorted(state.matched) == sorted(s for _, e in client.events(start) if e["kind"] == "match"
                                           for s in e["cards"])
    final = await client.request({"type": "resync"})
    if state.over:
        assert final["table"]["over"] is True
        assert final["table"]["standings"][0]["score"] == predicted
        assert final["table"]["standings"][0]["matches"] == matches
        # Cards never turned up stay secret at the end too.
        never = [e for e in final["table"]["board"] if e["id"] not in memory]
        assert all(set(e) == {"id", "faceUp"} for e in never), never
        late = await client.request({"type": "choose", "card": 0})
        assert late["type"] == "error" and late["code"] == "gameOver", late
        # A re-deal: a new face-down board, flips and matched start again.
        again = await client.request({"type": "redeal"})
        assert again["type"] == "diff", again
        assert [e["kind"] for e in again["events"]] in (["redeal"], ["phase", "redeal"]), again
        assert client.state.matched == [] and client.state.players[0]["flips"] == 0
        await check_fresh(client)
    else:
        assert moves >= min_moves
    assert not client.problems, client.problems
    assert ledger.faces_seen > 0
    print(f"matchismo {settings}: {moves} moves, {matches} matches, score {predicted}, "
          f"over={state.over}, {why_counts}, {ledger.frames} frames checked")
    await shutdown(client)
    return state.over, moves


def test_solo_matchismo_two_card_game_to_the_end(start_server):
    server = start_server()
    result = {}

    async def body():
        result["over"], result["moves"] = await play_solo_matchismo(server.ws_url, {}, 0, 400)

    run(body, timeout=120)
    assert result["over"], "a 24-card 2-card game ends well within 400 moves"


def test_solo_matchismo_three_card_board_of_thirty(start_server):
    server = start_server()
    result = {}

    async def body():
        result["over"], result["moves"] = await play_solo_matchismo(
            server.ws_url, {"boardSize": 30, "matchSize": 3}, 200, 400)

    run(body, timeout=150)
    assert result["over"] or result["moves"] >= 200


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


# ---------------------------------------------------------------------------------------------
# Hidden selections: each player sees only their own choices; a spectator sees everything

class PrivacyInspector:
    """Watches the diffs a player receives at a table with hidden selections: no opponent's
    `select`, `deselect` or seated `flip`; a `flip` without a seat only for a card matched in the
    same diff; no card named in the status line before a claim is judged, unless it is theirs."""

    def __init__(self, client):
        self.client = client
        self.reveals = 0

    def __call__(self, m):
        if m.get("type") != "diff":
            return
        seat = self.client.seat
        matched = {c for e in m["events"] if e["kind"] == "match" for c in e["cards"]}
        for e in m["events"]:
            if e["kind"] in ("select", "deselect") or (e["kind"] == "flip" and "seat" in e):
                assert e["seat"] == seat, f"seat {seat} was sent another seat's {e}"
            elif e["kind"] == "flip":
                self.reveals += 1
                assert e["card"]["id"] in matched, f"a seatless flip of an unmatched card: {m}"
        judged = any(e["kind"] in ("match", "mismatch") for e in m["events"])
        if m.get("seat") != seat and not judged:
            assert not any("card" in r for r in m.get("status") or []), f"status names a card: {m}"


async def hidden_selections(url):
    ada, bob, eve = await connect(url, "Ada", "Bob", "Eve")
    created = await ada.request({"type": "createTable", "game": "matchismo", "seats": 2,
                                 "boardSize": 12, "showSelections": False})
    assert created["type"] == "snapshot", created
    assert created["table"]["settings"]["showSelections"] is False
    table_id = created["table"]["id"]
    joined = await bob.request({"type": "join", "table": table_id})
    assert joined["type"] == "snapshot", joined
    watched = await eve.request({"type": "spectate", "table": table_id})
    assert watched["type"] == "snapshot", watched
    inspectors = {c.label: PrivacyInspector(c) for c in (ada, bob)}
    for c in (ada, bob):
        c.inspectors.append(inspectors[c.label])
    for c in (ada, bob, eve):
        await c.until(lambda c=c: c.state and c.state.phase == "playing" and c.state.board, 10, "play")

    # Ada's first card: she sees it up and chosen; Bob sees neither; Eve sees both.
    chose = await ada.request({"type": "choose", "card": 0})
    assert chose["type"] == "diff", chose
    for c in (bob, eve):
        await c.until(lambda c=c: c.state.version == chose["version"], 5, "the choice arrives")
    assert ada.state.players[0]["selection"] == [0] and ada.state.board[0]["faceUp"] is True
    assert bob.state.players[0]["selection"] == [] and bob.state.board[0]["faceUp"] is False
    assert bob.state.status == [{"text": "Ada chose a card."}], bob.state.status
    assert eve.state.players[0]["selection"] == [0] and eve.state.board[0]["faceUp"] is True
    await check_fresh(ada, bob, eve)

    # Both play on, choosing slots that are not matched yet, until some claims are judged.
    import random
    rng = random.Random(7)
    judged = 0
    for step in range(160):
        if judged >= 6 and step >= 40:
            break
        client = (ada, bob)[step % 2]
        if client.state.over:
            break
        open_slots = [e["id"] for e in client.state.board if not e.get("matched")]
        reply = await client.request({"type": "choose", "card": rng.choice(open_slots)})
        if reply["type"] != "diff":
            assert reply["code"] in ("cardNotOnTable", "gameOver"), reply
            continue
        judged += any(e["kind"] in ("match", "mismatch") for e in reply["events"])
        for c in (ada, bob, eve):
            await c.until(lambda c=c: c.state.version >= reply["version"], 5, "the move arrives")
        await check_fresh(ada, bob, eve)
    assert judged >= 3, f"only {judged} claims judged"
    # Some match showed its cards to the player who had not seen them turned up.
    assert sum(i.reveals for i in inspectors.values()) > 0, "no seatless flip was ever sent"
    for c in (ada, bob, eve):
        assert not c.problems, f"{c.label}: {c.problems}"
    await shutdown(ada, bob, eve)


def test_hidden_selections_each_player_sees_only_their_own(start_server):
    server = start_server("--countdown", "0")
    run(hidden_selections, server.ws_url, timeout=90)
