"""Markers for the evaluator's tests."""

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "exhaustive: enumerates every hand of a kind (seconds, not minutes)")
