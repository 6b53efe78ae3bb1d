"""The package itself: doctests run, no Django, the batch path."""

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import casino_backoffice.poker as poker
from casino_backoffice.poker import InvalidCards, best_high, best_high_batch

MODULES = ["casino_backoffice.poker"] + [
    f"casino_backoffice.poker.{m.name}" for m in pkgutil.iter_modules(poker.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_public_api_is_documented_in_the_package_docstring() -> None:
    for name in poker.__all__:
        assert name in (poker.__doc__ or ""), name


def test_poker_imports_nothing_from_django() -> None:
    # The parent package loads Celery; load the evaluator on its own to see what it imports.
    package_dir = Path(poker.__file__).parent.parent
    code = (
        "import sys, types\n"
        f"parent = types.ModuleType('casino_backoffice'); parent.__path__ = [{str(package_dir)!r}]\n"
        "sys.modules['casino_backoffice'] = parent\n"
        "import casino_backoffice.poker\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
    for path in Path(poker.__file__).parent.glob("*.py"):
        assert "django" not in path.read_text(), path


@given(st.integers(5, 7), st.integers(0, 2**32 - 1))
@settings(max_examples=25)
def test_batch_equals_per_call(size: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((300, 52)), axis=1)[:, :size]
    batch = best_high_batch(cards)
    assert batch.tolist() == [best_high(tuple(row)).strength for row in cards.tolist()]


def test_batch_takes_any_integer_dtype_and_empty_input() -> None:
    rows = [[48, 49, 50, 44, 45, 0, 1]]
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64):
        assert best_high_batch(np.array(rows, dtype=dtype)).tolist() == [best_high(rows[0]).strength]
    assert best_high_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([[0, 1, 2, 3]], "N x 5, 6 or 7"),
        ([[0, 1, 2, 3, 52]], "outside 0-51"),
        ([[0, 1, 2, 3, -1]], "outside 0-51"),
        ([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]], "row 1 holds a card twice"),
        ([[0.0, 1, 2, 3, 4]], "integer card indices"),
    ],
)
def test_batch_refuses_bad_input(rows: list[list[float]], message: str) -> None:
    with pytest.raises(InvalidCards, match=message):
        best_high_batch(np.array(rows))
