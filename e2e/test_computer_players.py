"""Games against the computer over the wire (issue 33, begun): `playBot` opens a private table
where computer players of one level sit first and the player last; the computers' sets arrive
as diffs like anyone's, in order, and the state they build is a fresh snapshot's. Real binary,
real WebSocket client (the `websockets` package)."""
from mp_support import FAST, run, start_server  # noqa: F401  (a fixture)
from protocol_client import LiveClient


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
        # What computers do not play yet is refused with its reason, and nothing changes.
        refused = await ada.request({"type": "playBot", "game": "concentration", "level": "good"})
        assert refused["type"] == "error" and refused["code"] == "noBots", refused
        await ada.close()

    run(body, timeout=60)
