"""The journal end to end, against the real binary on SQLite and on PostgreSQL (a cluster of the
tests' own, see pg_support): a server killed with SIGKILL (at a quiet moment and in the middle of
a burst of moves) or stopped with SIGTERM starts again on the same folder (or database) and port;
the players resume with their session tokens and find their tables as they left them: every move
any client had seen a diff for is there, and play goes on."""
import asyncio
import random
import signal

import pytest

from conftest import RunningServer
from mp_support import connect, converge, run, shutdown
from protocol_client import LiveClient
from table_state import concentration_slot, find_sets

PLAYERS = ("Ada", "Bob", "Cyd", "Dee")


def restart(server, *args):
    """A new server on the same port and data folder or database (the old one must be gone)."""
    return RunningServer(extra_args=[str(a) for a in args], data_dir=server.data_dir, port=server.port,
                         database=server.database)


async def pair_at(game, host, guest):
    created = await host.request({"type": "createTable", "game": game, "seats": 2})
    assert created["type"] == "snapshot", created
    joined = await guest.request({"type": "join", "table": created["table"]["id"]})
    assert joined["type"] == "snapshot", joined
    for c in (host, guest):
        await c.until(lambda c=c: c.state and c.state.phase == "playing" and c.state.board, 10, "play")
    return created["table"]["id"]


async def resume(url, client):
    """The client's session on a new connection, from the version it had; returns it."""
    again, welcome = await LiveClient.open(url, client.label, client.label + "'", resume=client.session,
                                           version=client.state.version)
    assert welcome["resumed"] is True, welcome
    await again.until(lambda: again.state is not None, 10, "the table after the restart")
    return again


def without_version(state):
    return {k: v for k, v in state.items() if k != "version"}


async def random_moves(rng, clients, count):
    for step in range(count):
        client = clients[step % len(clients)]
        open_cards = [c["id"] for c in client.state.board if not c.get("matched")]
        if not open_cards or client.state.over:
            continue
        reply = await client.request({"type": "choose", "card": rng.choice(open_cards)})
        assert reply["type"] in ("diff", "error"), reply


async def finish_set_game(clients):
    """The players of one Set table take turns claiming a set (after letting go of what they had
    chosen) until the game is over; returns the final state."""
    for step in range(200):
        client = clients[step % len(clients)]
        # Each claims from the board as everyone's last move left it.
        latest = max(c.state.version for c in clients)
        await client.until(lambda c=client: c.state.version >= latest, 10, "the others' moves")
        if client.state.over:
            break
        for card in list(client.state.players[client.seat]["selection"]):
            await client.request({"type": "choose", "card": card})
        found = find_sets([c for c in client.state.board])
        if not found:
            await client.until(lambda c=client: c.state.over, 10, "the end of a board without a set")
            break
        for card in found[0]:
            reply = await client.request({"type": "choose", "card": card["id"]})
            assert reply["type"] == "diff", reply
    final = await converge(*clients)
    assert final["over"], final
    return final


async def finish_concentration(clients):
    """The players of one Concentration table play their turns to the end, remembering every
    face they see; returns the final state."""
    by_seat = {c.seat: c for c in clients}
    memory = {}
    for _ in range(300):
        latest = max(c.state.version for c in clients)
        for c in clients:
            await c.until(lambda c=c: c.state.version >= latest, 10, "the others' moves")
        if clients[0].state.over:
            break
        player = by_seat[clients[0].state.turn]
        slot = concentration_slot(player.state, player.seat, memory)
        answer = await player.request({"type": "choose", "card": slot})
        assert answer["type"] == "diff", answer
        for event in answer["events"]:
            if event["kind"] == "flip":
                memory[event["card"]["id"]] = event["card"]["emoji"]
    final = await converge(*clients)
    assert final["over"], final
    return final


