"""The smaller holes of issue 25, item 9: JSON nested far deeper than any request is a 400 before it is
parsed; anonymous /healthz says only ok or not ok; no credentials is a 401 with WWW-Authenticate; the
display index lists no room to the public."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from casino_backoffice.core.middleware import API_MAX_JSON_DEPTH, _nesting_depth
from tables.models import Round


@pytest.mark.parametrize("depth", [API_MAX_JSON_DEPTH + 1, 1000, 100_000])
def test_json_nested_deeper_than_any_request_is_a_400_and_records_nothing(rated_table, dealer, depth) -> None:
    api = APIClient()
    api.force_authenticate(dealer)
    body = "[" * depth + "]" * depth
    response = api.post("/api/rounds/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="deep")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "too_deep"
    assert not Round.objects.exists()


def test_the_depth_is_counted_outside_strings() -> None:
    assert _nesting_depth(json.dumps({"a": [{"b": "[[[[{{{{"}]}).encode()) == 3
    assert _nesting_depth(b'{"a": "\\"[[["}') == 1


def test_anonymous_healthz_says_only_ok_or_not(db) -> None:
    anonymous = Client(REMOTE_ADDR="203.0.113.9")
    body = anonymous.get("/healthz").json()
    assert set(body) == {"status"}
    local = Client(REMOTE_ADDR="127.0.0.1").get("/healthz").json()
    assert {"status", "failing"} <= set(local)


def test_no_credentials_is_a_401_with_www_authenticate(db) -> None:
    response = APIClient().get("/api/rounds/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")


def test_the_display_index_lists_no_room_to_the_public(room, floorperson) -> None:
    public = Client().get("/display/").content.decode()
    assert room.name not in public and "sign in to list the boards of your rooms" in public
    staff = Client()
    staff.force_login(floorperson)
    assert room.name in staff.get("/display/").content.decode()
