"""The cage in the admin: the arriving transports, the one screen to count or verify, the variances to
explain, the official record, the custody log, and their exports (CSV, XLSX, PDF)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from cage.models import Box, CageVerification, Transport, Variance, VerificationStatus
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_witness,
    notice_record,
    transport_account,
    transport_create,
)
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature
from tests.conftest import PIN


def _browser(person) -> Client:
    browser = Client()
    browser.force_login(person)
    return browser


def _box(table, code: str) -> Box:
    boxes_sync(room=table.room)
    return Box.objects.select_related("account", "table", "room", "jackpot").get(room=table.room, code=code)


@pytest.fixture
def container(closed_table, dealer, floorperson, security, key) -> Transport:
    """T1-drop ($15.00, counted $14.00) and T1-bb ($3.00) counted, witnessed and sealed in S-1."""
    notice_record(
        room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    counts = []
    for code, cents in (("T1-drop", 1400), ("T1-bb", 300)):
        count = count_record(
            box=_box(closed_table, code), counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key()
        )
        counts.append(count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference=f"CAM-{code}"))
    return transport_create(
        room=closed_table.room, seal="S-1", counts=counts, actor=security, pin=PIN, idempotency_key=key()
    )


@pytest.fixture
def boxes_at_cage(closed_table, floorperson, security, key) -> Transport:
    """T1-hh ($6.00 expected) carried uncounted under S-2 and accounted for at the cage."""
    transport = transport_create(
        room=closed_table.room,
        seal="S-2",
        boxes=[_box(closed_table, "T1-hh")],
        actor=security,
        pin=PIN,
        idempotency_key=key(),
    )
    return transport_account(transport=transport, box_codes=["T1-hh"], actor=floorperson, pin=PIN)


def _verify_key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def test_the_arriving_transports_list_with_totals_and_the_way_to_verify(
    container, boxes_at_cage, cashier, finance, django_assert_max_num_queries
) -> None:
    browser = _browser(cashier)
    with django_assert_max_num_queries(20):
        page = browser.get(reverse("admin:cage_transport_changelist")).content.decode()
    assert "S-1" in page and "S-2" in page
    assert "Declared <strong>$17.00</strong>" in page and "Expected when taken <strong>$24.00</strong>" in page
    assert reverse("admin:cage_transport_verify", args=[container.pk]) in page and "Verify the aggregate" in page
    assert "Count the boxes" in page
    assert (
        reverse("admin:cage_transport_verify", args=[container.pk])
        not in _browser(finance).get(reverse("admin:cage_transport_changelist")).content.decode()
    )  # finance reads, only a cashier verifies


def test_a_cashier_verifies_a_container_on_one_screen_and_sees_the_variance(container, cashier) -> None:
    browser = _browser(cashier)
    url = reverse("admin:cage_transport_verify", args=[container.pk])
    page = browser.get(url).content.decode()
    assert "Aggregate you counted" in page and "Declared (the sum of the table counts): <strong>$17.00</strong>" in page
    key = _verify_key(page)
    # $0.10 short is over the room's threshold ($0.00): the page asks the cashier to confirm, recording nothing.
    asked = " ".join(
        browser.post(url, {"aggregate": "16.90", "pin": PIN, "idempotency_key": key}).content.decode().split()
    )
    assert not CageVerification.objects.exists()
    assert "You counted $16.90; seal S-1 declares $17.00" in asked and "short -$0.10" in asked
    assert 'name="confirm_variance"' in asked
    response = browser.post(
        url, {"aggregate": "16.90", "pin": PIN, "idempotency_key": key, "confirm_variance": "on"}, follow=True
    )
    verification = CageVerification.objects.get()
    assert (verification.counted_cents, verification.official_cents, verification.variance_cents) == (1690, 1700, -10)
    page = " ".join(response.content.decode().split())
    assert "Seal S-1 verified: $17.00 made official." in page
    assert (
        "counted <strong>$16.90</strong>, made official <strong>$17.00</strong>, variance <strong>short -$0.10</strong>"
        in page
    )
    assert "Cage count against the table counts" in page and "Aggregate you counted" not in page


def test_a_cashier_counts_each_uncounted_box(boxes_at_cage, cashier) -> None:
    browser = _browser(cashier)
    url = reverse("admin:cage_transport_verify", args=[boxes_at_cage.pk])
    page = browser.get(url).content.decode()
    assert "Box T1-hh" in page and "$6.00" not in page  # the cashier counts blind too
    key = _verify_key(page)
    asked = browser.post(url, {"box_T1-hh": "6.50", "pin": PIN, "idempotency_key": key}).content.decode()
    assert not CageVerification.objects.exists() and "over +$0.50" in asked  # confirmed before it is signed
    page = browser.post(
        url, {"box_T1-hh": "6.50", "pin": PIN, "idempotency_key": key, "confirm_variance": "on"}, follow=True
    ).content.decode()
    verification = CageVerification.objects.get()
    assert (verification.box_counts, verification.variance_cents) == ({"T1-hh": 650}, 50)
    assert "$6.00" in page and "$6.50" in page and "over +$0.50" in page  # expected, counted, variance


def test_the_verify_screen_refuses_whoever_is_not_a_cashier_and_a_bad_pin(container, cashier, finance) -> None:
    url = reverse("admin:cage_transport_verify", args=[container.pk])
    before = (Transfer.objects.count(), Signature.objects.count())
    page = _browser(finance).get(url).content.decode()
    assert "Only a cage cashier counts or verifies a transport." in page and "Aggregate you counted" not in page
    _browser(finance).post(url, {"aggregate": "17.00", "pin": PIN, "idempotency_key": "x"})
    browser = _browser(cashier)
    refused = browser.post(url, {"aggregate": "17.00", "pin": "9999", "idempotency_key": "y"}).content.decode()
    assert "errornote" in refused
    assert not CageVerification.objects.exists() and (Transfer.objects.count(), Signature.objects.count()) == before


def test_variances_open_on_those_awaiting_an_explanation_and_finance_explains(container, cashier, finance) -> None:
    cage_verify(transport=container, counted=1690, confirm_variance=True, actor=cashier, pin=PIN, idempotency_key="v")
    browser = _browser(finance)
    page = browser.get(reverse("admin:cage_variance_changelist")).content.decode()
    # The table's -$1.00 and the cage's -$0.10: totals per direction and net, never an unsigned sum.
    assert "Over <strong>none $0.00</strong>" in page and "Short <strong>short -$1.10</strong>" in page
    assert "Net <strong>short -$1.10</strong>" in page and "short -$0.10" in page
    cage_variance = Variance.objects.get(count__isnull=True)
    explain = reverse("admin:cage_variance_explain", args=[cage_variance.pk])
    assert explain in page
    refused = _browser(cashier).get(explain)
    assert refused.status_code == 403
    browser.post(explain, {"reason": "A dime under the rack.", "pin": PIN})
    cage_variance.refresh_from_db()
    assert (cage_variance.explanation, cage_variance.explained_by) == ("A dime under the rack.", finance)
    assert CageVerification.objects.get().status == VerificationStatus.VERIFIED
    page = browser.get(reverse("admin:cage_variance_changelist")).content.decode()
    assert explain not in page and "Short <strong>short -$1.00</strong>" in page


def test_variances_export_as_csv_and_xlsx_with_money_as_numbers(container, cashier, finance) -> None:
    cage_verify(transport=container, counted=1690, confirm_variance=True, actor=cashier, pin=PIN, idempotency_key="v")
    browser = _browser(finance)
    rows = list(
        csv.reader(
            io.StringIO(
                browser.get(
                    reverse("admin:cage_variance_export", args=["csv"]), {"explanation": "all"}
                ).content.decode()
            )
        )
    )
    assert rows[0][:10] == [
        "id", "room", "gaming_day", "kind", "box", "count", "verification", "amount", "direction", "variance"
    ]  # fmt: skip
    assert sorted((row[7], row[8], row[9]) for row in rows[1:3]) == [
        ("-0.10", "short", "short -$0.10"),
        ("-1.00", "short", "short -$1.00"),
    ]
    # Then the totals per direction and net.
    assert [(row[3], row[7], row[9]) for row in rows[3:]] == [
        ("Total over", "0.00", "none $0.00"),
        ("Total short", "-1.10", "short -$1.10"),
        ("Net", "-1.10", "short -$1.10"),
    ]
    sheet = load_workbook(
        io.BytesIO(browser.get(reverse("admin:cage_variance_export", args=["xlsx"]), {"explanation": "all"}).content)
    ).active
    amounts = sorted(float(sheet.cell(row=r, column=8).value) for r in (2, 3))
    assert amounts == [-1.0, -0.1] and sheet.cell(row=2, column=8).number_format == "$#,##0.00"


def test_the_official_record_by_fund_and_day_with_totals_and_exports(container, cashier, finance) -> None:
    verification = cage_verify(transport=container, counted=1700, actor=cashier, pin=PIN, idempotency_key="v")
    browser = _browser(finance)
    url = reverse("admin:cage_official_record")
    page = browser.get(url).content.decode()
    assert "Main Poker Room: poker revenue (official)" in page and "$14.00" in page and "Bad Beat fund" in page
    assert "Total of the period</strong></td><td><strong>$17.00" in page
    day = verification.gaming_day.isoformat()
    rows = list(csv.reader(io.StringIO(browser.get(url, {"export": "csv", "from": day, "to": day}).content.decode())))
    assert rows[0] == ["gaming_day", "room", "account", "fund", "official"]
    assert {(row[2], row[4]) for row in rows[1:3]} == {("room:main:revenue", "14.00"), ("jackpot:main:bb:fund", "3.00")}
    # The totals the page shows, under the rows: each fund's, then the period's, labelled in the first column.
    assert sorted((row[0], row[2], row[4]) for row in rows[3:5]) == [
        ("Total of Bad Beat fund", "jackpot:main:bb:fund", "3.00"),
        ("Total of Main Poker Room: poker revenue (official)", "room:main:revenue", "14.00"),
    ]
    assert rows[5] == ["Total", "", "", "", "17.00"] and len(rows) == 6
    sheet = load_workbook(io.BytesIO(browser.get(url, {"export": "xlsx", "from": day, "to": day}).content)).active
    assert sorted(float(sheet.cell(row=r, column=5).value) for r in (2, 3)) == [3.0, 14.0]
    assert sheet.cell(row=2, column=5).number_format == "$#,##0.00"
    assert sheet["E4"].value == "=SUMPRODUCT((B2:B3=B4)*(C2:C3=C4)*(D2:D3=D4)*E2:E3)"
    assert sheet["A6"].value == "Total" and sheet["E6"].value == "=SUM(E2:E3)" and sheet["E6"].font.bold


def test_the_custody_log_of_a_day_and_its_export(container, finance) -> None:
    browser = _browser(finance)
    day = container.gaming_day.isoformat()
    page = browser.get(reverse("admin:cage_custody_log"), {"room": "main", "day": day}).content.decode()
    assert "carried under seal S-1 to the main cage" in page and "witnessed (CAM-T1-drop)" in page
    rows = list(
        csv.reader(
            io.StringIO(
                browser.get(
                    reverse("admin:cage_custody_log"), {"room": "main", "day": day, "export": "csv"}
                ).content.decode()
            )
        )
    )
    assert (
        rows[0] == ["at", "box", "step", "person", "document"] and len(rows) == 1 + 6
    )  # two boxes: counted, witnessed, carried


def test_the_count_sheets_pdf_carries_every_signature_and_credential_number(
    container, cashier, finance, dealer, floorperson, security
) -> None:
    cage_verify(transport=container, counted=1700, actor=cashier, pin=PIN, idempotency_key="v")
    response = _browser(finance).get(
        reverse("admin:cage_count_sheets"), {"room": "main", "day": container.gaming_day.isoformat()}
    )
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for person in (dealer, floorperson, security, cashier):
        assert person.credential_number in text, person
    for purpose in ("counter", "witness", "custody", "cashier", "recorder"):
        assert purpose in text


def test_the_record_pages_are_for_the_back_office_roles(container, make_staff) -> None:
    from casino_backoffice.staff.roles import Role

    manager = _browser(make_staff(Role.POKER_ROOM_MANAGER))
    assert manager.get(reverse("admin:cage_official_record")).status_code == 200
    for role in (Role.SECURITY, Role.DEALER):
        person = make_staff(role)
        person.is_staff = True  # even let in, the table of actions refuses them
        person.save(update_fields=["is_staff"])
        assert _browser(person).get(reverse("admin:cage_official_record")).status_code == 403


@pytest.mark.parametrize("name", ["transport", "variance", "count", "cageverification", "box", "countsheet"])
def test_the_cage_lists_open_at_once(
    name, container, boxes_at_cage, cashier, finance, django_assert_max_num_queries
) -> None:
    cage_verify(transport=container, counted=1690, confirm_variance=True, actor=cashier, pin=PIN, idempotency_key="v")
    browser = _browser(finance)
    with django_assert_max_num_queries(20):
        response = browser.get(
            reverse(f"admin:cage_{name}_changelist"),
            {"transport": {"arriving": "all"}, "variance": {"explanation": "all"}}.get(name, {}),
        )
    assert response.status_code == 200


def test_the_verify_screen_tells_each_moment_on_the_rooms_clock_with_its_zone(boxes_at_cage, cashier) -> None:
    """The screen showed 'carried at 10:15' on the server's clock: each moment is on the room's clock
    with its abbreviation (issue 27, item 4), whatever zone the server runs in."""
    from zoneinfo import ZoneInfo

    from tables.models import PokerRoom

    PokerRoom.objects.filter(pk=boxes_at_cage.room_id).update(
        timezone="America/Los_Angeles"
    )  # the server's is New York
    pacific = ZoneInfo("America/Los_Angeles")
    transport = Transport.objects.get(pk=boxes_at_cage.pk)
    carried, accounted = (moment.astimezone(pacific) for moment in (transport.carried_at, transport.accounted_at))
    url = reverse("admin:cage_transport_verify", args=[transport.pk])
    page = " ".join(_browser(cashier).get(url).content.decode().split())
    assert f"at {carried:%H:%M %Z} to the main cage" in page and f"at {accounted:%H:%M %Z}." in page
    assert carried.tzname() in ("PST", "PDT")
    verification = cage_verify(
        transport=transport, counted={"T1-hh": 600}, actor=cashier, pin=PIN, idempotency_key="verify-pacific"
    )
    page = " ".join(_browser(cashier).get(url).content.decode().split())
    assert f"by {cashier} at {verification.verified_at.astimezone(pacific):%Y-%m-%d %H:%M %Z}:" in page
