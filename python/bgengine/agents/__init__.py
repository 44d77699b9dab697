"""Who decides in a game: the agent protocol, simple agents, the engine's agents, self-play."""
