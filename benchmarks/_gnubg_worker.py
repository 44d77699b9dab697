"""Runs *inside* GNU Backgammon (``gnubg -t -q -p _gnubg_worker.py``) for gnubg_bridge.py.

It reads a JSON list of jobs from the file named by $BGENGINE_GNUBG_REQUEST, answers each
with gnubg's own Python module (no text scraping) and writes a JSON list of replies to
$BGENGINE_GNUBG_REPLY. A job that fails gets {"error": "..."} and the batch goes on.
Boards are gnubg's: [opponent's 25 counts, player on roll's 25 counts], points 1..24
from each side's own view, then the bar.
"""

import ctypes
import json
import os
import sys
import time
import traceback

import gnubg  # only importable inside the gnubg process

SETUP = (
    "set player 0 human",
    "set player 1 human",
    "set jacoby off",
    "set beavers 0",
    "set automatic roll off",
    "set display off",
    "new game",
)


def _eval_context(plies, cubeful):
    return gnubg.evalcontext(int(cubeful), int(plies), 1, 0, 0.0)


def _money_cube():
    return gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)


def _cube_info(job):
    """gnubg's cube-info of a job's match state (its cube, owner, player on roll, score, rules)."""
    owner = -1 if job["owner"] is None else int(job["owner"])
    score = tuple(int(s) for s in job["score"])
    info = gnubg.cubeinfo(int(job["cube"]), owner, int(job["on_roll"]), int(job["match_length"]), score,
                          int(job["crawford"]), 0)
    info["jacoby"] = int(job["jacoby"])
    return info


def _board(job):
    return tuple(tuple(int(n) for n in side) for side in job["board"])


def _evaluate(job):
    board = _board(job)
    values = gnubg.evaluate(board, _money_cube(), _eval_context(job["plies"], 0))
    return {"probabilities": list(values[:5]), "equity": values[5], "class": gnubg.classifypos(board)}


def _set_move_filters(full_width):
    """gnubg's default move filters, or every level skipped so that every legal move gets the full depth.

    (By command: gnubg 1.07's setevalhintfilter raises SystemError.)
    """
    for f in DEFAULT_FILTERS:
        accept, extra, threshold = (-1, 0, 0.0) if full_width else (f["acceptmoves"], f["extramoves"], f["threshold"])
        gnubg.command("set evaluation movefilter %d %d %d %d %f" % (f["ply"], f["level"], accept, extra, threshold))


def _moves(job):
    """Every legal move of the roll with gnubg's equity, best first (hint at the given plies).

    With "full_width" nothing prunes: every move gets the full depth, not only gnubg's candidates,
    and the search below each move uses no pruning nets (gnubg's default uses them).
    """
    full_width = bool(job.get("full_width"))
    _set_move_filters(full_width)
    gnubg.command("set evaluation chequerplay evaluation prune %s" % ("off" if full_width else "on"))
    gnubg.command("set evaluation chequerplay evaluation plies %d" % int(job["plies"]))
    gnubg.command("set evaluation chequerplay evaluation cubeful %s" % ("on" if job.get("cubeful") else "off"))
    gnubg.command("set board %s" % job["position_id"])
    if gnubg.positionid(gnubg.board()) != job["position_id"]:
        raise ValueError("gnubg did not take the board %s" % job["position_id"])
    gnubg.command("set dice %d %d" % tuple(job["dice"]))
    hint = gnubg.hint(-1)
    if full_width and any(row["context"]["prune"] for row in hint["hint"]):
        raise ValueError("gnubg used its pruning nets in a full-width search")
    return {
        "moves": [
            {"move": row["move"], "equity": row["equity"], "probabilities": list(row["details"]["probs"]),
             "plies": row["context"]["plies"]}
            for row in hint["hint"]
        ]
    }


def _cube(job):
    """gnubg's cubeful decision: equities of no double, double/take, double/pass and its verdict."""
    board = _board(job)
    info = _cube_info(job)
    optimal, no_double, take, drop, code, text = gnubg.cfevaluate(board, info, _eval_context(job["plies"], 1))
    return {"optimal": optimal, "no_double": no_double, "double_take": take, "double_pass": drop,
            "code": code, "recommendation": text}


