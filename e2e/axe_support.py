"""What the axe browser tests (test_browser_axe.py) share: axe-core itself (from the PyPI package
axe-playwright-python, installed without its dependencies), the script that runs it once the
page's animations have settled, the collector of violations, and the steps that walk the
screens."""
import importlib.util
import pathlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import severe_errors
from table_state import third_id
from test_browser_rough_edges import board_ids, text_of

CARDS = "#board .card"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
THEMES = ("light", "dark")
# What a theme changes is colour alone (app.css: the custom properties and `color-scheme` under
# <html data-theme>), so the page is checked whole in its own theme and, in the other, by the
# rules that read colours: contrast, and links told apart from their text.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
MINE, BOB, THEO = "axeBrowserPlayer00000A1", "axeBobPlayer00000000B2", "axeTheoPlayer0000000C3"


def axe_source():
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec is not None and spec.submodule_search_locations, (
        "axe-core is missing: the package axe-playwright-python==0.1.8 (which ships axe.min.js) is not "
        "installed in this Python; `make test-deps` installs it (pip install --no-deps axe-playwright-python==0.1.8)")
    path = pathlib.Path(list(spec.submodule_search_locations)[0]) / "axe.min.js"
    assert path.is_file(), f"axe-core is missing: {path} is not there (axe-playwright-python==0.1.8 ships it)"
    return path.read_text(encoding="utf-8")


# Waits until the page's finite animations (cards dealt, points rising, a toast) have run, so
# that colours are read as they stay; then runs axe on the whole document: the rules of the
# tags given, or only the rules named.
RUN_AXE = """
const [tags, rules, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const only = rules ? {type: 'rule', values: rules} : {type: 'tag', values: tags};
const settled = () => document.getAnimations().every((a) =>
  a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
const deadline = performance.now() + 3000;
const run = () => {
  if (!settled() && performance.now() < deadline) { setTimeout(run, 50); return; }
  axe.run(document, {runOnly: only, resultTypes: ['violations']}).then(
    (result) => done(result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => ({target: n.target, summary: n.failureSummary}))}))),
    (error) => done([{id: 'axe-error', impact: 'critical', help: String(error), nodes: []}]));
};
run();"""


class Axe:
    """Runs axe on the screens a test walks and keeps every violation, to report them together."""

    def __init__(self, width, height):
        self.source = axe_source()
        self.size = f"{width}×{height}"
        self.found = []
        self.screens = 0
        self.errors = []

    def check(self, driver, screen):
        """Runs axe on what `driver` shows: every rule in the page's own theme, the colour rules
        in the other; puts the page's own theme back."""
        driver.set_script_timeout(30)
        self.errors += [(screen, e["message"]) for e in severe_errors(driver)]
        if not driver.execute_script("return typeof window.axe === 'object'"):
            driver.execute_script(self.source)
        own = driver.execute_script("return document.documentElement.dataset.theme")
        try:
            for index, theme in enumerate(sorted(THEMES, key=lambda theme: theme != own)):
                driver.execute_script("document.documentElement.dataset.theme = arguments[0]", theme)
                rules = None if index == 0 else COLOUR_RULES
                for violation in driver.execute_async_script(RUN_AXE, TAGS, rules):
                    self.found.append((screen, theme, violation))
                self.screens += 1
        finally:
            driver.execute_script("document.documentElement.dataset.theme = arguments[0]", own)

    def report(self):
        lines = []
        for screen, theme, v in self.found:
            lines.append(f"[{screen} · {self.size} · {theme}] {v['id']} ({v['impact']}): {v['help']}")
            for node in v["nodes"]:
                summary = " ".join(node["summary"].split()) if node["summary"] else ""
                lines.append(f"    {' '.join(map(str, node['target']))}: {summary}")
        return "\n".join(lines)

    def assert_no_page_errors(self, *drivers):
        """No page logged an error (each is said with the screen it showed before it)."""
        for driver in drivers:
            self.errors += [("after the last screen", e["message"]) for e in severe_errors(driver)]
        assert not self.errors, "the page logged errors:\n" + "\n".join(
            f"[before {screen} · {self.size}] {message}" for screen, message in self.errors)

    def assert_clean(self):
        assert self.screens > 0
        assert not self.found, f"axe found {len(self.found)} violation(s):\n{self.report()}"


