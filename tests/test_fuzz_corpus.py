"""Every parser's fuzz check over its seed corpus and a seeded batch of garbage made from it:
each outcome is a typed error or a valid object that round-trips (issue 16).

The checks are the fuzz targets' own (``fuzz/parser_checks.py``); this runs them for
seconds without atheris, the fuzz scripts run them for as long as one likes with it.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bgengine.errors import InvalidNotationError

FUZZ = Path(__file__).parent.parent / "fuzz"
CORPUS = FUZZ / "corpus"


def _load_checks():
    spec = importlib.util.spec_from_file_location("parser_checks", FUZZ / "parser_checks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("parser_checks", module)
    spec.loader.exec_module(module)
    return module


parser_checks = _load_checks()

MUTATIONS_PER_SEED = 24
#: Digits that are not ASCII: full-width, Arabic-Indic, Devanagari, superscript, circled.
UNICODE_DIGITS = "０１２３４５６７８９٠١٢٣٤٥٦٧٨٩०१२३४५६७८९¹²³①"


def _flip_bit(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _insert_bytes(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b":", b"/", b"*", b" ", b"\n", b"(", b")", b"-", b"0", b"\x00"]) + data[at:]


def _random_bytes(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.randbytes(rng.randrange(1, 16)) + data[at:]


def _huge_integer(data: bytes, rng: random.Random) -> bytes:
    digits = [i for i, byte in enumerate(data) if 48 <= byte <= 57]
    at = rng.choice(digits) if digits else rng.randrange(len(data) + 1)
    return data[:at] + b"9" * rng.choice([7, 400, 5000]) + data[at + 1 :]


def _unicode_digit(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", errors="replace")
    digits = [i for i, char in enumerate(text) if char.isascii() and char.isdigit()]
    at = rng.choice(digits) if digits else rng.randrange(len(text) + 1)
    return (text[:at] + rng.choice(UNICODE_DIGITS) + text[at + 1 :]).encode()


def _very_long(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return data * (200_000 // max(len(data), 1) + 1)
    return data + rng.choice([b" ", b"9", b";", b"\n"]) * 200_000


MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    _flip_bit,
    _truncate,
    _insert_bytes,
    _random_bytes,
    _huge_integer,
    _unicode_digit,
    _very_long,
)


def _seeds(target: str) -> list[bytes]:
    return [path.read_bytes() for path in sorted((CORPUS / target).iterdir())]


def _garbage(seeds: list[bytes], rng: random.Random) -> Iterator[bytes]:
    """Each seed, then mutants of it: one to three mutations in a row, the header bytes of
    the multi-reader targets kept often enough that every reader gets garbage."""
    for seed in seeds:
        yield seed
        for _ in range(MUTATIONS_PER_SEED):
            mutant = seed
            for _ in range(rng.randint(1, 3)):
                mutant = rng.choice(MUTATIONS)(mutant, rng)
            yield mutant


def _failures(check: Callable[[bytes], None], inputs: Iterator[bytes]) -> list[str]:
    failures = []
    for data in inputs:
        try:
            check(data)
        except Exception as error:  # anything escaping the check breaks the contract
            failures.append(f"{data[:80]!r} ({len(data)} bytes): {type(error).__name__}: {str(error)[:200]}")
    return failures


@pytest.mark.parametrize("target", sorted(parser_checks.CHECKS))
def test_every_outcome_is_a_typed_error_or_an_object_that_round_trips(target):
    seeds = _seeds(target)
    assert seeds, f"fuzz/corpus/{target} has no seeds"
    failures = _failures(parser_checks.CHECKS[target], _garbage(seeds, random.Random(f"fuzz-{target}")))
    assert not failures, f"{len(failures)} inputs broke the contract, e.g.\n" + "\n".join(failures[:5])


@pytest.mark.parametrize("target", sorted(parser_checks.CHECKS))
def test_every_target_has_a_fuzz_script_and_seeds(target):
    assert (FUZZ / f"fuzz_{target}.py").read_text().count(f'run("{target}")') == 1
    assert 0 < sum(len(seed) for seed in _seeds(target)) < 16_000  # a small corpus: the fuzzer finds the rest


def test_a_parser_that_raises_an_untyped_error_breaks_the_contract():
    def untyped(text: str) -> None:
        raise ValueError(f"bare {text}")

    def typed(text: str) -> None:
        raise InvalidNotationError(f"typed {text}")

    assert parser_checks.parsed(typed, "x") is None
    with pytest.raises(ValueError, match="bare x"):
        parser_checks.parsed(untyped, "x")
    assert _failures(lambda data: parser_checks.parsed(untyped, data), iter([b"x"])) == [
        "b'x' (1 bytes): ValueError: bare b'x'"
    ]


def test_garbage_includes_every_kind_of_mutation():
    rng = random.Random(0)
    seed = b"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    mutants = [mutation(seed, rng) for mutation in MUTATIONS]
    assert len(set(mutants)) == len(MUTATIONS) and seed not in mutants
    assert b"9" * 7 in mutants[MUTATIONS.index(_huge_integer)]
    assert not mutants[MUTATIONS.index(_unicode_digit)].isascii()
    assert len(mutants[MUTATIONS.index(_very_long)]) > 100_000
