"""Speed of the Position value type and its formats (positions per second).

Run: python -m pytest benchmarks/bench_position.py --benchmark-enable
"""

import numpy as np

from bgengine import Position, parse_xgid

OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def _sample_boards(count: int = 1000) -> list[bytes]:
    """Seeded positions with checkers scattered legally, as raw boards."""
    rng = np.random.default_rng(2026)
    boards = []
    while len(boards) < count:
        slots = np.zeros(26, dtype=np.int8)
        for slot in rng.integers(1, 26, size=rng.integers(1, 16)):
            slots[slot] += 1
        free = [s for s in range(25) if slots[s] == 0]
        for slot in rng.choice(free, size=rng.integers(1, 16)):
            slots[slot] -= 1
        boards.append(slots.tobytes())
    return boards


BOARDS = _sample_boards()
POSITIONS = [Position(b) for b in BOARDS]
IDS = [p.gnubg_id() for p in POSITIONS]


def test_validate_positions(benchmark):
    result = benchmark(lambda: [Position(b) for b in BOARDS])
    assert result == POSITIONS


def test_encode_position_ids(benchmark):
    assert benchmark(lambda: [p.gnubg_id() for p in POSITIONS]) == IDS


def test_decode_position_ids(benchmark):
    assert benchmark(lambda: [Position.from_gnubg_id(i) for i in IDS]) == POSITIONS


def test_parse_xgid(benchmark):
    position, _ = benchmark(parse_xgid, OPENING_XGID)
    assert position == Position.initial()
