"""Cube decisions: money (Janowski) and match (MET) models, exact bear-off values, rollouts, take points."""
