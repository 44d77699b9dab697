# cython: language_level=3
"""Adapter from the evaluator network (bgcore._nn) to the C evaluator interface of _policy.

The network must not change while a kernel uses it (training updates weights in place).
"""

from bgcore._types cimport checker_t
from bgcore._policy cimport CEvaluator
from bgcore._nn cimport NeuralNet, Network, evaluate_boards


cdef void network_evaluate(void* context, const checker_t* boards, int n,
                           float* out5) noexcept nogil:
    evaluate_boards(<const Network*>context, boards, n, out5)


def _network_evaluator_from_weights(hidden_weights, hidden_bias, output_weights, output_bias):
    return NetworkCEvaluator(NeuralNet(hidden_weights, hidden_bias, output_weights, output_bias))


cdef class NetworkCEvaluator(CEvaluator):
    """The network's 0-ply 5-vectors (exact for finished games) as a nogil evaluator."""

    def __init__(self, NeuralNet network):
        self.owner = network
        self.c.evaluate = network_evaluate
        self.c.context = <void*>&network.net   # kept alive by self.owner

    def __reduce__(self):
        cdef NeuralNet network = self.owner
        return (_network_evaluator_from_weights, (network.hidden_weights, network.hidden_bias,
                                                  network.output_weights, network.output_bias))
