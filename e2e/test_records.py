"""Finished games end to end, against the real binary on SQLite and on PostgreSQL: a solo game played to its end by a real
WebSocket client is kept, listed by `scores` (sorted, paged, "mine"), given whole by `record`
with a replay whose diffs rebuild the final scores, and still there after a kill -9 and a
restart. A server without a journal says it keeps no records."""
import asyncio
import signal

from conftest import RunningServer
from mp_support import run, start_server  # noqa: F401 (a fixture)
from protocol_client import Client
from table_state import find_sets

PLAYER_A = "playerAAAAAAAAAAAAAAAA"
PLAYER_B = "playerBBBBBBBBBBBBBBBB"


async def reply_to(client, message_id, timeout=10.0):
    """Reads until the answer to `message_id` (diffs of other moves are skipped)."""
    while True:
        message = await client.recv(timeout)
        if message.get("replyTo") == message_id:
            return message


async def hello(url, name, player=None):
    client = await Client.connect(url)
    message = {"type": "hello", "name": name}
    if player:
        message["player"] = player
    message_id = await client.send(message)
    welcome = await reply_to(client, message_id)
    assert welcome["type"] == "welcome", welcome
    return client


async def play_set_to_the_end(url, name, player=None, max_sets=None, settings=None, daily=False):
    """A solo Set game played to its end (or `max_sets` sets) under `settings` (the server's
    defaults: course scoring alone), or today's daily puzzle; returns its last snapshot, with
    the board it was dealt as `_dealt`."""
    client = await hello(url, name, player)
    start = {"type": "playDaily", "game": "set"} if daily else {"type": "playSolo", "game": "set", **(settings or {})}
    message_id = await client.send(start)
    table = (await reply_to(client, message_id))["table"]
    dealt = [card["id"] for card in table["board"]]
    sets = 0
    look_back = None
    while not table["over"] and (max_sets is None or sets < max_sets):
        found = find_sets(table["board"])
        assert found, "a board of a game that is not over has a set"
        for card in found[0]:
            message_id = await client.send({"type": "choose", "card": card["id"]})
            answer = await reply_to(client, message_id)
            assert answer["type"] == "diff", answer
            for event in answer["events"]:
                if event["kind"] == "lookBack":
                    look_back = event["lookBack"]
        sets += 1
        message_id = await client.send({"type": "resync"})
        table = (await reply_to(client, message_id))["table"]
    await client.close()
    # The diff that ends a game looks back at it.
    assert (look_back is not None) == table["over"], look_back
    table["_lookBack"] = look_back
    table["_dealt"] = dealt
    return table


async def ask(url, message, player=None):
    client = await hello(url, "Reader", player)
    message_id = await client.send(message)
    answer = await reply_to(client, message_id)
    await client.close()
    return answer


def final_scores(table):
    return sorted((p["name"], p["score"]) for p in table["players"])


