"""What a client may see at a face-down table (Matchismo, Concentration), for the end-to-end tests
against the real binary: a `FaceLedger` inspects every frame a client receives, before it is
applied, and fails the test when a frame shows the face of a card that was not turned up; the
cards' faces, labels and the course's Matchismo score, read from the wire alone."""
import itertools

from mp_support import connect


RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king"]


RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


SUIT_NAMES = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}


def face_of(entry):
    """The face a board entry or flipped card shows: (rank, suit) or emoji."""
    if "emoji" in entry:
        return entry["emoji"]
    return (entry["rank"], entry["suit"])


def matchismo_score(faces):
    """The course's match score of playing cards: over every pair, 1 for a suit, 4 for a rank."""
    score = 0
    for (r1, s1), (r2, s2) in itertools.combinations(faces, 2):
        score += (s1 == s2) + 4 * (r1 == r2)
    return score


def playing_card_label(face):
    rank, suit = face
    return f"{RANK_NAMES[rank - 1]} of {SUIT_NAMES[suit]}"


def set_card_label(card):
    count = ["one", "two", "three"][card["number"] - 1]
    shape = card["symbol"] + ("s" if card["number"] > 1 else "")
    return f"{count} {card['shading']} {card['color']} {shape}"


class FaceLedger:
    """Watches every frame a client receives at a face-down table. A face (rank/suit or emoji)
    may appear only for a slot that a `flip` turned up before or in that frame, and it must be
    the face that slot showed then; a status-line card run must name such a slot, with its face
    as text and its spoken name as label. A re-deal starts a new ledger."""

    def __init__(self):
        self.faces = {}       # slot -> face, for every slot turned up this deal
        self.emoji_labels = {}  # emoji -> spoken name (one name per emoji)
        self.frames = 0
        self.faces_seen = 0

    def __call__(self, m):
        self.frames += 1
        kind = m.get("type")
        if kind == "snapshot":
            table = m["table"]
            for entry in table["board"]:
                self._check_entry(entry, table)
            self._check_status(table.get("status") or [])
            self._walk(table, "snapshot")
        elif kind == "diff":
            for e in m["events"]:
                if e["kind"] == "redeal":
                    self.faces = {}
                    for entry in e["board"]:
                        assert set(entry) == {"id", "faceUp"} and entry["faceUp"] is False, \
                            f"a re-dealt face-down board shows something: {entry}"
                elif e["kind"] == "flip":
                    card = e["card"]
                    face = face_of(card)
                    slot = card["id"]
                    if slot in self.faces:
                        assert self.faces[slot] == face, \
                            f"slot {slot} showed {self.faces[slot]} and now {face}"
                    self.faces[slot] = face
                self._walk(e, f"event {e['kind']}")
            self._check_status(m.get("status") or [])
        else:
            self._walk(m, kind)

    __name__ = "FaceLedger"

    def _check_entry(self, entry, table):
        slot = entry["id"]
        if entry["faceUp"]:
            assert slot in self.faces, f"snapshot shows slot {slot} face up, never flipped: {entry}"
        else:
            assert set(entry) == {"id", "faceUp"}, f"a face-down entry carries more: {entry}"

    def _walk(self, value, where):
        if isinstance(value, dict):
            # A card face: rank/suit or emoji (a standing's `rank` is a place, with a `seat`).
            if "suit" in value or "emoji" in value or ("rank" in value and "seat" not in value):
                slot = value.get("id")
                assert slot in self.faces, f"{where}: the face of never-flipped slot {slot}: {value}"
                assert face_of(value) == self.faces[slot], f"{where}: slot {slot} face changed: {value}"
                self.faces_seen += 1
            for k, v in value.items():
                if not k.startswith("_"):
                    self._walk(v, where)
        elif isinstance(value, list):
            for v in value:
                self._walk(v, where)

    def _check_status(self, runs):
        for run_ in runs:
            if "card" not in run_:
                continue
            slot = run_["card"]
            assert slot in self.faces, f"a status line names never-flipped slot {slot}: {run_}"
            face = self.faces[slot]
            label = run_.get("label")
            assert label, f"a card run without a spoken label: {run_}"
            if isinstance(face, tuple):
                assert label == playing_card_label(face), (run_, face)
                assert run_["text"] == RANK_TEXT[face[0] - 1] + face[1], (run_, face)
            else:
                assert run_["text"] == face, (run_, face)
                assert self.emoji_labels.setdefault(face, label) == label, (run_, self.emoji_labels)


async def open_watched(url, name):
    """A LiveClient with a FaceLedger inspecting every frame it receives."""
    (client,) = await connect(url, name)
    ledger = FaceLedger()
    client.inspectors.append(ledger)
    return client, ledger


async def check_fresh(*clients):
    for c in clients:
        built, fresh = await c.fresh()
        assert built == fresh, f"{c.label}: state from diffs differs from a fresh snapshot:\n{built}\n{fresh}"
        assert not c.problems, f"{c.label}: {c.problems}"
