"""A lock is taken on the rows a service changes, never on the rows it only reads alongside them.

On PostgreSQL ``select_for_update()`` with ``select_related`` locks every joined row FOR UPDATE: the
claim's jackpot, room and rules version with the claim. A round's commit checks its keys to those rows
(FOR KEY SHARE), so such a lock made the room's rounds wait and deadlock
(``tests/jackpots/test_bad_beat_concurrency.py``). Each such query names what it locks (``of=``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_APPLICATION = {".venv", "tests", "benchmarks", "scripts", "migrations", "var", "node_modules", ".git"}


def _chain(node: ast.Call) -> list[ast.Call]:
    """The calls of one method chain, outermost first: ``a.b().c().d()`` gives d, c, b."""
    calls = []
    current: ast.expr = node
    while isinstance(current, ast.Call) and isinstance(current.func, ast.Attribute):
        calls.append(current)
        current = current.func.value
    return calls


def _locks_joined_rows(path: Path, root: Path = ROOT) -> list[str]:
    """Each chain with ``select_for_update`` without ``of`` and with ``select_related``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        names = {call.func.attr: call for call in _chain(node)}  # type: ignore[union-attr]
        lock = names.get("select_for_update")
        if lock is not None and "select_related" in names and not any(kw.arg == "of" for kw in lock.keywords):
            found.add(f"{path.relative_to(root)}:{lock.lineno}")
    return sorted(found)


def test_no_query_of_the_application_locks_the_rows_it_joins() -> None:
    files = [p for p in ROOT.rglob("*.py") if not NOT_APPLICATION & set(p.relative_to(ROOT).parts[:-1])]
    assert len(files) > 100
    assert [place for path in files for place in _locks_joined_rows(path)] == []


def test_the_scan_finds_a_lock_of_joined_rows(tmp_path) -> None:
    module = tmp_path / "service.py"
    module.write_text(
        "def locked(pk):\n"
        "    return Claim.objects.select_for_update().select_related('jackpot').get(pk=pk)\n"
        "def fine(pk):\n"
        "    return Claim.objects.select_for_update(of=('self',)).select_related('jackpot').get(pk=pk)\n"
        "def alone(pk):\n"
        "    return Claim.objects.select_for_update().get(pk=pk)\n"
    )
    assert _locks_joined_rows(module, root=tmp_path) == ["service.py:2"]
