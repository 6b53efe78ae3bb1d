"""The cage's faces as people use them, in a real browser under the strict Content-Security-Policy: the
dealer's count on the number pad, the witness, security's custody, surveillance's list and the
cashier's verify screen. Each leaves a screenshot in var/screenshots."""

from __future__ import annotations

import pytest

from cage.models import CageVerification, Count, CountStatus, Transport
from cage.services import boxes_sync, count_record, count_witness, notice_record, transport_create
from casino_backoffice.staff.roles import Role
from tests.browser.conftest import screenshot, tablet
from tests.conftest import PASSWORD, PIN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_dealer_counts_a_box_on_the_number_pad(live_server, browser, closed_table, dealer) -> None:
    boxes_sync(room=closed_table.room)
    page = tablet(browser, live_server, dealer)
    page.click(".tile:has-text('Count a box')")
    screenshot(page, "cage-count-boxes")
    for button in page.query_selector_all(".box-button"):
        box = button.bounding_box()
        assert box["height"] >= 48 and box["width"] >= 48
    page.click(".box-button:has-text('T1-drop')")
    page.click("summary:has-text('Chips by denomination')")
    page.click("input[data-denomination='500']")
    page.click("[data-key='2']")
    page.click("input[data-denomination='100']")
    page.click("[data-key='4']")
    assert page.input_value("#id_counted") == "14.00"  # the chips add up into the amount
    page.fill("#id_pin", PIN)
    screenshot(page, "cage-count")
    page.click("button:has-text('Record the count')")
    page.wait_for_selector("text=Expected by the ledger")
    screenshot(page, "cage-count-recorded")
    count = Count.objects.get()
    assert (count.counted_cents, count.expected_cents, count.denominations) == (1400, 1500, {"500": 2, "100": 4})
    assert "-$1.00" in page.inner_text(".result")
    assert page.console_errors == []


def test_a_typed_amount_is_never_replaced_by_the_chips(live_server, browser, closed_table, dealer) -> None:
    """The finding: $12 typed, then 2 x $5 chips, and $10.00 was recorded. The chips no longer overwrite
    what the dealer typed: the page shows both figures and the server refuses the disagreement."""
    boxes_sync(room=closed_table.room)
    page = tablet(browser, live_server, dealer)
    page.click(".tile:has-text('Count a box')")
    page.click(".box-button:has-text('T1-drop')")
    page.click("#id_counted")
    page.click("[data-key='1']")
    page.click("[data-key='2']")
    page.click("summary:has-text('Chips by denomination')")
    page.click("input[data-denomination='500']")
    page.click("[data-key='2']")
    assert page.input_value("#id_counted") == "12"  # as typed
    assert "The chips add up to $10.00, not the $12 typed" in page.inner_text("[data-chips-total]")
    page.fill("#id_pin", PIN)
    screenshot(page, "cage-count-chips-disagree")
    page.click("button:has-text('Record the count')")
    page.wait_for_selector("text=The chips add up to $10.00, not the $12.00 entered.")
    assert not Count.objects.exists()
    assert page.console_errors == []


def test_a_floorperson_witnesses_and_security_carries(
    live_server, browser, closed_table, dealer, floorperson, security, key
) -> None:
    boxes_sync(room=closed_table.room)
    from cage.models import Box

    drop = Box.objects.select_related("table", "room", "account", "jackpot").get(code="T1-drop")
    count_record(box=drop, counted_cents=1500, actor=dealer, pin=PIN, idempotency_key=key())

    page = tablet(browser, live_server, floorperson)
    page.goto(f"{live_server.url}/floor/counts/witness/")
    page.fill("input[name='surveillance_reference']", "CAM-12 14:02")
    page.fill("input[name='pin']", PIN)
    screenshot(page, "cage-witness")
    page.click("button:has-text('Witness and sign')")
    page.wait_for_selector("text=witnessed, recording CAM-12 14:02")
    assert Count.objects.get().status == CountStatus.WITNESSED
    assert page.console_errors == []

    page = tablet(browser, live_server, security)
    page.click(".tile:has-text('Carry to the cage')")
    page.click("label.check:has-text('T1-drop · counted $15.00')")
    page.fill("#id_container-seal", "S-100")
    page.fill("#id_container-pin", PIN)
    screenshot(page, "cage-custody")
    page.click("button:has-text('Sign for the container')")
    page.wait_for_selector("text=is in your custody")
    screenshot(page, "cage-custody-signed")
    assert Transport.objects.get().seal == "S-100"
    assert page.console_errors == []


def test_surveillance_sees_the_counts_with_htmx_under_the_csp(
    live_server, browser, closed_table, dealer, make_staff, key
) -> None:
    boxes_sync(room=closed_table.room)
    from cage.models import Box

    count_record(
        box=Box.objects.select_related("table", "room", "account", "jackpot").get(code="T1-drop"),
        counted_cents=1500,
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    page = tablet(browser, live_server, make_staff(Role.SURVEILLANCE))
    page.goto(f"{live_server.url}/floor/counts/surveillance/")
    assert page.evaluate("typeof htmx") == "object"  # the polling library loaded from our own origin
    assert "T1-drop" in page.inner_text("#counts")
    screenshot(page, "cage-surveillance")
    assert page.console_errors == []


def test_a_cashier_verifies_a_container_on_the_admin_screen(
    live_server,
    browser,
    closed_table,
    dealer,
    floorperson,
    security,
    cashier,
    key,
) -> None:
    boxes_sync(room=closed_table.room)
    from cage.models import Box

    notice_record(
        room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    counts = []
    for code, cents in (("T1-drop", 1500), ("T1-bb", 300)):
        box = Box.objects.select_related("table", "room", "account", "jackpot").get(code=code)
        count = count_record(box=box, counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key())
        counts.append(count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference=f"CAM-{code}"))
    transport = transport_create(
        room=closed_table.room, seal="S-7", counts=counts, actor=security, pin=PIN, idempotency_key=key()
    )

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", cashier.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.goto(f"{live_server.url}/admin/cage/transport/")
    page.click("a:has-text('Verify the aggregate')")
    # A comma for a point: refused on the page with what to type instead, nothing made official.
    page.fill("input[name='aggregate']", "23,90")
    page.fill("input[name='pin']", PIN)
    page.click("input[value='Sign and make official']")
    page.wait_for_selector("text=write 23.90 or 2,390.00")
    screenshot(page, "cage-admin-verify-typo")
    assert not CageVerification.objects.filter(transport=transport).exists()
    page.fill("input[name='aggregate']", "17.90")
    page.fill("input[name='pin']", PIN)
    screenshot(page, "cage-admin-verify")
    page.click("input[value='Sign and make official']")
    # $0.10 short of the declared $18.00, over the room's threshold: confirmed on the page first.
    page.wait_for_selector("#confirm-variance")
    assert "short -$0.10" in page.inner_text("#confirm-variance")
    assert not CageVerification.objects.filter(transport=transport).exists()
    screenshot(page, "cage-admin-verify-confirm")
    page.check("input[name='confirm_variance']")
    page.fill("input[name='pin']", PIN)
    page.click("input[value='Sign and make official']")
    page.wait_for_selector("text=made official.")
    screenshot(page, "cage-admin-verified")
    verification = CageVerification.objects.get(transport=transport)
    assert (verification.official_cents, verification.variance_cents) == (1800, -10)
    assert "-$0.10" in page.inner_text("#content-main")
    context.close()
