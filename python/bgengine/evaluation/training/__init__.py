"""Making the evaluator's networks: TD self-play and supervised training on rollout labels."""
