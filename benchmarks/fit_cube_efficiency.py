"""Cube efficiencies from the engine's own cubeful rollouts (not from any other engine's output).

Janowski's model says a cubeful equity is (1 - x) * dead + x * live, dead and live being
functions of the cubeless chances. Roll a position out cubefully and the rollout gives both
sides of that equation from the same games: its cubeful equity E and its cubeless means
(p, W, L), from which dead and live follow. So each rolled-out line says
``E - dead = x * (live - dead)`` up to noise, and x for a class of positions is the
least-squares slope over the class's lines (see ``slope``).

Positions come from the engine's seeded self-play (``sample_positions.sampled_turns``);
each is rolled out as No double (cube centred, the player on roll may not double before
its first roll) and, in money play, as Double/Take (cube 2, owned by the opponent). Games
are played to the end (``bearoff_tables=False``: the table's stop would value them by the
model being fitted). Post-Crawford lines (a 7-point match, the trailer 2..5-away against
the 1-away leader, either side on roll, centred cube) fit the efficiency at those scores
with the match model (``MatchCubeModel``), from which the free-double share follows.

Run (records are appended to the JSON file, so a run can be resumed):

    python benchmarks/fit_cube_efficiency.py rollouts --seed 2027 --trials 432 \
        --contact 48 --race 40 --bearoff 32 --post-crawford 24
    python benchmarks/fit_cube_efficiency.py fit
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sample_positions import sampled_turns  # noqa: E402

from bgengine import MatchState, Position  # noqa: E402
from bgengine.cube.efficiency import is_last_roll  # noqa: E402
from bgengine.cube.janowski import dead_equity, live_equity  # noqa: E402
from bgengine.cube.match_equity import MatchScore  # noqa: E402
from bgengine.cube.match_model import MatchCubeModel  # noqa: E402
from bgengine.cube.met import default_met  # noqa: E402
from bgengine.cube.referee import cube_referee  # noqa: E402
from bgengine.evaluation.evaluator import evaluate  # noqa: E402
from bgengine.match_state import CubeOwner  # noqa: E402
from bgengine.position import Phase  # noqa: E402
from bgengine.probabilities import GameProbabilities  # noqa: E402
from bgengine.rollouts.monte_carlo import RolloutSettings, rollout  # noqa: E402

RECORDS = Path(__file__).resolve().parent / "results" / "cube_efficiency_rollouts.json"
#: Positions whose 0-ply winning chance is outside this window say little about the cube.
CHANCE_WINDOW = (0.15, 0.9)
#: The lines the fit uses: the player on roll the favourite, where its double is the question
#: (the decision compares No double and Double/Take there); the underdog's lines realise more
#: of the live cube and would pull x up where no double is considered.
DECISION_WINDOW = (0.5, 0.9)
POST_CRAWFORD_TRAILER_AWAY = (2, 3, 4, 5)
MATCH_LENGTH = 7
#: The pips over which the exact bear-off fit's line is stated: x(pips) = a + b (pips - 6) / 24.
EXACT_PIPS_FROM, EXACT_PIPS_SPAN = 6, 24


def position_class(position: Position) -> str | None:
    """"contact", "race" or "bear-off" (None: a last roll or a finished game)."""
    phase = position.phase
    if phase is Phase.CONTACT:
        return "contact"
    if phase is Phase.RACE:
        return "race"
    if phase is Phase.BEAROFF and not is_last_roll(position):
        return "bear-off"
    return None


def sampled_positions(seed: int, wanted: dict[str, int]) -> dict[str, list[Position]]:
    """Distinct self-play positions per class, in play order, with 0-ply chances in the window."""
    found: dict[str, list[Position]] = {name: [] for name in wanted}
    seen: set[str] = set()
    count = 4000
    while any(len(found[name]) < n for name, n in wanted.items()):
        for position, _ in sampled_turns(seed, count):
            name = position_class(position)
            key = position.xgid()
            if name not in found or len(found[name]) >= wanted[name] or key in seen:
                continue
            seen.add(key)
            win = evaluate(position).probabilities.win
            if CHANCE_WINDOW[0] <= win <= CHANCE_WINDOW[1]:
                found[name].append(position)
        count *= 2
    return found


def _line(position: Position, match: MatchState, trials: int, seed: int, efficiency: float | None) -> dict[str, object]:
    settings = RolloutSettings(trials=trials, seed=seed, bearoff_tables=False)
    start = time.perf_counter()
    result = rollout(position, match, settings=settings, referee=cube_referee(efficiency))
    return {
        "xgid": position.xgid(),
        "match_length": match.match_length,
        "score": list(match.score),
        "cube_value": match.cube_value,
        "cube_owner": match.cube_owner,
        "probabilities": list(result.probabilities.as_tuple()),
        "cubeful": result.cubeful_equity,
        "cubeful_se": result.cubeful_standard_error,
        "trials": result.trials,
        "seed": seed,
        "in_game_efficiency": efficiency,
        "seconds": time.perf_counter() - start,
    }


def money_lines(position: Position) -> list[MatchState]:
    """No double (centred) and Double/Take (cube 2, the opponent owns it)."""
    return [MatchState(), MatchState(cube_value=2, cube_owner=1)]


#: Owned-cube lines are rolled out only where the player on roll may be redoubling: the
#: No double line's rolled-out winning chance at least this (lines outside the decision
#: window are not fitted anyway).
OWNED_FROM = 0.45
#: Owned-cube lines take the seed ``--seed`` + this + their index (apart from the other lines').
OWNED_SEED_OFFSET = 100_000


def owned_jobs(records: list[dict]) -> list[tuple[str, Position, MatchState]]:
    """No redouble lines (cube 2 owned by the player on roll, player 0) of the positions of the
    file's money No double lines, in file order: the same positions in all three cube states."""
    return [(r["group"], Position.from_xgid(r["xgid"]), MatchState(cube_value=2, cube_owner=0))
            for r in records if r["match_length"] == 0 and r["cube_owner"] is None
            and r["probabilities"][0] >= OWNED_FROM]


