import pytest

from bgengine.cube.piecewise_linear import PiecewiseLinear


def test_evaluates_linearly_between_knots_and_clamps_outside():
    f = PiecewiseLinear([(0.0, -1.0), (0.5, 0.0), (1.0, 2.0)])
    assert f(0.25) == pytest.approx(-0.5)
    assert f(0.75) == pytest.approx(1.0)
    assert f(1.0) == 2.0 and f(1.5) == 2.0 and f(-1.0) == -1.0


def test_blend_mixes_knot_by_knot():
    dead = PiecewiseLinear.line(-1.0, 1.0)
    live = PiecewiseLinear([(0.0, -1.0), (0.2, -1.0), (0.8, 1.0), (1.0, 1.0)])
    mixed = dead.blend(live, 0.5)
    for x in (0.0, 0.1, 0.2, 0.5, 0.8, 0.9, 1.0):
        assert mixed(x) == pytest.approx(0.5 * dead(x) + 0.5 * live(x))


def test_minimum_and_maximum_include_the_crossing_point():
    rising = PiecewiseLinear.line(0.0, 1.0)
    flat = PiecewiseLinear.constant(0.4)
    low, high = rising.minimum(flat), rising.maximum(flat)
    assert 0.4 in low.xs
    for x in (0.0, 0.3, 0.4, 0.5, 1.0):
        assert low(x) == pytest.approx(min(x, 0.4))
        assert high(x) == pytest.approx(max(x, 0.4))


def test_solve_finds_the_first_x_reaching_the_target_or_the_ends():
    f = PiecewiseLinear([(0.0, 0.0), (0.5, 0.5), (1.0, 0.5)])
    assert f.solve(0.25) == pytest.approx(0.25)
    assert f.solve(0.5) == pytest.approx(0.5)
    assert f.solve(-1.0) == 0.0
    assert f.solve(2.0) == 1.0


def test_knots_must_cover_zero_to_one_with_distinct_x():
    with pytest.raises(ValueError):
        PiecewiseLinear([(0.0, 0.0), (0.5, 1.0)])
    with pytest.raises(ValueError):
        PiecewiseLinear([(0.0, 0.0), (0.5, 1.0), (0.5, 2.0), (1.0, 1.0)])
