"""The load generator's bots that really play (`matchismo-load --mode play`, the benchmark's "play"
and "fastplay" rows): a finished game is dealt again and play goes on, so a run measures play
over its whole window. A re-deal is a vote of the players; when only each table's host asked
for one, every table stopped after its first game, and fast play measured a burst of a few
seconds followed by an idle server."""
import json
import os
import subprocess

from conftest import BINARY
from mp_support import start_server  # noqa: F401  (fixture)

TABLES = 2


def test_fast_bots_play_game_after_game(start_server):
    server = start_server("--countdown", "0")
    binary = os.path.join(os.path.dirname(BINARY), "matchismo-load")
    result = subprocess.run(
        [binary, "--mode", "play", "--port", str(server.port), "--tables", str(TABLES),
         "--seats", "2", "--reaction", "0.2", "--warmup", "0", "--duration", "8", "--json"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    print({k: report[k] for k in ("moves", "sets_claimed", "games_over", "redeal_votes", "redeals",
                                  "errors", "closes")})
    # A game of two bots ends in a few seconds here: every table finished one and was dealt
    # again, and the new deals were played (more games ended than there are tables).
    assert report["redeals"] >= TABLES, report
    assert report["games_over"] > TABLES, report
    # Both players of a table vote once per game (the host's vote, then the guest's deals).
    assert report["redeal_votes"] >= 2 * report["redeals"], report
    assert report["closes"] == {} and report["unanswered"] == 0, report
