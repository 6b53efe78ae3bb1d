"""``make proof``: schemathesis against the served API, with a token of every role.

1. A fresh PostgreSQL database (``PROOF_DATABASE_URL``, dropped and created), migrated, with the demo
   room loaded (``load_demo``: rules, thirteen tables, a played gaming day and one member of staff
   of every role), so the fuzzer meets real ids; each demo person gets an API token and the signing
   PIN ``PROOF_PIN`` (scripts/proof_hooks.py signs with it in part of the cases).
2. The app served by gunicorn on a free port of 127.0.0.1, as the Procfile serves it.
3. For each role, one after another on the same database (each meets what the ones before recorded),
   two ``schemathesis run`` against the served schema (``/api/schema/``), every check
   (scripts/schemathesis.toml says how a refusal by a rule counts), the seed ``PROOF_SEED``:
   - the examples and coverage phases (the schema's examples, then boundary and invalid values of
     every parameter and field) on the operations the role may take;
   - the fuzzing phase, ``PROOF_MAX_EXAMPLES`` (200) examples per operation, and the stateful phase,
     on every operation.

It prints, per role, the operations tested, the cases sent, the failures and the seconds taken, and
exits non-zero on any failure; each run's output and JUnit and NDJSON reports are under
``var/proof/<role>/<coverage|fuzzing>/`` (``PROOF_REPORTS`` moves them). Replay a failure with the same
seed and role (``PROOF_ROLES=finance make proof``).

``make test`` runs the same proof at a smaller budget (tests/proof/test_served_api_quick.py:
``PROOF_MAX_EXAMPLES=5``, every role, every phase, each role fuzzing only the operations it may take
(``PROOF_FUZZ=permitted``), on a database of its own), so an API change that breaks its schema fails
the merge; the full budget stays with ``make proof``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

BASE_DIR = Path(__file__).resolve().parent.parent
BIN = BASE_DIR / ".venv" / "bin"
REPORTS = Path(os.environ.get("PROOF_REPORTS", BASE_DIR / "var" / "proof"))

DATABASE_URL = os.environ.get("PROOF_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino_backoffice_proof")
BROKER_URL = os.environ.get("PROOF_BROKER_URL", "redis://127.0.0.1:6379/14")
SEED = os.environ.get("PROOF_SEED", "20260412")
MAX_EXAMPLES = os.environ.get("PROOF_MAX_EXAMPLES", "200")
WORKERS = os.environ.get("PROOF_WORKERS", "2")
# "permitted": each role's fuzzing and stateful phases too take only the operations it may take (the
# quick proof of ``make test``: every other operation answers 403 before reading a byte, which
# tests/staff/test_access_matrix.py checks for every role and operation); "all" (make proof): every one.
FUZZ = os.environ.get("PROOF_FUZZ", "all")
# Every demo person's PIN during the proof; the hooks (scripts/proof_hooks.py) sign with it in part of
# the cases whose generated PIN already has a PIN's shape, so signed actions are reached too.
PROOF_PIN = "8642"
# The demo's people, one of every role (demo/management/commands/load_demo.py, DEMO_STAFF).
ROLES = {
    "dealer": "dealer",
    "floorperson": "floor",
    "shift_supervisor": "supervisor",
    "poker_room_manager": "manager",
    "security": "security",
    "surveillance": "surveillance",
    "cage_cashier": "cashier",
    "finance": "finance",
    "compliance": "compliance",
    "administrator": "admin",
}
# Every check schemathesis has, its own and the hooks' (it enables them all by default): not named on the
# command line, where `--checks all` would override the one exemption scripts/schemathesis.toml makes for
# one operation. scripts/schemathesis.toml also says how a refusal by a rule counts, and why.
CHECKS = "every"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=DATABASE_URL,
        CELERY_BROKER_URL=BROKER_URL,
        CELERY_QUEUE="casino_backoffice_proof",
        CASINO_VAR_DIR=str(BASE_DIR / "var"),
        DJANGO_DEBUG="false",
        PYTHONUNBUFFERED="1",
    )
    return env


def database_recreate() -> None:
    """Drop and create the proof's database, so every run starts from the same demo room."""
    name = DATABASE_URL.rsplit("/", 1)[1]
    with psycopg.connect(DATABASE_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def manage(*args: str) -> str:
    result = subprocess.run(  # noqa: S603 - this checkout's own manage.py, arguments written here
        [str(BIN / "python"), "manage.py", *args],
        cwd=BASE_DIR,
        env=_env(),
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout


# Run by ``manage.py shell``: each demo person's token and PIN, and the operations their role may take
# (the API's table of actions: ``required_actions`` of each view, ``ACTION_ROLES``).
STAFF_SETUP = """
import json, re
from drf_spectacular.generators import EndpointEnumerator
from casino_backoffice.staff.api_permissions import required_action
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import ACTION_ROLES
from casino_backoffice.staff.services import api_token_create, pin_set
endpoints = [
    (method, re.sub(r"{[^}]+}", "{id}", path), required_action(callback.cls, method))
    for path, _, method, callback in EndpointEnumerator().get_api_endpoints()
    if path.startswith("/api/")
]
staff = {}
for role, username in ROLES.items():
    user = User.objects.get(username=username)
    pin_set(user=user, pin=PROOF_PIN, actor=user)
    permitted = [f"{method} {path}" for method, path, action in endpoints if action is None or role in ACTION_ROLES[action]]
    staff[role] = {"token": api_token_create(user=user, replace=True), "permitted": permitted}
print(json.dumps(staff))
"""


def staff_setup() -> dict[str, dict[str, Any]]:
    """An API token and the proof's PIN for each demo person: role -> {token, permitted operations}."""
    code = f"ROLES = {ROLES!r}\nPROOF_PIN = {PROOF_PIN!r}\n{STAFF_SETUP}"
    return dict(json.loads(manage("shell", "-c", code).strip().splitlines()[-1]))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(port: int) -> subprocess.Popen[bytes]:
    """gunicorn as the Procfile runs it, its request line limit as the Procfile's (the app answers a
    long URL with its own 414 first)."""
    procfile = (BASE_DIR / "Procfile").read_text()
    limit = re.search(r"--limit-request-line (\d+)", procfile)
    log = (REPORTS / "gunicorn.log").open("wb")
    return subprocess.Popen(  # noqa: S603 - the venv's gunicorn, arguments written here
        [
            str(BIN / "gunicorn"),
            "casino_backoffice.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "--graceful-timeout",
            "5",
            *(["--limit-request-line", limit.group(1)] if limit else []),
        ],
        cwd=BASE_DIR,
        env=_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def wait_for(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn stopped (see {REPORTS / 'gunicorn.log'})")
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 - our own server on 127.0.0.1
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)
    sys.exit(f"{url} did not answer within 60 s")


def schemathesis(
    role: str, token: str, schema_url: str, run: str, phases: str, *selection: str, workers: str = WORKERS
) -> dict[str, Any]:
    """One ``schemathesis run`` with one role's token; its exit code, seconds and figures."""
    reports = REPORTS / role / run
    reports.mkdir(parents=True, exist_ok=True)
    command = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(BASE_DIR / "scripts" / "schemathesis.toml"),
        "run",
        schema_url,
        *selection,
        "--phases",
        phases,
        "--max-examples",
        MAX_EXAMPLES,
        "--seed",
        SEED,
        "--workers",
        workers,
        "--generation-database",
        "none",
        "--report",
        "junit,ndjson",
        "--report-dir",
        str(reports),
        "--no-color",
    ]
    env = _env() | {"PROOF_TOKEN": token, "PROOF_PIN": PROOF_PIN}
    started = time.monotonic()
    with (reports / "output.txt").open("w") as output:
        result = subprocess.run(  # noqa: S603 - the venv's schemathesis, arguments written here
            command, cwd=BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT, check=False
        )
    return {"exit": result.returncode, "seconds": time.monotonic() - started, **figures_read(reports / "output.txt")}


def fuzz(role: str, person: dict[str, Any], schema_url: str) -> dict[str, Any]:
    """A role's two runs: the schema's examples and the coverage phase's boundary values on the operations
    the role may take (on the others every request is a 403 before a byte of it is read, which the
    fuzzing shows); then fuzzing, ``MAX_EXAMPLES`` per operation, and the stateful phase on every
    operation."""
    names = "|".join(re.escape(name) for name in person["permitted"])
    # One worker for the coverage phase: with two threads, hypothesis's reading of lambda sources there
    # (ast.parse, not thread-safe on CPython 3.11) now and then failed with "SystemError: AST constructor
    # recursion depth mismatch", an error of the tool, not of the API. It takes seconds.
    bounds = schemathesis(
        role,
        person["token"],
        schema_url,
        "coverage",
        "examples,coverage",
        "--include-name-regex",
        f"^({names})$",
        workers="1",
    )
    only = ("--include-name-regex", f"^({names})$") if FUZZ == "permitted" else ()
    fuzzing = schemathesis(role, person["token"], schema_url, "fuzzing", "fuzzing,stateful", *only)
    return {
        "role": role,
        "exit": bounds["exit"] or fuzzing["exit"],
        "seconds": round(bounds["seconds"] + fuzzing["seconds"]),
        "operations": fuzzing.get("operations", "?"),
        "covered": bounds.get("operations", "?"),
        # A summary the figures could not be read from is "?", never a 0 that would read as none.
        "cases": _sum(bounds.get("cases"), fuzzing.get("cases")),
        "failures": _sum(bounds.get("failures"), fuzzing.get("failures")),
        "errors": _sum(bounds.get("errors"), fuzzing.get("errors")),
    }


def _sum(*figures: object) -> int | str:
    counted = [figure for figure in figures if isinstance(figure, int)]
    return sum(counted) if len(counted) == len(figures) else "?"


def figures_read(output: Path) -> dict[str, object]:
    """Operations, test cases and failures, from schemathesis's summary."""
    text = output.read_text()
    figures: dict[str, object] = {}
    if match := re.search(r"API Operations:\s*\n\s*Selected: \d+/\d+\s*\n\s*Tested: (\d+)", text):
        figures["operations"] = int(match.group(1))
    # "1 found 1 unique failure", "2 found 2 unique failures"
    if match := re.search(r"Test cases:\s*\n?\s*(\d+) generated, (\d+) found (\d+) unique failures?\b", text):
        figures["cases"], figures["failures"] = int(match.group(1)), int(match.group(3))
    elif match := re.search(r"Test cases:\s*\n?\s*(\d+) generated, (\d+) passed", text):
        figures["cases"], figures["failures"] = int(match.group(1)), 0
    # Errors of the run itself (the tool, not the API): on the closing line, "2 errors, 2 warnings in 15.62s".
    closing = re.findall(r"^=+ (.*) in [\d.]+s =+$", text, re.MULTILINE)
    errors = re.search(r"(\d+) errors?\b", closing[-1]) if closing else None
    figures["errors"] = int(errors.group(1)) if errors else (0 if closing else "?")
    return figures


def main() -> int:
    REPORTS.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    database_recreate()
    manage("migrate", "--noinput")
    manage("load_demo")
    staff = staff_setup()
    print(
        f"make proof: fresh database {DATABASE_URL.rsplit('/', 1)[1]}, migrated, demo room loaded, "
        f"a token for each role ({round(time.monotonic() - started)} s)",
        flush=True,
    )
    roles = [role for role in os.environ.get("PROOF_ROLES", ",".join(ROLES)).split(",") if role]
    port = free_port()
    server = serve(port)
    schema_url = f"http://127.0.0.1:{port}/api/schema/"
    results: list[dict[str, Any]] = []
    try:
        wait_for(schema_url, server)
        print(
            f"Serving on 127.0.0.1:{port}; schemathesis {CHECKS} checks, {MAX_EXAMPLES} examples per operation, "
            f"every phase, seed {SEED}, {WORKERS} workers, per role:",
            flush=True,
        )
        for role in roles:
            result = fuzz(role, staff[role], schema_url)
            results.append(result)
            print(
                f"  {role:<19} {result['operations']} operations ({result['covered']} it may take, with the coverage "
                f"phase), {result['cases']} cases, {result['failures']} failures, {result['errors']} errors of the "
                f"tool, {result['seconds']} s",
                flush=True,
            )
    finally:
        server.terminate()
        server.wait(timeout=30)
    failed = [result["role"] for result in results if result["exit"] != 0]
    print(f"make proof: {round(time.monotonic() - started)} s in all", flush=True)
    if failed:
        print(f"FAILED for {', '.join(map(str, failed))}: see {REPORTS}/<role>/*/output.txt", flush=True)
        return 1
    print("make proof: no failure for any role", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
