"""Games for two played to their end in headless Chromium against the real server: two players race
on one board (Set) or take turns (Matchismo) while a spectator watches, and all three see the same
end."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_games import CARDS, race_to_the_end, severe_errors, standings_of, two_players_and_a_spectator
from mp_support import FAST, start_server  # noqa: F401  (a fixture)


def test_a_set_game_for_two_with_a_spectator_is_played_to_its_end(start_server, browsers):
    """Two players race on one board (each claims the sets it finds, read from its own page) while
    a spectator watches; all three see the game end with the same standings."""
    server = start_server(*FAST)
    ann, bob, eve = two_players_and_a_spectator(server, browsers, "set")
    claims = race_to_the_end((ann, bob), (eve,))
    for driver in (ann, bob, eve):
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    standings = [standings_of(d) for d in (ann, bob, eve)]
    assert standings[0] == standings[1] == standings[2], standings
    assert sorted(name for name, _ in standings[0]) == ["Ann", "Bob"]
    assert sum(int(m) for _, m in standings[0]) == claims >= 20
    for driver in (ann, bob, eve):
        assert not severe_errors(driver), severe_errors(driver)


def test_a_matchismo_game_for_two_with_a_spectator_is_played_to_its_end(start_server, browsers):
    """Two players turn cards up on one face-down board of 12, remembering what they saw; a
    spectator watches; all three see the same board after every choice and the same standings
    when nothing left can match."""
    server = start_server(*FAST)
    ann, bob, eve = two_players_and_a_spectator(server, browsers, "matchismo", {"boardSize": 12})
    board = ("return [...document.querySelectorAll(arguments[0])].map((e) => [Number(e.getAttribute('data-card-id')), "
             "e.getAttribute('data-kind'), e.classList.contains('matched'), e.classList.contains('selected'), "
             "e.getAttribute('aria-label')]);")

    def view(driver):
        return driver.execute_script(board, CARDS)

    def same_rank_or_suit(a, b):
        return a.split()[0] == b.split()[0] or a.split()[-1] == b.split()[-1]

    seen = {}
    for step in range(200):
        if ann.find_element(By.ID, "gameover").is_displayed():
            break
        mover = (ann, bob)[step % 2]
        cards = view(mover)
        for slot, kind_, matched, _, label in cards:
            if kind_ == "playing":
                seen[slot] = label.replace(", matched", "")
        open_slots = [slot for slot, _, matched, _, _ in cards if not matched]
        mine = [slot for slot, _, matched, selected, _ in cards if selected and not matched]
        known = [s for s in open_slots if s in seen]
        target = None
        if mine:
            target = next((s for s in known if s != mine[0] and same_rank_or_suit(seen[s], seen[mine[0]])), None)
        else:
            pairs = [(a, b) for a in known for b in known if a < b and same_rank_or_suit(seen[a], seen[b])]
            target = pairs[0][0] if pairs else None
        if target is None:
            unknown = [s for s in open_slots if s not in seen and s not in mine]
            target = unknown[0] if unknown else next((s for s in open_slots if s not in mine), None)
        if target is None:
            break
        mover.execute_script(
            "document.querySelector(arguments[0] + '[data-card-id=\"' + arguments[1] + '\"]').click();",
            CARDS, str(target))
        # Every page shows the same board once the choice has reached everyone.
        WebDriverWait(eve, 10).until(
            lambda d: any(s == target and k == "playing" for s, k, _, _, _ in view(d))
            or ann.find_element(By.ID, "gameover").is_displayed()
            or [c[:3] for c in view(d)] != [c[:3] for c in cards])
        WebDriverWait(ann, 10).until(lambda d: [c[:3] for c in view(d)] == [c[:3] for c in view(bob)] == [c[:3] for c in view(eve)])
    for driver in (ann, bob, eve):
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    standings = [standings_of(d) for d in (ann, bob, eve)]
    assert standings[0] == standings[1] == standings[2], standings
    assert sorted(name for name, _ in standings[0]) == ["Ann", "Bob"]
    assert sum(int(m) for _, m in standings[0]) >= 3
    for driver in (ann, bob, eve):
        assert not severe_errors(driver), severe_errors(driver)
