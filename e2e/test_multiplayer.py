"""Four players race for the same cards at one table; the host starts a table; a re-deal vote.

Every bot keeps under the rate limit (LiveClient paces its sends)."""
import asyncio
import itertools

from mp_support import (FAST, connect, converge, replies_ok, run, seat_at_new_table, shutdown,
                        start_server, until_playing)  # noqa: F401  (start_server is a fixture)
from table_state import find_sets

ROUNDS = 4


def test_four_players_race_for_the_same_sets(start_server):
    server = start_server(*FAST)
    run(race, server.ws_url, timeout=45)


def pick_targets(board):
    """Targets for seats 0..3: seats 0, 1 and 3 want set S1; seat 2 wants S2, which shares
    exactly one card with S1 when the board has such a pair (else any other set, else S1).
    Each seat chooses in its own order, so the claims interleave."""
    sets = [[c["id"] for c in s] for s in find_sets(board)]
    assert sets, "a playing board holds a set"
    s1 = sets[0]
    overlapping = [s for s in sets if len(set(s) & set(s1)) == 1]
    others = [s for s in sets if s != s1]
    s2 = overlapping[0] if overlapping else (others[0] if others else s1)
    if s2 is not s1:
        shared = set(s1) & set(s2)
        s2 = sorted(s2, key=lambda c: c not in shared)  # the shared card first
    return {0: s1, 1: list(reversed(s1)), 2: s2, 3: [s1[1], s1[2], s1[0]]}


async def race(url):
    players = await connect(url, "Ada", "Bob", "Cyd", "Dee")
    answers = await asyncio.gather(*(p.request({"type": "quickMatch", "game": "set", "seats": 4})
                                     for p in players))
    for answer in answers:
        assert answer["type"] == "snapshot", answer
    tables = {a["table"]["id"] for a in answers}
    assert len(tables) == 1, f"quick match spread four players over {tables}"
    assert sorted(a["table"]["you"] for a in answers) == [0, 1, 2, 3]
    assert all(a["table"]["seats"] == 4 for a in answers)
    table_id = tables.pop()
    by_seat = {p.seat: p for p in players}

    (spectator,) = await connect(url, "Eve")
    watched = await spectator.request({"type": "spectate", "table": table_id})
    assert watched["type"] == "snapshot", watched
    assert "you" not in watched["table"] and watched["table"]["id"] == table_id
    everyone = [*players, spectator]

    await until_playing(*everyone)
    state = await converge(*everyone)
    assert sorted(state["players"]) == [0, 1, 2, 3]
    await players[0].until(lambda: players[0].state.spectators == 1, what="one spectator")
    assert all(p["connected"] for p in state["players"].values())
    settings = spectator.state.settings
    game_start = spectator.mark()

    claimed = []
    refused = 0
    for round_number in range(ROUNDS):
        board = spectator.state.board
        targets = pick_targets(board)
        on_board = {c["id"] for c in board}
        since = spectator.mark()
        marks = {p.label: p.mark() for p in players}

        async def claim(seat):
            player = by_seat[seat]
            return [await player.send({"type": "choose", "card": card}) for card in targets[seat]]

        sent = await asyncio.gather(*(claim(seat) for seat in range(4)))
        outcome = {}  # (seat, card) -> "accepted" | "lost"
        for seat, ids in enumerate(sent):
            player = by_seat[seat]
            for card, message_id in zip(targets[seat], ids):
                answer = await player.reply(message_id)
                if answer["type"] == "error":
                    assert answer["code"] == "cardNotOnTable", f"round {round_number}: {answer}"
                    outcome[seat, card] = "lost"
                else:
                    assert replies_ok(answer, player), answer
                    assert {"kind": "select", "seat": seat, "card": card} in answer["events"], answer
                    outcome[seat, card] = "accepted"

        # Wait until the observer has every diff the moves caused, then check who won what.
        await converge(*everyone)
        matches = [(m, e) for m, e in spectator.events(since) if e["kind"] == "match"]
        assert matches, f"round {round_number}: nobody claimed a set; targets {targets}"
        won = [c for _, e in matches for c in e["cards"]]
        assert len(won) == len(set(won)), f"round {round_number}: a card was won twice: {matches}"
        assert not set(won) & set(claimed), "a card claimed in an earlier round came back"
        claimed += won
        for diff, e in matches:
            winner = e["seat"]
            assert sorted(e["cards"]) == sorted(targets[winner]), (winner, e, targets)
            assert set(e["cards"]) <= on_board
            assert all(outcome[winner, c] == "accepted" for c in e["cards"])
            # Every other seat that held a matched card is told with a deselect in the same diff.
            held = diff["_selections_before"]
            expected = {(s, c) for s, cards in held.items() if s != winner for c in cards if c in e["cards"]}
            told = {(x["seat"], x["card"]) for x in diff["events"] if x["kind"] == "deselect"}
            assert expected <= told, f"round {round_number}: deselects {told} miss {expected - told}"
        losers = 0
        for (seat, card), result in outcome.items():
            if card in won and not any(e["seat"] == seat and card in e["cards"] for _, e in matches):
                # A losing choice was refused, or was accepted and then emptied from the selection.
                assert result == "lost" or card not in spectator.state.players[seat]["selection"]
                losers += 1
                refused += result == "lost"
            if result == "lost":
                assert card in won, f"seat {seat} lost card {card}, which nobody matched"
        # Three seats want S1 and one seat wins it: at least two seats lose some race.
        assert losers >= 2, (outcome, matches)
        # What each player was answered is what everybody saw.
        for p in players:
            mine = [m for m in p.log[marks[p.label]:] if m.get("type") == "diff"]
            assert [m["version"] for m in mine] == [m["version"] for m in spectator.log[since:]
                                                   if m.get("type") == "diff"]

        # Let go of what is left selected (a free move), so the next round starts clean.
        for p in players:
            for card in list(spectator.state.players[p.seat]["selection"]):
                answer = await p.request({"type": "choose", "card": card})
                assert replies_ok(answer, p) and {"kind": "deselect", "seat": p.seat, "card": card} in answer["events"]
        final = await converge(*everyone)
        assert all(not pl["selection"] for pl in final["players"].values())

    # Scores: each seat's score is its match points minus choose costs and penalties, and every
    # `score` event along the way says the running total.
    totals = {seat: 0 for seat in range(4)}
    for _, e in spectator.events(game_start):
        if e["kind"] == "select":
            totals[e["seat"]] -= settings["costToChoose"]
        elif e["kind"] == "match":
            totals[e["seat"]] += e["points"]
            assert e["points"] > 0, e
        elif e["kind"] == "mismatch":
            totals[e["seat"]] -= e["penalty"]
        elif e["kind"] == "score":
            assert e["score"] == totals[e["seat"]], (e, totals)
        elif e["kind"] == "redeal":
            totals = {seat: 0 for seat in range(4)}
    for seat in range(4):
        assert spectator.state.players[seat]["score"] == totals[seat]
    print(f"race: {len(claimed) // 3} sets claimed, {refused} choices refused with cardNotOnTable")
    assert sum(pl["matches"] for pl in spectator.state.players.values()) == len(claimed) // 3
    for c in everyone:
        assert not c.problems, f"{c.label}: {c.problems}"
    await shutdown(*everyone)


