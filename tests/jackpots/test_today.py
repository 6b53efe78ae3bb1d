"""*Today* (issue 27, item 3): the jackpot payouts waiting in the person's rooms, from the demo's day:
the Bad Beat shares not paid, each with its pay link; nothing of them to a person of another room."""

from __future__ import annotations

from datetime import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from casino_backoffice.money import display_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatShare
from tables.services import room_staff_set, room_upsert

pytestmark = pytest.mark.django_db


def _today(person: User) -> str:
    client = Client()
    client.force_login(person)
    answer = client.get(reverse("admin:index"))
    assert answer.status_code == 200
    return answer.content.decode()


def _section(page: str, title: str) -> str:
    start = page.index(f'data-section="{title}"')
    return page[start : page.index("</div>", start)]


def test_finance_lands_on_the_shares_to_pay_and_a_room_b_cashier_on_none(make_staff, administrator) -> None:
    call_command("load_demo", stdout=StringIO())
    unpaid = list(BadBeatShare.objects.filter(payment__isnull=True).order_by("position"))
    assert unpaid  # the demo's Bad Beat is distributed, its shares not paid

    page = _today(User.objects.get(username="finance"))
    shares = _section(page, "Bad Beat shares to pay")
    assert f'aria-label="{len(unpaid)} waiting"' in shares
    for share in unpaid:
        assert reverse("admin:jackpots_badbeatshare_pay", args=[share.pk]) in shares
        assert display_cents(share.amount_cents) in shares and share.name in shares
    for title in ("High Hand awards to pay", "Progressive payouts to pay at the cage", "Gaming days to close"):
        assert f'data-section="{title}"' in page

    room_b = room_upsert(
        code="b", name="Room B", timezone_name="America/New_York", gaming_day_starts=time(6), actor=administrator
    )
    cashier_b = make_staff(Role.CAGE_CASHIER, rooms=[room_b])
    room_staff_set(room=room_b, staff=[cashier_b], actor=administrator)
    page_b = _today(cashier_b)
    assert 'aria-label="0 waiting"' in _section(page_b, "Bad Beat shares to pay")
    assert all(share.name not in page_b for share in unpaid)


def test_no_share_to_pay_yet_names_the_verified_claim_awaiting_its_distribution(
    make_claim, supervisor, finance, bad_beat
) -> None:
    """ "Every Bad Beat share is paid" beside a verified $2,500.00 payout read as nothing owed (issue 27):
    until finance prepares its distribution, the section says what is owed and who prepares it."""
    from jackpots.bad_beat.services.claims import claim_verify
    from tests.conftest import PIN
    from tests.jackpots.bad_beat import fund_official

    assert "Every Bad Beat share is paid." in _section(_today(finance), "Bad Beat shares to pay")
    fund_official(bad_beat, 250_000, finance)
    claim_verify(claim=make_claim(), actor=supervisor, pin=PIN)

    shares = _section(_today(finance), "Bad Beat shares to pay")
    assert 'aria-label="0 waiting"' in shares
    assert (
        "No share to pay yet: 1 verified claim awaits its distribution, which finance prepares "
        "(Bad Beat funds and display)." in shares
    )
    assert "Every Bad Beat share is paid." not in shares


@pytest.mark.pools_by_hand
def test_an_award_leaves_today_when_its_time_to_collect_runs_out(room, rated_table, staff_of_a_period, monkeypatch):
    """Time moves on between Today and the pay page: an award still to collect is listed with its
    deadline; a minute past it, before the schedule has prepared where it goes, Today lists it no more
    and paying it is refused, nothing paid (it was paid before: found by this test)."""
    from datetime import timedelta

    from jackpots.high_hand.exceptions import HighHandRefused
    from jackpots.high_hand.models import HighHandAwardPayment
    from jackpots.high_hand.services.awards import award_pay
    from tests.clock import clock_move
    from tests.conftest import PIN
    from tests.jackpots.high_hand_back_office import TIED_ID, hours_ago, period_played

    played = period_played(room=room, table=rated_table, start=hours_ago(4), **staff_of_a_period)
    award, cashier = played.unpaid, staff_of_a_period["cashier"]
    before = _section(_today(cashier), "High Hand awards to pay")
    assert 'aria-label="1 waiting"' in before and "Tia Tie" in before and "collect by" in before

    clock_move(monkeypatch, to=award.collect_by + timedelta(minutes=1))

    after = _section(_today(cashier), "High Hand awards to pay")
    assert 'aria-label="0 waiting"' in after and "Tia Tie" not in after
    with pytest.raises(HighHandRefused, match="collect"):
        award_pay(award=award, id_type=TIED_ID[0], id_number=TIED_ID[1], actor=cashier, pin=PIN, idempotency_key="late")
    assert not HighHandAwardPayment.objects.filter(award=award).exists()


@pytest.fixture
def staff_of_a_period(dealer, floorperson, supervisor, cashier) -> dict[str, User]:
    return {"dealer": dealer, "floorperson": floorperson, "supervisor": supervisor, "cashier": cashier}
