"""Every API endpoint refuses a request without a signed-in member of staff, reads and writes alike."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

PUBLIC = {"api/schema/"}


def _api_paths() -> list[str]:
    paths: list[str] = []

    def walk(patterns: list, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                paths.append(prefix + str(pattern.pattern))

    walk(get_resolver().url_patterns, "")
    return sorted(p.replace("<int:pk>", "1") for p in paths if p.startswith("api/") and p not in PUBLIC)


@pytest.mark.parametrize("path", _api_paths())
@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_requests_are_refused(client, db, path, method) -> None:
    response = getattr(client, method)(f"/{path}", {} if method == "post" else None, content_type="application/json")
    assert response.status_code in (401, 403, 405), (path, response.status_code)


def test_the_api_has_the_endpoints_this_test_walks() -> None:
    assert {"api/rounds/", "api/rounds/batch/", "api/me/", "api/time-charges/"} <= set(_api_paths())
