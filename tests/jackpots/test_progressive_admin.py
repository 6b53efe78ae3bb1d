"""The progressive meters in the back office (§655a.12, §657a.12): every page opens for the back office
and is refused to a dealer; every row is read-only; the lists open in the same queries however many
rounds and hands there are; a cage cashier pays a validated payout through the cage with the PIN, once,
and a refusal shows the service's message and changes nothing; the paytable returns page shows each
banked table's paytables with their exact returns, enumerated once per process."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.poker import returns
from casino_backoffice.poker.paytables import MISSISSIPPI_STUD_PROGRESSIVE
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import ADMIN_ROLES, Role
from jackpots.progressive.models import (
    EnvyBonus,
    MeterFunding,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressivePayment,
    ProgressiveRound,
    ProgressiveValidation,
    WagerCountException,
)
from jackpots.progressive.services.hands import progressive_pay, progressive_validate
from jackpots.progressive.services.meters import meter_reset
from jackpots.progressive.services.rounds import wager_count_explain
from tables.models import Table
from tests.conftest import PIN
from tests.jackpots.back_office import browser
from tests.jackpots.progressive_helpers import hand, meter_cents, play, snapshot

pytestmark = pytest.mark.django_db

MODELS = [
    "progressivemeter",
    "progressiveround",
    "wagercountexception",
    "progressivehand",
    "envybonus",
    "progressivevalidation",
    "progressivepayment",
    "meterfunding",
]
PATRON = ("Rae Royal", "Passport", "X1234567")


def _text(response) -> str:
    """The page as a person reads it: its words, without tags, single spaces."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _section(response, element_id: str) -> str:
    """The words of one module of a page: from the element with ``element_id`` to the next module."""
    page = response.content.decode()
    start = page.index(f'id="{element_id}"')
    end = page.find('<div class="module"', start)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page[start : end if end > 0 else None])).split())


def _key(page: str) -> str:
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def _paid(code: str) -> int:
    return account_balance(account=Account.objects.get(code=f"progressive:main:{code}:paid"))


@dataclass
class Played:
    """A Mississippi Stud royal flush paid at the cage and its meter reset; a round whose chips differ
    from its wagers, explained, with three nines paid at the table; a Crazy 4 Poker four aces validated
    and still to pay at the cage (its meter pending)."""

    royal: ProgressiveHand
    trips: ProgressiveHand
    aces: ProgressiveHand
    exception: WagerCountException


def _cycle(stud: Table, crazy4: Table, staff: dict[str, User], *, explain: bool = True) -> Played:
    dealer, floorperson, supervisor, cashier = (staff[k] for k in ("dealer", "floorperson", "supervisor", "cashier"))
    royal = hand(play(stud, dealer, {2: "5.00", 3: "1.00", 5: "1.00"}, community="Qs Js Ts"), dealer, 5, "As Ks")
    progressive_validate(hand=royal, actor=floorperson, pin=PIN)
    progressive_pay(
        hand=royal,
        patron_name=PATRON[0],
        id_type=PATRON[1],
        id_number=PATRON[2],
        actor=cashier,
        pin=PIN,
        idempotency_key=f"pay-{royal.pk}",
    )
    meter_reset(meter=royal.round.meter, actor=supervisor, pin=PIN)
    counted = play(stud, dealer, {1: "1.00", 2: "1.00"}, chips=3, community="9h 8h 7h")
    exception = WagerCountException.objects.get(round=counted)
    if explain:
        wager_count_explain(exception=exception, explanation="A chip was placed late", actor=supervisor, pin=PIN)
    trips = hand(counted, dealer, 2, "9c 9d")
    progressive_validate(hand=trips, actor=floorperson, pin=PIN)
    aces = hand(play(crazy4, dealer, {6: "1.00", 3: "5.00", 1: "1.00"}), dealer, 6, "As Ah Ad Ac 2d")
    progressive_validate(hand=aces, actor=floorperson, pin=PIN)
    return Played(royal=royal, trips=trips, aces=aces, exception=exception)


@pytest.fixture
def staff(dealer, floorperson, supervisor, cashier) -> dict[str, User]:
    return {"dealer": dealer, "floorperson": floorperson, "supervisor": supervisor, "cashier": cashier}


@pytest.fixture
def played(stud, crazy4, staff) -> Played:
    return _cycle(stud, crazy4, staff)