def line_owner(record: dict) -> CubeOwner:
    """The cube's owner of a rolled-out line, from the player on roll (player 0)."""
    owner = record["cube_owner"]
    return CubeOwner.CENTRED if owner is None else CubeOwner.PLAYER if owner == 0 else CubeOwner.OPPONENT


def post_crawford_lines(position: Position) -> list[MatchState]:
    """Centred cube, trailer k-away against the leader 1-away, each side on roll."""
    lines = []
    for away in POST_CRAWFORD_TRAILER_AWAY:
        trailer_score = MATCH_LENGTH - away
        lines.append(MatchState(match_length=MATCH_LENGTH, score=(trailer_score, MATCH_LENGTH - 1)))
        lines.append(MatchState(match_length=MATCH_LENGTH, score=(MATCH_LENGTH - 1, trailer_score)))
    return lines


def run_rollouts(args: argparse.Namespace) -> None:
    records = _load(args.records)
    done = {line_key(r["group"], r["xgid"], r["match_length"], r["score"], r["cube_value"], r["cube_owner"])
            for r in records}
    if args.owned:
        run_jobs(owned_jobs(records), args.seed + OWNED_SEED_OFFSET, records, done, args)
        return
    wanted = {"contact": max(args.contact, args.post_crawford), "race": args.race, "bear-off": args.bearoff}
    positions = sampled_positions(args.seed, wanted)
    jobs: list[tuple[str, Position, MatchState]] = []
    counts = {"contact": args.contact, "race": args.race, "bear-off": args.bearoff}
    for i in range(max(counts.values())):  # classes interleaved: a cut-short run covers all
        for name, n in counts.items():
            if i < n:
                jobs += [(name, positions[name][i], m) for m in money_lines(positions[name][i])]
    for position in positions["contact"][: args.post_crawford]:
        jobs += [("post-crawford", position, m) for m in post_crawford_lines(position)]
    run_jobs(jobs, args.seed, records, done, args)


def run_jobs(jobs: list[tuple[str, Position, MatchState]], seed: int, records: list[dict], done: set[tuple],
             args: argparse.Namespace) -> None:
    """Roll out the jobs not done yet (job i with seed ``seed`` + i), saving after each line."""
    order = list(enumerate(jobs))
    for index, (group, position, match) in reversed(order) if args.reverse else order:
        key = line_key(group, position.xgid(), match.match_length, match.score, match.cube_value, match.cube_owner)
        if key in done:
            continue
        record = {"group": group, **_line(position, match, args.trials, seed + index, args.in_game_efficiency)}
        records.append(record)
        _save(records, args.records)
        print(f"{index + 1}/{len(jobs)} {group} {record['cubeful']:+.4f} ± {record['cubeful_se']:.4f}"
              f" ({record['seconds']:.1f} s)", flush=True)


