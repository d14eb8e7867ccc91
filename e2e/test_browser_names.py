"""Names at a table (issue 34, points 1 and 8). A spectator's name reaches the table like a
player's: before, every watcher chatted as "Player" (watching said hello with no name); now Cy,
who typed her name in the lobby and watches from the list, and Dee, who types his in the invite
dialog and chooses "Just watch", chat under their names, and Ann, playing, hears them so. A
newcomer is not seated with others as "Player": a quick match with no name asks for one (and
seats nobody); once typed, it is kept by the browser. Real server, headless Chromium, a
WebSocket client for the player."""
import asyncio

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mp_support import FAST, run, start_server  # noqa: F401  (a fixture)
from protocol_client import LiveClient
from test_browser_chat import chat_lines, open_chat, say
from test_browser_rough_edges import open_page


def watch_at_table(driver, code):
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script("return location.hash").startswith(f"#/t/{code}")
        and d.find_element(By.ID, "chat-button").is_displayed())


def test_watchers_chat_under_the_names_they_typed(start_server, browsers):
    server = start_server(*FAST)

    async def open_table():
        ann, _ = await LiveClient.open(server.ws_url, "Ann", "ann")
        created = await ann.request({"type": "createTable", "game": "set", "seats": 2})
        assert created["type"] == "snapshot", created
        return ann, created["table"]

    loop = asyncio.new_event_loop()
    try:
        ann, table = loop.run_until_complete(open_table())
        cy, dee = browsers(), browsers()
        # Cy types her name in the lobby and watches from the list of tables.
        open_page(cy, server.http_url, 1280, 900, "light")
        cy.find_element(By.ID, "name").send_keys("Cy")
        row = f'#tables-body tr[data-table-id="{table["id"]}"] button.watch'
        WebDriverWait(cy, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, row))
        cy.find_element(By.CSS_SELECTOR, row).click()
        watch_at_table(cy, table["code"])
        # Dee opens the share link, types his name in the dialog and chooses "Just watch".
        open_page(dee, server.http_url, 390, 844, "dark")
        dee.get(f"{server.http_url}#/t/{table['code']}")
        dee.refresh()
        WebDriverWait(dee, 10).until(lambda d: d.find_element(By.ID, "invite-name").is_displayed())
        dee.find_element(By.ID, "invite-name-field").send_keys("Dee")
        dee.find_element(By.ID, "invite-watch").click()
        watch_at_table(dee, table["code"])
        for driver, text in ((cy, "hello from Cy"), (dee, "hello from Dee")):
            open_chat(driver)
            say(driver, text)
            WebDriverWait(driver, 10).until(lambda d, t=text: any(l["text"] == t for l in chat_lines(d)))

        async def heard():
            await ann.until(lambda: len([m for m in ann.log if m.get("type") == "chat"]) >= 2, 10, "two lines")
            return [(m["name"], m["text"]) for m in ann.log if m.get("type") == "chat"]

        lines = loop.run_until_complete(heard())
        assert sorted(lines) == [("Cy", "hello from Cy"), ("Dee", "hello from Dee")], lines
        # Each page shows the other watcher's line under their name, too.
        WebDriverWait(cy, 10).until(lambda d: any(l["name"] == "Dee" for l in chat_lines(d)))
        loop.run_until_complete(ann.shutdown())
    finally:
        loop.close()


def test_a_newcomer_is_asked_for_a_name_before_a_game_with_others(start_server, browsers):
    server = start_server(*FAST)
    page = browsers()
    open_page(page, server.http_url, 390, 844, "dark")
    page.find_element(By.ID, "quick-match").click()
    problem = page.find_element(By.ID, "name-problem")
    WebDriverWait(page, 5).until(lambda d: problem.is_displayed())
    assert "Type your name first" in problem.text, problem.text
    assert page.switch_to.active_element.get_attribute("id") == "name"
    # Nobody was seated: the page is still in the lobby, and no table opened.
    assert not page.execute_script("return location.hash").startswith("#/t/")
    page.find_element(By.ID, "name").send_keys("Eve")
    page.find_element(By.ID, "quick-match").click()
    WebDriverWait(page, 10).until(lambda d: d.execute_script("return location.hash").startswith("#/t/"))
    names = page.execute_script(
        "return [...document.querySelectorAll('#scoreboard li.seat .name')].map((e) => e.textContent)")
    assert names == ["Eve"], names
    # The name is kept: the lobby of a page opened again has it.
    page.get(server.http_url)
    WebDriverWait(page, 10).until(lambda d: d.find_element(By.ID, "name").get_attribute("value") == "Eve")
