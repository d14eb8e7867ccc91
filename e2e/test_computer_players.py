"""Games against the computer over the wire (issue 33): `playBot` opens a private table where
computer players of one level sit first and the player last; the computers' sets arrive as
diffs like anyone's, in order, and the state they build is a fresh snapshot's; a game against
each level is played to its end, kept unrated in a high-score list of its own. A quick match
alone is offered a computer, whose seat a person who comes takes. Real binary, real WebSocket
client (the `websockets` package)."""
import asyncio

import pytest

from conftest import RunningServer
from mp_support import FAST, converge, run, start_server  # noqa: F401  (a fixture)
from protocol_client import LiveClient
from table_state import concentration_slot
from test_journal import check_record, restart, resume


def test_the_computers_play_and_their_sets_arrive_as_diffs(start_server):
    server = start_server(*FAST)

    async def body():
        ada, _ = await LiveClient.open(server.ws_url, "Ada", "ada")
        snapshot = await ada.request({"type": "playBot", "game": "set", "level": "expert", "bots": 3})
        assert snapshot["type"] == "snapshot", snapshot
        table = snapshot["table"]
        assert [p.get("bot") for p in table["players"]] == [{"level": "expert"}] * 3 + [None]
        assert table["you"] == 3 and table["host"] == 3 and table["private"] is True
        # Three expert computers take a set every second or so between them: wait for three,
        # each a match event of a computer's seat.
        await ada.until(lambda: sum(1 for _, e in ada.events() if e["kind"] == "match") >= 3,
                        timeout=30, what="three sets taken by the computers")
        seats = {e["seat"] for _, e in ada.events() if e["kind"] == "match"}
        assert seats <= {0, 1, 2}, seats
        # The diffs built what a fresh snapshot shows; nothing broke the protocol's rules.
        built, fresh = await ada.fresh()
        assert built == fresh
        assert not ada.problems, ada.problems
        # A level that is none is refused with its reason, and nothing changes.
        refused = await ada.request({"type": "playBot", "game": "concentration", "level": "wizard"})
        assert refused["type"] == "error" and refused["code"] == "badField", refused
        await ada.close()

    run(body, timeout=60)


def test_a_quick_match_alone_is_offered_a_computer_whose_seat_a_person_takes(start_server):
    # The table offers a computer after 1 s alone (the table setting; 20 s by default).
    server = start_server(*FAST)
    quick = {"type": "quickMatch", "game": "set", "seats": 3, "offerComputer": 1}

    async def body():
        ada, _ = await LiveClient.open(server.ws_url, "Ada", "ada")
        snapshot = await ada.request(quick)
        assert snapshot["table"]["phase"] == "waiting" and "computerOffer" not in snapshot["table"]
        # Before the offer, taking one is refused with its reason and changes nothing.
        early = await ada.request({"type": "addComputer", "level": "casual"})
        assert early["type"] == "error" and early["code"] == "noOffer", early
        diff, _ = await ada.event("computerOffer", open=True, timeout=10)
        assert "computer" in "".join(run["text"] for run in diff["status"]), diff
        assert (await ada.fresh())[1]["computerOffer"] is True
        bad = await ada.request({"type": "addComputer", "level": "grandmaster"})
        assert bad["type"] == "error" and bad["code"] == "badField", bad
        mark = ada.mark()
        taken = await ada.request({"type": "addComputer", "level": "casual"})
        assert taken["type"] == "diff", taken
        kinds = [e["kind"] for e in taken["events"]]
        assert kinds == ["join", "computerOffer"], kinds
        assert taken["events"][0]["bot"] == {"level": "casual"}
        assert ada.state.phase == "waiting" and ada.state.players[1]["bot"] == {"level": "casual"}
        # Bob's quick match finds the same table: the computer gives him its seat.
        bob, _ = await LiveClient.open(server.ws_url, "Bob", "bob")
        seated = await bob.request(quick)
        assert seated["table"]["id"] == ada.state.id, seated
        assert [p["name"] for p in seated["table"]["players"]] == ["Ada", "Bob"], seated
        assert all("bot" not in p for p in seated["table"]["players"])
        diff, _ = await ada.event("join", since=mark, name="Bob")
        assert [e["kind"] for e in diff["events"]][:2] == ["leave", "join"], diff
        built, fresh = await ada.fresh()
        assert built == fresh and not fresh["computerOffer"]
        assert not ada.problems and not bob.problems, (ada.problems, bob.problems)
        await ada.close()
        await bob.close()

    run(body, timeout=60)


@pytest.mark.parametrize("level,game", [("beginner", "setJunior"), ("casual", "setJunior"),
                                        ("good", "setJunior"), ("expert", "setJunior"),
                                        ("casual", "matchismo")])
