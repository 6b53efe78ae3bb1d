"""A supervisor's recount on the tablet (issue 24, item 2), in a real browser under the strict
Content-Security-Policy: the counts still at the table, the recount with its reason and PIN, and a
refusal that says what was wrong. Each leaves a screenshot in var/screenshots."""

from __future__ import annotations

import pytest

from cage.models import Box, Count, CountStatus
from cage.services import boxes_sync, count_record, count_witness
from tests.browser.conftest import screenshot, tablet
from tests.conftest import PIN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_recounts_a_wrong_count_at_the_table(
    live_server, browser, closed_table, dealer, floorperson, supervisor, key
) -> None:
    boxes_sync(room=closed_table.room)
    drop = Box.objects.select_related("table", "room", "account", "jackpot").get(code="T1-drop")
    count = count_record(box=drop, counted_cents=15000, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-1")

    page = tablet(browser, live_server, supervisor)
    page.click(".tile:has-text('Recount a box')")
    card = page.locator(f"article[aria-label='Count {count.pk}']")
    assert "$150.00" in card.inner_text() and "$15.00" not in card.inner_text()  # the recount is blind too
    screenshot(page, "cage-recount")
    # The same amount again: refused, saying what to do instead, nothing recorded.
    card.locator("input[name='counted']").fill("150.00")
    card.locator("textarea[name='reason']").fill("Checking")
    card.locator("input[name='pin']").fill(PIN)
    card.locator("button:has-text('Recount and sign')").click()
    page.wait_for_selector("text=was not recounted")
    assert "nothing to correct" in page.inner_text("body")
    screenshot(page, "cage-recount-refused")
    assert Count.objects.count() == 1
    card = page.locator(f"article[aria-label='Count {count.pk}']")
    card.locator("input[name='counted']").fill("15.00")
    card.locator("textarea[name='reason']").fill("Typed $150.00 for $15.00")
    card.locator("input[name='pin']").fill(PIN)
    card.locator("button:has-text('Recount and sign')").click()
    page.wait_for_selector("text=superseding count")
    screenshot(page, "cage-recount-recorded")
    count.refresh_from_db()
    recount = Count.objects.get(supersedes=count)
    assert (count.status, recount.counted_cents, recount.status) == (CountStatus.SUPERSEDED, 1500, CountStatus.COUNTED)
    assert page.console_errors == []
