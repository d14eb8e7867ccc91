"""Set's variants end to end (issue 21): Set Junior (`setJunior`, 27 solid cards, three features)
and UltraSet (`ultraSet`, four cards forming two pairs that need the same third card), each
served solo to its end and for two players by quick match, against the real server with real
WebSocket clients."""
import pytest

from mp_support import FAST, connect, run, start_server, until_playing  # noqa: F401  (a fixture)
from table_state import find_sets, third_id, ultra_sets


def find_ultra_set(board):
    """Four cards of `board` that make two pairs needing the same third card, or None."""
    return next(iter(ultra_sets(board)), None)


def a_match(game, board):
    if game == "ultraSet":
        return find_ultra_set(board)
    found = find_sets(board)
    return [card["id"] for card in found[0]] if found else None


async def solo_to_the_end(url, game):
    (ada,) = await connect(url, "Ada")
    table = (await ada.request({"type": "playSolo", "game": game}))["table"]
    assert table["game"] == game, table
    if game == "setJunior":
        # Nine cards, or more in the rare deal whose nine hold no set.
        assert len(table["board"]) >= 9 and table["deckCount"] == 27 - len(table["board"]), table
        assert {card["shading"] for card in table["board"]} == {"solid"}
        assert all(0 <= card["id"] < 27 for card in table["board"])
    else:
        assert len(table["board"]) == 12 and table["settings"]["matchSize"] == 4, table
    matches = 0
    for _ in range(60):
        if table["over"]:
            break
        cards = a_match(game, table["board"])
        assert cards is not None, f"no match on a board of a game that is not over: {table['board']}"
        for card in cards:
            answer = await ada.request({"type": "choose", "card": card})
            assert answer["type"] == "diff", answer
        assert any(e["kind"] == "match" for e in answer["events"]), answer
        matches += 1
        table = (await ada.request({"type": "resync"}))["table"]
    assert table["over"] and table["players"][0]["matches"] == matches, table
    return matches


async def two_by_quick_match(url, game):
    ada, bob = await connect(url, "Ada", "Bob")
    first = await ada.request({"type": "quickMatch", "game": game, "seats": 2})
    second = await bob.request({"type": "quickMatch", "game": game, "seats": 2})
    assert first["table"]["id"] == second["table"]["id"] and first["table"]["game"] == game
    await until_playing(ada, bob)
    cards = a_match(game, ada.state.board)
    mark = bob.mark()
    for card in cards:
        answer = await ada.request({"type": "choose", "card": card})
        assert answer["type"] == "diff", answer
    _, event = await bob.event("match", mark, seat=0)
    assert sorted(event["cards"]) == sorted(cards)


@pytest.mark.parametrize("game", ["setJunior", "ultraSet"])
def test_each_variant_is_served_solo_to_its_end_and_for_two(start_server, game):
    server = start_server(*FAST, "--rate-limit", "1000")
    matches = run(solo_to_the_end, server.ws_url, game, timeout=60)
    assert matches >= (5 if game == "setJunior" else 10)
    run(two_by_quick_match, server.ws_url, game)


def a_chain_set(table):
    """A set that may be taken at a Set-Chain table: any set of the board before the first, then
    one card of the chain (first) and two of the board."""
    chain = table["chain"]
    if not chain:
        return a_match("set", table["board"])
    board = [card["id"] for card in table["board"]]
    for anchor in (card["id"] for card in chain):
        for i, card in enumerate(board):
            third = third_id(anchor, card)
            if third in board[i + 1:]:
                return [anchor, card, third]
    return None


async def chain_solo_to_the_end(url):
    (ada,) = await connect(url, "Ada")
    table = (await ada.request({"type": "playSolo", "game": "setChain"}))["table"]
    assert table["game"] == "setChain" and table["chain"] == [], table
    # Twelve cards, or more when the first twelve hold no set (about one deal in thirty).
    assert len(table["board"]) >= 12 and len(table["board"]) % 3 == 0, table
    assert table["settings"]["matchSize"] == 3, table
    matches = 0
    for _ in range(60):
        if table["over"]:
            break
        cards = a_chain_set(table)
        assert cards is not None, f"no chain set in a game that is not over: {table}"
        if table["chain"]:
            chain_ids = [card["id"] for card in table["chain"]]
            board_ids = [card["id"] for card in table["board"]]
            assert cards[0] in chain_ids and cards[0] not in board_ids
            if matches == 1:
                # The rule's refusals: a second chain card, and a third board card.
                other = next(i for i in chain_ids if i != cards[0])
                await ada.request({"type": "choose", "card": cards[0]})
                refused = await ada.request({"type": "choose", "card": other})
                assert refused["type"] == "error" and refused["code"] == "chainRule", refused
                await ada.request({"type": "choose", "card": cards[0]})
                spare = next(i for i in board_ids if i not in cards)
                await ada.request({"type": "choose", "card": cards[1]})
                await ada.request({"type": "choose", "card": cards[2]})
                refused = await ada.request({"type": "choose", "card": spare})
                assert refused["type"] == "error" and refused["code"] == "chainRule", refused
                cards = [cards[0]]  # the two board cards are chosen already
        for card in cards:
            answer = await ada.request({"type": "choose", "card": card})
            assert answer["type"] == "diff", answer
        assert any(e["kind"] == "match" for e in answer["events"]), answer
        chain = next(e for e in answer["events"] if e["kind"] == "chain")
        matches += 1
        table = (await ada.request({"type": "resync"}))["table"]
        assert table["chain"] == chain["cards"], (table["chain"], chain)
        assert sorted(card["id"] for card in table["chain"]) == sorted(
            e for e in next(e for e in answer["events"] if e["kind"] == "match")["cards"])
    assert table["over"] and table["players"][0]["matches"] == matches, table
    assert table["deckCount"] == 0 and a_chain_set(table) is None
    return matches


async def chain_two_by_quick_match(url):
    ada, bob = await connect(url, "Ada", "Bob")
    first = await ada.request({"type": "quickMatch", "game": "setChain", "seats": 2})
    second = await bob.request({"type": "quickMatch", "game": "setChain", "seats": 2})
    assert first["table"]["id"] == second["table"]["id"] and first["table"]["game"] == "setChain"
    await until_playing(ada, bob)
    # Ada takes the first set, Bob the next (a chain set), and Ada one more: each sees the others'.
    for player, other, seat in ((ada, bob, 0), (bob, ada, 1), (ada, bob, 0)):
        table = {"board": player.state.board, "chain": player.state.chain}
        cards = a_chain_set(table)
        assert cards is not None, table
        mark = other.mark()
        for card in cards:
            answer = await player.request({"type": "choose", "card": card})
            assert answer["type"] == "diff", answer
        _, event = await other.event("match", mark, seat=seat)
        assert sorted(event["cards"]) == sorted(cards)
        _, chain = await other.event("chain", mark)
        assert sorted(card["id"] for card in chain["cards"]) == sorted(cards)
        await other.until(lambda: other.state.version == player.state.version, what="the same version")
        assert other.state.chain == player.state.chain == chain["cards"]
    # What both followed is what a fresh snapshot says, chain and all.
    for client in (ada, bob):
        fresh = (await client.request({"type": "resync"}))["table"]
        assert fresh["chain"] == client.state.chain and fresh["board"] == client.state.board


def test_set_chain_is_served_solo_to_its_end_and_for_two(start_server):
    server = start_server(*FAST, "--rate-limit", "1000")
    matches = run(chain_solo_to_the_end, server.ws_url, timeout=60)
    assert matches >= 20
    run(chain_two_by_quick_match, server.ws_url)
