"""pytest plugin of ``make mutation`` (``[tool.mutmut]`` in pyproject.toml loads it with ``-p``).

Under mutmut every call of a mutated function goes through a trampoline, so the evaluator runs several
times slower than in ``make test``: Hypothesis's deadline would fail healthy examples. Examples are
derived from each test's name rather than drawn at random, so every mutant meets the same examples and
a score can be compared from one run to the next.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "mutation", deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("mutation")
