"""benchmarks/compare_builds.py: another build of the network kernel loaded beside this one."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import compare_builds  # noqa: E402
from bgcore import _nn  # noqa: E402


def test_a_build_compared_with_its_own_module_file_gives_the_same_floats():
    result = compare_builds.compare(Path(_nn.__file__), rounds=2, boards=200)
    assert result["largest_difference"] == 0.0
    assert result["median_ratio"] > 0 and result["this_rate"] > 0
    assert result["this_min_ms"] <= result["this_median_ms"]
