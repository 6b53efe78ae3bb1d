"""Deployment behind a TLS proxy: with DJANGO_HTTPS=true (and a secret key, the PINs' key and allowed
hosts from the environment) Django's deployment check finds nothing to warn of; without it the service runs on plain
HTTP as `make run` does. Every page, API answer and error carries the Content-Security-Policy."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    environment.update({"CASINO_VAR_DIR": str(tmp_path), **env})
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_behind_a_tls_proxy_the_deployment_check_has_no_warning(tmp_path) -> None:
    result = _check_deploy(
        tmp_path,
        DJANGO_HTTPS="true",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="poker.example.com",
        PIN_KEY=secrets.token_urlsafe(32),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_without_https_the_check_names_what_a_tls_deployment_turns_on(tmp_path) -> None:
    result = _check_deploy(tmp_path, DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


@pytest.mark.parametrize("path", ["/floor/login/", "/display/", "/healthz", "/floor/no-such-page/"])
def test_every_page_carries_the_content_security_policy(client, db, path) -> None:
    policy = client.get(path).headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in policy and "script-src 'self'" in policy, (path, policy)


@pytest.mark.parametrize("path", ["/api/nope/", "/api/rounds/"])
def test_every_api_answer_may_load_nothing_and_be_framed_by_nothing(client, db, path) -> None:
    response = client.get(path, HTTP_ACCEPT="application/json")
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


@pytest.mark.parametrize("path", ["/admin/login/", "/admin/jackpots/badbeatreport/"])
def test_the_admin_runs_scripts_only_from_this_sites_files(client, finance, path) -> None:
    client.force_login(finance)
    policy = client.get(path).headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy


def test_no_template_of_the_admin_or_the_reports_has_an_inline_script_handler() -> None:
    import re

    templates = [path for path in ROOT.glob("**/templates/**/*.html") if ".venv" not in path.parts]
    assert len(templates) > 20
    for template in templates:
        text = template.read_text()
        assert not re.search(r"\son[a-z]+=", text), template
        assert "<script>" not in text, template