def _pages(played: Played) -> list[str]:
    royal, aces = played.royal, played.aces
    return [
        reverse("admin:app_list", args=["jackpots"]),
        *(reverse(f"admin:jackpots_{name}_changelist") for name in MODELS),
        reverse("admin:jackpots_progressivemeter_change", args=[royal.round.meter_id]),
        reverse("admin:jackpots_progressivemeter_change", args=[aces.round.meter_id]),
        reverse("admin:jackpots_progressiveround_change", args=[played.trips.round_id]),
        reverse("admin:jackpots_wagercountexception_change", args=[played.exception.pk]),
        reverse("admin:jackpots_progressivehand_change", args=[royal.pk]),
        reverse("admin:jackpots_progressivehand_change", args=[aces.pk]),
        reverse("admin:jackpots_envybonus_change", args=[royal.envy_bonuses.first().pk]),
        reverse("admin:jackpots_progressivevalidation_change", args=[royal.validation.pk]),
        reverse("admin:jackpots_progressivepayment_change", args=[royal.payment.pk]),
        reverse("admin:jackpots_meterfunding_change", args=[MeterFunding.objects.get(reason="reset").pk]),
        reverse("admin:jackpots_progressivemeter_returns"),
    ]


@pytest.mark.parametrize("role", sorted(ADMIN_ROLES))
def test_every_progressive_page_opens_for_the_back_office(role, played, make_staff) -> None:
    person = browser(make_staff(role))
    for page in _pages(played):
        assert person.get(page).status_code == 200, page


def test_a_dealer_reads_the_meters_on_the_floor_not_in_the_back_office(played, dealer) -> None:
    pages = [*_pages(played)[1:], reverse("admin:jackpots_progressivehand_pay", args=[played.aces.pk])]
    assert browser(dealer).get(pages[0]).status_code == 302  # to sign in: a dealer does not work in the admin
    dealer.is_staff = True  # even let in, the table of actions refuses them
    dealer.save(update_fields=["is_staff"])
    person = browser(dealer)
    for page in pages:
        assert person.get(page).status_code == 403, page
    assert "Progressive meters" not in person.get(reverse("admin:index")).content.decode()


@pytest.mark.parametrize("role", [Role.FINANCE, Role.ADMINISTRATOR, Role.COMPLIANCE])
def test_no_one_adds_changes_or_deletes_a_progressive_row(role, played, make_staff) -> None:
    person, royal = browser(make_staff(role)), played.royal
    before = snapshot()
    for name in MODELS:
        assert person.get(reverse(f"admin:jackpots_{name}_add")).status_code == 403, name
    for url, data in [
        (reverse("admin:jackpots_progressivehand_change", args=[royal.pk]), {"amount_cents": "1"}),
        (reverse("admin:jackpots_progressivehand_delete", args=[royal.pk]), {"post": "yes"}),
        (reverse("admin:jackpots_progressivepayment_delete", args=[royal.payment.pk]), {"post": "yes"}),
        (reverse("admin:jackpots_progressiveround_delete", args=[royal.round_id]), {"post": "yes"}),
        (reverse("admin:jackpots_progressivemeter_change", args=[royal.round.meter_id]), {"name": "X"}),
    ]:
        assert person.post(url, data).status_code == 403, url
    page = person.get(reverse("admin:jackpots_progressivehand_change", args=[royal.pk])).content.decode()
    assert 'name="_save"' not in page and "deletelink" not in page and royal.words in page
    assert snapshot() == before


def test_the_meters_list_reads_the_ledger_and_the_rules(played, compliance) -> None:
    text = _text(browser(compliance).get(reverse("admin:jackpots_progressivemeter_changelist")))
    # After its reset and a round's two $1.00 wagers at 15%: $10,000.30; c4p pays its four aces at the cage.
    assert meter_cents("msp") == 10_000_30 and meter_cents("c4p") == 0
    assert (
        "Crazy 4 Progressive c4p Main Poker Room Crazy 4 Poker $0.00 Pending reset after T12 seat 6 T12, T13 20% "
        "$5,000.00"
    ) in text
    assert (
        "Mississippi Stud Progressive msp Main Poker Room Mississippi Stud $10,000.30 Standing T11 15% $10,000.00"
        in text
    )
    assert "Paytable returns" in text


