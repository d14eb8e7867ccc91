"""Bad input gets a typed error or a documented close code, and nobody else is disturbed."""
import asyncio
import json

import websockets

from protocol_client import SUBPROTOCOL, Client
from table_state import TableState, find_sets


class Victim:
    """A player who keeps playing while someone else misbehaves."""

    def __init__(self, client, state):
        self.client, self.state = client, state

    @classmethod
    async def start(cls, url):
        client = await Client.connect(url)
        await client.hello("Victim")
        table, _ = await client.play_solo()
        return cls(client, TableState(table))

    async def move(self):
        card = find_sets(self.state.board)[0][0]["id"]
        selection = self.state.players[0]["selection"]
        if selection:
            card = selection[0]  # un-choose: a cheap move that always works
        await self.client.send({"type": "choose", "card": card})
        diff = await self.client.expect("diff", timeout=5)
        self.state.apply(diff)
        assert diff["status"], "protocol v2: a move's diff carries its status line"


async def close_code(ws, timeout=10):
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_bad_messages_get_typed_errors_and_change_nothing(server):
    async def run():
        victim = await Victim.start(server.ws_url)
        bad = await Client.connect(server.ws_url)

        async def error_for(raw):
            await bad.ws.send(raw)
            message = await bad.expect("error")
            await victim.move()
            return message

        assert (await error_for('{"type":"choose","card":1,"id":1}'))["code"] == "helloRequired"
        await bad.hello("Mallory")
        cases = [
            ("not json at all", "badJSON", None),
            ("[1,2,3]", "badJSON", None),
            ('{"id":5}', "unknownType", 5),
            ('{"type":"fly","id":"x"}', "unknownType", "x"),
            ('{"type":"choose","card":"12","id":6}', "badField", 6),
            ('{"type":"choose","card":1.5,"id":7}', "badField", 7),
            ('{"type":"choose","id":8}', "badField", 8),
            ('{"type":"hello","name":42,"id":9}', "badField", 9),
            ('{"type":"choose","card":3,"id":{"a":1}}', "badField", None),
            ('{"type":"choose","card":3,"id":10}', "notAtTable", 10),
            ('{"type":"playSolo","game":"chess","id":11}', "unknownGame", 11),
            ('{"type":"hello","id":12}', "alreadyHello", 12),
        ]
        for raw, code, reply_to in cases:
            message = await error_for(raw)
            assert message["code"] == code, (raw, message)
            assert message.get("replyTo") == reply_to, (raw, message)
            assert message["message"]

        table, _ = await bad.play_solo()
        before = TableState(table).comparable()
        on_board = {c["id"] for c in table["board"]}
        off_board = next(i for i in range(81) if i not in on_board)
        for raw, code in [
            ('{"type":"choose","card":81,"id":1}', "unknownCard"),
            ('{"type":"choose","card":-1,"id":2}', "unknownCard"),
            (json.dumps({"type": "choose", "card": off_board, "id": 3}), "cardNotOnTable"),
        ]:
            assert (await error_for(raw))["code"] == code
        assert TableState(await bad.snapshot()).comparable() == before
        await bad.close()
        await victim.client.close()

    asyncio.run(asyncio.wait_for(run(), 60))


def test_limits_close_with_documented_codes_while_others_play_on(server):
    async def run():
        victim = await Victim.start(server.ws_url)

        async def offender():
            ws = await websockets.connect(server.ws_url, subprotocols=[SUBPROTOCOL], max_size=None)
            await ws.send('{"type":"hello","name":"Mallory"}')
            await ws.recv()
            return ws

        # A message over the limit: 1009.
        ws = await offender()
        await ws.send('{"type":"hello","name":"' + "x" * 9000 + '"}')
        assert await close_code(ws) == 1009
        await victim.move()

        # A binary frame: 1003.
        ws = await offender()
        await ws.send(b"\x00\x01binary")
        assert await close_code(ws) == 1003
        await victim.move()

        # A flood: 1008, while the victim keeps getting answers.
        ws = await offender()
        flood = asyncio.ensure_future(send_flood(ws, 1000))
        for _ in range(5):
            await victim.move()
        assert await close_code(ws) == 1008
        flood.cancel()
        await victim.move()
        assert victim.state.comparable() == TableState(await victim.client.snapshot()).comparable()
        await victim.client.close()

    asyncio.run(asyncio.wait_for(run(), 60))


async def send_flood(ws, count):
    try:
        for i in range(count):
            await ws.send(json.dumps({"type": "resync", "id": i}))
    except websockets.ConnectionClosed:
        pass
