"""``make lint``: app modules under 500 lines, functions under 100 (issue 26, item 5).

ruff sees a function's branches and statements (C90, PLR0912, PLR0915) but not its length in lines, nor
a module's; this check does both over the project's own packages (migrations aside: Django writes them).
A module that grows past the limit becomes a package by what a reader looks for; a function that grows
past it is several steps that deserve names. It prints each offender with its length and exits 1.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("casino_backoffice", "tables", "rake", "jackpots", "cage", "audit", "demo")
MODULE_MAX_LINES = 500
FUNCTION_MAX_LINES = 100


def oversized(path: Path) -> list[str]:
    text = path.read_text()
    name = path.relative_to(ROOT)
    found = []
    lines = text.count("\n")
    if lines >= MODULE_MAX_LINES:
        found.append(f"{name}: {lines} lines (a module stays under {MODULE_MAX_LINES})")
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
            length = node.end_lineno - node.lineno + 1
            if length >= FUNCTION_MAX_LINES:
                found.append(
                    f"{name}:{node.lineno}: {node.name} is {length} lines (a function stays under {FUNCTION_MAX_LINES})"
                )
    return found


def main() -> int:
    modules = sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    )
    found = [offence for path in modules for offence in oversized(path)]
    print(
        "\n".join(found)
        or f"sizes: {len(modules)} modules under {MODULE_MAX_LINES} lines, functions under {FUNCTION_MAX_LINES}"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