def click(driver, element_id):
    """Clicks by script: a toast or the fold does not stand in the way of a screen's check."""
    driver.execute_script("document.getElementById(arguments[0]).click();", element_id)


def shown(driver, element_id):
    return driver.find_element(By.ID, element_id).is_displayed()


def wait_shown(driver, element_id, timeout=10):
    WebDriverWait(driver, timeout).until(lambda d: shown(d, element_id))


def online(driver):
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "online")


def choose_game(driver, game):
    driver.execute_script(f"document.querySelector('button[data-game=\"{game}\"]').click();")


def open_dialog(axe, driver, button, dialog, close, screen):
    click(driver, button)
    wait_shown(driver, dialog)
    axe.check(driver, screen)
    click(driver, close)
    WebDriverWait(driver, 5).until(lambda d: not shown(d, dialog))


def play_solo_here(driver, game, cards):
    choose_game(driver, game)
    click(driver, "play-solo")
    # (The board keeps the last game's cards until the new one's come: its address says so.)
    WebDriverWait(driver, 15).until(lambda d: d.execute_script("return location.hash").endswith(f"/{game}")
                                    and shown(d, "table") and len(board_ids(d)) >= cards)


def take_a_set(driver):
    """Clicks a set of the board (Set's cards) and waits until it is taken."""
    board = board_ids(driver)
    before = text_of(driver, "matches")
    triple = next(t for t in ((a, b, third_id(a, b)) for i, a in enumerate(board) for b in board[i + 1:])
                  if t[2] in board and t[2] not in t[:2])
    for card_id in triple:
        driver.execute_script(
            "document.querySelector(arguments[0] + '[data-card-id=\"' + arguments[1] + '\"]').click();",
            CARDS, str(card_id))
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "matches") != before)


# Takes the first set of the board (a Set card's id is four base-3 digits, and the third card of
# a set is the one whose digits make each sum 0 mod 3) until the game is over, in the page itself:
# through WebDriver, a click at a time, a daily puzzle's 25 sets took 30 s on a loaded machine.
PLAY_TO_THE_END = """
const done = arguments[arguments.length - 1];
const third = (a, b) => {
  let id = 0;
  for (let scale = 1; scale < 81; scale *= 3, a = Math.floor(a / 3), b = Math.floor(b / 3)) {
    id += ((6 - (a % 3) - (b % 3)) % 3) * scale;
  }
  return id;
};
const card = (id) => document.querySelector('#board .card[data-card-id="' + id + '"]');
const board = () => [...document.querySelectorAll('#board .card')].map((e) => Number(e.dataset.cardId));
const over = () => document.getElementById('gameover').getClientRects().length > 0;
const deadline = performance.now() + 60000;
let taking = null;
const step = () => {
  if (over()) { done('over'); return; }
  if (performance.now() > deadline) { done('the game did not end in 60 s'); return; }
  const shown = board();
  if (taking === null || !taking.some((id) => shown.includes(id))) {
    taking = null;
    for (const [i, a] of shown.entries()) {
      for (const b of shown.slice(i + 1)) {
        const c = third(a, b);
        if (taking === null && c !== a && c !== b && shown.includes(c)) taking = [a, b, c];
      }
    }
    if (taking === null) { done('no set on a board of a game that is not over: ' + shown); return; }
    for (const id of taking) card(id).click();
  }
  setTimeout(step, 30);
};
step();"""


def close_seat(seat):
    """Closes a plain client that has not read what its table sent: read first, else the close
    waits for its 10 s timeout behind the unread frames."""
    try:
        while True:
            seat.ws.recv(timeout=0.05)
    except TimeoutError:
        pass
    seat.close()


def play_set_to_the_end(driver):
    driver.set_script_timeout(70)
    assert driver.execute_async_script(PLAY_TO_THE_END) == "over"


def leave_the_game(axe, driver, screen=None):
    click(driver, "leave")
    wait_shown(driver, "confirm-leave", 5)
    if screen:
        axe.check(driver, screen)
    click(driver, "confirm-leave-yes")
    wait_shown(driver, "lobby")