def test_a_hand_reads_its_payout_validation_payment_and_envy_bonuses(played, finance, cashier) -> None:
    royal = played.royal
    text = _text(browser(finance).get(reverse("admin:jackpots_progressivehand_change", args=[royal.pk])))
    for words in (
        "As Ks | Qs Js Ts",
        "Royal flush",
        "100% of meter",
        "$10,001.05",  # the meter at the player's turn: $10,000 and the round's 15% of $7.00
        "Through the cage",
        "paid at the cage",
        f"to {PATRON[0]}, {PATRON[1]} ••••4567",
        "Envy Bonuses to the other players",
        "$5,000.00",
        "$1,000.00",
    ):
        assert words in text, words
    assert PATRON[2] not in text  # the ID number by its last four characters only
    hands = _text(browser(cashier).get(reverse("admin:jackpots_progressivehand_changelist")))
    assert (
        "T12 seat 6 Four of a kind, aces As Ah Ad Ac 2d Four aces 100% of meter $5,001.40 $5,001.40 "
        "to pay at the cage Pay at the cage…"
    ) in hands
    assert (
        "T11 seat 2 Three of a kind, nines, eight-seven kickers 9c 9d | 9h 8h 7h Three-of-a-kind 9 for 1 "
        "$10,000.30 $9.00 paid at the table"
    ) in hands
    assert "Totals of the 3 rows selected by the filters: Amount $15,011.45" in hands
    rounds = _text(browser(finance).get(reverse("admin:jackpots_progressiveround_changelist")))
    assert "T11 msp 2 / 3 $2.00 $0.30 $1.70 explained" in rounds
    assert "Totals of the 3 rows selected by the filters: Wagers $16.00 · Increment $2.75 · House $13.25" in rounds


def _queries(url: str, person) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert person.get(url).status_code == 200
    return len(queries)


def _cycle_to_the_cage(stud: Table, crazy4: Table, staff: dict[str, User], n: int) -> None:
    """A cycle whose four aces are paid and the Crazy 4 meter reset: it pays again in the next."""
    last = _cycle(stud, crazy4, staff, explain=n % 2 == 0)
    progressive_pay(
        hand=last.aces,
        patron_name="Al Aces",
        id_type="Passport",
        id_number="A1",
        actor=staff["cashier"],
        pin=PIN,
        idempotency_key=f"pay-cycle-{n}",
    )
    meter_reset(meter=last.aces.round.meter, actor=staff["supervisor"], pin=PIN)


def test_a_busy_list_opens_in_the_same_queries_as_a_quiet_one(stud, crazy4, staff, finance) -> None:
    people = {"finance": browser(finance), "cashier": browser(staff["cashier"])}
    lists = [("finance", name) for name in MODELS] + [("cashier", "progressivehand")]

    def counts() -> dict[tuple[str, str], int]:
        return {(who, name): _queries(reverse(f"admin:jackpots_{name}_changelist"), people[who]) for who, name in lists}

    _cycle_to_the_cage(stud, crazy4, staff, 0)
    assert (ProgressiveRound.objects.count(), ProgressiveHand.objects.count()) == (3, 3)
    quiet = counts()
    for n in range(1, 20):
        _cycle_to_the_cage(stud, crazy4, staff, n)
    assert (ProgressiveRound.objects.count(), ProgressiveHand.objects.count()) == (60, 60)
    assert ProgressivePayment.objects.count() == 40 and EnvyBonus.objects.count() == 80
    busy = counts()
    for key in lists:
        print(f"{key[0]} {key[1]}: {quiet[key]} queries with 3 rounds and hands, {busy[key]} with 60")
    assert busy == quiet
    assert max(busy.values()) <= 20


# --- Paying a payout at the cage ------------------------------------------------------------------


def test_a_cashier_pays_a_validated_payout_at_the_cage_once(played, cashier) -> None:
    aces = played.aces
    person, url = browser(cashier), reverse("admin:jackpots_progressivehand_pay", args=[aces.pk])
    assert f'href="{url}"' in person.get(reverse("admin:jackpots_progressivehand_changelist")).content.decode()
    assert (
        f'href="{url}"' in person.get(reverse("admin:jackpots_progressivehand_change", args=[aces.pk])).content.decode()
    )
    page = person.get(url)
    text = _text(page)
    assert "Table and seat T12, seat 6" in text and "Amount $5,001.40" in text and "State to pay at the cage" in text
    paid_before = _paid("c4p")  # the Envy Bonuses, paid at the table with the validation
    assert paid_before == 500_00 + 100_00

    response = person.post(
        url,
        {
            "patron_name": "Ace Winner",
            "id_type": "Driver's license",
            "id_number": "PA-99887766",
            "pin": PIN,
            "idempotency_key": _key(page.content.decode()),
        },
        follow=True,
    )

    payment = ProgressivePayment.objects.get(hand=aces)
    assert (payment.paid_by, payment.patron_name, payment.id_number) == (cashier, "Ace Winner", "PA-99887766")
    assert _paid("c4p") == paid_before + aces.amount_cents == paid_before + 5_001_40
    assert payment.signatures().get().signer == cashier
    assert "Four of a kind, aces at T12 seat 6 paid at the cage to Ace Winner: $5,001.40." in _text(response)
    again = person.get(url)
    assert 'name="pin"' not in again.content.decode() and "State paid at the cage" in _text(again)


