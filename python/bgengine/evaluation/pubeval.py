"""Tesauro's PubEval, the standard public benchmark player, for measuring strength.

The published weights ship as ``data/pubeval_weights.json`` (source noted in the file);
the encoding and the move choice live in ``bgcore._pubeval``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from bgcore._pubeval import PubEval


@functools.lru_cache(maxsize=1)
def pubeval_player() -> PubEval:
    """PubEval with its published contact and race weights (loaded once)."""
    text = resources.files("bgengine").joinpath("data/pubeval_weights.json").read_text()
    data = json.loads(text)
    return PubEval(data["contact"], data["race"])
