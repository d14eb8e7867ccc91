"""Two people's views: one plays in headless Chromium, another watches through the table's share
link (/#/t/<code>) in a second Chromium, and sees the player's selection and score."""
import itertools
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mp_support import FAST, start_server  # noqa: F401  (a fixture)
from table_state import set_from_ids

CODE = re.compile(r"^[A-Z2-9]{10}$")


def card_ids(driver):
    return [int(e.get_attribute("data-card-id"))
            for e in driver.find_elements(By.CSS_SELECTOR, "#board .card[data-card-id]")]


def card(driver, card_id):
    return driver.find_element(By.CSS_SELECTOR, f'#board .card[data-card-id="{card_id}"]')


def selected_by(driver, card_id):
    found = driver.find_elements(By.CSS_SELECTOR, f'#board .card[data-card-id="{card_id}"]')
    return (found[0].get_attribute("data-selected-by") or "").split() if found else None


def seat_score(driver, seat):
    rows = driver.find_elements(By.CSS_SELECTOR, f'#scoreboard [data-seat="{seat}"] .score')
    return rows[0].get_attribute("textContent").strip() if rows else None


def severe_errors(driver):
    return [e for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and e.get("source") != "network"]


def play_and_watch(player, watcher, url):
    """Pia (`player`) starts a private table for two; `watcher` watches it through its share link
    (without a name: the link asks for one first, and watching needs none). The table's code."""
    player.get(url)
    wait = WebDriverWait(player, 15)
    player.find_element(By.ID, "name").send_keys("Pia")
    Select(player.find_element(By.ID, "seats")).select_by_value("2")
    player.find_element(By.ID, "create-private").click()
    wait.until(lambda d: CODE.match(d.find_element(By.ID, "table-code").get_attribute("textContent").strip()))
    code = player.find_element(By.ID, "table-code").get_attribute("textContent").strip()
    wait.until(lambda d: d.find_element(By.ID, "start").is_displayed())
    player.find_element(By.ID, "start").click()
    wait.until(lambda d: len(card_ids(d)) >= 12)
    watcher.get(f"{url}#/t/{code}")
    WebDriverWait(watcher, 10).until(lambda d: d.find_element(By.ID, "invite-name").is_displayed())
    watcher.find_element(By.ID, "invite-watch").click()
    watch = WebDriverWait(watcher, 15)
    watch.until(lambda d: d.find_element(By.ID, "spectating").is_displayed())
    watch.until(lambda d: sorted(card_ids(d)) == sorted(card_ids(player)))
    return code


def test_spectator_sees_the_players_selection_and_score(start_server, browsers):
    server = start_server(*FAST)
    player, watcher = browsers(), browsers()

    code = play_and_watch(player, watcher, server.http_url)
    wait, watch = WebDriverWait(player, 15), WebDriverWait(watcher, 15)
    assert watcher.find_element(By.ID, "table-code").get_attribute("textContent").strip() == code
    assert seat_score(watcher, 0) == "0"

    ids = card_ids(player)
    triple = next(t for t in itertools.combinations(ids, 3) if set_from_ids(*t))
    card(player, triple[0]).click()
    watch.until(lambda d: "0" in (selected_by(d, triple[0]) or []))
    # A multiplayer table scores the classic way: choosing is free.
    assert seat_score(watcher, 0) == "0"
    # Nothing else is shown as chosen.
    assert all(not selected_by(watcher, i) for i in ids if i != triple[0])

    for card_id in triple[1:]:
        card(player, card_id).click()
        if card_id != triple[-1]:
            wait.until(lambda d, c=card_id: card(d, c).get_attribute("aria-pressed") == "true")
    # Classic scoring: the set is one point, which the spectator sees.
    watch.until(lambda d: seat_score(d, 0) == "1")
    watch.until(lambda d: not set(card_ids(d)) & set(triple))
    # The watcher cannot choose: clicking a card sends nothing (the page's socket records what it
    # sends from here on; a click's message is sent before the click returns), so nobody's
    # selection can change.
    watcher.execute_script(
        "window.sentFrames = []; const send = WebSocket.prototype.send;"
        "WebSocket.prototype.send = function (data) { window.sentFrames.push(String(data)); return send.call(this, data); };")
    some = card_ids(watcher)[0]
    card(watcher, some).click()
    assert watcher.execute_script("return window.sentFrames") == []
    assert not selected_by(player, some)

    assert not severe_errors(player), severe_errors(player)
    assert not severe_errors(watcher), severe_errors(watcher)


def test_a_spectators_page_watches_the_table_again_after_a_restart(browsers):
    """Pia plays a table for two; Wes watches it through its share link. The server is killed
    (SIGKILL: nothing said to anyone) and started again on the same folder and port. Pia's page
    resumes her seat (the journal kept it). Wes's session comes back without its watching (only
    seats are kept), so his page, reconnecting by itself, asks to watch the same table again
    (issue 36: watchers come back like players): he is shown it, not the lobby, and sees the set
    Pia claims after the restart."""
    import signal
    from conftest import RunningServer

    first = RunningServer(extra_args=FAST)
    servers = [first]
    try:
        player, watcher = browsers(), browsers()
        code = play_and_watch(player, watcher, first.http_url)
        wait, watch = WebDriverWait(player, 15), WebDriverWait(watcher, 30)

        assert first.signal(signal.SIGKILL) != 0
        for page in (player, watcher):
            WebDriverWait(page, 10).until(
                lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") != "online")
        servers.append(RunningServer(extra_args=FAST, data_dir=first.data_dir, port=first.port))
        # Both pages come back by themselves (their backoff), to the same table.
        for page in (player, watcher):
            WebDriverWait(page, 30).until(
                lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "online")
        watch.until(lambda d: d.find_element(By.ID, "spectating").is_displayed()
                    and sorted(card_ids(d)) == sorted(card_ids(player)))
        assert watcher.find_element(By.ID, "table-code").get_attribute("textContent").strip() == code
        # And watches on: the set Pia claims now reaches his scoreboard.
        ids = card_ids(player)
        triple = next(t for t in itertools.combinations(ids, 3) if set_from_ids(*t))
        for card_id in triple:
            card(player, card_id).click()
            if card_id != triple[-1]:
                wait.until(lambda d, c=card_id: card(d, c).get_attribute("aria-pressed") == "true")
        watch.until(lambda d: seat_score(d, 0) == "1")
        watch.until(lambda d: not set(card_ids(d)) & set(triple))
        assert watcher.find_element(By.ID, "spectating").is_displayed()
        assert not severe_errors(player), severe_errors(player)
        assert not severe_errors(watcher), severe_errors(watcher)
    finally:
        for server in servers:
            server.stop()
