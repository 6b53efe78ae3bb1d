"""API tokens are secrets (issue 25, item 3): only a digest is stored (django-rest-knox), a token is
shown once when it is made (``manage.py drf_create_token USER``), the admin lists the start of each
digest and lets an administrator revoke one, and a token acts as its person, with their rooms and roles
as they stand at each request."""

from __future__ import annotations

import re
from datetime import time
from io import StringIO

import pytest
from django.core.management import call_command
from knox.models import AuthToken
from rest_framework.test import APIClient

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import api_token_create, api_token_revoke
from tables.services import room_staff_set, room_upsert

TOKENS_ADMIN = "/admin/knox/authtoken/"


def _api(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def _refused(api: APIClient, detail: str = "Invalid token.") -> bool:
    """The API refuses the token: 401, with the scheme a client answers (``WWW-Authenticate: Token``;
    the token authenticator is the API's first)."""
    response = api.get("/api/me/")
    return (
        response.status_code == 401
        and response["WWW-Authenticate"].startswith("Token")
        and response.json()["detail"] == detail
    )


def _stored_text() -> str:
    """Every column of every stored token, as text."""
    return " ".join(str(value) for row in AuthToken.objects.values_list() for value in row)


def test_only_a_digest_of_a_token_is_stored_and_the_token_signs_in(dealer) -> None:
    token = api_token_create(user=dealer)

    assert re.fullmatch(r"[0-9a-f]{64}", token)
    assert token not in _stored_text()
    stored = AuthToken.objects.get(user=dealer)
    assert len(stored.digest) == 128 and stored.expiry is None
    me = _api(token).get("/api/me/")
    assert me.status_code == 200 and me.json()["username"] == dealer.username


def test_a_wrong_token_is_refused(dealer) -> None:
    token = api_token_create(user=dealer)
    wrong = token[:-1] + ("0" if token[-1] != "0" else "1")

    assert _refused(_api(wrong))


def test_drf_create_token_prints_the_token_once_and_stores_its_digest(dealer) -> None:
    out, err = StringIO(), StringIO()

    call_command("drf_create_token", dealer.username, stdout=out, stderr=err)

    printed = re.fullmatch(rf"Generated token ([0-9a-f]{{64}}) for user {dealer.username}\n", out.getvalue())
    assert printed is not None
    assert "Shown once" in err.getvalue()
    token = printed.group(1)
    assert token not in _stored_text()
    assert _api(token).get("/api/me/").status_code == 200


def test_drf_create_token_reset_revokes_the_persons_other_tokens(dealer) -> None:
    old = api_token_create(user=dealer)

    out = StringIO()
    call_command("drf_create_token", dealer.username, "--reset", stdout=out, stderr=StringIO())

    new = out.getvalue().split()[2]
    assert _refused(_api(old))
    assert _api(new).get("/api/me/").status_code == 200
    assert AuthToken.objects.filter(user=dealer).count() == 1


def test_the_admin_lists_the_start_of_each_digest_never_a_token_nor_a_whole_digest(
    client, administrator, dealer
) -> None:
    token = api_token_create(user=dealer)
    digest = AuthToken.objects.get(user=dealer).digest
    client.force_login(administrator)

    html = client.get(TOKENS_ADMIN).content.decode()

    assert f"{digest[:8]}..." in html and str(dealer) in html
    assert token not in html and token[:15] not in html
    # The whole digest only as the value of the box that selects the row (knox's primary key).
    assert html.count(digest) == 1 and f'value="{digest}"' in html
    # DRF's own list of tokens in plain text is gone.
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 404
    assert client.get(f"{TOKENS_ADMIN}add/").status_code == 403


def test_an_administrator_revokes_a_token_in_the_admin(client, administrator, dealer) -> None:
    token = api_token_create(user=dealer)
    kept = api_token_create(user=dealer)
    digest = next(t.digest for t in AuthToken.objects.filter(user=dealer) if t.token_key == token[:15])
    client.force_login(administrator)

    response = client.post(TOKENS_ADMIN, {"action": "revoke", "_selected_action": [digest]}, follow=True)

    assert "1 API token revoked." in response.content.decode()
    assert _refused(_api(token))
    assert _api(kept).get("/api/me/").status_code == 200


def test_only_an_administrator_sees_or_revokes_tokens(client, finance, dealer) -> None:
    token = api_token_create(user=dealer)
    stored = AuthToken.objects.get(user=dealer)
    client.force_login(finance)

    assert client.get(TOKENS_ADMIN).status_code == 403
    with pytest.raises(ActionNotPermitted):
        api_token_revoke(token=stored, actor=finance)
    with pytest.raises(ActionNotPermitted):
        api_token_create(user=dealer, actor=finance)

    assert _api(token).get("/api/me/").status_code == 200


def test_a_token_acts_with_its_persons_rooms_and_roles_as_they_stand(administrator, manager, dealer) -> None:
    rooms = [
        room_upsert(code=code, name=code, timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager)
        for code in ("north", "south")
    ]
    token = api_token_create(user=dealer)
    api = _api(token)
    assert [room["code"] for room in api.get("/api/rooms/").json()["results"]] == ["north", "south"]

    # Given one room, the all-rooms grant withdrawn: the token sees that room alone.
    room_staff_set(room=rooms[0], staff=[dealer], actor=administrator)
    User.objects.filter(pk=dealer.pk).update(all_rooms=False)
    assert [room["code"] for room in api.get("/api/rooms/").json()["results"]] == ["north"]

    # A role given: the token holds it at its next request.
    dealer.groups.add(*User.objects.get(pk=manager.pk).groups.all())
    assert api.get("/api/me/").json()["roles"] == sorted([Role.DEALER.value, Role.POKER_ROOM_MANAGER.value])

    # No longer an active member of staff: the token is refused.
    User.objects.filter(pk=dealer.pk).update(is_active=False)
    assert _refused(api, "User inactive or deleted.")


def test_no_token_is_made_for_a_person_who_is_not_active(dealer) -> None:
    User.objects.filter(pk=dealer.pk).update(is_active=False)
    dealer.refresh_from_db()

    with pytest.raises(Exception, match="not an active member of staff"):
        api_token_create(user=dealer)
    assert not AuthToken.objects.exists()
