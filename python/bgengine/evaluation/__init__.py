"""Judging positions: the network, n-ply lookahead, race and bear-off tables, PubEval, training."""
