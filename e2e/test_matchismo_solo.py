"""Solo Matchismo end to end, against the real binary over real WebSockets (the `websockets`
package): a bot that knows only what it was shown plays two-card and three-card boards, while a
`FaceLedger` checks that no frame shows a face that was not turned up, the state built from diffs
equals a fresh snapshot after every move, and the score follows the course's rules from the
events alone."""
import itertools

from face_ledger import check_fresh, face_of, matchismo_score, open_watched
from mp_support import run, shutdown, start_server  # noqa: F401 (fixture)


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
