"""The lobby on a thread of its own (`--executors 1`) behaves like the default, where it runs on
the transport's thread: a whole solo game, and four players racing with a spectator."""
import asyncio

from mp_support import FAST, run, start_server  # noqa: F401  (start_server is a fixture)
from test_multiplayer import race
from test_solo_game import play_whole_game


def test_whole_solo_game_with_one_executor(start_server):
    server = start_server("--executors", "1")
    asyncio.run(asyncio.wait_for(play_whole_game(server.ws_url), 120))


def test_race_with_one_executor(start_server):
    server = start_server(*FAST, "--executors", "1")
    run(race, server.ws_url, timeout=45)
