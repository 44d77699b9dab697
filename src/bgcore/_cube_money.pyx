# cython: language_level=3
"""Python access to the C money cube (_cube_money.pxd), for tests against bgengine's model."""

from bgcore._cube_money cimport MoneyCube, money_decide, money_best_value
from bgcore._cube_efficiency cimport efficiencies_from


cdef object _ask(p5, int cube_value, int owner, object efficiency, bint jacoby, bint beavers, int max_cube,
                 bint value):
    """money_best_value (``value``) or money_decide of the mover's 5-vector."""
    cdef MoneyCube m
    cdef float v[5]
    m.active = True
    efficiencies_from(efficiency, m.efficiency)
    m.jacoby = jacoby
    m.beavers = beavers
    m.start_cube = 1
    m.max_cube = max_cube
    for i in range(5):
        v[i] = p5[i]
    if value:
        return money_best_value(&m, v, cube_value, owner)
    return money_decide(&m, v, cube_value, owner)


def decide(p5, int cube_value, int owner, efficiency, bint jacoby=False, bint beavers=False,
           int max_cube=64):
    """The mover's action code (bgengine.rollouts.referee) from its 5-vector; owner from the mover;
    ``efficiency`` one x or x by cube state (opponent owns, centred, owned)."""
    return _ask(p5, cube_value, owner, efficiency, jacoby, beavers, max_cube, False)


def best_value(p5, int cube_value, int owner, efficiency, bint jacoby=False, bint beavers=False,
               int max_cube=64):
    """The mover's cubeful value per current cube with the best cube action now."""
    return _ask(p5, cube_value, owner, efficiency, jacoby, beavers, max_cube, True)
