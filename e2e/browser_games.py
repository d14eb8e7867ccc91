"""What the browser tests share: a headless Chromium page at the real server, driven like a
player (the lobby's forms, a table's cards, the status line and the standings it shows), and
barriers on the page's own connection."""
import itertools
import re

from selenium.common.exceptions import NoSuchElementException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from table_state import set_from_ids


CARDS = "#board .card"


CODE = re.compile(r"^[A-Z2-9]{10}$")


RANKS = {"ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
         "eight": "8", "nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K"}


SUITS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}


def severe_errors(driver):
    return [e for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and e.get("source") != "network"]


def open_lobby(driver, url, name, game, settings=None):
    driver.get(url)
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, f'button[data-game="{game}"]').click()
    for field, value in (settings or {}).items():
        Select(driver.find_element(By.ID, f"opt-{field}")).select_by_value(str(value))


def play_solo(driver, url, game, settings=None, cards=8):
    open_lobby(driver, url, "Kim", game, settings)
    driver.find_element(By.ID, "play-solo").click()
    WebDriverWait(driver, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) >= cards)


def card(driver, slot):
    return driver.find_element(By.CSS_SELECTOR, f'{CARDS}[data-card-id="{slot}"]')


# The page is read by one script where a find and a read would be two WebDriver commands: each
# command costs the browser and chromedriver some 5 ms of CPU (Selenium's `get_attribute` and
# `is_displayed` inject a script of their own), and the browser tests send some 15,000.
def read(driver, script, *arguments, missing):
    """What `script` returns; NoSuchElementException (which WebDriverWait waits through) when it
    returns null: the element `missing` names is not on the page."""
    value = driver.execute_script(script, *arguments)
    if value is None:
        raise NoSuchElementException(f"no element {missing}")
    return value


def kind(driver, slot):
    selector = f'{CARDS}[data-card-id="{slot}"]'
    return read(driver, "return document.querySelector(arguments[0])?.getAttribute('data-kind') ?? null;",
                selector, missing=selector)


def status_cards(driver, css):
    # Read in one script: the status line is redrawn by every diff, so elements found first and
    # read one call later may be gone (a stale element).
    return [tuple(row) for row in driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => "
        "[e.getAttribute('data-rank'), e.getAttribute('data-suit'), e.getAttribute('aria-label')]);",
        f"#status {css}")]


def text_of(driver, element_id):
    """The element's text, trimmed."""
    return read(driver, "return document.getElementById(arguments[0])?.textContent ?? null;",
                element_id, missing=f"#{element_id}").strip()


def faces(driver):
    return {int(slot): label for slot, label in driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => "
        "[e.getAttribute('data-card-id'), e.getAttribute('aria-label')]);",
        f'{CARDS}[data-kind="emoji"]')}


def flip(driver, slot, seen):
    """Turns `slot` up and notes what it shows (the face is there before any hide comes)."""
    before = text_of(driver, "flips")
    card(driver, slot).click()
    WebDriverWait(driver, 5).until(lambda d: text_of(d, "flips") != before)
    seen[slot] = faces(driver).get(slot, "").replace(", matched", "")
    assert seen[slot], f"slot {slot} did not show a face"


def play_concentration_to_the_end(driver, seen, slots=8):
    """Solo Concentration: pairs what has been seen, else turns up something new, until the
    game is over (`seen`: slot → face, as `flip` fills it)."""
    for _ in range(12):
        if driver.find_element(By.ID, "gameover").is_displayed():
            break
        open_slots = [s for s in range(slots) if "matched" not in card(driver, s).get_attribute("class")]
        if not open_slots:
            break
        by_face = {}
        for s in open_slots:
            if s in seen:
                by_face.setdefault(seen[s], []).append(s)
        pair = next((v for v in by_face.values() if len(v) == 2), None)
        if pair:
            first, second = pair
        else:
            unseen = [s for s in open_slots if s not in seen]
            first = unseen[0]
        WebDriverWait(driver, 4).until(lambda d: kind(d, first) == "down")
        flip(driver, first, seen)
        if not pair:
            match = [s for s in open_slots if s != first and seen.get(s) == seen[first]]
            second = match[0] if match else next(s for s in open_slots if s != first and s not in seen)
        WebDriverWait(driver, 4).until(lambda d: kind(d, second) == "down")
        flip(driver, second, seen)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())


def start_concentration_for_two(server, ann, bob, pairs=4):
    """Ann creates a 2-seat Concentration table (`pairs` pairs, 20 s turns); Bob joins by its link."""
    open_lobby(ann, server.http_url, "Ann", "concentration", {"boardSize": 2 * pairs, "turnSeconds": 20})
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    ann.find_element(By.ID, "create-private").click()
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    code = text_of(ann, "table-code")
    assert "20 s turns" in text_of(ann, "table-settings-text")
    # Bob types his name, then follows the link (the seat is taken under the name typed).
    bob.get(server.http_url)
    bob.find_element(By.ID, "name").send_keys("Bob")
    bob.get(server.http_url + f"#/t/{code}")
    for driver in (ann, bob):
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
        WebDriverWait(driver, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, CARDS)) == 2 * pairs)


def board_kinds(driver):
    return set(driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.getAttribute('data-kind'));", CARDS))


