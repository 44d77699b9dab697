"""Evaluation: networks, lookahead and the data that trains them."""
