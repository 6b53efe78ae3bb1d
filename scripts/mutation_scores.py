"""The score of the last mutation run, per module: what `make mutation` prints after mutmut.

Reads mutmut's results (``mutants/**/*.py.meta``) and sets aside the equivalent mutants listed in
docs/testing.md ("Mutation testing"): mutants that change the code but not what it does, so no test can
kill them. The score of a module is killed / (total - equivalent); a mutant counts as killed when a test
fails on it, when the tests time out on it (they noticed), or when mypy refuses it (`make lint` would:
it could not pass CI); a mutant no test reaches counts as survived.

    .venv/bin/python scripts/mutation_scores.py             # the table, the survivors, stale listings
    .venv/bin/python scripts/mutation_scores.py --markdown  # the table as docs/testing.md shows it

Exits non-zero when a module named in TARGETS scores below 95%, or when a listed equivalent mutant was
killed or no longer exists (its name moved when the code changed: list it again).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "testing.md"
TARGETS = (
    "casino_backoffice/money.py",
    "casino_backoffice/poker/split.py",
    "casino_backoffice/poker/low.py",
    "casino_backoffice/poker/qualifiers.py",
)
TARGET_SCORE = 95.0
KILLED = ("killed", "timeout", "caught by type check")
# A row of the equivalent mutants' table in docs/testing.md: | `name` | why |
_EQUIVALENT_ROW = re.compile(r"^\|\s*`(?P<name>[^`]+__mutmut_\d+)`\s*\|")


def equivalent_mutants() -> set[str]:
    """The mutant names docs/testing.md lists as equivalent."""
    return {match["name"] for line in DOCS.read_text().splitlines() if (match := _EQUIVALENT_ROW.match(line))}


def results() -> dict[str, dict[str, str]]:
    """Each mutated module's mutants and their status ("killed", "survived", "timeout", ...)."""
    found = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        module = meta.relative_to(ROOT / "mutants").as_posix().removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        found[module] = {name: status_by_exit_code[code] for name, code in codes.items()}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as docs/testing.md shows it")
    args = parser.parse_args()

    by_module = results()
    if not by_module:
        print("No mutation results in mutants/: run `make mutation` first.")
        return 1
    equivalent = equivalent_mutants()
    known = {name for statuses in by_module.values() for name in statuses}
    rows, survivors, failing = [], [], []
    stale = sorted(name for name in equivalent if name not in known)
    for module, statuses in by_module.items():
        if not statuses:
            continue
        counts = Counter(statuses.values())
        killed = sum(counts[status] for status in KILLED)
        set_aside = [name for name in statuses if name in equivalent]
        stale += [name for name in set_aside if statuses[name] in KILLED]
        unchecked = counts["not checked"]
        scored = len(statuses) - len(set_aside) - unchecked
        score = f"{100.0 * killed / scored:.1f}%" if scored else "not run"
        rows.append((module, killed, counts["caught by type check"], len(statuses), len(set_aside), unchecked, score))
        survivors += [
            (name, status)
            for name, status in statuses.items()
            if status not in (*KILLED, "not checked") and name not in equivalent
        ]
        if module in TARGETS and (unchecked or killed < TARGET_SCORE / 100 * scored):
            failing.append(module)

    if args.markdown:
        print("| module | killed | of which by mypy | total | equivalent | score |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for module, killed, typed, total, aside, _, score in rows:
            print(f"| `{module}` | {killed} | {typed} | {total} | {aside} | {score} |")
    else:
        print(f"{'module':<40} {'killed':>6} {'mypy':>6} {'total':>6} {'equiv.':>6} {'unrun':>6} {'score':>8}")
        for module, killed, typed, total, aside, unchecked, score in rows:
            mark = " <" if module in failing else ""
            print(f"{module:<40} {killed:>6} {typed:>6} {total:>6} {aside:>6} {unchecked:>6} {score:>8}{mark}")
        for name, status in sorted(survivors):
            print(f"  {status}: {name}  (.venv/bin/mutmut show {name})")
    for name in sorted(set(stale)):
        print(f"docs/testing.md lists {name} as equivalent, but the last run killed it or has no such mutant")
    for module in failing:
        print(f"{module} scores below {TARGET_SCORE:.0f}%, or has mutants not run")
    return 1 if failing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
