"""The three faces: the tablet site, the display board and the admin, as their users open them."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import URLResolver, get_resolver, reverse

from casino_backoffice.staff.roles import Role
from tests.conftest import PASSWORD


def test_the_floor_asks_for_a_sign_in(client, db) -> None:
    response = client.get("/floor/")
    assert response.status_code == 302
    assert response["Location"].startswith("/floor/login/")


def test_sign_in_with_a_wrong_password_is_refused(client, floorperson) -> None:
    response = client.post("/floor/login/", {"username": floorperson.username, "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_a_floorperson_signs_in_and_sees_what_they_can_do(client, floorperson) -> None:
    response = client.post("/floor/login/", {"username": floorperson.username, "password": PASSWORD}, follow=True)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Floorperson" in page and "Tracking Slip" in page
    assert 'href="/floor/tables/"' in page
    assert 'href="/admin/"' not in page  # the back office is not theirs
    assert "Content-Security-Policy" in response.headers


def test_a_cashier_home_links_the_back_office(client, cashier) -> None:
    client.force_login(cashier)
    assert 'href="/admin/"' in client.get("/floor/").content.decode()


def test_the_dealer_home_leads_to_log_a_round(client, dealer) -> None:
    client.force_login(dealer)

    page = client.get("/floor/").content.decode()

    assert "Log rounds of play" in page  # the duty the home page promises ...
    assert 'href="/floor/rounds/log/"' in page and 'href="/floor/rake-calculator/"' in page  # ... and its page
    assert 'href="/floor/time-charges/"' not in page and 'href="/admin/"' not in page


def test_each_role_sees_the_tiles_of_its_roles(client, cashier) -> None:
    client.force_login(cashier)

    page = client.get("/floor/").content.decode()

    assert 'href="/floor/tables/"' in page and 'href="/floor/pin/"' in page and 'href="/display/"' in page
    assert 'href="/floor/rounds/log/"' not in page and 'href="/floor/rake-calculator/"' not in page


def _floor_pages() -> list[tuple[str, list[str]]]:
    """Every named page of the tablet site, with the names of its URL arguments."""

    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns)
            elif pattern.name:
                yield pattern

    floor = next(p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "floor")
    return [(pattern.name, list(pattern.pattern.converters)) for pattern in walk(floor.url_patterns)]


def test_every_tablet_page_but_home_has_a_way_back_home(client, make_staff, open_table) -> None:
    client.force_login(make_staff(Role.DEALER, extra_roles=[Role.FLOORPERSON]))
    back = '<a class="back" href="/floor/">'
    checked = []
    for name, arguments in _floor_pages():
        url = reverse(f"floor:{name}", kwargs=dict.fromkeys(arguments, open_table.pk))
        response = client.get(url)
        if response.status_code in (302, 405):  # sign-in (already signed in), sign-out and POST-only actions
            continue
        assert response.status_code in (200, 403), (url, response.status_code)
        html = response.content.decode()
        if "<html" not in html:  # a fragment a page swaps in (htmx): the page around it has the way back
            continue
        assert (back not in html) if name == "home" else (back in html), url
        checked.append(name)
    assert {"home", "pin", "tables", "round-log", "rake-calculator", "time-charges"} <= set(checked)


def test_the_display_board_needs_no_sign_in_and_refreshes_its_panel(client, open_table) -> None:
    board = client.get("/display/main/")
    assert board.status_code == 200
    page = board.content.decode()
    assert "Main Poker Room" in page
    assert 'data-panel-url="/display/main/panel/"' in page and "display.js" in page

    panel = client.get("/display/main/panel/")
    assert panel.status_code == 200
    assert "1 of 1 tables open" in panel.content.decode()
    assert panel["Cache-Control"] == "no-store"


def test_staff_who_open_the_display_from_a_tablet_have_a_way_back(client, open_table, dealer) -> None:
    assert "Floor home" not in client.get("/display/").content.decode()  # the wall display is signed out
    assert "floor-link" not in client.get("/display/main/").content.decode()
    client.force_login(dealer)
    assert '<a href="/floor/">&lsaquo; Floor home</a>' in client.get("/display/").content.decode()
    assert '<a class="floor-link" href="/display/">&lsaquo; Boards</a>' in client.get("/display/main/").content.decode()


def test_an_unknown_room_has_no_board(client, db) -> None:
    assert client.get("/display/nowhere/").status_code == 404


def _registered_models() -> list:
    return [model for model in apps.get_models() if model in admin.site._registry]


@pytest.mark.parametrize("role", [Role.COMPLIANCE, Role.ADMINISTRATOR, Role.FINANCE])
def test_every_registered_model_opens_in_the_admin(client, make_staff, role, open_table) -> None:
    client.force_login(make_staff(role))
    opened = 0
    for model in _registered_models():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = client.get(url)
        assert response.status_code in (200, 403), (url, response.status_code)
        opened += response.status_code == 200
    assert opened >= 5


def test_compliance_reads_the_audit_trail_and_cannot_change_a_table(client, compliance, open_table) -> None:
    client.force_login(compliance)

    history = client.get(reverse("admin:tables_table_history", args=[open_table.pk]))
    assert history.status_code == 200
    assert "opened by" in history.content.decode()

    response = client.post(
        reverse("admin:tables_table_change", args=[open_table.pk]),
        {"room": open_table.room_id, "number": "T1", "game": "holdem", "seats": 2},
    )
    assert response.status_code == 403
    open_table.refresh_from_db()
    assert open_table.seats == 10


def test_nobody_adds_a_transfer_in_the_admin(client, administrator) -> None:
    client.force_login(administrator)
    assert client.get(reverse("admin:ledger_transfer_add")).status_code == 403


def test_the_display_board_shows_a_bad_beat_as_finance_adjusted_it_and_nothing_not_official(
    client, open_table, finance, floorperson
) -> None:
    """A Bad Beat shows only what finance's latest display adjustment set, once the floorperson present
    witnessed it (§637a.15(h)(1)); money still in a box is not official and is shown nowhere."""
    from casino_backoffice.ledger.models import AccountKind, TransferKind
    from casino_backoffice.ledger.services import account_open, account_open_as, transfer_post_atomic
    from jackpots.bad_beat.services.display import display_adjust, display_witness
    from jackpots.funds.accounts import jackpot_fund_account
    from jackpots.funds.models import Jackpot, JackpotKind
    from tests.conftest import PIN

    room = open_table.room
    bad_beat = Jackpot.objects.create(room=room, code="bb", kind=JackpotKind.BAD_BEAT, name="Bad Beat")
    Jackpot.objects.create(room=room, code="hh", kind=JackpotKind.HIGH_HAND, name="High Hand")
    cage = account_open(code="cage:main", name="Main cage", kind=AccountKind.CAGE)
    box = account_open(code="table:main:T1:bb_box", name="T1 bb box", kind=AccountKind.JACKPOT_BOX)
    fund = account_open_as(jackpot_fund_account(jackpot=bad_beat))
    transfer_post_atomic(
        debit=fund,
        credit=cage,
        amount_cents=1_234_567,
        kind=TransferKind.VERIFICATION,
        idempotency_key="v-1",
        actor=finance,
    )
    # Expected money still in a box is not yet official and is not displayed.
    transfer_post_atomic(
        debit=box, credit=cage, amount_cents=999, kind=TransferKind.DROP, idempotency_key="d-1", actor=finance
    )

    before = client.get("/display/main/panel/").content.decode()
    adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=PIN, idempotency_key="display-faces")
    unwitnessed = client.get("/display/main/panel/").content.decode()
    display_witness(adjustment=adjustment, actor=floorperson, pin=PIN)
    panel = client.get("/display/main/panel/").content.decode()

    assert "Bad Beat" in before and "$12,345.67" not in before  # official, not yet set on the display
    assert "$12,345.67" not in unwitnessed  # finance alone does not set it
    assert "Bad Beat" in panel and "$12,345.67" in panel
    # A High Hand without a qualifying period open (no rules here) shows no amount, not even an estimate.
    assert "High Hand" in panel and "No period open" in panel
    assert "$9.99" not in panel and "Coming soon" not in panel


def test_every_admin_page_names_the_sites_icon(client, cashier) -> None:
    """Without the icon, each admin page asked for /favicon.ico, a 404 in the browser's console (issue 27)."""
    sign_in = client.get("/admin/login/").content.decode()
    client.force_login(cashier)
    today = client.get("/admin/").content.decode()
    icon = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
    assert icon in sign_in and icon in today
    assert "<title>Cage, finance and compliance | Poker-room back office</title>" in today  # Django's title kept
