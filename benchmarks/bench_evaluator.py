"""Evaluator speed and strength: 0-ply batched and one at a time, 1-ply and 2-ply, vs PubEval.

Run: ``nice python -m pytest benchmarks/bench_evaluator.py --benchmark-enable``.
Each benchmark first checks its workload exactly (counts, and the batched kernel against
one-at-a-time evaluation), so a faster wrong answer cannot pass. Rates are in each
benchmark's ``extra_info``.

The input encodings against each other (the shipped weights in each: widened with zero rows
to a later encoding, the same values with the new units computed and added; cut to encoding
1's rows for encoding 1, other values at the same cost), batched 0-ply on contact boards,
side by side in CPU time: ``python benchmarks/bench_evaluator.py encodings --rounds 21 --seed 1``
(``--encodings 1 2`` for a build without encoding 3).

The engine's class dispatch (``bgcore._engine``), batched 0-ply and 1-ply on contact
boards (crashed ones among them) through the engine's composite evaluator, without a crashed
network and with one (the contact network again: the same values, the class test and the
second slot paid), in CPU time: ``python benchmarks/bench_evaluator.py dispatch --rounds 15``
(runs on builds without a crashed slot too, measuring the first only: alternate runs of two
builds for a side-by-side comparison).

The long strength measurement (cubeless money games against PubEval, alternating starts):
``python benchmarks/bench_evaluator.py strength --games 10000 --seed 1``; the same against
another network: ``... strength --opponent path/to/weights.npz``; the engines value races
by the shipped race network unless ``--race-approximation``, crashed positions by the
shipped crashed network (when the package has one) unless ``--no-crashed-network``, or by
``--crashed-weights C.npz`` (the measured engine) / ``--opponent-crashed-weights C.npz``.
Two race networks, same contact network, on paired dice: ``... strength --opponent
python/bgengine/data/evaluator_weights.npz --race-network NEW.npz --paired-dice --games 100000``
(``--opponent-race-network OLD.npz``; default the shipped race network for both).
``--seeds 1005 1006 1007`` (instead of ``--seed``) plays ``--games`` on each seed and prints
each seed's result and the pooled one: judge a candidate on seeds other than those it was
chosen on.
The race network against the race approximation, same engine otherwise:
``... race-duel --games 100000 --seed 5``.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

from bgcore import _engine, _nn, _nply, _selfplay
from bgengine import Position
from bgengine.evaluation import bearoff
from bgengine.evaluation.evaluator import NetworkEvaluator, best_move, default_evaluator, evaluate
from bgengine.evaluation.network_weights import widened
from bgengine.evaluation.pubeval import pubeval_player
from bgengine.evaluation.race_network import RaceNetwork, shipped_race_network
from bgengine.probabilities import equity

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from conftest import random_play_positions  # noqa: E402  (the tests' shared samplers)

SAMPLE_SEED = 2024
SAMPLE_BOARDS = 20_000
LOOKAHEAD_POSITIONS = 20
STRENGTH_GAMES = 1000


def sample_boards(count: int, seed: int) -> np.ndarray:
    return np.array([np.asarray(p) for p in random_play_positions(count, seed)], dtype=np.int8)


def contact_positions(count: int, seed: int) -> list[Position]:
    return [p for p in random_play_positions(count * 3, seed) if p.phase.value == "contact"][:count]


def _rate(benchmark, key: str, items: int) -> None:
    if benchmark.stats is None:  # --benchmark-disable: the checks ran, nothing was timed
        return
    benchmark.extra_info[key] = items / benchmark.stats.stats.median
    benchmark.extra_info["median_seconds"] = benchmark.stats.stats.median


def test_zero_ply_batched_through_the_kernel(benchmark):
    network = default_evaluator().network
    boards = sample_boards(SAMPLE_BOARDS, SAMPLE_SEED)
    assert boards.shape == (SAMPLE_BOARDS, 26)
    batched = network.evaluate_trusted(boards)
    singles = np.concatenate([network.evaluate_trusted(boards[i : i + 1]) for i in range(0, SAMPLE_BOARDS, 997)])
    assert np.array_equal(batched[::997], singles)
    benchmark(network.evaluate_trusted, boards)
    _rate(benchmark, "evaluations_per_second", SAMPLE_BOARDS)


CONTACT_BOARDS = 10_000


def contact_boards(count: int, seed: int) -> np.ndarray:
    return np.array([np.asarray(p) for p in contact_positions(count, seed)], dtype=np.int8)


def shipped_network_in(encoding: int) -> _nn.NeuralNet:
    """The shipped network taking ``encoding``: widened with zero rows when it is the shipped
    one's or later (the same values), else its first rows (other values, the same work)."""
    shipped = default_evaluator().network
    if encoding >= shipped.encoding:
        return widened(shipped, encoding)
    arrays = shipped.arrays()
    return _nn.NeuralNet(arrays["hidden_weights"][: _nn.num_inputs(encoding)], arrays["hidden_bias"],
                         arrays["output_weights"], arrays["output_bias"], encoding)


