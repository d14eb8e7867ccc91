"""Issue 34, "Playing without sight": Chromium's accessibility tree (DevTools' Accessibility.getFullAXTree)
read on a Set, a Matchismo and a Concentration table mid-game, against the real server. Every card
on the board and in the status line has a name in words (no card is heard as its symbols or as
"Q♥"); the focus order runs through the table's buttons and then the board's cards in board
order; and at a two-player Set table another player's move is announced once, politely, in words
— but not while this player is in the middle of choosing."""
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import (CARDS, SHOWN_CARDS, card, flip, play_solo, record_sockets, severe_errors,
                           table_barrier, two_players_and_a_spectator)

SYMBOLS = re.compile("[◆∿⬬♠♥♦♣]")


def ax_nodes(driver):
    """The page's accessibility tree: each node not ignored as (role, name, properties)."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    return [(n.get("role", {}).get("value"), n.get("name", {}).get("value", ""),
             {p["name"]: p.get("value", {}).get("value") for p in n.get("properties", [])})
            for n in nodes if not n.get("ignored")]


def names_in_words(driver, where):
    """Every card of the board and of the status line, named in words as the tree has it."""
    heard = [(role, name) for role, name, _ in ax_nodes(driver) if SYMBOLS.search(name)]
    assert not heard, (where, heard)
    labels = driver.execute_script(
        "return [...document.querySelectorAll('#board .card, #status .run-card')]"
        ".map((e) => e.getAttribute('aria-label') ?? '')")
    assert labels and all(re.search(r"[a-z]{3,}", label) for label in labels), (where, labels)
    tree_names = {name for _, name, _ in ax_nodes(driver)}
    missing = [label for label in labels if label not in tree_names]
    assert not missing, (where, missing)


def focus_order(driver, presses=40):
    """What Tab reaches, from the top of the page: ids, or `card:<id>` for a board card."""
    # A click on the page's title starts Tab from the top (as a reader arriving would).
    driver.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
    driver.find_element(By.CSS_SELECTOR, "h1.brand").click()
    reached = []
    for _ in range(presses):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        reached.append(driver.execute_script("""
          const e = document.activeElement;
          const c = e?.closest('#board .card');
          return c ? 'card:' + c.getAttribute('data-card-id') : (e?.id || e?.tagName || '');"""))
    return reached


def check_focus_order(driver, where):
    board = [f"card:{i}" for i in driver.execute_script(SHOWN_CARDS, CARDS)]
    reached = focus_order(driver, presses=len(board) + 25)
    cards = [r for r in reached if r.startswith("card:")]
    assert cards[:len(board)] == board, (where, reached)
    first = reached.index(board[0])
    assert reached[first:first + len(board)] == board, (where, "the cards come one after another", reached)
    assert "history-button" in reached[:first], (where, "the table's buttons come before the board", reached)


def leave(driver):
    """Leaves the table (a game under way asks first) and waits for the lobby."""
    driver.find_element(By.ID, "leave").click()
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "confirm-leave").is_displayed())
    driver.find_element(By.ID, "confirm-leave-yes").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "name").is_displayed())


def test_card_names_and_focus_order_at_set_matchismo_and_concentration_tables(server, browsers):
    driver = browsers()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    play_solo(driver, server.http_url, "set", cards=12)
    ids = driver.execute_script(SHOWN_CARDS, CARDS)
    card(driver, ids[0]).click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#status .run-card"))
    names_in_words(driver, "set")
    check_focus_order(driver, "set")

    leave(driver)
    play_solo(driver, server.http_url, "matchismo", cards=8)
    card(driver, 0).click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#status .run-playing"))
    names_in_words(driver, "matchismo")
    check_focus_order(driver, "matchismo")

    leave(driver)
    play_solo(driver, server.http_url, "concentration", cards=8)
    flip(driver, 0, {})
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#status .run-emoji"))
    names_in_words(driver, "concentration")
    check_focus_order(driver, "concentration")
    assert not severe_errors(driver), severe_errors(driver)


def announced(driver):
    return driver.execute_script("return document.getElementById('announce').textContent.trim()")


def test_another_players_move_is_announced_once_politely_and_never_mid_choice(server, browsers):
    ann, bob, eve = two_players_and_a_spectator(server, browsers, "set")
    record_sockets(ann, bob)
    for driver in (ann, bob):
        driver.refresh()
        WebDriverWait(driver, 15).until(lambda d: len(d.execute_script(SHOWN_CARDS, CARDS)) >= 12)
    live = [props for role, _, props in ax_nodes(ann) if props.get("live") == "polite" and props.get("atomic")]
    assert live, "an atomic polite live region for the table's news"
    # The status line itself is not a live region any more: one announcement per move.
    status_live = ann.execute_script("return document.getElementById('status').getAttribute('aria-live')")
    assert status_live is None

    board = ann.execute_script(SHOWN_CARDS, CARDS)
    card(bob, board[0]).click()
    WebDriverWait(ann, 5).until(lambda d: announced(d).startswith("Bob chose "))
    spoken = announced(ann)
    label = ann.execute_script(
        "return document.querySelector('#board .card[data-card-id=\"' + arguments[0] + '\"]').getAttribute('aria-label')",
        str(board[0]))
    assert spoken == f"Bob chose {label.split(',')[0]}", (spoken, label)
    assert not SYMBOLS.search(spoken)
    # Bob's own page does not announce Bob's own pick.
    assert not announced(bob).startswith("Bob chose")

    # Ann is in the middle of choosing: Bob's next pick is not announced to her.
    card(ann, board[5]).click()
    WebDriverWait(ann, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'{CARDS}.selected[data-card-id="{board[5]}"]'))
    card(bob, board[1]).click()
    table_barrier(bob, ann)
    assert announced(ann) == spoken, announced(ann)
    for driver in (ann, bob, eve):
        assert not severe_errors(driver), severe_errors(driver)
