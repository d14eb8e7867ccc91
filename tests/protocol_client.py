"""A small, independent client of protocol v1 (docs/PROTOCOL.md) for end-to-end tests.

It keeps the table state a client would build from a snapshot and diffs, so tests can compare
it with a fresh snapshot from the server.
"""
import asyncio
import itertools
import json
import time

import websockets

SUBPROTOCOL = "matchismo.v1"


def is_set(a, b, c) -> bool:
    for attribute in ("number", "symbol", "shading", "color"):
        values = {a[attribute], b[attribute], c[attribute]}
        if len(values) == 2:
            return False
    return True


def find_sets(board):
    return [list(t) for t in itertools.combinations(board, 3) if is_set(*t)]


def find_non_set(board):
    for t in itertools.combinations(board, 3):
        if not is_set(*t):
            return list(t)
    return None


class TableState:
    """What a client knows about its table, built only from snapshot and diff messages."""

    def __init__(self, table):
        self.version = table["version"]
        self.board = [dict(c) for c in table["board"]]
        self.deck_count = table["deckCount"]
        self.over = table["over"]
        self.phase = table.get("phase")
        self.spectators = table.get("spectators", 0)
        self.host = table.get("host")
        self.vote = list(table.get("vote", {}).get("seats", []))
        self.players = {p["seat"]: {"score": p["score"], "matches": p["matches"],
                                    "selection": list(p["selection"]), "name": p["name"],
                                    "connected": p.get("connected", True)}
                        for p in table["players"]}

    def comparable(self):
        return {"version": self.version, "board": self.board, "deckCount": self.deck_count,
                "over": self.over, "players": self.players, "phase": self.phase,
                "spectators": self.spectators, "host": self.host, "vote": self.vote}

    def apply(self, diff):
        assert diff["version"] == self.version + 1, f"version gap: {self.version} -> {diff['version']}"
        self.version = diff["version"]
        for e in diff["events"]:
            kind = e["kind"]
            if kind == "select":
                self.players[e["seat"]]["selection"].append(e["card"])
            elif kind == "deselect":
                selection = self.players[e["seat"]]["selection"]
                if e["card"] in selection:
                    selection.remove(e["card"])
            elif kind == "match":
                for p in self.players.values():
                    p["selection"] = [c for c in p["selection"] if c not in e["cards"]]
                self.players[e["seat"]]["matches"] += 1
            elif kind == "mismatch":
                pass
            elif kind == "score":
                self.players[e["seat"]]["score"] = e["score"]
            elif kind == "replace":
                self.board[e["slot"]] = dict(e["card"])
            elif kind == "remove":
                self.board = [c for c in self.board if c["id"] not in e["cards"]]
            elif kind == "deal":
                self.board.extend(dict(c) for c in e["cards"])
            elif kind == "deck":
                self.deck_count = e["count"]
            elif kind == "redeal":
                self.board = [dict(c) for c in e["board"]]
                self.deck_count = e["deckCount"]
                self.over = False
                for p in self.players.values():
                    p.update(score=0, matches=0, selection=[])
            elif kind == "over":
                self.over = True
            elif kind == "phase":
                self.phase = e["phase"]
            elif kind == "vote":
                self.vote = list(e["seats"])
            elif kind == "join":
                self.players[e["seat"]] = {"score": 0, "matches": 0, "selection": [],
                                           "name": e["name"], "connected": True}
            elif kind == "leave":
                self.players.pop(e["seat"], None)
            elif kind == "away":
                self.players[e["seat"]]["connected"] = False
            elif kind == "back":
                self.players[e["seat"]]["connected"] = True
            elif kind == "host":
                self.host = e["seat"]
            elif kind == "spectators":
                self.spectators = e["count"]
            else:
                raise AssertionError(f"unknown event kind {kind!r}")


class Pacer:
    """Keeps a client under the server's documented rate limit (a bucket of 40, 20 per second),
    the way a well-behaved bot must: tokens refill at `rate` per second up to `burst`."""

    def __init__(self, burst=30, rate=16.0):
        self.burst, self.rate = burst, rate
        self.tokens, self.last = float(burst), time.monotonic()

    async def wait(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.last = 1.0, time.monotonic()
        self.tokens -= 1


class Client:
    """One WebSocket connection speaking protocol v1."""

    def __init__(self, ws):
        self.ws = ws
        self.next_id = 1
        self.session = None
        self.pacer = Pacer()

    @classmethod
    async def connect(cls, url, **kwargs):
        ws = await websockets.connect(url, subprotocols=[SUBPROTOCOL], max_size=2**22,
                                      open_timeout=10, **kwargs)
        return cls(ws)

    async def send(self, message: dict) -> int:
        message = dict(message)
        message.setdefault("id", self.next_id)
        self.next_id += 1
        await self.pacer.wait()
        await self.ws.send(json.dumps(message))
        return message["id"]

    async def recv(self, timeout=10.0) -> dict:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(raw, str), "server frames are text"
        return json.loads(raw)

    async def expect(self, type_, timeout=10.0) -> dict:
        message = await self.recv(timeout)
        assert message["type"] == type_, f"expected {type_}, got {message}"
        return message

    async def hello(self, name="Tester", resume=None) -> dict:
        message = {"type": "hello", "name": name}
        if resume:
            message["resume"] = resume
        await self.send(message)
        welcome = await self.expect("welcome")
        self.session = welcome["session"]
        return welcome

    async def play_solo(self):
        """Starts a solo Set table; returns (snapshot table, status)."""
        await self.send({"type": "playSolo", "game": "set"})
        snapshot = await self.expect("snapshot")
        status = await self.expect("status")
        return snapshot["table"], status

    async def snapshot(self) -> dict:
        await self.send({"type": "resync"})
        snapshot = await self.expect("snapshot")
        await self.expect("status")
        return snapshot["table"]

    async def close(self):
        await self.ws.close()