async def finished_games_are_kept(url):
    first = await play_set_to_the_end(url, "Ada", PLAYER_A)
    second = await play_set_to_the_end(url, "Bob", PLAYER_B)
    # A game left unfinished is not kept.
    await play_set_to_the_end(url, "Cy", PLAYER_A, max_sets=2)
    assert first["over"] and second["over"]

    page = await ask(url, {"type": "scores", "game": "set"}, PLAYER_A)
    assert page["type"] == "scores", page
    assert page["total"] == 2 and len(page["games"]) == 2, page
    assert [g["players"][0]["name"] for g in page["games"]] == ["Bob", "Ada"], "newest first"
    ada = page["games"][1]
    assert ada["mine"] is True and ada["players"][0].get("you") is True
    assert page["games"][0]["mine"] is False and "you" not in page["games"][0]["players"][0]
    assert ada["score"] == first["players"][0]["score"]
    best = max(page["games"], key=lambda g: g["score"])
    assert page["best"]["score"] == best["score"]
    assert page["shortest"]["seconds"] == min(g["seconds"] for g in page["games"])

    mine = await ask(url, {"type": "scores", "game": "set", "mine": True}, PLAYER_A)
    assert [g["id"] for g in mine["games"]] == [ada["id"]], mine
    nobody = await ask(url, {"type": "scores", "game": "set", "mine": True})
    assert nobody["total"] == 0 and nobody["games"] == [], nobody
    paged = await ask(url, {"type": "scores", "game": "set", "sort": "duration", "pageSize": 1, "page": 1})
    assert paged["total"] == 2 and len(paged["games"]) == 1 and paged["order"] == "asc", paged
    # The wire rounds seconds to tenths while the store orders by the exact duration, so two
    # quick games can show the same figure: the second page holds one of the longest.
    longest = max(g["seconds"] for g in page["games"])
    assert paged["games"][0]["seconds"] == longest, (paged, page)
    first_page = await ask(url, {"type": "scores", "game": "set", "sort": "duration", "pageSize": 1})
    assert {first_page["games"][0]["id"], paged["games"][0]["id"]} == {g["id"] for g in page["games"]}
    assert (await ask(url, {"type": "scores", "game": "matchismo"}))["total"] == 0

    record = await ask(url, {"type": "record", "record": ada["id"]})
    assert record["type"] == "record", record
    kept = record["record"]
    assert kept["id"] == ada["id"] and kept["game"] == "set"
    assert "rules" in kept and kept["seed"].isdigit(), kept  # a decimal string (PROTOCOL.md)
    assert [(p["name"], p["score"]) for p in kept["players"]] == final_scores(first)
    replay = record["replay"]
    # The seed kept is the game's: the replay, played again from it, deals the very board Ada was
    # dealt live (a seed lost or changed on its way through the journal deals another).
    assert [c["id"] for c in replay["table"]["board"]] == first["_dealt"], (kept["seed"], replay["table"])
    assert len(replay["diffs"]) == len(kept["moves"]) > 0
    assert [d["version"] for d in replay["diffs"]] == list(range(1, len(kept["moves"]) + 1))
    # The replay's diffs rebuild the final score (score events), and the last one ends the game.
    score = 0
    for diff in replay["diffs"]:
        for event in diff["events"]:
            if event["kind"] == "score":
                score = event["score"]
    assert score == kept["players"][0]["score"]
    assert any(e["kind"] == "over" or e.get("phase") == "finished" for e in replay["diffs"][-1]["events"])

    # The look back: every set found, each with how long it was there, and those passed over;
    # the same in the record as at the game's end.
    look_back = record["lookBack"]
    assert look_back == first["_lookBack"], (look_back, first["_lookBack"])
    assert look_back["boardSeen"] is True
    assert len(look_back["found"]) == kept["players"][0]["matches"] == look_back["players"][0]["found"]
    assert all(0 <= f["seconds"] <= f["at"] for f in look_back["found"])
    assert look_back["players"][0]["fastest"] == min(f["seconds"] for f in look_back["found"])
    # The player always takes the first set found: others on the board are passed over.
    assert look_back["missed"] and all(m["until"] >= m["from"] for m in look_back["missed"])

    missing = await ask(url, {"type": "record", "record": "g999"})
    assert missing["type"] == "error" and missing["code"] == "unknownRecord", missing
    bad = await ask(url, {"type": "scores", "game": "set", "sort": "fastest"})
    assert bad["type"] == "error" and bad["code"] == "badField", bad

    # A classic game is not ranked with course-scored ones: it opens a list of its own, which is
    # the one shown when none is asked for (the latest game's); each list counts its games.
    assert page["list"] == "solo.course" and page["lists"] == [
        {"id": "solo.course", "kind": "solo", "scoring": "course", "total": 2}], page
    classic = await play_set_to_the_end(url, "Di", PLAYER_B, settings={"scoring": "classic"})
    assert classic["over"] and classic["settings"]["scoring"] == "classic", classic["settings"]
    latest = await ask(url, {"type": "scores", "game": "set", "sort": "score"})
    assert latest["list"] == "solo.classic" and latest["total"] == 1, latest
    assert [g["players"][0]["name"] for g in latest["games"]] == ["Di"]
    assert latest["best"]["id"] == latest["games"][0]["id"]
    assert {entry["id"]: entry["total"] for entry in latest["lists"]} == {"solo.course": 2, "solo.classic": 1}
    course = await ask(url, {"type": "scores", "game": "set", "list": "solo.course", "sort": "score"})
    assert course["list"] == "solo.course" and course["total"] == 2, course
    assert {g["id"] for g in course["games"]} == {g["id"] for g in page["games"]}
    assert course["best"] == page["best"], (course, page)
    nobody = await ask(url, {"type": "scores", "game": "set", "list": "multiplayer.classic"})
    assert nobody["list"] == "multiplayer.classic" and nobody["total"] == 0 and nobody["best"] is None
    bad = await ask(url, {"type": "scores", "game": "set", "list": "everyone"})
    assert bad["type"] == "error" and bad["code"] == "badField", bad
    return course


