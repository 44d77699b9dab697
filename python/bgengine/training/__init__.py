"""Making the evaluator's networks: TD(lambda) self-play (``td``), and the position database,
rollout labels and truth set for supervised training (``positions``, ``labels``,
``dataset``, ``pipeline``). It labels positions by rollouts, so it sits above them."""
