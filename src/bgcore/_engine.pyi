"""The engine's composite evaluator for kernels, and the exact two-sided bear-off oracle."""

from bgcore._evaluator import CEvaluator, COracle
from bgcore._nn import NeuralNet
from bgcore._race import RaceTables
from bgcore._race_net import RaceNet

class EngineCEvaluator(CEvaluator):
    @property
    def network(self) -> NeuralNet: ...
    @property
    def tables(self) -> RaceTables | None: ...
    @property
    def race_network(self) -> RaceNet | None: ...
    def __init__(
        self, network: NeuralNet, tables: RaceTables | None = None, race_network: RaceNet | None = None
    ) -> None: ...

class BearoffOracle(COracle):
    def __init__(self, tables: RaceTables) -> None: ...
