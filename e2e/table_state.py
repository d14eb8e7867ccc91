"""What a client of protocol v2 (docs/PROTOCOL.md) knows, for end-to-end tests: the table state
it builds from a snapshot and diffs (so tests can compare it with a fresh snapshot from the
server), the lobby list it builds from `lobbySnapshot` and `lobbyDiff`, and which Set cards
form a set.
"""
import itertools


def is_set(a, b, c) -> bool:
    for attribute in ("number", "symbol", "shading", "color"):
        values = {a[attribute], b[attribute], c[attribute]}
        if len(values) == 2:
            return False
    return True


def find_sets(board):
    return [list(t) for t in itertools.combinations(board, 3) if is_set(*t)]


def third_id(a, b):
    """The id of the card that makes a set with Set cards `a` and `b` (ids are four base-3
    digits: each digit of the third is the one that makes the three sum to 0 mod 3)."""
    result, scale = 0, 1
    for _ in range(4):
        result += ((-(a % 3) - (b % 3)) % 3) * scale
        a, b, scale = a // 3, b // 3, scale * 3
    return result


def ultra_sets(board):
    """Every UltraSet of `board`, as lists of ids: two pairs that need the same third card."""
    ids = [card["id"] for card in board]
    return [[a, b, c, d] for (a, b), (c, d) in itertools.combinations(itertools.combinations(ids, 2), 2)
            if len({a, b, c, d}) == 4 and third_id(a, b) == third_id(c, d)]


def find_non_set(board):
    for t in itertools.combinations(board, 3):
        if not is_set(*t):
            return list(t)
    return None


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
        self.computer_offer = table.get("computerOffer") is True
        for p in table["players"]:
            self.players[p["seat"]].update(name=p["name"], connected=p.get("connected", True))
            if "bot" in p:  # a computer player
                self.players[p["seat"]]["bot"] = p["bot"]
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
        left of a countdown or an away seat (a snapshot says how many are left *now*), and not
        the spectators' count, which is no part of the versioned table (it comes apart from the
        diffs, at most once a second)."""
        players = {seat: {k: v for k, v in p.items() if k != "away"} for seat, p in self.players.items()}
        return {"id": self.id, "version": self.version, "board": self.board, "chain": self.chain,
                "deckCount": self.deck_count, "over": self.over, "players": players,
                "phase": self.phase, "code": self.code, "private": self.private,
                "seats": self.seats, "host": self.host,
                "vote": self.vote, "matched": self.matched, "turn": self.turn,
                "turnSeconds": self.turn_seconds, "history": self.history,
                "computerOffer": self.computer_offer}

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
            if "bot" in e:  # a computer player
                players[e["seat"]]["bot"] = e["bot"]
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
        elif kind == "phase":
            self.phase = e["phase"]
            self.countdown = e.get("countdown")
        elif kind == "vote":
            self.vote = self._vote(e)
        elif kind == "computerOffer":
            assert isinstance(e["open"], bool), e
            self.computer_offer = e["open"]
        elif kind == "lookBack":
            assert self.phase == "finished" and isinstance(e["lookBack"]["found"], list), e
        else:
            raise AssertionError(f"unknown event kind {kind!r}")


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


def concentration_slot(state, seat, memory):
    """The slot a player who remembers every face in `memory` (slot -> emoji) turns next at a
    Concentration table: the partner of the card they hold, else a remembered pair, else a card
    they have not seen."""
    open_slots = [e["id"] for e in state.board if not e.get("matched")]
    chosen = list(state.players[seat]["selection"])
    unknown = [s for s in open_slots if s not in memory and s not in chosen]
    if chosen:
        partner = [s for s in open_slots if s not in chosen and s in memory
                   and memory[s] == memory.get(chosen[0])]
        return (partner or unknown or [s for s in open_slots if s not in chosen])[0]
    pairs = [(a, b) for a in open_slots for b in open_slots
             if a < b and a in memory and memory.get(a) == memory.get(b)]
    return pairs[0][0] if pairs else (unknown or open_slots)[0]