def _selfplay(job):
    """gnubg plays ``games`` cubeless money games against itself (seeded dice, both sides at ``plies``).

    Every turn of every game comes back as (Position ID of the player on roll, dice); then the
    two human players of SETUP are restored.
    """
    for side in (0, 1):
        gnubg.command("set player %d gnubg" % side)
        gnubg.command("set player %d chequerplay evaluation plies %d" % (side, int(job["plies"])))
    for command in ("set automatic game off", "set confirm new off", "set cube use off", "set rng mersenne",
                    "set seed %d" % int(job["seed"]), "new session"):
        gnubg.command(command)
    for _ in range(int(job["games"]) - 1):  # "new session" plays the first game
        gnubg.command("new game")
    games = [
        [{"position_id": row["board"], "dice": list(row["dice"])} for row in game["game"] if row["action"] == "move"]
        for game in gnubg.match(0, 1, 0, 0)["games"]
    ]
    for command in ("set player 0 human", "set player 1 human", "set cube use on", "new session"):
        gnubg.command(command)
    return {"games": games}


def _position_id(job):
    board = _board(job)
    return {"position_id": gnubg.positionid(board), "board_from_id": gnubg.positionfromid(job["position_id"])}


def _match_id(job):
    info = _cube_info(job)
    dice = tuple(job["dice"] or (0, 0))
    position = gnubg.posinfo(int(job["on_roll"]), 0, 0, 1, dice)
    return {"match_id": gnubg.matchid(info, position)}


def _met(job):
    pre, post0, post1 = gnubg.met(int(job["length"]))
    return {"pre_crawford": [list(row) for row in pre], "post_crawford": [list(post0), list(post1)]}


ROLLOUT_SETUP = (
    "set threads 1",
    "set rollout cubeful off",
    "set rollout quasirandom on",
    "set rollout rng mersenne",
    "set rollout later enable off",
    "set rollout truncation enable off",
)


def _rollout(job):
    """A cubeless rollout of the position on one thread, timed in process CPU time.

    gnubg prints a rollout's result only to a terminal: the bridge runs this worker under
    ``script`` and reads the result between the two markers printed here.
    """
    for command in ROLLOUT_SETUP + (
        "set rollout trials %d" % int(job["trials"]),
        "set rollout seed %d" % int(job["seed"]),
        "set rollout chequerplay plies %d" % int(job["plies"]),
        "set rollout varredn %s" % ("on" if job["variance_reduction"] else "off"),
        "set board %s" % job["position_id"],
    ):
        gnubg.command(command)
    if gnubg.positionid(gnubg.board()) != job["position_id"]:
        raise ValueError("gnubg did not take the board %s" % job["position_id"])
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    sys.stdout.write("\nBGENGINE-JOB-START\n")
    sys.stdout.flush()
    started = time.process_time()
    gnubg.command("rollout")
    seconds = time.process_time() - started
    libc.fflush(None)
    sys.stdout.write("\nBGENGINE-JOB-END\n")
    sys.stdout.flush()
    return {"cpu_seconds": seconds}


HANDLERS = {"evaluate": _evaluate, "rollout": _rollout, "moves": _moves, "cube": _cube, "position_id": _position_id,
            "match_id": _match_id, "selfplay": _selfplay, "met": _met}
DEFAULT_FILTERS = gnubg.getevalhintfilter()


def main():
    with open(os.environ["BGENGINE_GNUBG_REQUEST"]) as request:
        jobs = json.load(request)
    for command in SETUP:
        gnubg.command(command)
    replies = []
    for job in jobs:
        try:
            replies.append(HANDLERS[job["kind"]](job))
        except Exception as error:  # one bad job must not lose the batch
            replies.append({"error": "%s: %s" % (type(error).__name__, error), "trace": traceback.format_exc()})
    with open(os.environ["BGENGINE_GNUBG_REPLY"], "w") as reply:
        json.dump(replies, reply)


main()
