"""The lobby on executor threads of its own (`--executors K`: tables spread over K shards, moves
decided on their table's shard) behaves like the default, where it runs on the transport's
thread: a whole solo game, and four players racing with a spectator, for K = 1, 2 and 3."""
import asyncio

import pytest

from mp_support import FAST, run, start_server  # noqa: F401  (start_server is a fixture)
from test_multiplayer import race
from test_solo_game import play_whole_game


@pytest.mark.parametrize("executors", ["1", "2"])
def test_whole_solo_game_on_executors(start_server, executors):
    server = start_server("--executors", executors)
    asyncio.run(asyncio.wait_for(play_whole_game(server.ws_url), 120))


@pytest.mark.parametrize("executors", ["1", "2", "3"])
def test_race_on_executors(start_server, executors):
    server = start_server(*FAST, "--executors", executors)
    run(race, server.ws_url, timeout=45)