def test_a_refused_payment_shows_why_and_changes_nothing(played, cashier) -> None:
    aces, royal = played.aces, played.royal
    person, url = browser(cashier), reverse("admin:jackpots_progressivehand_pay", args=[aces.pk])
    data = {"patron_name": "Ace Winner", "id_type": "Passport", "id_number": "Z1", "idempotency_key": "k-1"}
    before, paid = snapshot(), _paid("c4p")
    wrong = _text(person.post(url, {**data, "pin": "9999"}))
    assert "Wrong PIN for" in wrong and "Nothing was changed." in wrong
    twice = _text(
        person.post(
            reverse("admin:jackpots_progressivehand_pay", args=[royal.pk]),
            {**data, "pin": PIN, "idempotency_key": "k-2"},
        )
    )
    assert f"The payout of {royal} is paid already; nothing was paid twice." in twice
    assert "Nothing was changed." in twice
    at_table = _text(
        person.post(
            reverse("admin:jackpots_progressivehand_pay", args=[played.trips.pk]),
            {**data, "pin": PIN, "idempotency_key": "k-3"},
        )
    )
    assert "is paid at the table, with its validation." in at_table and "Sign the payment" not in at_table
    assert snapshot() == before and _paid("c4p") == paid

    person.post(url, {**data, "pin": PIN, "idempotency_key": "k-4"})
    before, paid = snapshot(), _paid("c4p")
    second = _text(person.post(url, {**data, "pin": PIN, "idempotency_key": "k-5"}))
    assert f"The payout of {aces} is paid already; nothing was paid twice. Nothing was changed." in second
    assert snapshot() == before and _paid("c4p") == paid


def test_a_payout_not_yet_validated_waits(stud, crazy4, dealer, cashier) -> None:
    aces = hand(play(crazy4, dealer, {6: "1.00"}), dealer, 6, "As Ah Ad Ac 2d")
    url = reverse("admin:jackpots_progressivehand_pay", args=[aces.pk])
    person = browser(cashier)
    assert "Pay at the cage" not in person.get(reverse("admin:jackpots_progressivehand_changelist")).content.decode()
    page = _text(person.get(url))
    assert "State to validate, then the cage" in page and "Sign the payment" not in page
    before = snapshot()
    refused = _text(
        person.post(
            url, {"patron_name": "A", "id_type": "Passport", "id_number": "C", "pin": PIN, "idempotency_key": "v-1"}
        )
    )
    assert "is not validated yet: a floorperson or above validates it first" in refused
    assert snapshot() == before


@pytest.mark.parametrize("role", [Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR, Role.POKER_ROOM_MANAGER])
def test_only_a_cage_cashier_pays_at_the_cage(role, played, make_staff) -> None:
    person, url = browser(make_staff(role)), reverse("admin:jackpots_progressivehand_pay", args=[played.aces.pk])
    assert person.get(url).status_code == 403
    data = {"patron_name": "A", "id_type": "B", "id_number": "C", "pin": PIN, "idempotency_key": "r-1"}
    assert person.post(url, data).status_code == 403
    assert "Pay at the cage" not in person.get(reverse("admin:jackpots_progressivehand_changelist")).content.decode()
    page = person.get(reverse("admin:jackpots_progressivehand_change", args=[played.aces.pk])).content.decode()
    assert url not in page
    assert not ProgressivePayment.objects.filter(hand=played.aces).exists()


# --- The paytable returns -------------------------------------------------------------------------


