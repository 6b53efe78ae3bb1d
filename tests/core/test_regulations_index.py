"""docs/regulations.md tells the truth: every function and test an entry names as enforcing a section
exists (`module.path:function`, `tests/...py::test_name`), and no entry is left marked as planned."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INDEX = (ROOT / "docs" / "regulations.md").read_text()
FUNCTIONS = sorted(set(re.findall(r"`([a-z_][\w.]*):([A-Za-z_]\w*)`", INDEX)))
TESTS = sorted(set(re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", INDEX)))


def test_the_index_names_what_enforces_it() -> None:
    assert len(FUNCTIONS) >= 25 and len(TESTS) >= 20
    assert "Planned" not in INDEX


@pytest.mark.parametrize(("module", "name"), FUNCTIONS, ids=[f"{m}:{n}" for m, n in FUNCTIONS])
def test_each_function_the_index_names_exists(module: str, name: str) -> None:
    assert callable(getattr(importlib.import_module(module), name, None)), f"{module}:{name}"


@pytest.mark.parametrize(("path", "name"), TESTS, ids=[f"{p}::{n}" for p, n in TESTS])
def test_each_test_the_index_names_exists(path: str, name: str) -> None:
    source = (ROOT / path).read_text()
    assert re.search(rf"^\s*def {name}\(", source, re.MULTILINE), f"{path}::{name}"
