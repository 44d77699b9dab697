"""Training data for the evaluator: the position database, rollout labels and the truth set."""
