"""A small, independent client of protocol v1 (docs/PROTOCOL.md) for end-to-end tests.

It keeps the table state a client would build from a snapshot and diffs, so tests can compare
it with a fresh snapshot from the server.
"""
import asyncio
import itertools
import json
import time

import websockets

SUBPROTOCOL = "matchismo.v2"


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
    """A table as a multiplayer client or a spectator knows it: the solo fields plus phase, code,
    seats, host, spectators, vote and each seat's name and connection, built from a snapshot and
    the diffs (old and new event kinds). `you` is None for a spectator.

    Face-down games (Matchismo, Concentration) name cards by board slot: a board entry is
    `{"id": slot, "faceUp": false}` until a `flip` turns it up (with its face), a `hide` turns it
    down again, and a `match` marks its entries `matched` (and lists their slots in `matched`).
    Such games also count each seat's `flips`; turn-based ones (Concentration) say whose `turn`
    it is and how long a turn may last (`turnSeconds`). At a table with hidden selections
    (`settings.showSelections` false) a player counts only their own flips, and a `flip` without a
    seat (a card an opponent matched) is nobody's."""

    def __init__(self, table):
        self.version = table["version"]
        self.status = table.get("status", [])
        self.board = [dict(c) for c in table["board"]]
        # Set-Chain's chain (the previous set, beside the board); None in other games.
        self.chain = [dict(c) for c in table["chain"]] if "chain" in table else None
        self.deck_count = table["deckCount"]
        self.over = table["over"]
        self.players = {p["seat"]: {"score": p["score"], "matches": p["matches"],
                                    "selection": list(p["selection"])} for p in table["players"]}
        self.id = table["id"]
        self.you = table.get("you")
        self.settings = dict(table.get("settings") or {})
        self.phase = table.get("phase")
        self.code = table.get("code")
        self.private = table.get("private")
        self.seats = table.get("seats")
        self.host = table.get("host")
        self.spectators = table.get("spectators")
        self.countdown = table.get("countdown")
        self.vote = self._vote(table.get("vote"))
        self.standings = table.get("standings")
        self.game = table.get("game")
        self.face_down = bool(self.settings.get("faceDown"))
        self.turn_based = bool(self.settings.get("turnBased"))
        self.selections_hidden = self.settings.get("showSelections") is False
        self.matched = sorted(table.get("matched") or [])
        self.turn = table.get("turn")
        self.turn_seconds = table.get("turnSeconds")
        self.history = list(table.get("history") or [])
        for p in table["players"]:
            self.players[p["seat"]].update(name=p["name"], connected=p.get("connected", True))
            self.players[p["seat"]]["away"] = p.get("away")
            if "flips" in p:  # face-down games only
                self.players[p["seat"]]["flips"] = p["flips"]

    def counts_flips(self, seat):
        """Whether this client counts `seat`'s flips (the snapshot it would get shows them): a
        spectator sees every seat's, even with hidden selections."""
        return self.face_down and (not self.selections_hidden or self.you is None or seat == self.you)

    @staticmethod
    def _vote(vote):
        if not vote or not vote.get("seats"):
            return None
        return {"seats": sorted(vote["seats"]), "needed": vote["needed"]}

    def comparable(self):
        """Everything every client at the table must agree on; not `you`, and not the seconds
        left of a countdown or an away seat (a snapshot says how many are left *now*)."""
        players = {seat: {k: v for k, v in p.items() if k != "away"} for seat, p in self.players.items()}
        return {"id": self.id, "version": self.version, "board": self.board, "chain": self.chain,
                "deckCount": self.deck_count, "over": self.over, "players": players,
                "phase": self.phase, "code": self.code, "private": self.private,
                "seats": self.seats, "host": self.host, "spectators": self.spectators,
                "vote": self.vote, "matched": self.matched, "turn": self.turn,
                "turnSeconds": self.turn_seconds, "history": self.history}

    def apply(self, diff):
        assert diff["version"] == self.version + 1, f"version gap: {self.version} -> {diff['version']}"
        if "table" in diff:
            assert diff["table"] == self.id, f"a diff of table {diff['table']} reached table {self.id}"
        for e in diff["events"]:
            self.apply_event(e)
        self.version = diff["version"]
        if "status" in diff:  # protocol v2: the status line travels in the diff
            self.status = diff["status"]

    def apply_event(self, e):
        kind = e["kind"]
        players = self.players
        if kind == "select":
            players[e["seat"]]["selection"].append(e["card"])
        elif kind == "deselect":
            selection = players[e["seat"]]["selection"]
            if e["card"] in selection:
                selection.remove(e["card"])
        elif kind == "match":
            for p in players.values():
                p["selection"] = [c for c in p["selection"] if c not in e["cards"]]
            players[e["seat"]]["matches"] += 1
            if self.face_down:  # matched cards stay where they are, face up, out of play
                for slot in e["cards"]:
                    self.board[slot]["matched"] = True
                self.matched = sorted(set(self.matched) | set(e["cards"]))
        elif kind == "flip":
            card = e["card"]
            assert card.get("faceUp") is True, f"a flip shows a card face down: {e}"
            self.board[card["id"]] = dict(card)
            if "seat" in e and self.counts_flips(e["seat"]):
                players[e["seat"]]["flips"] += 1
        elif kind == "hide":
            for slot in e["cards"]:
                self.board[slot] = {"id": slot, "faceUp": False}
        elif kind == "turn":
            self.turn = e["seat"]
        elif kind == "mismatch":
            pass
        elif kind == "score":
            players[e["seat"]]["score"] = e["score"]
        elif kind == "replace":
            self.board[e["slot"]] = dict(e["card"])
        elif kind == "remove":
            self.board = [c for c in self.board if c["id"] not in e["cards"]]
        elif kind == "deal":
            self.board.extend(dict(c) for c in e["cards"])
        elif kind == "deck":
            self.deck_count = e["count"]
        elif kind == "chain":
            assert self.chain is not None, "a chain event in a game without a chain"
            self.chain = [dict(c) for c in e["cards"]]
        elif kind == "redeal":
            self.board = [dict(c) for c in e["board"]]
            if self.chain is not None:
                self.chain = []
            self.deck_count = e["deckCount"]
            self.over = False
            self.standings = None
            self.vote = None  # a re-deal settles any open vote
            self.matched = []
            self.history = []  # a new game, a new history
            for seat, p in players.items():
                p.update(score=0, matches=0, selection=[])
                if self.counts_flips(seat):
                    p["flips"] = 0
        elif kind == "history":
            self.history.append(e["entry"])
            self.history = self.history[-200:]  # the snapshot keeps the last 200
        elif kind == "over":
            self.over = True
            self.standings = e["standings"]
        elif kind == "join":
            assert e["seat"] not in players, f"join into occupied seat {e['seat']}"
            players[e["seat"]] = {"score": 0, "matches": 0, "selection": [], "name": e["name"],
                                  "connected": True, "away": None}
            if self.counts_flips(e["seat"]):
                players[e["seat"]]["flips"] = 0
        elif kind == "leave":
            assert e["seat"] in players, f"leave of empty seat {e['seat']}"
            del players[e["seat"]]
        elif kind == "away":
            players[e["seat"]].update(connected=False, away=e["seconds"])
        elif kind == "back":
            players[e["seat"]].update(connected=True, away=None)
        elif kind == "host":
            self.host = e.get("seat")
        elif kind == "spectators":
            self.spectators = e["count"]
        elif kind == "phase":
            self.phase = e["phase"]
            self.countdown = e.get("countdown")
        elif kind == "vote":
            self.vote = self._vote(e)
        elif kind == "lookBack":
            assert self.phase == "finished" and isinstance(e["lookBack"]["found"], list), e
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