async def check_record(client, final, seen_history, game="set"):
    """The table's finished game is kept: its players end with the scores the clients saw, and
    everything any client saw before the crash is the start of its history."""
    page = await client.request({"type": "scores", "game": game, "pageSize": 50})
    names = sorted(p["name"] for p in final["players"].values())
    game = next(g for g in page["games"] if sorted(p["name"] for p in g["players"]) == names)
    record = await client.request({"type": "record", "record": game["id"]})
    assert record["type"] == "record", record
    kept = sorted((p["name"], p["score"]) for p in record["record"]["players"])
    assert kept == sorted((p["name"], p["score"]) for p in final["players"].values()), (kept, final)
    history = [e["entry"] for d in record["replay"]["diffs"] for e in d["events"] if e["kind"] == "history"]
    assert history[:len(seen_history)] == seen_history
    assert history[-len(final["history"]):] == final["history"]


async def crash_when_quiet(servers):
    server = servers[0]
    ada, bob, cyd, dee = await connect(server.ws_url, *PLAYERS)
    await pair_at("set", ada, bob)
    await pair_at("matchismo", cyd, dee)
    rng = random.Random(5)
    await random_moves(rng, [ada, bob], 30)
    await random_moves(rng, [cyd, dee], 30)
    before = [await converge(ada, bob), await converge(cyd, dee)]
    assert before[0]["history"] or before[1]["history"], "no match or mismatch to carry over"

    server.process.kill()
    server.process.wait(timeout=10)
    for c in (ada, bob, cyd, dee):
        await asyncio.wait_for(c.closed.wait(), 10)
    servers.append(restart(server, "--countdown", "0.3"))
    url = servers[-1].ws_url
    again = [await resume(url, c) for c in (ada, bob, cyd, dee)]
    after = [await converge(*again[:2]), await converge(*again[2:])]
    for old, new in zip(before, after):
        assert without_version(new) == without_version(old), f"the table changed:\n{old}\n{new}"
        assert new["version"] > old["version"]
    # And play goes on.
    await random_moves(rng, again[:2], 6)
    await converge(*again[:2])
    for c in again:
        assert not c.problems, f"{c.label}: {c.problems}"
    await shutdown(*again)


def test_a_killed_server_comes_back_with_every_table_as_it_was(journal_database):
    servers = [RunningServer(extra_args=["--countdown", "0.3"], database=journal_database)]
    try:
        run(crash_when_quiet, servers, timeout=90)
    finally:
        for s in servers:
            s.stop()


def in_flight(client, sent):
    """The ids of `sent` that the client had no answer for (a diff or an error replying to it)."""
    answered = {m.get("replyTo") for m in client.log}
    return [i for i in sent if i not in answered]