def line_key(group: str, xgid: str, match_length: int, score: object, cube_value: int, owner: int | None) -> tuple:
    """What tells rolled-out lines apart (a resumed run skips the lines it has)."""
    return group, xgid, match_length, tuple(score), cube_value, owner  # type: ignore[arg-type]


# ----- the fit ------------------------------------------------------------------------------


def model_terms(record: dict) -> tuple[float, float]:
    """(E - dead, live - dead) of a rolled-out line, from its own cubeless means."""
    chances = GameProbabilities.from_estimate(record["probabilities"])
    p = chances.win
    if record["match_length"] == 0:
        W, L = chances.average_win_value(), chances.average_loss_value()  # noqa: N806
        dead, live = dead_equity(W, L)(p), live_equity(W, L, line_owner(record))(p)
    else:
        match = MatchState(match_length=record["match_length"], score=tuple(record["score"]))
        model = MatchCubeModel(chances, MatchScore.from_match_state(match), default_met(), 0.0)
        dead, live = model.dead(1)(p), model.live(1, CubeOwner.CENTRED)(p)
    return record["cubeful"] - dead, live - dead


def slope(records: list[dict], extra: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Least squares of E - dead on (live - dead) [* (1, extra)]: coefficients and their
    standard errors (sandwich: from the residuals, which hold both the rollouts' noise and
    the positions' own spread around the class's x).

    Unweighted: a class's x should make the model's equities right over its positions, and a
    line's rollout standard error says nothing about how far that position's own x is from
    the class's (a nearly dead cube is rolled out with almost no error and would swamp a
    weighted fit)."""
    terms = np.array([model_terms(record) for record in records])
    return least_squares(terms[:, 0], terms[:, 1], extra)


def least_squares(y: np.ndarray, z: np.ndarray, extra: list[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The unweighted least squares of ``slope`` on given (E - dead, live - dead) pairs."""
    design = z[:, None] if extra is None else np.column_stack([z, z * np.array(extra)])
    inverse = np.linalg.inv(design.T @ design)
    coefficients = inverse @ design.T @ y
    residual = y - design @ coefficients
    meat = (design * residual[:, None] ** 2).T @ design
    errors = np.sqrt(np.diag(inverse @ meat @ inverse))
    return coefficients, errors


def in_decision_window(record: dict) -> bool:
    """A line where the player on roll's double is the question: that player the favourite
    (DECISION_WINDOW) and, post-Crawford, the trailer (the leader has no use for the cube)."""
    low, high = DECISION_WINDOW
    trailer_on_roll = record["match_length"] == 0 or record["score"][0] < record["score"][1]
    return low <= record["probabilities"][0] <= high and trailer_on_roll


#: The cube states of the lines, from the player on roll, as the fit names them.
STATE_NAMES = {CubeOwner.CENTRED: "centred", CubeOwner.PLAYER: "owned", CubeOwner.OPPONENT: "opponent owns"}


def run_fit(args: argparse.Namespace) -> None:
    records = _load(args.records) if args.all_lines else [r for r in _load(args.records) if in_decision_window(r)]
    if not args.all_lines:
        print("lines of the decision window: the player on roll the favourite (50..90 %) and able to double"
              " (post-Crawford: the trailer)")
    results: dict[str, float] = {}
    for group in ("contact", "race", "bear-off", "post-crawford"):
        in_group = [r for r in records if r["group"] == group]
        states = [("every state", in_group)] + [
            (name, [r for r in in_group if line_owner(r) is owner]) for owner, name in STATE_NAMES.items()]
        for state, chosen in states:
            if len(chosen) < 2:
                continue
            (x,), (error,) = slope(chosen)
            positions = len({r["xgid"] for r in chosen})
            print(f"{group:<14}{state:<14} x = {x:.3f} ± {error:.3f}  ({len(chosen)} lines, {positions} positions)")
            results[f"{group} {state}"] = float(x)
            if group == "race":
                pips = [(Position.from_xgid(r["xgid"]).pip_counts()[0] - 40) / 80 for r in chosen]
                (a, b), (ea, eb) = slope(chosen, pips)
                print(f"{'':<28} x(pips) = {a:.3f} ± {ea:.3f} + ({b:.3f} ± {eb:.3f}) * (pips - 40) / 80")
        if group == "post-crawford":
            for away in POST_CRAWFORD_TRAILER_AWAY:
                at = [r for r in in_group if MATCH_LENGTH - min(r["score"]) == away]
                (xa,), (ea,) = slope(at)
                print(f"{'':<28} trailer {away}-away: x = {xa:.3f} ± {ea:.3f} ({len(at)} lines)")
    if "contact centred" in results and "post-crawford centred" in results:
        contact, post = results["contact centred"], results["post-crawford centred"]
        print(f"free-double share (x_post - x_contact centred) / (1 - x_contact centred) = "
              f"{(post - contact) / (1 - contact):.3f}")


