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
        "Only a poker room manager, a cage cashier, finance, compliance or an administrator may read"
    )


def test_a_crash_under_the_api_is_a_json_500(dealer, monkeypatch) -> None:
    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("rake.api.rounds.RoundListCreate.get", crash)
    client = Client(raise_request_exception=False)
    client.force_login(dealer)
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
