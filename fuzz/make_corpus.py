"""Write the seed corpora ``fuzz/corpus/<target>/``: valid inputs made with bgengine's own
writers from seeded random play, and near-valid ones that sit at the edge of each format.

Run from the repository root: ``python fuzz/make_corpus.py`` (deterministic; it replaces
the corpora). The seeds are small on purpose: the fuzzer finds the rest.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import numpy as np

from bgengine import MatchState, Position, RandomAgent, format_mat, format_sgf, play_match

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from conftest import random_play_positions  # noqa: E402 - the tests' seeded sampler
from bgengine.formats.gnubg_id import encode_match_id, encode_position_id, format_gnubg_ids
from bgengine.formats.xgid import format_xgid

CORPUS = Path(__file__).parent / "corpus"
SEED = 16
OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"

#: Texts at the edges of the formats that every text target also starts from.
EDGE_TEXTS = [
    "",
    " ",
    ":",
    "\n",
    "１３/７",  # full-width digits
    "١٣/٧",  # Arabic-Indic digits
    "9" * 120,
    "-" * 26,
    "A" * 14,
    "\x00" * 12,
]


def match_states(rng: np.random.Generator, count: int) -> list[MatchState]:
    """Seeded match states: money and matches, cube centred or owned, dice or not, Crawford."""
    states = [MatchState(), MatchState(match_length=7, score=(6, 3), crawford=True, resignation_offered=2)]
    while len(states) < count:
        length = int(rng.choice([0, 1, 3, 5, 7, 11, 25]))
        score = (int(rng.integers(length)), int(rng.integers(length))) if length else (0, 0)
        cube = 1 << int(rng.integers(0, 7))
        owner = None if cube == 1 else int(rng.integers(2))
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7))) if rng.random() < 0.6 else None
        states.append(
            MatchState(
                match_length=length,
                score=score,
                cube_value=cube,
                cube_owner=owner,
                on_roll=int(rng.integers(2)),
                jacoby=not length and bool(rng.integers(2)),
                beavers=not length and bool(rng.integers(2)),
                dice=dice,
            )
        )
    return states


def position_seeds(positions: list[Position]) -> list[str]:
    ids = [encode_position_id(position) for position in positions]
    return ids + [ids[0][:-1], ids[1] + "A", ids[2].lower(), ids[3][:7] + "=" + ids[3][8:]]


def match_id_seeds(states: list[MatchState]) -> list[str]:
    ids = [encode_match_id(state) for state in states]
    return ids + [ids[0][:-1], ids[1] + "A", "////////////", "AAAAAAAAAAAA"]


def gnubg_ids_seeds(positions: list[Position], states: list[MatchState]) -> list[str]:
    pairs = [format_gnubg_ids(p, s) for p, s in zip(positions, states, strict=False)]
    position_id, match_id = pairs[0].split(":")
    return pairs + [
        encode_position_id(positions[0]),
        f"Position ID: {position_id} Match ID: {match_id}",
        f"{position_id}:",
        f"{position_id}::{match_id}",
        f"  {position_id} : {match_id}  ",
    ]


def xgid_seeds(positions: list[Position], states: list[MatchState]) -> list[str]:
    xgids = [format_xgid(p, s) for p, s in zip(positions, states, strict=False)]
    fields = OPENING_XGID.split(":")
    return xgids + [
        OPENING_XGID,
        OPENING_XGID.replace(":00:", ":D:"),
        OPENING_XGID.replace(":00:", ":B:"),
        OPENING_XGID[len("XGID="):],
        ":".join(fields[:5] + ["9" * 7] + fields[6:]),
        ":".join(fields[:5] + ["-0"] + fields[6:]),
        ":".join(fields[:-1] + ["15"]),
        ":".join(fields[:1] + ["١"] + fields[2:]),
    ]


def move_seeds(rng: np.random.Generator) -> list[bytes]:
    """Legal plays of random rolls, each behind its three header bytes (see check_move):
    position 0 (the opening) with the dice as text, the others with the dice as numbers."""
    from parser_checks import MOVE_POSITIONS

    seeds = []
    for index, position in enumerate(MOVE_POSITIONS):
        for _ in range(6):
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            moves = position.legal_moves(dice)
            move = moves.move(int(rng.integers(len(moves))))
            header = bytes([0x80 | index]) + f"{dice[0]}{dice[1]}".encode() if index == 0 else bytes([index, *dice])
            seeds.append(header + str(move).encode())
    texts = ["24/18 13/11", "bar/22*", "6/off(2)", "8/5(2) 6/5(2)", "13/7*/5", "pass", "25/0", "13 / 7 *", "24/23(4)", "bar/23/0 13/9"]
    seeds += [bytes([0, 3, 1]) + text.encode() for text in texts]
    seeds.append(bytes([2, 3, 1]) + b"4/1/off")  # finding 3: a named landing on a blot hits
    return seeds


def short_matches() -> list:
    """Short random matches, with doubles, takes and drops."""
    matches = []
    for seed, length in ((2, 1), (5, 3), (4, 3)):
        agents = [RandomAgent(s, double_probability=0.3, take_probability=0.6) for s in np.random.SeedSequence(seed).spawn(2)]
        matches.append(play_match(agents[0], agents[1], length, seed=seed, names=("Ann", "Bo")))
    return matches


def mat_seeds() -> list[str]:
    """The short matches written by format_mat, plus damaged copies."""
    texts = [format_mat(match) for match in short_matches()]
    lines = texts[0].splitlines(keepends=True)
    texts += [
        "".join(lines[: len(lines) // 2]),
        "".join(lines[:8] + lines[9:]),
        " 99999 point match\n",
        " 0 point match\n",
        "; only a comment\n",
    ]
    return texts


def sgf_seeds() -> list[str]:
    """The short matches written by format_sgf, plus damaged copies."""
    texts = [format_sgf(match) for match in short_matches()[:2]]
    first = texts[0]
    return texts + [first[: len(first) // 2], first.replace("]", "", 1), "(;)", "(;GM[6]", "(;GM[1])"]


def write(target: str, seeds: list[str] | list[bytes]) -> None:
    folder = CORPUS / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for seed in seeds:
        data = seed.encode() if isinstance(seed, str) else seed
        (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def main() -> None:
    rng = np.random.default_rng(SEED)
    positions = [Position.initial()] + random_play_positions(11, seed=SEED)
    states = match_states(rng, len(positions))
    write("position_id", position_seeds(positions) + EDGE_TEXTS)
    write("match_id", match_id_seeds(states) + EDGE_TEXTS)
    write("gnubg_ids", gnubg_ids_seeds(positions, states) + EDGE_TEXTS)
    write("xgid", xgid_seeds(positions, states) + EDGE_TEXTS)
    write("move", move_seeds(rng) + [bytes([0, 6, 6]) + text.encode() for text in EDGE_TEXTS])
    write("mat", mat_seeds() + EDGE_TEXTS)
    write("sgf", sgf_seeds() + EDGE_TEXTS)
    readers = [  # the first byte picks the reader (see check_user_input)
        *(b"\x00" + text.encode() for text in xgid_seeds(positions[:3], states[:3]) + gnubg_ids_seeds(positions[:3], states[:3])),
        *(b"\x01" + text.encode() for text in ["31", "3-1", "6, 6", " 5 / 2 ", "0-7", "３１"]),
        *(b"\x02" + text.encode() for text in ["2-4", "0:0", "99999-1", "２-４", "3 - 12"]),
        *(b"\x03" + text.encode() for text in ["0.5,0.1,0,0.1,0", "1 1 1 1 1", "nan,0,0,0,0", "1e-400 0 0 0 0"]),
    ]
    write("user_input", readers)


if __name__ == "__main__":
    main()
