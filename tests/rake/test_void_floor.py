"""*Void this round* on the tablet (issue 28, item 6): a floorperson voids a round already recorded whose
cards were found missing or extra (§637a.18(i)), with its irregularity; a dealer may not."""

from __future__ import annotations

import html
import re
import uuid

from django.test import Client
from django.urls import reverse

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature, User
from rake.models import RoundVoid
from tables.irregularities.models import Irregularity
from tests.conftest import PIN
from tests.rake.factories import round_logged


def signed_in(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def state() -> tuple[int, int, int, int]:
    return RoundVoid.objects.count(), Irregularity.objects.count(), Transfer.objects.count(), Signature.objects.count()


def void_form(**values) -> dict[str, str]:
    return {"idempotency_key": str(uuid.uuid4()), "reason": "51 cards: the 7 of clubs missing.", "pin": PIN, **values}


def test_a_floorperson_voids_a_round_from_the_days_list(rated_table, dealer, floorperson):
    round_ = round_logged(rated_table, dealer)
    tablet = signed_in(floorperson)
    assert "Void a round" in tablet.get("/floor/").content.decode()
    listed = text(tablet.get(reverse("floor:round-void-list")))
    assert re.search(rf"{round_.pk} \d\d:\d\d E[SD]T T1 \$120\.00 Void this round", listed)
    page = text(tablet.get(reverse("floor:round-void", args=[round_.pk])))
    assert "Rake $5.00" in page and "Void the round and sign" in page
    before = state()

    response = tablet.post(reverse("floor:round-void", args=[round_.pk]), void_form(), follow=True)

    # One void, its irregularity, the rake and two drops reversed, two signatures (the void, the irregularity)
    assert state() == (before[0] + 1, before[1] + 1, before[2] + 3, before[3] + 2)
    void = RoundVoid.objects.get()
    assert (void.round_id, void.voided_by, void.irregularity.kind) == (round_.pk, floorperson, "missing_or_extra_cards")
    page = text(response)
    assert f"Round {round_.pk} at table T1 is void (§637a.18(i)): its rake of $5.00 and drops of $3.00" in page
    assert "No round with its rake yet today." in page


def test_a_void_refused_says_why_and_records_nothing(rated_table, dealer, floorperson):
    round_ = round_logged(rated_table, dealer)
    tablet = signed_in(floorperson)
    for values, words in (({"pin": "0000"}, "Wrong PIN"), ({"reason": " "}, "correct what is marked")):
        before = state()
        response = tablet.post(reverse("floor:round-void", args=[round_.pk]), void_form(**values))
        assert f"Round {round_.pk} was not voided" in text(response) and words in text(response)
        assert state() == before
    tablet.post(reverse("floor:round-void", args=[round_.pk]), void_form())
    before = state()
    response = tablet.post(reverse("floor:round-void", args=[round_.pk]), void_form())
    assert "nothing was recorded" in text(response) and f"Round {round_.pk} was voided by" in text(response)
    assert state() == before


def test_a_dealer_may_not_void_and_sees_no_void_link(rated_table, dealer):
    round_ = round_logged(rated_table, dealer)
    tablet = signed_in(dealer)
    assert "Void a round" not in tablet.get("/floor/").content.decode()
    assert "Void this round" not in text(tablet.get(reverse("floor:round-log") + f"?recorded={round_.pk}"))
    before = state()
    response = tablet.post(reverse("floor:round-void", args=[round_.pk]), void_form())
    assert response.status_code == 403 and "Only a floorperson or above may void" in text(response)
    assert state() == before


def test_the_round_log_offers_a_floorperson_the_void_of_the_round_just_recorded(rated_table, floorperson):
    round_ = round_logged(rated_table, floorperson)
    page = signed_in(floorperson).get(reverse("floor:round-log") + f"?recorded={round_.pk}").content.decode()
    assert f'href="{reverse("floor:round-void", args=[round_.pk])}"' in page
