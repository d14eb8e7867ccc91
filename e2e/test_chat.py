"""Chat against the real server (issue 21): two players and a spectator at a table, each with a
real WebSocket client. A line reaches everyone there with the sender's name and seat (or that
they watch), its text exactly as sent (trimmed: markup stays text); a line that is not one, or
one too many too fast, is refused and reaches nobody; the lobby's chat reaches who watches the
list; the table's lines are kept through a kill -9, on SQLite and on PostgreSQL."""
import signal

from conftest import RunningServer
from mp_support import FAST, LiveClient, connect, run, seat_at_new_table, start_server  # noqa: F401

MARKUP = '<b>bold</b> <img src=x onerror="alert(1)"> & &amp;'


def chat_lines(client, since=0):
    return [m for m in client.log[since:] if m.get("type") == "chat"]


async def barrier(sender, others, text):
    """`sender` says `text`; returns once every one of `others` has it: whatever the server sent
    them before it has arrived too."""
    marks = [o.mark() for o in others]
    answer = await sender.request({"type": "chat", "text": text})
    assert answer["type"] == "chat", answer
    for other, mark in zip(others, marks):
        await other.wait_for(lambda m: m.get("type") == "chat" and m.get("text") == text, mark,
                             what=f"the line {text!r}")
    return answer


async def a_table_chats(url):
    ada, bob, eve = await connect(url, "Ada", "Bob", "Eve")
    table = await seat_at_new_table(ada, [bob], 2)
    watched = await eve.request({"type": "spectate", "table": table["id"]})
    assert watched["type"] == "snapshot", watched
    marks = [c.mark() for c in (ada, eve)]

    # Markup is text: the line arrives exactly as sent, trimmed, with who said it.
    mine = await bob.request({"type": "chat", "text": f"   {MARKUP}  "})
    assert {k: v for k, v in mine.items() if not k.startswith("_") and k != "replyTo"} == {
        "type": "chat", "where": "table", "name": "Bob", "seat": 1, "text": MARKUP}, mine
    for client, mark in zip((ada, eve), marks):
        line = await client.wait_for(lambda m: m.get("type") == "chat", mark, what="Bob's line")
        assert line["text"] == MARKUP and line["seat"] == 1 and "replyTo" not in line, line
    # Everyone has Eve's line before the next step looks at what arrives after it.
    said = await barrier(eve, [ada, bob], "watching you two")
    assert said["spectator"] is True and "seat" not in said and said["name"] == "Eve", said

    # Not a line: refused, said to nobody (the barrier line after it comes first to the others).
    for text in ["x" * 201, "two\nlines", "   ", "bidi \u202e trick"]:
        marks = [c.mark() for c in (bob, eve)]
        refused = await ada.request({"type": "chat", "text": text})
        assert refused["type"] == "error" and refused["code"] == "badField", refused
        await barrier(ada, [bob, eve], f"after {len(text)}")
        assert [m["text"] for m in chat_lines(bob, marks[0])] == [f"after {len(text)}"]
        assert [m["text"] for m in chat_lines(eve, marks[1])] == [f"after {len(text)}"]
    await barrier(ada, [bob, eve], "é" * 200)  # 200 characters are a line

    # Too fast: Ada has said five lines just now; the next is refused and reaches nobody.
    mark = bob.mark()
    too_fast = await ada.request({"type": "chat", "text": "one too many"})
    assert too_fast["type"] == "error" and too_fast["code"] == "tooFast", too_fast
    await barrier(eve, [bob], "a barrier")
    assert [m["text"] for m in chat_lines(bob, mark)] == ["a barrier"]

    # A snapshot carries the table's lines, oldest first.
    snapshot = await bob.request({"type": "resync"})
    texts = [line["text"] for line in snapshot["chat"]]
    assert texts[:2] == [MARKUP, "watching you two"] and texts[-1] == "a barrier", texts
    assert snapshot["chat"][1] == {"name": "Eve", "spectator": True, "text": "watching you two"}
    return ada.session, texts


async def the_lobby_chats(url):
    ada, bob, cy = await connect(url, "Ada", "Bob", "Cy")
    assert (await bob.request({"type": "lobby"}))["type"] == "lobbySnapshot"
    mark = cy.mark()
    mine = await ada.request({"type": "chat", "text": "anyone for Set?"})
    assert mine["where"] == "lobby" and mine["name"] == "Ada" and "seat" not in mine, mine
    line = await bob.wait_for(lambda m: m.get("type") == "chat", what="Ada's line")
    assert line["text"] == "anyone for Set?" and line["where"] == "lobby"
    # Cy does not watch the list: a barrier (his own line, answered) shows nothing came before.
    await cy.request({"type": "chat", "text": "hello?"})
    assert [m["text"] for m in chat_lines(cy, mark)] == ["hello?"]


async def lines_after_restart(url, session, texts):
    ada, welcome = await LiveClient.open(url, "Ada", "ada", resume=session)
    assert welcome["resumed"] is True, welcome
    snapshot = await ada.request({"type": "resync"})
    assert [line["text"] for line in snapshot["chat"]] == texts


def test_two_players_and_a_spectator_chat_and_the_lines_survive_kill_9(journal_database):
    server = RunningServer(extra_args=list(FAST), database=journal_database)
    try:
        session, texts = run(a_table_chats, server.ws_url, timeout=60)
        assert server.signal(signal.SIGKILL) == -signal.SIGKILL
        again = RunningServer(extra_args=list(FAST), data_dir=server.data_dir, port=server.port,
                              database=journal_database)
        try:
            run(lines_after_restart, again.ws_url, session, texts)
        finally:
            again.stop()
    finally:
        server.stop()


def test_the_lobby_chat_reaches_who_watches_the_list(start_server):
    server = start_server(*FAST)
    run(the_lobby_chats, server.ws_url)
