"""The rules of play: actions, the game record, matches, cube and scoring rules."""
