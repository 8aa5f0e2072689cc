"""Synthetic team-sport matches with their ground truth: futsal streams for the engine tests and bench."""
