"""Monte Carlo rollouts: the trial kernel's Python side, cube-free (cube play comes in through a referee)."""