def test_finished_games_are_listed_paged_and_replayed_and_survive_kill_9(journal_database):
    server = RunningServer(database=journal_database)
    try:
        page = run(finished_games_are_kept, server.ws_url, timeout=120)
        assert server.signal(signal.SIGKILL) == -signal.SIGKILL
        again = RunningServer(data_dir=server.data_dir, port=server.port, database=journal_database)
        try:
            after = run(ask, again.ws_url, {"type": "scores", "game": "set", "list": "solo.course", "sort": "score"},
                        PLAYER_A)
            assert [g["id"] for g in after["games"]] == [g["id"] for g in page["games"]], after
            assert after["total"] == 2 and len(after["lists"]) == 2
        finally:
            again.stop()
    finally:
        server.stop()


def test_a_server_without_a_journal_keeps_no_records(start_server):
    server = start_server("--no-journal")
    answer = run(ask, server.ws_url, {"type": "scores", "game": "set"})
    assert answer["type"] == "error" and answer["code"] == "unavailable", answer


async def questions_in_a_burst(url):
    await play_set_to_the_end(url, "Ada", PLAYER_A)
    client = await hello(url, "Burst")
    # Within the connection's rate limit (a burst of 40 with the hello), sent without waiting.
    asked = {}
    for i in range(36):
        message = {"type": "record", "record": "g1"} if i % 3 else {"type": "scores", "game": "set"}
        asked[await client.send(message)] = message["type"]
    answers = {}
    while len(answers) < len(asked):
        message = await client.recv(15)
        if "replyTo" in message:
            assert message["replyTo"] in asked and message["replyTo"] not in answers, message
            answers[message["replyTo"]] = message
    await client.close()
    return asked, answers


def test_a_burst_of_questions_is_answered_each_once_within_the_bounds(start_server):
    from test_metrics import scrape, value

    server = start_server()
    asked, answers = run(questions_in_a_burst, server.ws_url, timeout=120)
    refused = [a for a in answers.values() if a["type"] == "error"]
    print(f"{len(refused)} of {len(asked)} questions refused")
    for answer in refused:
        assert answer["code"] == "unavailable" and answer["message"], answer
    records = [a for a in answers.values() if a["type"] == "record"]
    assert all(asked[a["replyTo"]] == "record" for a in records)
    assert all(asked[a["replyTo"]] == "scores" for a in answers.values() if a["type"] == "scores")
    assert records, "some questions are answered"
    # Every answer about the same game is the same game, kept or made afresh.
    first = {k: v for k, v in records[0].items() if k != "replyTo"}
    assert all({k: v for k, v in r.items() if k != "replyTo"} == first for r in records)
    # Each refusal is counted for the operator.
    assert value(scrape(server), "matchismo_record_questions_refused_total") == len(refused)
    # Still answering after the burst.
    again = run(ask, server.ws_url, {"type": "record", "record": "g1"})
    assert again["type"] == "record" and again["record"] == first["record"], again
