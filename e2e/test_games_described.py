"""The games as the server describes them, over the wire (issue 32): `welcome` lists every game
it deals with its words, settings and texts, the web client's defaults before a welcome are those
very descriptions, and `hint` answers a match found by the game's own rule (Set-Chain's chain card
first), refused with a typed reason where hints are not offered. Real binary, real WebSocket
client (the `websockets` package)."""
import itertools
import json
import pathlib
import subprocess

from mp_support import FAST, connect, run, start_server, until_playing  # noqa: F401  (a fixture)
from protocol_client import LiveClient
from table_state import is_set, ultra_sets

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ["set", "setJunior", "ultraSet", "setChain", "matchismo", "concentration"]


def sets(board):
    return [{x["id"] for x in t} for t in itertools.combinations(board, 3) if is_set(*t)]


def chain_sets(chain, board):
    """Every chain set: one card of `chain` and two of `board` that make a set (chain card, by id)."""
    return [(anchor["id"], {anchor["id"], x["id"], y["id"]})
            for anchor in chain for x, y in itertools.combinations(board, 2) if is_set(anchor, x, y)]


def test_welcome_lists_every_game_with_its_words_and_settings(start_server):
    server = start_server()

    async def body():
        client, welcome = await LiveClient.open(server.ws_url, "Ada", "ada", games=True)
        games = welcome["games"]
        assert [g["name"] for g in games] == GAMES
        by_name = {g["name"]: g for g in games}
        for game in games:
            assert game["title"] and len(game["rules"]) > 20, game["name"]
            assert game["match"]["one"] and game["match"]["many"], game["name"]
            for key in ("hintOne", "hintTwo", "hintNone"):
                assert game["match"]["one"] in game["texts"][key], (game["name"], key)
            assert any(s["name"] == "boardSize" for s in game["settings"]), game["name"]
        assert by_name["ultraSet"]["match"]["a"] == "an UltraSet" and by_name["ultraSet"]["matchSize"] == 4
        assert by_name["setChain"]["chain"] is True and "chainRule" in by_name["setChain"]["texts"]
        assert by_name["concentration"]["turnBased"] and by_name["concentration"]["faceDown"]
        assert not by_name["matchismo"]["hints"] and by_name["set"]["hints"]
        assert by_name["set"]["board"] == {"base": 12, "step": 3}
        # Every choice a description offers is a table the server opens (a session may hold only
        # a few tables it opened: a new one every three).
        opened = 0
        for game in games:
            for setting in game["settings"]:
                for choice in setting["choices"]:
                    if opened % 3 == 0:
                        client, _ = await LiveClient.open(server.ws_url, "Ada", f"ada{opened}")
                    opened += 1
                    fields = {**setting.get("requires", {}), setting["name"]: choice["value"]}
                    answer = await client.request({"type": "createTable", "game": game["name"], "seats": 2, **fields})
                    assert answer["type"] == "snapshot", (game["name"], fields, answer)
        assert opened > 40
        return games

    run(body, timeout=60)


def test_the_games_come_only_when_asked_and_a_welcome_without_them_is_small(start_server):
    """The descriptions are about 12 KB: only a hello that asks gets them (`games`: true, or a
    version other than the server's). A welcome without them fits in the 8 KiB frames the peer
    kit's load generator reads, many times over."""
    server = start_server()

    async def body():
        _, plain = await LiveClient.open(server.ws_url, "Ada", "ada")
        _, full = await LiveClient.open(server.ws_url, "Bea", "bea", games=True)
        version = full["gamesVersion"]
        _, held = await LiveClient.open(server.ws_url, "Cy", "cy", games=version)
        _, stale = await LiveClient.open(server.ws_url, "Dee", "dee", games="0" * 16)
        return plain, full, held, stale

    plain, full, held, stale = run(body)
    assert "games" not in plain and "games" not in held
    assert plain["gamesVersion"] == full["gamesVersion"] == held["gamesVersion"] == stale["gamesVersion"]
    assert len(full["gamesVersion"]) == 16 and int(full["gamesVersion"], 16) >= 0
    assert [g["name"] for g in full["games"]] == GAMES and stale["games"] == full["games"]
    assert len(json.dumps(plain, separators=(",", ":"))) < 512
    assert len(json.dumps(full, separators=(",", ":"))) > 8192


def test_the_web_clients_games_before_a_welcome_are_the_servers(start_server):
    """games.js's DEFAULT_GAMES are what the page shows before its welcome: the server's very
    descriptions, so that they never drift apart."""
    server = start_server()

    async def body():
        _, welcome = await LiveClient.open(server.ws_url, "Ada", "ada", games=True)
        return welcome["games"]

    served = run(body)
    script = ("import('./web-client/js/games.js')"
              ".then((m) => process.stdout.write(JSON.stringify(m.DEFAULT_GAMES)))")
    out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=30, check=True).stdout
    assert json.loads(out) == served


async def hints_until_over(client, game, rounds):
    """Plays `game` alone with the server's hints, checking each against brute force on the
    board (and chain) the player sees; returns how many hints showed a chain card first."""
    table = (await client.request({"type": "playSolo", "game": game}))["table"]
    chained = 0
    for _ in range(rounds):
        if table["over"]:
            break
        answer = await client.request({"type": "hint"})
        assert answer["type"] == "hint", answer
        cards = answer["cards"]
        board, chain = table["board"], table.get("chain") or []
        if chain:
            found = chain_sets(chain, board)
            assert any(anchor == cards[0] and ids == set(cards) for anchor, ids in found), (cards, found)
            chained += 1
        elif game == "ultraSet":
            assert set(cards) in [set(u) for u in ultra_sets(board)], cards
        else:
            assert set(cards) in sets(board), cards
        # A hint changes nothing: the same board gets the same match.
        again = await client.request({"type": "hint"})
        assert again["cards"] == cards
        for card in cards:
            moved = await client.request({"type": "choose", "card": card})
            assert moved["type"] == "diff", moved
        assert any(e["kind"] == "match" for e in moved["events"]), moved
        table = (await client.request({"type": "resync"}))["table"]
    return chained


def test_a_hint_over_the_wire_is_a_match_the_games_rule_finds(start_server):
    server = start_server()

    async def body():
        (ada,) = await connect(server.ws_url, "Ada")
        for game in ("set", "setJunior", "ultraSet"):
            await hints_until_over(ada, game, 5)
        assert await hints_until_over(ada, "setChain", 6) >= 5, "after the first set, chain sets"

    run(body, timeout=90)


def test_a_hint_is_refused_where_it_is_not_offered(start_server):
    server = start_server(*FAST)

    async def body():
        ada, bob = await connect(server.ws_url, "Ada", "Bob")
        refused = await ada.request({"type": "hint"})
        assert refused["type"] == "error" and refused["code"] == "notAtTable", refused
        await ada.request({"type": "playSolo", "game": "matchismo"})
        refused = await ada.request({"type": "hint"})
        assert refused["code"] == "noHints", refused
        created = await ada.request({"type": "createTable", "game": "set", "seats": 2})
        await bob.request({"type": "join", "code": created["table"]["code"]})
        refused = await ada.request({"type": "hint"})
        assert refused["code"] == "hintsAlone", refused
        assert refused["message"]

    run(body)
