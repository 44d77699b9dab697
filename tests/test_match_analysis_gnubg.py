"""analyze_match against GNU Backgammon's own analysis of the same match (skipped without gnubg).

gnubg is only a measuring stick (benchmarks/gnubg_matches.py): the committed 5-point match
it played (player 0 with little evaluation noise, player 1 with much) analysed by both at
0-ply. The full comparison at 2-ply over more matches is benchmarks/bench_match_analysis.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_match_analysis import marked_checker_plays  # noqa: E402
from gnubg_bridge import gnubg_executable  # noqa: E402
from gnubg_matches import analyse_with_gnubg, analysis_thresholds  # noqa: E402

import bgengine as bg  # noqa: E402
from bgengine.analysis.match_analysis import Mark  # noqa: E402

MATCH = Path(__file__).parent / "data" / "gnubg_match_5.sgf"

pytestmark = pytest.mark.skipif(gnubg_executable() is None, reason="gnubg is not installed")


@pytest.fixture(scope="module")
def both():
    return analyse_with_gnubg(MATCH, 0), bg.analyze_match(bg.read_sgf(MATCH), 0)


def test_the_same_moves_count_as_unforced(both):
    gnubg, ours = both
    assert [p.unforced_moves for p in gnubg.players] == [p.unforced_moves for p in ours.players]


def test_the_same_player_is_rated_worse_and_the_rates_are_close(both):
    gnubg, ours = both
    theirs = [p.checker_rate for p in gnubg.players]
    mine = [p.checker_rate for p in ours.players]
    assert max((0, 1), key=lambda p: theirs[p]) == max((0, 1), key=lambda p: mine[p]) == 1
    assert mine[1] == pytest.approx(theirs[1], rel=0.25)
    # Near-perfect play: a few mEMG apart is within the engines' disagreement on close plays.
    assert abs(mine[0] - theirs[0]) < 10.0


def test_gnubgs_very_bad_plays_are_mostly_very_bad_here(both):
    gnubg, ours = both
    assert len(gnubg.very_bad_checker_plays) >= 3
    found = gnubg.very_bad_checker_plays & marked_checker_plays(ours, Mark.VERY_BAD)
    assert len(found) >= 0.8 * len(gnubg.very_bad_checker_plays)


def test_the_luck_of_each_roll_is_near_gnubgs(both):
    """Both measure luck cubefully at the score (0-ply): per roll a few hundredths of EMG apart."""
    gnubg, ours = both
    gaps = []
    for game_index, game in enumerate(ours.games):
        for ordinal, roll in enumerate(game.rolls):
            theirs = gnubg.checker_plays[(game_index, ordinal)]
            assert sorted(theirs.dice) == sorted(roll.dice) and theirs.luck is not None
            gaps.append(abs(roll.luck - theirs.luck))
    assert len(gaps) == len(ours.rolls) and sum(gaps) / len(gaps) < 0.04


def test_the_default_marks_are_gnubgs():
    theirs, ours = analysis_thresholds(), bg.AnalysisThresholds()
    assert (theirs["doubtful"], theirs["bad"], theirs["very bad"]) == (ours.doubtful, ours.bad, ours.very_bad)
    assert (theirs["lucky"], theirs["very lucky"]) == (ours.lucky, ours.very_lucky)
