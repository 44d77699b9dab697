"""Game-playing speed: random-agent games and full matches through the Game/Match API.

Run: ``nice python -m pytest benchmarks/bench_games.py --benchmark-enable``.
Each benchmark first checks the exact actions played and results of its seeded workload,
so a faster wrong answer cannot pass; the rates land in each benchmark's ``extra_info``.
The pinned numbers depend on the order in which move generation lists the legal moves
(the random agent picks an index): update them when that order changes on purpose.
"""

from __future__ import annotations

import numpy as np
from bgengine.game.actions import Play
from bgengine.agents.base import HeuristicAgent, RandomAgent
from bgengine.game.record import Game
from bgengine.game.match import Match
from bgengine.agents.play import play_game, play_match

GAMES = 50
MATCHES = 10
MATCH_LENGTH = 5


def random_games() -> list:
    return [play_game(RandomAgent(seed), RandomAgent(seed + GAMES), seed=seed) for seed in range(GAMES)]


def random_matches() -> list[Match]:
    matches = []
    for seed in range(MATCHES):
        seeds = np.random.SeedSequence(seed).spawn(2)
        agents = [RandomAgent(s, double_probability=0.1, take_probability=0.7) for s in seeds]
        matches.append(play_match(agents[0], agents[1], MATCH_LENGTH, seed=seed))
    return matches


def heuristic_games() -> list:
    return [play_game(HeuristicAgent(), RandomAgent(seed), seed=seed) for seed in range(GAMES)]


def as_text(games: list) -> list[list]:
    """Each game's actions with every checker play written out as text, as a record file has them."""
    return [[Play(str(a.move)) if isinstance(a, Play) else a for a in game.actions] for game in games]  # type: ignore[arg-type]


def replayed_games(records: list[list]) -> list[Game]:
    """Games rebuilt by pushing recorded actions, move text matched against the legal moves."""
    games = []
    for actions in records:
        game = Game()
        for action in actions:
            game.push(action)
        games.append(game)
    return games


def summary_of_games(games: list) -> tuple[int, int, int]:
    """(actions played, games won by player 0, points won in total)."""
    return (
        sum(len(game) for game in games),
        sum(game.outcome.winner == 0 for game in games),
        sum(game.outcome.points for game in games),
    )


def test_random_agent_games_per_second(benchmark):
    assert summary_of_games(random_games()) == EXPECTED_RANDOM_GAMES
    benchmark(random_games)
    _report_rate(benchmark, "games_per_second", GAMES)


def test_heuristic_against_random_games_per_second(benchmark):
    assert summary_of_games(heuristic_games()) == EXPECTED_HEURISTIC_GAMES
    benchmark(heuristic_games)
    _report_rate(benchmark, "games_per_second", GAMES)


def test_random_agent_matches_per_second(benchmark):
    matches = random_matches()
    summary = (sum(len(match.games) for match in matches), [match.score for match in matches])
    assert summary == EXPECTED_MATCHES
    benchmark(random_matches)
    _report_rate(benchmark, "matches_per_second", MATCHES)


def test_replay_of_recorded_games_per_second(benchmark):
    played = random_games()
    records = as_text(played)
    replayed = replayed_games(records)
    assert [game.actions for game in replayed] == [game.actions for game in played]
    assert summary_of_games(replayed) == EXPECTED_RANDOM_GAMES
    benchmark(replayed_games, records)
    _report_rate(benchmark, "games_per_second", GAMES)


def _report_rate(benchmark, name: str, count: int) -> None:
    if benchmark.stats is None:  # run with --benchmark-disable: the checks ran, no timing
        return
    median = benchmark.stats.stats.median
    benchmark.extra_info[name] = round(count / median, 1)
    benchmark.extra_info["median_seconds"] = median


EXPECTED_RANDOM_GAMES = (9160, 24, 98)
EXPECTED_HEURISTIC_GAMES = (8898, 47, 121)
EXPECTED_MATCHES = (29, [(5, 2), (5, 2), (5, 0), (1, 5), (0, 5), (5, 0), (5, 0), (5, 2), (1, 5), (5, 3)])
