"""The engine a benchmark measures: the shipped networks, or others named by weights files.

One place for the ``--weights`` / ``--crashed-weights`` / ``--race-network`` choices the
judge and the truth-set benchmark share, so that both build the same composite evaluator.
"""

from __future__ import annotations

from pathlib import Path

from bgengine.evaluation.contact_network import ContactNetwork
from bgengine.evaluation.evaluator import DEFAULT_SHORTLIST, NetworkEvaluator, default_evaluator
from bgengine.evaluation.race_network import RaceNetwork


def chosen_evaluator(weights: Path | None = None, crashed_weights: Path | None = None,
                     race_network: Path | None = None, race_approximation: bool = False,
                     no_crashed_network: bool = False,
                     contact_network: Path | None = None, choice_weights: Path | None = None,
                     shortlist: int = DEFAULT_SHORTLIST, no_choice_network: bool = False) -> tuple[NetworkEvaluator | None, str]:
    """(evaluator, description): None and "bgengine" when nothing differs from the shipped
    engine, else the composite evaluator with the named networks in their slots
    (``choice_weights``: the move choice's second stage, re-valuing ``shortlist`` plays; else
    the shipped one, if any, unless ``weights`` replaces the contact network it was made for
    or ``no_choice_network``)."""
    if crashed_weights is not None and no_crashed_network:
        raise SystemExit("--crashed-weights and --no-crashed-network exclude each other")
    if race_approximation and race_network is not None:
        raise SystemExit("--race-approximation and --race-network exclude each other")
    if (weights is None and race_network is None and contact_network is None and not race_approximation
            and crashed_weights is None and not no_crashed_network and choice_weights is None
            and not no_choice_network and shortlist == DEFAULT_SHORTLIST):
        return None, "bgengine"
    shipped = default_evaluator()
    base = shipped.network if weights is None else NetworkEvaluator.from_file(weights).network
    races = (RaceNetwork.from_file(race_network) if race_network is not None
             else None if race_approximation else shipped.race_network)
    crashed = (None if no_crashed_network
               else crashed_weights if crashed_weights is not None else shipped.crashed_network)
    evaluator = NetworkEvaluator(
        base, race_network=races, crashed_network=crashed,
        contact_network=ContactNetwork.from_file(contact_network, base) if contact_network else None,
        choice_network=choice_weights if choice_weights is not None
        else None if weights is not None or no_choice_network else shipped.choice_network,
        shortlist=shortlist)
    description = (f"bgengine with network {weights or 'shipped'}, races by "
                   f"{race_network or ('the race approximation' if race_approximation else 'the shipped race network')}"
                   f", crashed positions by "
                   f"{crashed_weights or ('the contact network' if crashed is None else 'the shipped crashed network')}"
                   f", contact network {contact_network}"
                   + (f", the best {shortlist} plays re-valued by {choice_weights or 'the shipped choice network'}"
                      if evaluator.choice_network is not None else ""))
    return evaluator, description