def test_host_starts_a_table_that_is_not_full(start_server):
    server = start_server("--countdown", "0.5")
    run(host_start, server.ws_url)


async def host_start(url):
    ada, bob = await connect(url, "Ada", "Bob")
    table = await seat_at_new_table(ada, [bob], seats=3)
    assert table["phase"] == "waiting" and table["host"] == 0 and table["seats"] == 3
    assert table["board"] == [] and table["deckCount"] == 81 and table["private"] is False
    await ada.until(lambda: 1 in ada.state.players, what="Bob seated")
    assert ada.state.players[1]["name"] == "Bob" and ada.state.players[1]["connected"] is True

    early = await bob.request({"type": "choose", "card": 0})
    assert early["type"] == "error" and early["code"] == "notPlaying", early
    refused = await bob.request({"type": "start"})
    assert refused["type"] == "error" and refused["code"] == "notHost", refused
    assert bob.state.phase == "waiting"

    since = bob.mark()
    started = await ada.request({"type": "start"})
    assert started["type"] == "diff" and started.get("seat") == 0, started
    _, countdown = await bob.event("phase", since, phase="countdown")
    # Seconds left of a 0.5 s countdown (a server may round up to whole seconds for display).
    assert 0 < countdown["countdown"] <= 1, countdown
    again = await ada.request({"type": "start"})
    assert again["type"] == "error" and again["code"] == "alreadyStarted", again
    diff, _ = await bob.event("phase", since, phase="playing")
    kinds = [e["kind"] for e in diff["events"]]
    assert "redeal" in kinds and kinds.index("phase") < kinds.index("redeal"), kinds
    await until_playing(ada, bob)
    state = await converge(ada, bob)
    assert len(state["board"]) >= 12 and state["deckCount"] == 81 - len(state["board"])
    # Now a choice counts.
    card = bob.state.board[0]["id"]
    chosen = await bob.request({"type": "choose", "card": card})
    assert replies_ok(chosen, bob)
    await converge(ada, bob)
    await shutdown(ada, bob)


def test_redeal_vote_needs_a_majority(start_server):
    server = start_server(*FAST)
    run(redeal_vote, server.ws_url)


async def redeal_vote(url):
    ada, bob, cyd = await connect(url, "Ada", "Bob", "Cyd")
    await seat_at_new_table(ada, [bob, cyd], seats=4)
    assert (await ada.request({"type": "start"}))["type"] == "diff"
    await until_playing(ada, bob, cyd)
    card = ada.state.board[0]["id"]
    moved = await ada.request({"type": "choose", "card": card})
    assert replies_ok(moved, ada)
    before = await converge(ada, bob, cyd)
    # Multiplayer Set scores the classic way (choosing is free): the choice shows as a selection.
    assert before["players"][0]["selection"] == [card] and before["players"][0]["score"] == 0

    vote = await bob.request({"type": "redeal"})
    assert vote["type"] == "diff" and vote.get("seat") == 1, vote
    assert [e["kind"] for e in vote["events"]] == ["vote"], vote
    assert sorted(vote["events"][0]["seats"]) == [1] and vote["events"][0]["needed"] == 2, vote
    during = await converge(ada, bob, cyd)
    assert during["vote"] == {"seats": [1], "needed": 2}
    assert during["board"] == before["board"] and during["players"][0]["selection"] == [card]

    decided = await cyd.request({"type": "redeal"})
    assert decided["type"] == "diff" and decided.get("seat") == 2, decided
    assert any(e["kind"] == "redeal" for e in decided["events"]), decided
    after = await converge(ada, bob, cyd)
    assert after["vote"] is None
    assert after["phase"] == "playing" and after["board"] != before["board"]
    assert all(p["score"] == 0 and p["matches"] == 0 and p["selection"] == [] for p in after["players"].values())
    assert after["version"] > before["version"] + 1
    await shutdown(ada, bob, cyd)
