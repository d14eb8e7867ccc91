"""A small, independent client of protocol v2 (docs/PROTOCOL.md) for end-to-end tests: `Client`
reads one message after another; `LiveClient` reads on its own, keeps every message and the
table and lobby states built from them (`table_state`), and answers waits on them.
"""
import asyncio
import json
import time

import websockets

from table_state import LobbyState, MultiTableState


SUBPROTOCOL = "matchismo.v2"


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
        """Starts a solo Set table; returns (snapshot table, its status runs)."""
        await self.send({"type": "playSolo", "game": "set"})
        snapshot = await self.expect("snapshot")
        return snapshot["table"], snapshot["table"]["status"]

    async def snapshot(self) -> dict:
        await self.send({"type": "resync"})
        snapshot = await self.expect("snapshot")
        return snapshot["table"]

    async def close(self):
        await self.ws.close()


class LiveClient(Client):
    """A client with a background reader: every message is kept in `log` (in arrival order),
    table snapshots and diffs are applied to `state` (a MultiTableState) and lobby messages to
    `lobby`, as they arrive. Anything that breaks the protocol's rules (a version gap, a diff for
    another table, an event that cannot apply) is recorded in `problems`; tests assert it stays
    empty. Message ids are strings unique to this client, so `replyTo` is never ambiguous."""

    # Every LiveClient made, so that a test runner can close them all, also after a failure.
    instances = []

    def __init__(self, ws, label="c"):
        super().__init__(ws)
        LiveClient.instances.append(self)
        self.label = label
        self.log = []
        self.problems = []
        self.state = None
        self.lobby = None
        self.seat = None
        self.close_code = None
        self.closed = asyncio.Event()
        # Callables given every message (before it is applied); an AssertionError they raise is
        # recorded in `problems`, like a broken protocol rule.
        self.inspectors = []
        self._arrived = asyncio.Condition()
        self._reader = None

    @classmethod
    async def open(cls, url, name, label, resume=None, version=None, read=True, games=None):
        """Connects, says hello (with `resume`, `version` and `games` when given) and starts
        reading (unless `read` is false). Returns (client, welcome)."""
        ws = await websockets.connect(url, subprotocols=[SUBPROTOCOL], max_size=2**22, open_timeout=10)
        client = cls(ws, label)
        message = {"type": "hello", "name": name}
        if resume is not None:
            message["resume"] = resume
        if version is not None:
            message["version"] = version
        if games is not None:
            message["games"] = games
        await client.send(message)
        welcome = await client.expect("welcome")
        client.session = welcome["session"]
        if read:
            client.start_reading()
        return client, welcome

    async def send(self, message: dict):
        message = dict(message)
        message.setdefault("id", f"{self.label}-{self.next_id}")
        return await super().send(message)

    def start_reading(self):
        assert self._reader is None
        self._reader = asyncio.create_task(self._read())

    async def _read(self):
        try:
            while True:
                raw = await self.ws.recv()
                if not isinstance(raw, str):
                    self.problems.append("a binary frame from the server")
                    continue
                message = json.loads(raw)
                self._take(message)
                async with self._arrived:
                    self._arrived.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            async with self._arrived:
                self._arrived.notify_all()

    def _take(self, m):
        m["_at"] = time.monotonic()
        self.log.append(m)
        for inspect in self.inspectors:
            try:
                inspect(m)
            except AssertionError as error:
                self.problems.append(f"{getattr(inspect, '__name__', type(inspect).__name__)}: {error}")
        kind = m.get("type")
        try:
            if kind == "snapshot":
                m["_before"] = self.state.comparable() if self.state else None
                self.state = MultiTableState(m["table"])
                self.seat = self.state.you
            elif kind == "diff":
                if self.state is None:
                    self.problems.append(f"diff without a table: {m}")
                    return
                m["_selections_before"] = {s: list(p["selection"]) for s, p in self.state.players.items()}
                self.state.apply(m)
            elif kind == "spectators":
                # The crowd's count: apart from the diffs, at most once a second (no version).
                if self.state is not None and m.get("table") == self.state.id:
                    self.state.spectators = m["count"]
            elif kind == "left":
                self.state = None
                self.seat = None
            elif kind == "lobbySnapshot":
                self.lobby = LobbyState(m)
            elif kind == "lobbyDiff":
                if self.lobby is None:
                    self.problems.append(f"lobbyDiff before lobbySnapshot: {m}")
                    return
                self.lobby.apply(m)
        except (AssertionError, KeyError, IndexError, TypeError) as error:
            self.problems.append(f"{type(error).__name__}: {error} in {m}")

    def mark(self) -> int:
        """A position in `log`: pass it as `since` to look only at later messages."""
        return len(self.log)

    async def until(self, condition, timeout=10.0, what="condition"):
        """Waits until `condition()` is true (checked after every message); returns its value."""
        deadline = time.monotonic() + timeout
        async with self._arrived:
            while True:
                value = condition()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or self.closed.is_set():
                    tail = [{k: v for k, v in m.items() if not k.startswith("_")} for m in self.log[-6:]]
                    raise AssertionError(
                        f"{self.label}: {what} not reached within {timeout}s "
                        f"(closed={self.closed.is_set()} code={self.close_code}); last messages: {tail}")
                try:
                    await asyncio.wait_for(self._arrived.wait(), left)
                except asyncio.TimeoutError:
                    pass

    def find(self, predicate, since=0):
        for m in self.log[since:]:
            if predicate(m):
                return m
        return None

    async def wait_for(self, predicate, since=0, timeout=10.0, what="message"):
        """The first message at or after `since` for which `predicate(message)` holds."""
        return await self.until(lambda: self.find(predicate, since), timeout, what)

    async def reply(self, message_id, timeout=10.0):
        """The answer to one of my messages: an error, a snapshot, a welcome, `left`, a
        `lobbySnapshot`, or the diff my accepted move caused."""
        return await self.wait_for(lambda m: m.get("replyTo") == message_id, 0, timeout,
                                   f"reply to {message_id}")

    async def request(self, message, timeout=10.0):
        """Sends `message` and returns its answer (see `reply`)."""
        return await self.reply(await self.send(message), timeout)

    async def event(self, kind, since=0, timeout=10.0, **fields):
        """The first diff event of `kind` (with the given field values) at or after `since`;
        returns (diff, event)."""
        def match(m):
            if m.get("type") != "diff":
                return None
            for e in m["events"]:
                if e["kind"] == kind and all(e.get(k) == v for k, v in fields.items()):
                    return m, e
            return None

        found = await self.until(lambda: next((r for r in map(match, self.log[since:]) if r), None),
                                 timeout, f"event {kind} {fields}")
        return found

    def events(self, since=0):
        """Every diff event at or after `since`, as (diff, event) pairs, in order."""
        return [(m, e) for m in self.log[since:] if m.get("type") == "diff" for e in m["events"]]

    async def fresh(self, timeout=10.0):
        """Asks for a snapshot; returns (state built before it, the snapshot's state). The reader
        applied every diff sent before the snapshot, so the two must be equal."""
        snapshot = await self.request({"type": "resync"}, timeout)
        assert snapshot["type"] == "snapshot", f"{self.label}: resync answered {snapshot}"
        return snapshot["_before"], MultiTableState(snapshot["table"]).comparable()

    async def drop(self):
        """Closes the socket (like a closed tab) and waits for the reader to finish."""
        await self.ws.close()
        await asyncio.wait_for(self.closed.wait(), 10)

    async def shutdown(self):
        if self._reader is not None:
            await self.ws.close()
            try:
                await asyncio.wait_for(self.closed.wait(), 5)
            except asyncio.TimeoutError:
                self._reader.cancel()
        else:
            await self.ws.close()
