"""Matches for the record-format tests: random play with cube actions, and record equality."""

from __future__ import annotations

import numpy as np

from bgengine.agents.base import RandomAgent
from bgengine.agents.play import play_match
from bgengine.game.match import Match


def random_match(seed: int, length: int = 7, names: tuple[str, str] = ("Alice Liddell", "Bob")) -> Match:
    """A match of two random players who double and take now and then (same seed, same match)."""
    seeds = np.random.SeedSequence(seed).spawn(2)
    agents = [RandomAgent(s, double_probability=0.2, take_probability=0.7) for s in seeds]
    return play_match(agents[0], agents[1], length, seed=seed, names=names)


def same_match(first: Match, second: Match) -> bool:
    """The same length, score, actions and outcomes, game by game."""
    return (
        first.length == second.length
        and first.score == second.score
        and [game.actions for game in first.games] == [game.actions for game in second.games]
        and [game.outcome for game in first.games] == [game.outcome for game in second.games]
    )
