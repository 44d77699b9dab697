"""The engine's composite evaluator for kernels, the position classes it dispatches on, and
the exact two-sided bear-off oracle."""

import numpy as np

from bgcore._evaluator import CEvaluator, COracle
from bgcore._nn import NeuralNet
from bgcore._race import RaceTables
from bgcore._race_net import RaceNet

CONTACT: int
CRASHED: int
RACE: int
CHECKERS_IN_PLAY_WHEN_CRASHED: int

def position_classes(boards: np.ndarray) -> np.ndarray: ...

class EngineCEvaluator(CEvaluator):
    @property
    def network(self) -> NeuralNet: ...
    @property
    def tables(self) -> RaceTables | None: ...
    @property
    def race_network(self) -> RaceNet | None: ...
    @property
    def crashed_network(self) -> NeuralNet | None: ...
    @property
    def second_stage(self) -> EngineCEvaluator | None: ...
    @property
    def shortlist(self) -> int: ...
    def __init__(
        self,
        network: NeuralNet,
        tables: RaceTables | None = None,
        race_network: RaceNet | None = None,
        crashed_network: NeuralNet | None = None,
        second_stage: EngineCEvaluator | None = None,
        shortlist: int = 0,
    ) -> None: ...

class BearoffOracle(COracle):
    def __init__(self, tables: RaceTables) -> None: ...
