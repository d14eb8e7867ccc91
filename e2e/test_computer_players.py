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
