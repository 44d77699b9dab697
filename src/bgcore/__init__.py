"""bgcore: the compiled kernels of bgengine (board checks, move generation, tables, networks).

The modules are private (``_board``, ``_movegen``, ...); the public API is ``bgengine``.
Every kernel sees a position as 26 signed bytes from the side on roll: slot 0 the
opponent's bar (count <= 0), slots 1..24 the points numbered from the mover's side
(mover's checkers > 0, opponent's < 0), slot 25 the mover's bar (count >= 0).
"""
