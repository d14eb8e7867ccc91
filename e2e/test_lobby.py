"""The lobby list and its diffs; private tables reached only by their invite code; spectators."""
import re
import time

from mp_support import (FAST, connect, converge, run, seat_at_new_table, shutdown, start_server,
                        until_playing)  # noqa: F401  (start_server is a fixture)

CODE = re.compile(r"^[A-Z2-9]{10}$")


def test_private_table_by_code(start_server):
    server = start_server(*FAST)
    run(private_table, server.ws_url)


async def private_table(url):
    ada, bob, eve, lou = await connect(url, "Ada", "Bob", "Eve", "Lou")
    listed = await lou.request({"type": "lobby"})
    assert listed["type"] == "lobbySnapshot", listed
    lobby_mark = lou.mark()

    created = await ada.request({"type": "createTable", "game": "set", "seats": 3, "private": True})
    assert created["type"] == "snapshot", created
    table = created["table"]
    code = table["code"]
    assert CODE.match(code) and not set(code) & set("01OI"), code
    assert table["private"] is True and table["you"] == 0 and table["host"] == 0
    assert table["phase"] == "waiting" and table["seats"] == 3 and table["board"] == []

    wrong = "".join("Z" if ch != "Z" else "Y" for ch in code)
    refused = await bob.request({"type": "join", "code": wrong})
    assert refused["type"] == "error" and refused["code"] == "unknownTable", refused
    refused = await bob.request({"type": "join", "table": table["id"]})
    assert refused["type"] == "error" and refused["code"] == "unknownTable", \
        f"a private table joined by its id (not its code): {refused}"
    joined = await bob.request({"type": "join", "code": code})
    assert joined["type"] == "snapshot" and joined["table"]["id"] == table["id"], joined
    assert joined["table"]["you"] == 1 and joined["table"]["code"] == code
    _, join = await ada.event("join", seat=1)
    assert join["name"] == "Bob"

    watched = await eve.request({"type": "spectate", "code": code})
    assert watched["type"] == "snapshot" and watched["table"]["id"] == table["id"], watched
    assert "you" not in watched["table"] and eve.state.you is None
    await ada.until(lambda: ada.state.spectators == 1, what="one spectator")

    assert (await ada.request({"type": "start"}))["type"] == "diff"
    await until_playing(ada, bob, eve)
    state = await converge(ada, bob, eve)
    assert ada.state.spectators == 1 and sorted(state["players"]) == [0, 1]
    refused = await eve.request({"type": "choose", "card": eve.state.board[0]["id"]})
    assert refused["type"] == "error" and refused["code"] == "spectator", refused
    refused = await eve.request({"type": "start"})
    assert refused["type"] == "error", refused
    assert (await converge(ada, bob, eve)) == state

    # The lobby never listed the private table, and a fresh lobby snapshot does not either.
    for m in lou.log[lobby_mark:]:
        assert table["id"] not in str(m.get("changes", "")), m
    again = await lou.request({"type": "lobby"})
    assert table["id"] not in [t["id"] for t in again["tables"]], again
    for c in (ada, bob, eve, lou):
        assert not c.problems, (c.label, c.problems)
    await shutdown(ada, bob, eve, lou)


def test_lobby_diffs_follow_a_public_table(start_server):
    server = start_server("--empty-table-grace", "0.5", *FAST)
    run(lobby_follows, server.ws_url)


async def lobby_follows(url):
    lou, ada, bob, eve = await connect(url, "Lou", "Ada", "Bob", "Eve")
    first = await lou.request({"type": "lobby"})
    assert first["type"] == "lobbySnapshot" and first["tables"] == [], first
    start_version = first["version"]

    def listed(**fields):
        def check():
            entry = lou.lobby.tables.get(table_id)
            return entry is not None and all(entry.get(k) == v for k, v in fields.items())
        return check

    created = await ada.request({"type": "createTable", "game": "set", "seats": 3})
    assert created["type"] == "snapshot" and created["table"]["private"] is False, created
    table_id = created["table"]["id"]
    await lou.until(listed(game="set", seats=3, seated=1, spectators=0, phase="waiting"),
                    what="the new table listed")

    assert (await bob.request({"type": "join", "table": table_id}))["type"] == "snapshot"
    await lou.until(listed(seated=2, spectators=0, phase="waiting"), what="two seated")

    assert (await eve.request({"type": "spectate", "table": table_id}))["type"] == "snapshot"
    await lou.until(listed(seated=2, spectators=1), what="one spectator")

    assert (await ada.request({"type": "start"}))["type"] == "diff"
    await lou.until(listed(phase="playing", seated=2, spectators=1), what="the table playing")
    phases = [c["table"]["phase"] for m in lou.log if m["type"] == "lobbyDiff"
              for c in m["changes"] if c["op"] == "upsert" and c["table"]["id"] == table_id]
    assert "countdown" in phases, phases
    await until_playing(ada, bob, eve)

    for c in (eve, bob, ada):
        left = await c.request({"type": "leave"})
        assert left["type"] == "left", left
        assert c.state is None
    last_left = time.monotonic()
    await lou.until(listed(seated=0, spectators=0), what="nobody at the table")
    await lou.until(lambda: table_id not in lou.lobby.tables, timeout=8, what="the empty table removed")
    removed = next(m for m in lou.log if m["type"] == "lobbyDiff"
                   and {"op": "remove", "id": table_id} in m["changes"])
    assert removed["_at"] - last_left >= 0.3, "an empty table is kept for --empty-table-grace 0.5"

    versions = [m["version"] for m in lou.log if m["type"] == "lobbyDiff"]
    assert versions == list(range(start_version + 1, start_version + 1 + len(versions))), versions
    assert not lou.problems, lou.problems
    again = await lou.request({"type": "lobby"})
    assert again["tables"] == [] and again["version"] == lou.lobby.version, again
    # Joining a table that is gone.
    refused = await bob.request({"type": "join", "table": table_id})
    assert refused["type"] == "error" and refused["code"] == "unknownTable", refused
    await shutdown(lou, ada, bob, eve)


def test_spectator_limit(start_server):
    server = start_server("--spectator-limit", "1", *FAST)
    run(spectator_limit, server.ws_url)


async def spectator_limit(url):
    ada, eve, fay = await connect(url, "Ada", "Eve", "Fay")
    created = await ada.request({"type": "createTable", "game": "set", "seats": 2})
    table_id = created["table"]["id"]
    assert (await eve.request({"type": "spectate", "table": table_id}))["type"] == "snapshot"
    refused = await fay.request({"type": "spectate", "table": table_id})
    assert refused["type"] == "error" and refused["code"] == "spectatorLimit", refused
    assert fay.state is None
    refused = await fay.request({"type": "spectate", "table": "t999"})
    assert refused["type"] == "error" and refused["code"] == "unknownTable", refused
    assert (await eve.request({"type": "leave"}))["type"] == "left"
    watched = await fay.request({"type": "spectate", "code": created["table"]["code"]})
    assert watched["type"] == "snapshot" and watched["table"]["spectators"] == 1, watched
    await converge(ada, fay)
    # Eve left and Fay came within a second: the count told again once that second is over.
    await ada.until(lambda: ada.state.spectators == 1 and fay.state.spectators == 1, what="one spectator")
