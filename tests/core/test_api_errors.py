"""Every API error is JSON: an unknown path, a method an endpoint does not take, a refused role, a crash."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from casino_backoffice.core.pagination import MAX_LIMIT, BoundedLimitOffsetPagination


@pytest.fixture
def api(dealer) -> APIClient:
    client = APIClient()
    client.force_authenticate(dealer)
    return client


@pytest.mark.parametrize("path", ["/api/nope/", "/api/rounds/42/", "/api/time-charges/x/verify/", "/api/", "/api"])
def test_an_unknown_api_path_is_a_json_404(api, path) -> None:
    response = api.post(path, {}, format="json")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": f"There is no API endpoint at {path}.", "code": "not_found"}


def test_a_missing_object_is_a_json_404(api, floorperson) -> None:
    api.force_authenticate(floorperson)
    response = api.post("/api/time-charges/999999/verify/", {"pin": "2468"}, format="json")
    assert response.status_code == 404
    assert response.json() == {"detail": "No TimeCharge matches the given query."}


def test_a_method_an_endpoint_does_not_take_is_a_json_405(api) -> None:
    response = api.delete("/api/rounds/")
    assert response.status_code == 405
    assert response.json() == {"detail": 'Method "DELETE" not allowed.'}


def test_a_role_that_may_not_act_is_a_json_403(api) -> None:
    response = api.get("/api/revenue/")
    assert response.status_code == 403
    assert response.json()["code"] == "not_permitted"
    assert response.json()["detail"].startswith(
        "Only a poker room manager, finance, compliance or an administrator may read the poker revenue report"
    )


def test_a_crash_under_the_api_is_a_json_500(floorperson, monkeypatch) -> None:
    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("rake.api.rounds.RoundListCreate.get", crash)
    client = Client(raise_request_exception=False)
    client.force_login(floorperson)
    response = client.get("/api/rounds/")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "The server failed to answer; nothing was recorded by this request.",
        "code": "server_error",
    }


def test_pages_outside_the_api_keep_django_s_html_errors(client, db) -> None:
    response = client.get("/floor/nope/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("limit", [str(2**63), str(2**64 + 1), "99999999999999999999999"])
def test_a_limit_beyond_any_page_gives_the_largest_page(api, finance, rules, limit) -> None:
    api.force_authenticate(finance)
    response = api.get(f"/api/rounds/?limit={limit}")
    assert response.status_code == 200, response.content  # was a database error
    paginator = BoundedLimitOffsetPagination()
    assert paginator.get_limit(Request(APIRequestFactory().get(f"/api/rounds/?limit={limit}"))) == MAX_LIMIT


@pytest.mark.parametrize("offset", [str(2**63), "99999999999999999999999"])
def test_an_offset_no_row_can_reach_is_a_400_naming_it(api, finance, rules, offset) -> None:
    api.force_authenticate(finance)
    response = api.get(f"/api/rounds/?offset={offset}")
    assert response.status_code == 400 and "offset" in response.json(), response.content


@pytest.mark.parametrize(
    "path",
    ["/api/counts/?box=D%00", "/api/bad-beat/claims/?jackpot=bb%00x&room=main", "/api/progressive/meters/?room=%00"],
)
def test_a_nul_character_in_a_query_is_a_json_400(api, finance, rules, path) -> None:
    api.force_authenticate(finance)
    response = api.get(path)
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content


def test_a_nul_character_in_a_json_body_is_a_400_that_records_nothing(api, dealer, rules) -> None:
    from tables.models import Round

    api.force_authenticate(dealer)
    body = '{"table": "T1\\u0000", "ended_at": "2026-12-01T13:00:00-05:00", "players_dealt_in": 6, "pot": "10.00"}'
    response = api.post("/api/rounds/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="nul-1")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
    assert not Round.objects.exists()


def test_a_nul_character_in_a_tablet_form_is_a_400(client, floorperson) -> None:
    client.force_login(floorperson)
    response = client.post("/floor/pin/", {"current_password": "x\x00y", "pin": "1357", "pin_again": "1357"})
    assert response.status_code == 400