def test_the_returns_page_shows_each_table_s_paytables_and_its_meter_s(progressive_rules, finance, monkeypatch) -> None:
    url = reverse("admin:jackpots_progressivemeter_returns")
    assert url in browser(finance).get(reverse("admin:jackpots_progressivemeter_changelist")).content.decode()
    first = browser(finance).get(url)
    text = _text(first)

    tables = {number: _section(first, f"table-{number}") for number in ("T11", "T12", "T13")}
    # Three Card Bonus A (§655a.12(d)): every set of three community cards, line by line.
    assert "Three Card Bonus, paytable A (§655a.12(d))" in tables["T11"]
    assert "Mini-royal 40 to 1 4 0.018100% 1 in 5,525 0.7421%" in tables["T11"]
    assert "Pair 1 to 1 3,744 16.941176% 1 in 6 33.8824%" in tables["T11"]
    assert "Any other hand loses 16,440 74.389140%" in tables["T11"]
    assert "Every hand 22,100 100%" in tables["T11"]
    assert "Return (exact) 97.6833% House edge 2.3167%" in tables["T11"]
    assert "Minimum wager $5.00 Maximum wager $100.00 Aggregate payout limit per hand $50,000.00" in tables["T11"]
    # Queens Up A and B (§657a.12(c)): every five-card hand, paid on its best four.
    assert "Queens Up, paytable A (§657a.12(c))" in tables["T12"] and "Every hand 2,598,960 100%" in tables["T12"]
    assert "Return (exact) 96.9394% House edge 3.0606%" in tables["T12"]
    assert "Queens Up, paytable B" in tables["T13"] and "Return (exact) 95.4797%" in tables["T13"]
    assert "Minimum wager $10.00 Maximum wager $200.00" in tables["T13"]
    assert "Aggregate payout limit" not in tables["T12"]  # §655a.12(b) is Mississippi Stud's
    # The wagers the player's cards alone do not settle are named, and why.
    assert "Wagers not shown" in text and "The Mississippi Stud wager" in text and "Super Bonus" in text
    assert "depends on how the player plays" in text and "depends on the dealer's hand" in text

    # The meter's paytable: its fixed lines, and its return at the meter's $10,000.00 for each wager size.
    meter = _section(first, "meter-msp")
    result = returns.paytable_return(MISSISSIPPI_STUD_PROGRESSIVE)
    at_one = returns.return_with_meter(result, meter_cents=10_000_00, wager_cents=1_00)
    at_five = returns.return_with_meter(result, meter_cents=10_000_00, wager_cents=5_00)
    assert returns.percent(at_one, places=2) == "55.98%"  # the evaluator's own figure
    assert "Amount on the meter now $10,000.00" in meter and "Linked tables T11" in meter
    assert "Royal flush 100% of meter 4 0.000154% 1 in 649,740 share of the meter" in meter
    assert f"Return of the lines paid 'for 1' (the meter's lines aside) {returns.percent(result.fixed_return)}" in meter
    assert f"$1.00 {returns.percent(at_one)} {returns.percent(1 - at_one)}" in meter
    assert f"$5.00 {returns.percent(at_five)} {returns.percent(1 - at_five)}" in meter
    # The Envy Bonus schedules (§655a.12(c)(5)): a royal flush $1,000 and a straight flush $300 for a $1 wager.
    assert "Envy Bonus, $1 Progressive Payout Wager (§655a.12(c)(5))" in meter
    assert "Royal flush $1,000 4 0.000154% 1 in 649,740 0.1539%" in meter
    assert "Envy Bonus, $5 Progressive Payout Wager" in meter
    c4p = _section(first, "meter-c4p")
    assert "Progressive Payout Wager, paytable A (§657a.12(d)(1))" in c4p and "Linked tables T12, T13" in c4p
    assert "Envy Bonus (progressive paytable A), $5 Progressive Payout Wager (§657a.12(d)(5)(i))" in c4p

    # Enumerated once in the process: a second request reads what returns.py keeps.
    def enumerate_again(*args, **kwargs):
        raise AssertionError("the page enumerated the hands again")

    monkeypatch.setattr(returns, "_count_batch", enumerate_again)
    again = _text(browser(finance).get(url))
    printed = re.compile(r"Printed [^.]*\.")
    assert printed.sub("", again) == printed.sub("", text)


def test_the_returns_page_says_when_a_meter_is_pending(played, compliance) -> None:
    c4p = _section(browser(compliance).get(reverse("admin:jackpots_progressivemeter_returns")), "meter-c4p")
    assert "Amount on the meter now $0.00 (the ledger) Pending reset" in c4p
    assert "While the meter is pending its reset it pays no share of itself" in c4p
    assert ProgressiveMeter.objects.count() == 2 and ProgressiveValidation.objects.count() == 3
