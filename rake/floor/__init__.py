"""Tablet pages of the rake app: log a round, the rake calculator, the verification of time charges."""