def run_exact_bearoff(args: argparse.Namespace) -> None:
    """The same slope on exact values: short bear-offs in the two-sided table (both sides
    home, 1..6 checkers each, random, seeded), exact No double and Double/Take per cube
    against the model on the exact cubeless chances; last rolls left out (their own class)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from conftest import random_bearoff_positions

    from bgengine.cube.bearoff_exact import exact_money_doubling_functions
    from bgengine.evaluation import race

    ys, zs, pips, owners = [], [], [], []
    for position in random_bearoff_positions(args.positions, seed=args.seed):
        if position.is_game_over() or is_last_roll(position):
            continue
        chances = GameProbabilities.from_vector(race.evaluate(position))
        W, L, p = chances.average_win_value(), chances.average_loss_value(), chances.win  # noqa: N806
        exact = exact_money_doubling_functions(position, MatchState(), CubeOwner.CENTRED)
        assert exact is not None and exact.double_take is not None
        for value, owner in ((exact.no_double(p), CubeOwner.CENTRED), (exact.double_take(p) / 2, CubeOwner.OPPONENT)):
            dead = dead_equity(W, L)(p)
            ys.append(value - dead)
            zs.append(live_equity(W, L, owner)(p) - dead)
            pips.append(position.pip_counts()[0])
            owners.append(owner)
    y, z = np.array(ys), np.array(zs)
    x = float(z @ y / (z @ z))
    print(f"exact short bear-offs (seed {args.seed}): x = {x:.3f} over {len(y) // 2} positions;"
          f" mean |E - model| at this x {np.mean(np.abs(y - x * z)):.4f}, at 0.6 {np.mean(np.abs(y - 0.6 * z)):.4f}")
    (a, b), (ea, eb) = least_squares(y, z, [(n - EXACT_PIPS_FROM) / EXACT_PIPS_SPAN for n in pips])
    line = a + b * (np.array(pips) - EXACT_PIPS_FROM) / EXACT_PIPS_SPAN
    print(f"  as a line in the pips of the player on roll: x(pips) = {a:.3f} ± {ea:.3f} + ({b:.3f} ± {eb:.3f})"
          f" * (pips - {EXACT_PIPS_FROM}) / {EXACT_PIPS_SPAN}; mean |E - model| {np.mean(np.abs(y - line * z)):.4f}")
    for owner in (CubeOwner.CENTRED, CubeOwner.OPPONENT):
        at = np.array([o is owner for o in owners])
        (xs,), (es,) = least_squares(y[at], z[at])
        print(f"  {STATE_NAMES[owner]}: x = {xs:.3f} ± {es:.3f}")


def _load(path: Path) -> list[dict]:
    return json.loads(path.read_text()) if path.exists() else []


def _save(records: list[dict], path: Path) -> None:
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(records, indent=0) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    roll = commands.add_parser("rollouts")
    roll.add_argument("--seed", type=int, default=2027)
    roll.add_argument("--trials", type=int, default=432)
    roll.add_argument("--contact", type=int, default=48)
    roll.add_argument("--race", type=int, default=40)
    roll.add_argument("--bearoff", type=int, default=32)
    roll.add_argument("--post-crawford", type=int, default=24)
    roll.add_argument("--reverse", action="store_true", help="the jobs last first (a second process's share)")
    roll.add_argument("--owned", action="store_true",
                      help="only No redouble lines (cube 2 owned by the player on roll) of the file's money"
                           f" positions whose No double line wins at least {OWNED_FROM:.0%}")
    roll.add_argument("--in-game-efficiency", type=float, default=None,
                      help="x of the cube decisions inside the games (default: the referee's, 0.68 in contact)")
    roll.set_defaults(run=run_rollouts)
    exact = commands.add_parser("exact-bearoff")
    exact.add_argument("--seed", type=int, default=2027)
    exact.add_argument("--positions", type=int, default=2000)
    exact.set_defaults(run=run_exact_bearoff)
    fit = commands.add_parser("fit")
    fit.add_argument("--all-lines", action="store_true", help="every line, not only the decision window's")
    fit.set_defaults(run=run_fit)
    for command in (roll, fit):
        command.add_argument("--records", type=Path, default=RECORDS, help="the JSON file of rolled-out lines")
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
