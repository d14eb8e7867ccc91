"""High scores in headless Chromium against the real server: the page's High scores tab lists the
finished games (`browser_scores.finished`), sorts them by date, score and duration, pages through
them, keeps only the browser's own games, and marks the best and the shortest; a server without
records, and one with no finished game yet, say so."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browser_scores import (PAGE_SIZE, aria_sort, artifact, click_and_wait, finished,  # noqa: F401 (a fixture)
                            no_sideways_scroll, open_scores, rows, set_viewport, severe_errors, sort_button, text_of)
from conftest import RunningServer


def test_the_high_scores_tab_sorts_pages_filters_and_marks_the_best(server, finished, browsers):
    games, best, shortest = finished
    driver = browsers()
    open_scores(driver, server.http_url)
    by_id = {g["id"]: g for g in games}
    newest = [g["id"] for g in games]  # the server's answer, newest first
    assert [r["id"] for r in rows(driver)] == newest[:PAGE_SIZE]
    assert aria_sort(driver, "date") == "descending" and aria_sort(driver, "score") == "none"
    assert text_of(driver, "scores-page") == "Page 1 of 3"
    assert not driver.find_element(By.ID, "scores-prev").is_enabled()
    first = rows(driver)[0]
    assert first["position"] == "1"
    assert first["players"] in ("Mo", "Theo")
    assert first["duration"] == f"{int(by_id[first['id']]['seconds']) // 60}:{int(by_id[first['id']]['seconds']) % 60:02d}"

    # Paging: Next to the end (disabled there), Previous back.
    seen = rows(driver)
    seen += click_and_wait(driver, driver.find_element(By.ID, "scores-next"), newest[3:6])
    assert text_of(driver, "scores-page") == "Page 2 of 3"
    assert [r["position"] for r in rows(driver)] == ["4", "5", "6"]
    seen += click_and_wait(driver, driver.find_element(By.ID, "scores-next"), newest[6:])
    assert text_of(driver, "scores-page") == "Page 3 of 3"
    assert not driver.find_element(By.ID, "scores-next").is_enabled()
    click_and_wait(driver, driver.find_element(By.ID, "scores-prev"), newest[3:6])

    # Best and shortest are over all pages: exactly those two rows are marked, with a badge.
    assert [r["id"] for r in seen if r["best"]] == [best["id"]]
    assert [r["id"] for r in seen if r["shortest"]] == [shortest["id"]]
    assert all(("Best score" in r["badges"]) == r["best"] and ("Shortest" in r["badges"]) == r["shortest"] for r in seen)
    assert best["score"] == max(g["score"] for g in games)
    assert shortest["seconds"] == min(g["seconds"] for g in games)
    assert [r["mine"] for r in seen] == [by_id[r["id"]]["mine"] for r in seen]

    # Sort by score: highest first (from page 1), then the same heading again: lowest first.
    by_score = sorted(games, key=lambda g: -g["score"])
    # (Equal scores may come in any order: the scores shown are compared, not the ids.)
    sort_button(driver, "score").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "score") == "descending"
                                    and [r["score"] for r in rows(d)] == [g["score"] for g in by_score[:PAGE_SIZE]])
    assert text_of(driver, "scores-page") == "Page 1 of 3"
    assert rows(driver)[0]["score"] == best["score"]
    assert aria_sort(driver, "date") == "none"
    # For review: the best scores at both sizes (no sideways scrolling at either).
    for width, height in ((1280, 900), (390, 844)):
        set_viewport(driver, width, height)
        WebDriverWait(driver, 5).until(lambda d: d.execute_script("return innerWidth") == width)
        driver.execute_script("document.getElementById('scores-panel').scrollIntoView()")
        assert no_sideways_scroll(driver), (width, height)
        # A rank of several digits stays on one line (issue 21: "10" wrapped on a phone).
        lines = driver.execute_script("""
            const td = document.querySelector('#scores-body td.pos');
            const was = td.textContent;
            td.textContent = '1000';
            const range = document.createRange();
            range.selectNodeContents(td);
            const lines = range.getClientRects().length;
            td.textContent = was;
            return lines;""")
        assert lines == 1, (width, lines)
        driver.save_screenshot(str(artifact(f"scores-{width}x{height}.png")))
    set_viewport(driver, 1280, 900)
    sort_button(driver, "score").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "score") == "ascending"
                                    and [r["score"] for r in rows(d)] == sorted(g["score"] for g in games)[:PAGE_SIZE])

    # Sort by duration: shortest first; the first row is the shortest game, marked.
    by_time = sorted(g["seconds"] for g in games)
    sort_button(driver, "duration").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "duration") == "ascending"
                                    and [r["seconds"] for r in rows(d)] == by_time[:PAGE_SIZE])
    assert rows(driver)[0]["id"] == shortest["id"] and rows(driver)[0]["shortest"]
    sort_button(driver, "duration").click()
    WebDriverWait(driver, 10).until(lambda d: aria_sort(d, "duration") == "descending"
                                    and [r["seconds"] for r in rows(d)] == by_time[::-1][:PAGE_SIZE])

    # Sort by date again: newest first, then oldest first.
    click_and_wait(driver, sort_button(driver, "date"), newest[:PAGE_SIZE])
    assert aria_sort(driver, "date") == "descending"
    # (Games that ended in the same second may come in either order: the dates are compared.)
    oldest = sorted(g["endedAt"] for g in games)[:PAGE_SIZE]
    click_and_wait(driver, sort_button(driver, "date"), lambda shown: [r["ended"] for r in shown] == oldest)
    assert aria_sort(driver, "date") == "ascending"

    # Only my games: the browser's player's three, one page.
    mine = {g["id"] for g in games if g["mine"]}
    assert len(mine) == PAGE_SIZE
    shown = click_and_wait(driver, driver.find_element(By.ID, "scores-mine"), lambda shown: {r["id"] for r in shown} == mine)
    assert all(r["mine"] for r in shown)
    assert text_of(driver, "scores-page") == "Page 1 of 1"
    assert not driver.find_element(By.ID, "scores-next").is_enabled()
    # The caption says what the table holds.
    assert text_of(driver, "scores-caption") == "My finished Concentration games (Solo · 4 pairs), oldest first"
    driver.find_element(By.ID, "scores-mine").click()
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-page") == "Page 1 of 3")

    # Keyboard: the tabs move with the arrow keys; a sort heading is a button.
    driver.find_element(By.ID, "tab-scores").send_keys(Keys.ARROW_LEFT)
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "tables-panel").is_displayed())
    assert driver.switch_to.active_element.get_attribute("id") == "tab-tables"
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "scores-panel").is_displayed())
    WebDriverWait(driver, 10).until(lambda d: len(rows(d)) == PAGE_SIZE)
    assert not severe_errors(driver), severe_errors(driver)


def test_a_server_without_records_says_so(browsers):
    running = RunningServer(extra_args=["--no-journal"])
    try:
        driver = browsers()
        driver.get(running.http_url)
        driver.find_element(By.ID, "tab-scores").click()
        WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-empty") == "This server keeps no records of finished games.")
        assert not driver.find_element(By.ID, "scores").is_displayed()
        assert not driver.find_element(By.ID, "scores-pager").is_displayed()
        assert not severe_errors(driver), severe_errors(driver)
    finally:
        running.stop()


def test_no_finished_games_yet_is_said_in_place_of_the_table(server, browsers):
    driver = browsers()
    driver.get(server.http_url)
    driver.find_element(By.CSS_SELECTOR, 'button[data-game="matchismo"]').click()
    driver.find_element(By.ID, "tab-scores").click()
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-empty").startswith("No finished Matchismo games yet"))
    assert text_of(driver, "scores-title") == "Matchismo high scores"
    driver.find_element(By.ID, "scores-mine").click()
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "scores-empty") == "You have not finished a Matchismo game here yet.")
    # The hello carried this browser's token, made once and kept.
    token = driver.execute_script("return localStorage.getItem('matchismo.player')")
    assert len(token) == 22 and all(c.isalnum() or c in "-_" for c in token)
    driver.refresh()
    assert driver.execute_script("return localStorage.getItem('matchismo.player')") == token
    assert not severe_errors(driver), severe_errors(driver)