async def crash_mid_burst(servers, seed):
    """Returns how many tables were compared in full (see below)."""
    server = servers[0]
    clients = await connect(server.ws_url, *PLAYERS)
    await pair_at("set", clients[0], clients[1])
    await pair_at("set", clients[2], clients[3])
    rng = random.Random(seed)
    await random_moves(rng, clients, 20)
    # A burst at both tables: choices sent without waiting for their answers. The second table's
    # are all answered before the kill; the first table's players go on with another burst, and
    # the kill comes at a random moment in it (moves still in flight are lost; anything a client
    # was shown must survive).
    sent = [[] for _ in clients]

    async def choose(i):
        cards = [card["id"] for card in clients[i].state.board]
        if cards:
            sent[i].append(await clients[i].send({"type": "choose", "card": rng.choice(cards)}))

    # (At most 30 choices per player in all: the client's pacer sends 30 at once, then waits.)
    for step in range(rng.randrange(20, 60)):
        await choose(step % 4)
        if step % 10 == 0:
            await asyncio.sleep(0)
    for i in (2, 3):
        for message_id in sent[i]:
            await clients[i].reply(message_id)
    await asyncio.gather(*(choose(step % 2) for step in range(rng.randrange(4, 30))))
    await asyncio.sleep(rng.random() * 0.001)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)
    for c in clients:
        await asyncio.wait_for(c.closed.wait(), 10)
    seen = [c.state.comparable() for c in clients]
    unanswered = [in_flight(c, ids) for c, ids in zip(clients, sent)]

    servers.append(restart(server, "--countdown", "0.3"))
    again = [await resume(servers[-1].ws_url, c) for c in clients]
    after = [await converge(*again[:2]), await converge(*again[2:])]
    full = 0
    for t, table in enumerate(after):
        pair = range(2 * t, 2 * t + 2)
        for i in pair:
            # Whatever a client was shown happened: its history is the start of the table's,
            # and the table is at least as far as the client had seen.
            assert table["history"][:len(seen[i]["history"])] == seen[i]["history"], (
                f"{clients[i].label} saw a history the restarted table does not have:\n"
                f"{seen[i]['history']}\n{table['history']}")
            assert table["version"] > seen[i]["version"]
        # When every move sent at this table had been answered, nothing was written that no
        # one saw: the table is exactly what its furthest player was shown (selections, scores,
        # board, deck, history, seats), only its version moved on. (With a move in flight, the
        # journal may hold it without anyone having seen it: only the check above holds then.)
        if not any(unanswered[i] for i in pair):
            furthest = max((seen[i] for i in pair), key=lambda s: s["version"])
            assert without_version(table) == without_version(furthest), (
                f"the table after the restart is not what its players were shown:\n"
                f"shown: {furthest}\nafter: {table}")
            full += 1
    # Both games are played to their end; each is kept whole, with what its players saw.
    for pair, seen_by in ((again[:2], seen[0]), (again[2:], seen[2])):
        final = await finish_set_game(pair)
        await check_record(pair[0], final, seen_by["history"])
    await shutdown(*again)
    return full


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_server_killed_mid_burst_keeps_every_move_anyone_saw(seed, journal_database):
    servers = [RunningServer(extra_args=["--countdown", "0.3"], database=journal_database)]
    try:
        full = run(crash_mid_burst, servers, seed, timeout=90)
        # The second table's moves were all answered before the kill: it is always compared in
        # full; the first one too when no move of its burst was in flight.
        assert full >= 1
    finally:
        for s in servers:
            s.stop()


async def graceful_restart(servers):
    server = servers[0]
    ada, bob = await connect(server.ws_url, *PLAYERS[:2])
    await pair_at("concentration", ada, bob)
    rng = random.Random(11)
    for _ in range(12):
        turn = ada if ada.state.turn == ada.seat else bob
        cards = [c["id"] for c in turn.state.board if not c.get("matched") and not c.get("faceUp")]
        if cards:
            await turn.request({"type": "choose", "card": rng.choice(cards)})
    before = await converge(ada, bob)
    assert server.signal(signal.SIGTERM) == 0
    for c in (ada, bob):
        await asyncio.wait_for(c.closed.wait(), 10)
        assert c.close_code == 1001, c.close_code
        assert c.ws.close_reason == "server restarting; your game is kept", c.ws.close_reason
    servers.append(restart(server, "--countdown", "0.3"))
    again = [await resume(servers[-1].ws_url, c) for c in (ada, bob)]
    after = await converge(*again)
    # The turn clock starts again after a restart; the rest is as it was.
    drop = ("version", "turnSeconds")
    assert {k: v for k, v in after.items() if k not in drop} == {k: v for k, v in before.items() if k not in drop}
    # And the game is played to its end and kept whole.
    final = await finish_concentration(again)
    await check_record(again[0], final, before["history"], "concentration")
    await shutdown(*again)


def test_sigterm_writes_everything_and_the_next_start_resumes_the_tables(journal_database):
    servers = [RunningServer(extra_args=["--countdown", "0.3"], database=journal_database)]
    try:
        run(graceful_restart, servers, timeout=90)
    finally:
        for s in servers:
            s.stop()

