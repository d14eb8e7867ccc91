"""Hidden selections end to end, against the real binary over real WebSockets: at a table created
with `showSelections: false` each player sees only their own choices until a claim is judged,
and a spectator sees everything."""
from face_ledger import check_fresh
from mp_support import connect, run, shutdown, start_server  # noqa: F401 (fixture)


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
    assert bob.state.status == [{"text": "Ada", "seat": 0}, {"text": " chose a card."}], bob.state.status
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