# ---------------------------------------------------------------------------------------------
# Lobby and multiplayer tables (docs/PROTOCOL.md, "Lobby and multiplayer tables").
# Additions only: the classes above keep their behaviour.

def set_from_ids(a, b, c) -> bool:
    """Whether three Set card ids form a set, from the ids alone: an id is four base-3 digits
    (number-1, symbol, shading, color), and three cards form a set when every digit sums to 0 mod 3."""
    for _ in range(4):
        if (a % 3 + b % 3 + c % 3) % 3:
            return False
        a, b, c = a // 3, b // 3, c // 3
    return True


MultiTableState = TableState  # the name the multiplayer tests use


class LobbyState:
    """The lobby list as a lobby client builds it from `lobbySnapshot` and `lobbyDiff`."""

    def __init__(self, snapshot):
        self.version = snapshot["version"]
        self.tables = {t["id"]: dict(t) for t in snapshot["tables"]}

    def apply(self, diff):
        assert diff["version"] == self.version + 1, f"lobby version gap: {self.version} -> {diff['version']}"
        self.version = diff["version"]
        for change in diff["changes"]:
            if change["op"] == "upsert":
                self.tables[change["table"]["id"]] = dict(change["table"])
            elif change["op"] == "remove":
                assert change["id"] in self.tables, f"lobby remove of unlisted {change['id']}"
                del self.tables[change["id"]]
            else:
                raise AssertionError(f"unknown lobby op {change['op']!r}")


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
    async def open(cls, url, name, label, resume=None, version=None, read=True):
        """Connects, says hello (with `resume` and `version` when given) and starts reading
        (unless `read` is false). Returns (client, welcome)."""
        ws = await websockets.connect(url, subprotocols=[SUBPROTOCOL], max_size=2**22, open_timeout=10)
        client = cls(ws, label)
        message = {"type": "hello", "name": name}
        if resume is not None:
            message["resume"] = resume
        if version is not None:
            message["version"] = version
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