def test_a_game_against_each_level_is_played_to_its_end_and_listed_apart(start_server, level, game):
    # At a pace of 0.01 a beginner takes a set 0.2 s (median) after one shows: a whole game in
    # seconds. The person does not play: the computer plays the game out alone, its wrong
    # claims included.
    server = start_server(*FAST, "--bot-pace", "0.01")

    async def body():
        ada, _ = await LiveClient.open(server.ws_url, "Ada", "ada")
        options = {"boardSize": 12} if game == "matchismo" else {}
        snapshot = await ada.request({"type": "playBot", "game": game, "level": level, **options})
        assert snapshot["type"] == "snapshot", snapshot
        await ada.event("over", timeout=60)
        assert ada.state.over and ada.state.phase == "finished"
        computer = ada.state.players[0]
        assert computer["bot"] == {"level": level} and computer["matches"] >= 3, computer
        built, fresh = await ada.fresh()
        assert built == fresh and not ada.problems, ada.problems
        # Kept, never rated, in a list of its own; the computer marked in it.
        page = await ada.request({"type": "scores", "game": game})
        assert page["list"].startswith("computer."), page
        assert [list_["kind"] for list_ in page["lists"]] == ["computer"], page
        [kept] = page["games"]
        marks = {p["name"]: p.get("bot") for p in kept["players"]}
        assert marks == {"Computer 1 (%s)" % level: {"level": level}, "Ada": None}, marks
        assert all("rating" not in p for p in kept["players"]), kept
        await ada.close()

    run(body, timeout=90)


def test_computers_go_on_after_a_kill_9_and_nothing_anyone_saw_is_lost():
    # Two expert computers take sets every ~0.6 s between them (a pace of 0.5); the server is
    # killed with SIGKILL while they play, at once after the third set the page saw.
    servers = [RunningServer(extra_args=[*FAST, "--bot-pace", "0.5"])]

    async def body():
        server = servers[0]
        ada, _ = await LiveClient.open(server.ws_url, "Ada", "ada")
        await ada.request({"type": "playBot", "game": "set", "level": "expert", "bots": 2})
        await ada.until(lambda: sum(1 for _, e in ada.events() if e["kind"] == "match") >= 3,
                        timeout=30, what="three sets taken by the computers")
        server.process.kill()
        server.process.wait(timeout=10)
        await asyncio.wait_for(ada.closed.wait(), 10)
        seen = [e["entry"] for _, e in ada.events() if e["kind"] == "history"]
        servers.append(restart(server, *FAST, "--bot-pace", "0.5"))
        again = await resume(servers[-1].ws_url, ada)
        # Every set the page saw is in the table that came back...
        assert again.state.history[:len(seen)] == seen, (again.state.history, seen)
        # ...and the computers go on from it with the same plans (no move twice, none lost):
        # more sets come, each from a computer's seat, and the diffs still build the snapshot.
        after = again.mark()
        await again.until(lambda: sum(1 for _, e in again.events(after) if e["kind"] == "match") >= 2,
                          timeout=30, what="the computers' sets after the restart")
        assert {e["seat"] for _, e in again.events(after) if e["kind"] == "match"} <= {0, 1}
        await again.event("over", timeout=90)
        final = await converge(again)
        await check_record(again, final, seen)
        await again.close()

    try:
        run(body, timeout=150)
    finally:
        for s in servers:
            s.stop()


def test_concentration_turns_between_a_person_and_a_computer_to_its_end(start_server):
    # The computer (good: it forgets some faces) turns its cards on its turns; the person plays
    # theirs remembering every face either of them turned up.
    server = start_server(*FAST, "--bot-pace", "0.05")

    async def body():
        ada, _ = await LiveClient.open(server.ws_url, "Ada", "ada")
        snapshot = await ada.request({"type": "playBot", "game": "concentration", "level": "good",
                                      "boardSize": 12})
        assert snapshot["type"] == "snapshot", snapshot
        await ada.until(lambda: ada.state.phase == "playing", 10, "play")
        for _ in range(400):
            if ada.state.over:
                break
            if ada.state.turn != ada.seat:
                version = ada.state.version
                await ada.until(lambda: ada.state.version > version, 10, "the computer's card")
                continue
            memory = {e["card"]["id"]: e["card"]["emoji"] for _, e in ada.events() if e["kind"] == "flip"}
            slot = concentration_slot(ada.state, ada.seat, memory)
            answer = await ada.request({"type": "choose", "card": slot})
            assert answer["type"] == "diff", answer
        await ada.until(lambda: ada.state.over, 30, "the end of the game")
        computer_flips = sum(1 for _, e in ada.events() if e["kind"] == "flip" and e.get("seat") == 0)
        assert computer_flips > 0 and ada.state.players[0]["bot"] == {"level": "good"}
        built, fresh = await ada.fresh()
        assert built == fresh and not ada.problems, ada.problems
        await ada.close()

    run(body, timeout=120)


def test_tables_of_computers_alone_play_with_nobody_connected(start_server):
    # `--computer-tables` (the benchmark of what computers cost): tables of four expert
    # computers play from the start, though no client ever connects (the page of metrics is
    # no event of the lobby's), game after game.
    from test_metrics import scrape_until, value
    server = start_server(*FAST, "--computer-tables", "2", "--bot-pace", "0.02")
    samples = scrape_until(server, lambda s: value(s, "matchismo_journal_entries_total") >= 200,
                           timeout=30)
    assert value(samples, "matchismo_journal_entries_total") >= 200, samples