def standings_of(driver):
    """The game-over standings a page shows: (name, matches) per row, best first."""
    return [(r.find_element(By.CSS_SELECTOR, ".name").text, r.get_attribute("data-matches"))
            for r in driver.find_elements(By.CSS_SELECTOR, "#standings li")]


def two_players_and_a_spectator(server, browsers, game, settings=None):
    """Ann opens a 2-seat table of `game`; Bob types his name and follows its link; once they
    play, Eve follows the link with no name and chooses to just watch. Returns the three."""
    ann, bob, eve = browsers(), browsers(), browsers()
    open_lobby(ann, server.http_url, "Ann", game, settings)
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    ann.find_element(By.ID, "create-private").click()
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    code = text_of(ann, "table-code")
    bob.get(server.http_url)
    bob.find_element(By.ID, "name").send_keys("Bob")
    bob.get(server.http_url + f"#/t/{code}")
    for driver in (ann, bob):
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
    eve.get(server.http_url + f"#/t/{code}")
    # No name typed: the link asks for one, or to just watch.
    WebDriverWait(eve, 10).until(lambda d: d.find_element(By.ID, "invite-name").is_displayed())
    eve.find_element(By.ID, "invite-watch").click()
    WebDriverWait(eve, 15).until(lambda d: d.find_element(By.ID, "spectating").is_displayed())
    return ann, bob, eve


SHOWN_CARDS = ("return [...document.querySelectorAll(arguments[0])]"
               ".map((e) => Number(e.getAttribute('data-card-id')));")


def seat_two_through_the_front_door(ann, bob, door, ann_node, bob_node):
    """Ann, her page pinned to `ann_node` behind the front door at `door` (http), makes a
    private Set table for two; Bob, his page pinned to `bob_node`, follows its share link. Both
    wait until the game plays. Returns the table's invite code."""
    ann.get(door + f"?node={ann_node}")
    ann.find_element(By.ID, "name").send_keys("Ann")
    Select(ann.find_element(By.ID, "seats")).select_by_value("2")
    ann.find_element(By.ID, "create-private").click()
    WebDriverWait(ann, 15).until(lambda d: CODE.match(text_of(d, "table-code")))
    code = text_of(ann, "table-code")
    bob.get(door + f"?node={bob_node}")
    bob.find_element(By.ID, "name").send_keys("Bob")
    bob.get(door + f"?node={bob_node}#/t/{code}")
    for driver in (ann, bob):
        WebDriverWait(driver, 15).until(
            lambda d: d.find_element(By.ID, "table").get_attribute("data-phase") == "playing")
    return code


def claim_a_set(player, everyone):
    """`player` claims a set it finds on its own page by clicking its cards; returns it once every
    page in `everyone` has seen its cards go (or the game end), or None when its board has none."""
    board = player.execute_script(SHOWN_CARDS, CARDS)
    triple = next((t for t in itertools.combinations(board, 3) if set_from_ids(*t)), None)
    if triple is None:
        return None
    for card_id in triple:
        player.execute_script(
            # (A computer at the table may take a card first: it is then gone, and not clicked.)
            "document.querySelector(arguments[0] + '[data-card-id=\"' + arguments[1] + '\"]')?.click();",
            CARDS, str(card_id))
    for driver in everyone:
        WebDriverWait(driver, 20).until(lambda d: not set(triple) & set(d.execute_script(SHOWN_CARDS, CARDS))
                                        or d.find_element(By.ID, "gameover").is_displayed())
    return triple


def race_to_the_end(players, watchers=()):
    """The players take turns claiming sets on their own pages until the game is over, seen by
    every page; returns how many sets they claimed."""
    claims = 0
    for turn in range(60):
        player = players[turn % len(players)]
        if player.find_element(By.ID, "gameover").is_displayed():
            break
        if claim_a_set(player, (*players, *watchers)) is None:
            WebDriverWait(player, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
            break
        claims += 1
    for driver in (*players, *watchers):
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    return claims


# Records the page's WebSockets and the chat lines they hear (before the page's own scripts run),
# so that a test can send on the page's connection what the page itself would send: a `resync`,
# or a line that is a barrier (`table_barrier`).
RECORD_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__heard = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
      this.addEventListener('message', (event) => {
        const message = JSON.parse(event.data);
        if (message.type === 'chat') window.__heard.push(message.text);
      });
    }
  };
})();"""


def record_sockets(*drivers):
    """Makes each page record its WebSockets from its next load on (`RECORD_SOCKETS`)."""
    for driver in drivers:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKETS})


def table_barrier(sender, *others, text="a barrier"):
    """Returns once `sender`'s page and every page of `others` at its table have heard the line
    `text` that `sender`'s page says on its own connection: the server decides one connection's
    messages in order and sends each member a table's frames in the order it decided them, so
    nothing it sent any of these pages before the line is still on its way (and each page has
    handled it: a page handles its messages in order, one task each). Check that something did
    not happen after this, never after a sleep. The pages record their sockets
    (`record_sockets`)."""
    sender.execute_script(
        "window.__sockets.at(-1).send(JSON.stringify({type: 'chat', id: 'barrier', text: arguments[0]}));",
        text)
    for driver in (sender, *others):
        WebDriverWait(driver, 10).until(lambda d: text in d.execute_script("return window.__heard"))