def self_play_contact_children(count: int, seed: int) -> np.ndarray:
    """``count`` distinct contact boards that 0-ply move choices of the engine's self-play
    evaluate: every legal play of each turn of ``sample_positions.sampled_turns`` (mostly the
    engine's best plays, a tenth random), in turn order. Real games leave fewer blots and
    fewer checkers on the bar than random play, so these are cheaper to encode."""
    from sample_positions import sampled_turns

    boards: dict[bytes, np.ndarray] = {}
    for position, dice in sampled_turns(seed, count // 8):
        legal = position.legal_moves(dice)
        for index in range(len(legal)):
            child = legal.position_after(index)
            if child.phase.value == "contact":
                board = np.asarray(child, dtype=np.int8)
                boards.setdefault(board.tobytes(), board)
    if len(boards) < count:
        raise ValueError(f"{count // 8} self-play turns gave only {len(boards)} distinct contact children")
    return np.array(list(boards.values())[:count])


def test_zero_ply_batched_contact_children_of_self_play(benchmark):
    # the boards a 0-ply move choice evaluates in games (see contact_boards for random play's)
    network = default_evaluator().network
    boards = self_play_contact_children(CONTACT_BOARDS, SAMPLE_SEED)
    assert boards.shape == (CONTACT_BOARDS, 26)
    singles = np.concatenate([network.evaluate_trusted(boards[i : i + 1]) for i in range(0, CONTACT_BOARDS, 997)])
    assert np.array_equal(network.evaluate_trusted(boards)[::997], singles)
    benchmark(network.evaluate_trusted, boards)
    _rate(benchmark, "contact_evaluations_per_second", CONTACT_BOARDS)


@pytest.mark.parametrize("encoding", [1, 2, 3])
def test_zero_ply_batched_contact_by_encoding(benchmark, encoding):
    network = shipped_network_in(encoding)
    boards = contact_boards(CONTACT_BOARDS, SAMPLE_SEED)
    assert boards.shape == (CONTACT_BOARDS, 26)
    if encoding >= default_evaluator().network.encoding:
        assert np.array_equal(network.evaluate_trusted(boards), default_evaluator().network.evaluate_trusted(boards))
    benchmark(network.evaluate_trusted, boards)
    _rate(benchmark, "contact_evaluations_per_second", CONTACT_BOARDS)


def encoding_rates(rounds: int, seed: int, encodings: tuple[int, ...] = (1, 2, 3)) -> dict[int, list[float]]:
    """Batched 0-ply contact evaluations per CPU second of the shipped network in each of
    ``encodings`` (``shipped_network_in``), timed in turn each round."""
    boards = contact_boards(CONTACT_BOARDS, seed)
    networks = {encoding: shipped_network_in(encoding) for encoding in encodings}
    rates: dict[int, list[float]] = {encoding: [] for encoding in networks}
    for _ in range(rounds):
        for encoding, network in networks.items():
            started = time.process_time()
            for _ in range(5):
                network.evaluate_trusted(boards)
            rates[encoding].append(5 * len(boards) / (time.process_time() - started))
    return rates


def test_zero_ply_one_at_a_time_through_python(benchmark):
    positions = random_play_positions(2000, SAMPLE_SEED)
    # the engine's batch path (contact or crashed network by class), which the single calls must equal
    expected = default_evaluator().evaluate_batch(np.array([np.asarray(p) for p in positions]))
    contact = [i for i, p in enumerate(positions) if p.phase.value == "contact"]
    got = np.array([evaluate(positions[i]).probabilities for i in contact], dtype=np.float32)
    assert np.array_equal(got, expected[contact])

    def one_at_a_time() -> None:
        for p in positions:
            evaluate(p)

    benchmark(one_at_a_time)
    _rate(benchmark, "evaluations_per_second", len(positions))


def _lookahead_benchmark(benchmark, plies: int) -> None:
    evaluator = default_evaluator()
    positions = contact_positions(LOOKAHEAD_POSITIONS, SAMPLE_SEED)
    assert len(positions) == LOOKAHEAD_POSITIONS
    boards = np.array([np.asarray(p) for p in positions], dtype=np.int8)
    once = evaluator.evaluate_plies(boards, plies)
    assert np.array_equal(once, evaluator.evaluate_plies(boards, plies))  # deterministic
    assert np.all(once[:, 1] <= once[:, 0] + 1e-6)
    benchmark(evaluator.evaluate_plies, boards, plies)
    if benchmark.stats is not None:
        benchmark.extra_info["milliseconds_per_position"] = 1000 * benchmark.stats.stats.median / LOOKAHEAD_POSITIONS


def test_one_ply_time_per_position(benchmark):
    _lookahead_benchmark(benchmark, 1)


def test_two_ply_time_per_position(benchmark):
    _lookahead_benchmark(benchmark, 2)


def duel_samples(player, opponent, games: int, seed: int, paired: bool = False) -> np.ndarray:
    """The independent samples of a cubeless money duel: each game's points for ``player``,
    or with ``paired`` (games in pairs on the same dice) each pair's mean."""
    points = _selfplay.duel(player, opponent, games, np.random.PCG64(seed), paired).astype(np.float64)
    return points.reshape(-1, 2).mean(axis=1) if paired else points


def mean_and_error(samples: np.ndarray) -> tuple[float, float]:
    """(mean, standard error) of independent samples."""
    return float(samples.mean()), float(samples.std(ddof=1) / math.sqrt(len(samples)))


def points_against(player, opponent, games: int, seed: int, paired: bool = False) -> tuple[float, float]:
    """(points per game, standard error) of ``player`` against ``opponent``, cubeless money;
    ``paired``: games in pairs on the same dice, the error taken over the pairs' means."""
    return mean_and_error(duel_samples(player, opponent, games, seed, paired))


def points_over_seeds(player, opponent, games: int, seeds: list[int],
                      paired: bool = False) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """``games`` games on each seed: every seed's (points per game, standard error), and all of
    them pooled. A candidate chosen on some seeds is judged on others: reporting each seed and
    the pool together keeps a lucky first seed from deciding alone."""
    per_seed = [duel_samples(player, opponent, games, seed, paired) for seed in seeds]
    return [mean_and_error(samples) for samples in per_seed], mean_and_error(np.concatenate(per_seed))


def engine_player(network: _nn.NeuralNet, plies: int = 0, race_network: bool | str = True,
                  crashed_network: _nn.NeuralNet | None = None, choice_network: _nn.NeuralNet | None = None,
                  shortlist: int = 3) -> _selfplay.EnginePlayer:
    """The engine as users get it: network, race tables and the shipped race network (or the
    race approximation when ``race_network`` is False, or the race network of that weights
    file when it is a path), ``crashed_network`` for crashed positions (None: the network),
    ``choice_network`` re-valuing the ``shortlist`` best plays of each roll (None: none),
    ``plies`` lookahead."""
    if isinstance(race_network, str):
        race = RaceNetwork.from_file(race_network).c_network
    else:
        race = shipped_race_network().c_network if race_network else None
    if crashed_network is None:  # (as builds without a crashed slot are called)
        return _selfplay.EnginePlayer(_engine.EngineCEvaluator(network, bearoff.race_tables(), race), plies)
    if choice_network is None:  # (as builds without a second stage are called)
        return _selfplay.EnginePlayer(_engine.EngineCEvaluator(network, bearoff.race_tables(), race, crashed_network),
                                      plies)
    from bgengine.evaluation.evaluator import engine_kernel

    return _selfplay.EnginePlayer(engine_kernel(network, bearoff.race_tables(), race, crashed_network,
                                                choice_network, shortlist), plies)


DISPATCH_POSITIONS = 40


def dispatch_rates(rounds: int, seed: int) -> dict[str, dict[str, list[float]]]:
    """Per configuration ("none": no crashed network; "same": the contact network in the
    crashed slot too, on builds that have one) and measure ("0-ply": batched contact boards,
    "1-ply": DISPATCH_POSITIONS contact positions), evaluations (positions) per CPU second
    through the engine's composite evaluator, the configurations timed in turn each round."""
    network = default_evaluator().network
    race = shipped_race_network().c_network
    kernels = {"none": _engine.EngineCEvaluator(network, bearoff.race_tables(), race)}
    try:
        kernels["same"] = _engine.EngineCEvaluator(network, bearoff.race_tables(), race, network)
    except TypeError:  # a build without the crashed slot
        pass
    boards = contact_boards(CONTACT_BOARDS, seed)
    searched = boards[:DISPATCH_POSITIONS]
    expected = {plies: _nply.nply_evaluate(kernels["none"], work, plies) for plies, work in ((0, boards), (1, searched))}
    for kernel in kernels.values():  # the same values, whatever the configuration
        assert np.array_equal(_nply.nply_evaluate(kernel, boards, 0), expected[0])
        assert np.array_equal(_nply.nply_evaluate(kernel, searched, 1), expected[1])
    rates: dict[str, dict[str, list[float]]] = {name: {"0-ply": [], "1-ply": []} for name in kernels}
    for _ in range(rounds):
        for name, kernel in kernels.items():
            started = time.process_time()
            for _ in range(5):
                _nply.nply_evaluate(kernel, boards, 0)
            rates[name]["0-ply"].append(5 * len(boards) / (time.process_time() - started))
            started = time.process_time()
            _nply.nply_evaluate(kernel, searched, 1)
            rates[name]["1-ply"].append(len(searched) / (time.process_time() - started))
    return rates


def test_strength_against_pubeval(benchmark):
    engine = engine_player(default_evaluator().network)
    first = _selfplay.duel(engine, pubeval_player(), 200, np.random.PCG64(1))
    assert np.array_equal(first, _selfplay.duel(engine, pubeval_player(), 200, np.random.PCG64(1)))
    assert set(np.abs(first).tolist()) <= {1, 2, 3}
    ppg, se = benchmark.pedantic(points_against, (engine, pubeval_player(), STRENGTH_GAMES, 1), rounds=1)
    benchmark.extra_info["points_per_game"] = ppg
    benchmark.extra_info["standard_error"] = se
    benchmark.extra_info["games"] = STRENGTH_GAMES


GNUBG = shutil.which("gnubg") or next((p for p in ["/usr/games/gnubg"] if Path(p).exists()), None)

# Runs inside GNU Backgammon's embedded Python: its 0-ply cubeless best move for each
# (position id, dice) of positions.json, as move text, and its 0-ply cubeless
# probabilities of the position (player on roll, before the roll), into moves.json.
GNUBG_SCRIPT = """
import json
import gnubg
gnubg.command("new game")
context = {"cubeful": 0, "plies": 0, "deterministic": 1, "noise": 0.0}
results = []
for position_id, die1, die2 in json.load(open("positions.json")):
    gnubg.command("set board " + position_id)
    gnubg.command("set dice %d %d" % (die1, die2))
    board = gnubg.board()
    move = gnubg.findbestmove(board, gnubg.cubeinfo(), context)
    probabilities = gnubg.evaluate(board, gnubg.cubeinfo(), context)[:5]
    results.append((gnubg.movetupletostring(move, board), list(probabilities)))
json.dump(results, open("moves.json", "w"))
"""


def gnubg_answers(problems: list[tuple[Position, tuple[int, int]]]) -> list[tuple[str, list[float]]]:
    """GNU Backgammon's 0-ply best move (text) for each (position, dice) and its 0-ply
    probabilities of the position; needs gnubg."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "positions.json").write_text(json.dumps([(p.gnubg_id(), d[0], d[1]) for p, d in problems]))
        (work / "script.py").write_text(GNUBG_SCRIPT)
        subprocess.run([GNUBG, "-t", "-q", "-p", "script.py"], cwd=work, check=True, capture_output=True, timeout=600)
        return json.loads((work / "moves.json").read_text())


def agreement_problems(count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Contact positions from seeded random play, each with a roll that has several moves."""
    rng = np.random.default_rng(seed)
    problems = []
    for p in contact_positions(count * 2, seed):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        if len(p.legal_moves(dice)) > 1:
            problems.append((p, dice))
    return problems[:count]


def agreement_with_gnubg(count: int, seed: int) -> tuple[int, int, float]:
    """(same best move as gnubg at 0-ply, problems, mean |our equity - gnubg's|) at 0-ply."""
    problems = agreement_problems(count, seed)
    same, differences = 0, []
    for (position, dice), (text, probabilities) in zip(problems, gnubg_answers(problems)):
        legal = position.legal_moves(dice)
        same += legal.position_after(legal.index(text)) == best_move(position, dice).position
        differences.append(abs(evaluate(position).equity - equity(probabilities)))
    return same, len(problems), float(np.mean(differences))


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed")
def test_agreement_with_gnubg_at_zero_ply(benchmark):
    problems = agreement_problems(100, SAMPLE_SEED)
    assert len(problems) == 100
    same, total, equity_difference = benchmark.pedantic(agreement_with_gnubg, (100, SAMPLE_SEED), rounds=1)
    assert 0 <= same <= total == 100 and 0 <= equity_difference < 3
    benchmark.extra_info["same_move_as_gnubg"] = same / total
    benchmark.extra_info["mean_absolute_equity_difference"] = equity_difference


def points_against_heuristic(games: int, seed: int, plies: int = 0) -> tuple[float, float]:
    """(points per game, standard error) of the EngineAgent against the HeuristicAgent,
    through the game engine (Python), alternating seats, cubeless money."""
    from bgengine import EngineAgent, HeuristicAgent, play_game

    engine, heuristic = EngineAgent(plies), HeuristicAgent()
    seeds = np.random.SeedSequence(seed).generate_state(games)
    points = []
    for g in range(games):
        first, second = (engine, heuristic) if g % 2 == 0 else (heuristic, engine)
        outcome = play_game(first, second, seed=int(seeds[g])).outcome
        engine_won = (outcome.winner == 0) == (g % 2 == 0)
        points.append(outcome.points if engine_won else -outcome.points)
    values = np.array(points, dtype=np.float64)
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(games))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Long strength measurements of the shipped network.")
    parser.add_argument("what", choices=["strength", "gnubg-agreement", "heuristic", "race-duel", "encodings", "dispatch"])
    parser.add_argument("--rounds", type=int, default=15, help="rounds of the encodings comparison")
    parser.add_argument("--encodings", type=int, nargs="+", default=[1, 2, 3], help="encodings compared")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, nargs="+",
                        help="strength: play --games games on each of these seeds (instead of --seed), each"
                             " seed's result and the pooled one")
    parser.add_argument("--paired-dice", action="store_true",
                        help="strength: games in pairs on the same dice, sides swapped (the dice's luck"
                             " mostly cancels; --games must be even)")
    parser.add_argument("--weights", help="network to measure (default: the shipped weights)")
    parser.add_argument("--opponent", help="another network's weights, played at 0-ply (default: PubEval)")
    parser.add_argument("--plies", type=int, default=0, help="lookahead of the measured engine")
    parser.add_argument("--network-only", action="store_true", help="no race tables, 0-ply network alone")
    parser.add_argument("--race-approximation", action="store_true",
                        help="the engines value races by the race approximation, not the race network")
    parser.add_argument("--race-network", help="strength: the measured engine's race network (.npz; default: the"
                        " shipped one)")
    parser.add_argument("--opponent-race-network", help="strength: the --opponent engine's race network (.npz;"
                        " default: the shipped one)")
    parser.add_argument("--crashed-weights", help="the measured engine's crashed-position network (.npz)")
    parser.add_argument("--choice-weights", help="strength: the measured engine's move choice re-values its best"
                        " --shortlist plays with this (wider) contact network (.npz; default: the shipped choice"
                        " network, if any, unless --weights or --no-choice-network)")
    parser.add_argument("--no-choice-network", action="store_true", help="strength: the measured engine without one")
    parser.add_argument("--opponent-choice-weights", help="strength: the same for the --opponent engine")
    parser.add_argument("--shortlist", type=int, default=3, help="plays a --*choice-weights network re-values")
    parser.add_argument("--opponent-crashed-weights", help="the --opponent engine's crashed-position network (.npz)")
    parser.add_argument("--no-crashed-network", action="store_true",
                        help="crashed positions by the contact network unless a --*crashed-weights is given"
                             " (default: the shipped crashed network, when the package has one)")
    args = parser.parse_args(argv)
    if args.what == "gnubg-agreement":
        if GNUBG is None:
            print("GNU Backgammon (gnubg) is not installed")
            return 1
        same, total, difference = agreement_with_gnubg(args.games, args.seed)
        print(f"engine at 0-ply chose gnubg's 0-ply move in {same} of {total} positions ({same / total:.1%});"
              f" mean |equity difference| of the positions {difference:.4f}")
        return 0
    if args.what == "encodings":
        rates = encoding_rates(args.rounds, args.seed, tuple(args.encodings))
        median = {encoding: float(np.median(values)) for encoding, values in rates.items()}
        for encoding, rate in median.items():
            print(f"encoding {encoding}: {rate / 1e6:.3f} M batched contact evaluations per CPU second"
                  f" (median of {args.rounds} rounds, {CONTACT_BOARDS} boards x 5 each)")
        first = args.encodings[0]
        for encoding in args.encodings[1:]:
            ratios = np.array(rates[encoding]) / np.array(rates[first])
            print(f"encoding {encoding} / encoding {first}: {np.median(ratios):.3f} (median of the rounds' ratios)")
        return 0
    if args.what == "dispatch":
        rates = dispatch_rates(args.rounds, args.seed)
        for name, measures in rates.items():
            print(f"crashed slot {name}: " + ", ".join(
                f"{measure} {np.median(values) / 1e3:.1f} k/CPU s" for measure, values in measures.items())
                + f" (median of {args.rounds} rounds; {CONTACT_BOARDS} boards x 5, {DISPATCH_POSITIONS} positions)")
        if "same" in rates:
            for measure in ("0-ply", "1-ply"):
                ratios = np.array(rates["same"][measure]) / np.array(rates["none"][measure])
                print(f"{measure} with / without a crashed network: {np.median(ratios):.3f} (median of the rounds' ratios)")
        print(json.dumps(rates))
        return 0
    if args.what == "heuristic":
        ppg, se = points_against_heuristic(args.games, args.seed, args.plies)
        print(f"engine at {args.plies}-ply: {args.games} games vs HeuristicAgent (seed {args.seed}):"
              f" {ppg:+.4f} ± {se:.4f} points per game")
        return 0
    network = NetworkEvaluator.from_file(args.weights).network if args.weights else default_evaluator().network
    from bgengine.evaluation.evaluator import crashed_network_of  # (dispatch runs on builds without it too)

    shipped_crashed = None if args.no_crashed_network else default_evaluator().crashed_network
    crashed = crashed_network_of(args.crashed_weights) if args.crashed_weights else shipped_crashed
    opponent_crashed = crashed_network_of(args.opponent_crashed_weights) if args.opponent_crashed_weights else shipped_crashed
    if args.what == "race-duel":
        ppg, se = points_against(engine_player(network, args.plies, True, crashed),
                                 engine_player(network, args.plies, False, crashed), args.games, args.seed)
        print(f"engine with the race network against the same engine with the race approximation, at"
              f" {args.plies}-ply: {args.games} games (seed {args.seed}): {ppg:+.4f} ± {se:.4f} points per game")
        return 0
    race_network = not args.race_approximation
    if (args.race_network or args.opponent_race_network) and not race_network:
        parser.error("--race-network and --opponent-race-network need the race network, not --race-approximation")
    if (args.choice_weights or args.opponent_choice_weights) and (args.network_only or crashed is None):
        parser.error("--choice-weights and --opponent-choice-weights need the engine with a crashed network")
    choice = (NetworkEvaluator.from_file(args.choice_weights).network if args.choice_weights
              else None if args.weights or args.no_choice_network or args.network_only or crashed is None
              else default_evaluator().choice_network)
    opponent_choice = (NetworkEvaluator.from_file(args.opponent_choice_weights).network
                       if args.opponent_choice_weights else None)
    player = network if args.network_only else engine_player(network, args.plies, args.race_network or race_network,
                                                             crashed, choice, args.shortlist)
    opponent = (engine_player(NetworkEvaluator.from_file(args.opponent).network,
                              race_network=args.opponent_race_network or race_network, crashed_network=opponent_crashed,
                              choice_network=opponent_choice, shortlist=args.shortlist)
                if args.opponent else pubeval_player())
    seeds = args.seeds or [args.seed]
    started = time.process_time()
    per_seed, (ppg, se) = points_over_seeds(player, opponent, args.games, seeds, args.paired_dice)
    elapsed = time.process_time() - started
    name = args.opponent or "PubEval"
    what = "network alone" if args.network_only else f"engine at {args.plies}-ply"
    if not args.network_only:
        what += f" (crashed positions by {args.crashed_weights or ('the contact network' if crashed is None else 'the shipped crashed network')})"
    if choice is not None:
        what += f", its best {args.shortlist} plays re-valued by {args.choice_weights or 'the shipped choice network'}"
    if args.opponent_choice_weights:
        name += f" (its best {args.shortlist} plays re-valued by {args.opponent_choice_weights})"
    dice = ", paired dice" if args.paired_dice else ""
    if args.race_network or args.opponent_race_network:
        what += f", races by {args.race_network or 'the shipped race network'}"
        name += f" (races by {args.opponent_race_network or 'the shipped race network'})"
    if len(seeds) > 1:
        for seed, (seed_ppg, seed_se) in zip(seeds, per_seed):
            print(f"  seed {seed}: {seed_ppg:+.4f} ± {seed_se:.4f}")
    played = f"seed {seeds[0]}" if len(seeds) == 1 else f"{len(seeds)} seeds {' '.join(map(str, seeds))}, pooled"
    games = args.games if len(seeds) == 1 else f"{len(seeds)} x {args.games}"
    print(f"{what}: {games} games vs {name} ({played}{dice}): {ppg:+.4f} ± {se:.4f} points per game"
          f" ({elapsed:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
