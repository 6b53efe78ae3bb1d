"""``manage.py load_demo``: a demo poker room with thirteen tables and staff of every role.

Idempotent: a second run changes nothing and keeps every row. PINs are random and printed only
when a person is created (once); the demo password is in the README.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction

from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from rake.rules import parse_text, validate_rules
from rake.services import rules_load
from tables.models import PokerRoom, RulesVersion

DEMO_PASSWORD = "poker-demo-2026"  # noqa: S105 - documented in the README for the demo only

DEMO_STAFF: list[tuple[str, Role, str, str]] = [
    ("dealer", Role.DEALER, "Dana", "Dealer"),
    ("floor", Role.FLOORPERSON, "Frank", "Floor"),
    ("supervisor", Role.SHIFT_SUPERVISOR, "Sam", "Supervisor"),
    ("manager", Role.POKER_ROOM_MANAGER, "Mia", "Manager"),
    ("security", Role.SECURITY, "Sid", "Security"),
    ("surveillance", Role.SURVEILLANCE, "Sue", "Surveillance"),
    ("cashier", Role.CAGE_CASHIER, "Cass", "Cashier"),
    ("finance", Role.FINANCE, "Fin", "Ance"),
    ("compliance", Role.COMPLIANCE, "Connie", "Compliance"),
    ("admin", Role.ADMINISTRATOR, "Ada", "Admin"),
]

DEMO_RULES = Path(settings.BASE_DIR) / "demo" / "rules.yaml"
# The demo's poker room manager loads the demo rules, as ``manage.py load_rules --by manager`` would.
DEMO_RULES_LOADER = "manager"


def load_rooms_and_tables() -> None:
    """The demo room and its thirteen tables come from the documented example rules file, loaded by the
    demo's poker room manager through the same service as ``manage.py load_rules`` (an identical
    file changes nothing)."""
    text = DEMO_RULES.read_text(encoding="utf-8")
    latest = RulesVersion.objects.filter(room__code="main").order_by("-number").first()
    sha = hashlib.sha256(validate_rules(parse_text(text)).canonical_json().encode()).hexdigest()
    if latest is not None and latest.content_sha256 != sha:
        # The file's effective_from dates the room's first version; a changed file loaded on a demo
        # database of an earlier release takes effect as it is loaded (no later version is dated back).
        text = re.sub(r"^effective_from:.*$", "", text, flags=re.MULTILINE)
    rules_load(text=text, actor=User.objects.get(username=DEMO_RULES_LOADER), source_name="demo/rules.yaml")


# The demo's property-wide staff hold the all-rooms grant; everyone else works in the demo room.
PROPERTY_WIDE = {Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR}


def demo_room() -> PokerRoom:
    """The demo room as its rules file names it, made before its people so that each is given it (a
    person is never given every room by default); loading the rules brings it up to date."""
    rules = validate_rules(parse_text(DEMO_RULES.read_text(encoding="utf-8")))
    room = PokerRoom.objects.filter(code=rules.room).first()
    if room is not None:
        return room
    return PokerRoom.objects.create(
        code=rules.room, name=rules.room_name, timezone=rules.timezone, gaming_day_starts=rules.gaming_day_starts
    )


def play_a_demo_day(pins: dict[str, str]) -> None:
    """A first demo gaming day, through the same services as the tablets: rounds at T1-T3, then T1
    closes, its boxes are counted, witnessed, carried and verified at the cage, so the display board
    shows official amounts and T2-T3 still hold expected money. Runs once, when the staff is created
    (their PINs are known only then)."""
    from datetime import timedelta

    from django.utils import timezone

    from cage.models import Box, BoxKind
    from cage.selectors import boxes_with_expected
    from cage.services import (
        boxes_sync,
        cage_verify,
        count_record,
        count_recount,
        count_witness,
        notice_record,
        transport_create,
    )
    from casino_backoffice.money import display_cents
    from rake.services import round_record
    from tables.models import Table
    from tables.services import table_set_open

    staff = {user.username: user for user in User.objects.filter(username__in=pins)}
    floor, dealer = staff["floor"], staff["dealer"]
    tables = [
        table_set_open(table=table, is_open=True, actor=floor)
        for table in Table.objects.filter(room__code="main", number__in=["T1", "T2", "T3"]).select_related("room")
    ]
    start = timezone.now() - timedelta(minutes=90)
    for n in range(60):
        table = tables[n % 3]
        round_record(
            table=table,
            ended_at=start + timedelta(minutes=n),
            players_dealt_in=6 + n % 4,
            pot_cents=4_000 + 1_750 * (n % 9),
            uncalled_bet_cents=0 if n % 5 else 500,
            flop_dealt=n % 7 != 0,
            voided=False,
            actor=dealer,
            idempotency_key=f"demo-round-{n}",
        )
    t1 = table_set_open(table=tables[0], is_open=False, actor=floor)
    room = t1.room
    boxes_sync(room=room)
    notice_record(
        room=room,
        notified="Casino compliance (demo)",
        method="phone",
        actor=floor,
        pin=pins["floor"],
        idempotency_key="demo-notice",
    )
    counts = []
    for content in boxes_with_expected(boxes=Box.objects.filter(table=t1)):
        # The dealer mistypes the drop box's count (a zero too many); the shift supervisor recounts it
        # before it is witnessed, with the reason, and the recount supersedes it on the count sheet.
        typo = content.box.kind == BoxKind.RAKE and content.expected_cents > 0
        count = count_record(
            box=content.box,
            counted_cents=content.expected_cents * 10 if typo else content.expected_cents,
            actor=dealer,
            pin=pins["dealer"],
            idempotency_key=f"demo-count-{content.box.code}",
        )
        if typo:
            count = count_recount(
                count=count,
                counted_cents=content.expected_cents,
                reason=(
                    f"The dealer typed {display_cents(count.counted_cents)} for {display_cents(content.expected_cents)}."
                ),
                actor=staff["supervisor"],
                pin=pins["supervisor"],
                idempotency_key=f"demo-recount-{content.box.code}",
            )
        counts.append(count_witness(count=count, actor=floor, pin=pins["floor"], surveillance_reference="DEMO-CAM-1"))
    container = transport_create(
        room=room,
        seal="DEMO-SEAL-1",
        counts=counts,
        actor=staff["security"],
        pin=pins["security"],
        idempotency_key="demo-transport",
    )
    cage_verify(
        transport=container,
        counted=sum(count.counted_cents for count in counts),
        actor=staff["cashier"],
        pin=pins["cashier"],
        idempotency_key="demo-verification",
    )
    play_a_demo_bad_beat(staff, pins)
    play_a_demo_high_hand(staff, pins)
    play_demo_progressives(staff, pins)


def play_a_demo_bad_beat(staff: dict[str, User], pins: dict[str, str]) -> None:
    """The Bad Beat of the demo day (§637a.15(f)-(h)), through the same services as the tablets: finance
    adjusts the display to the fund's new official amount in the floorperson's presence; a Bad Beat at
    T2 is claimed, verified, distributed, and its two hands paid at the table, the table shares still in
    the queue of security and finance; the display is adjusted again. A second claim that does not
    qualify is denied and kept as evidence."""
    from django.utils import timezone

    from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer, claim_deny, claim_open, claim_verify
    from jackpots.bad_beat.services.display import display_adjust, display_witness
    from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
    from jackpots.funds.models import Jackpot
    from rake.services import round_record
    from tables.models import Table

    floor, finance = staff["floor"], staff["finance"]
    bad_beat = Jackpot.objects.get(room__code="main", code="bb")
    t2 = Table.objects.select_related("room").get(room__code="main", number="T2")

    def played(key: str, *, players: int, pot_cents: int, minutes_ago: int) -> Any:
        # The round of a claimed hand, as T2's table system logs it: the claim names it.
        return round_record(
            table=t2,
            ended_at=timezone.now() - timedelta(minutes=minutes_ago),
            players_dealt_in=players,
            pot_cents=pot_cents,
            uncalled_bet_cents=0,
            flop_dealt=True,
            voided=False,
            actor=staff["dealer"],
            idempotency_key=key,
        ).round

    def adjust(key: str) -> None:
        adjustment = display_adjust(jackpot=bad_beat, actor=finance, pin=pins["finance"], idempotency_key=key)
        display_witness(adjustment=adjustment, actor=floor, pin=pins["floor"])

    adjust("demo-display-1")
    others = [
        SeatedPlayer(1, "Pat Ortiz"),
        SeatedPlayer(2, "Sam Lee"),
        SeatedPlayer(5, "Lou Kim"),
        SeatedPlayer(9, "Max Fox"),
    ]
    claim = claim_open(
        jackpot=bad_beat,
        table=t2,
        round=played("demo-round-bad-beat", players=6, pot_cents=24_000, minutes_ago=3),
        pot_cents=24_000,
        players_dealt_in=6,
        board="Ad Ac Kc 7s 7h",
        losing=SeatedHand(3, "Ann Rivera", "As Ks"),
        winning=SeatedHand(7, "Walt Chen", "7d 7c"),
        others=others,
        surveillance_reference="DEMO-CAM-2",
        actor=floor,
        pin=pins["floor"],
        idempotency_key="demo-claim-1",
    )
    claim_verify(claim=claim, actor=staff["supervisor"], pin=pins["supervisor"])
    adjust("demo-display-2")
    distribution = distribution_prepare(claim=claim, actor=finance, pin=pins["finance"], idempotency_key="demo-dist-1")
    for share in distribution.shares.order_by("position")[:2]:
        share_pay(
            share=share,
            id_type="Driver's license",
            id_number=f"PA-DEMO-{share.seat:03d}",
            actor=staff["security"],
            pin=pins["security"],
            idempotency_key=f"demo-pay-{share.pk}",
        )
    # Another hand (a hand is claimed once): the same ranks in other suits, three players dealt in.
    disputed = claim_open(
        jackpot=bad_beat,
        table=t2,
        round=played("demo-round-disputed", players=3, pot_cents=6_500, minutes_ago=2),
        pot_cents=6_500,
        players_dealt_in=3,
        board="Ah Ad Kd 7c 7s",
        losing=SeatedHand(3, "Ann Rivera", "Ac Kh"),
        winning=SeatedHand(7, "Walt Chen", "7d 7h"),
        others=others[:1],
        surveillance_reference="DEMO-CAM-2",
        actor=floor,
        pin=pins["floor"],
        idempotency_key="demo-claim-2",
    )
    claim_deny(
        claim=disputed,
        reason="Only 3 players were dealt in; the posted Bad Beat hands need at least 4.",
        actor=staff["supervisor"],
        pin=pins["supervisor"],
    )


def play_a_demo_high_hand(staff: dict[str, User], pins: dict[str, str]) -> None:
    """The High Hand of the demo (§637a.16(f)): the schedule opens the current qualifying period (beat
    does it every minute under `make run`) and a floorperson records a full house at T2 on its Tracking
    Slip, so the display board shows the period's high hand."""
    from django.utils import timezone

    from jackpots.funds.models import Jackpot
    from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
    from jackpots.high_hand.services.periods import periods_run
    from jackpots.high_hand.services.slip import entry_record
    from rake.services import round_record
    from tables.models import Table

    t2 = Table.objects.select_related("room").get(room__code="main", number="T2")
    now = timezone.now()
    periods_run(room=t2.room, at=now)
    high_hand = Jackpot.objects.get(room=t2.room, code="hh")
    period = HighHandPeriod.objects.filter(jackpot=high_hand, status=PeriodStatus.OPEN).first()
    if period is None:
        return
    made_at = max(period.starts_at, now - timedelta(seconds=30))
    # The round the full house was made in, as T2's table system logs it when its pot is pushed.
    round_ = round_record(
        table=t2,
        ended_at=now,
        players_dealt_in=7,
        pot_cents=8_000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=staff["dealer"],
        idempotency_key="demo-round-high-hand",
    ).round
    entry_record(
        jackpot=high_hand,
        table=t2,
        seat=4,
        player_name="Hal Rivera",
        player_phone="215-555-0144",
        id_type="Driver's license",
        id_number="PA-DEMO-0444",
        dealer=staff["dealer"],
        players_dealt_in=7,
        pot_cents=8_000,
        cards="Ks Kd Kh 9c 9d",
        made_at=made_at,
        round=round_,
        actor=staff["floor"],
        pin=pins["floor"],
        idempotency_key="demo-high-hand-1",
    )


def play_demo_progressives(staff: dict[str, User], pins: dict[str, str]) -> None:
    """The banked games' progressives (§655a.12, §657a.12): rounds at T11 (Mississippi Stud), T12 and T13
    (Crazy 4 Poker, one meter); at T11 a straight flush takes 10% of the meter at the table and gives the
    other wagering players their Envy Bonuses, validated by a floorperson; at T12 four aces take the whole
    Crazy 4 meter through the cage, paid by the cashier, and a supervisor resets the meter; one round's
    chips differ from the wagers accepted, and a supervisor explains it."""
    from django.utils import timezone

    from jackpots.progressive.models import WagerCountException
    from jackpots.progressive.services.hands import progressive_hand_record, progressive_pay, progressive_validate
    from jackpots.progressive.services.meters import meter_reset
    from jackpots.progressive.services.rounds import SeatWager, progressive_round_record, wager_count_explain
    from tables.models import Table
    from tables.services import table_set_open

    dealer, floor = staff["dealer"], staff["floor"]
    tables = {
        t.number: t
        for t in Table.objects.select_related("room").filter(room__code="main", number__in=["T11", "T12", "T13"])
    }
    for number, table in tables.items():
        tables[number] = table_set_open(table=table, is_open=True, actor=floor)
    now = timezone.now()

    def play(number: str, minutes: int, wagers: dict[int, int], community: str = "", chips: int | None = None) -> Any:
        return progressive_round_record(
            table=tables[number],
            ended_at=now - timedelta(minutes=minutes),
            wagers=[SeatWager(seat, cents) for seat, cents in wagers.items()],
            chips_collected=len(wagers) if chips is None else chips,
            community_cards=community,
            actor=dealer,
            idempotency_key=f"demo-progressive-{number}-{minutes}",
        )

    for minutes in range(40, 20, -4):
        play("T11", minutes, {1: 100, 3: 500, 5: 100})
        play("T12", minutes, {2: 100, 4: 100, 6: 500})
        play("T13", minutes + 1, {1: 500, 2: 100})
    mismatch = play("T13", 19, {1: 100, 3: 100}, chips=3)
    wager_count_explain(
        exception=WagerCountException.objects.get(round=mismatch),
        explanation="A chip was placed on seat 5's device after no more bets; the system locked it out and it was returned.",
        actor=staff["supervisor"],
        pin=pins["supervisor"],
    )
    stud = play("T11", 15, {2: 100, 4: 100, 6: 500}, community="9h 8h 7h")
    straight_flush = progressive_hand_record(
        round=stud, seat=4, cards="6h 5h", light_confirmed=True, actor=dealer, idempotency_key="demo-progressive-sf"
    )
    progressive_validate(hand=straight_flush, actor=floor, pin=pins["floor"])
    crazy = play("T12", 10, {1: 100, 3: 500, 6: 100})
    aces = progressive_hand_record(
        round=crazy,
        seat=6,
        cards="As Ah Ad Ac 7d",
        light_confirmed=True,
        actor=dealer,
        idempotency_key="demo-progressive-aces",
    )
    progressive_validate(hand=aces, actor=floor, pin=pins["floor"])
    progressive_pay(
        hand=aces,
        patron_name="Ace Winner",
        id_type="Driver's license",
        id_number="PA-DEMO-0666",
        actor=staff["cashier"],
        pin=pins["cashier"],
        idempotency_key="demo-progressive-aces-paid",
    )
    meter_reset(meter=crazy.meter, actor=staff["supervisor"], pin=pins["supervisor"])
    play("T12", 5, {2: 100, 5: 100})


class Command(BaseCommand):
    help = "Load the demo poker room, tables and staff (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = []
        room = demo_room()
        for n, (username, role, first, last) in enumerate(DEMO_STAFF, start=1):
            if User.objects.filter(username=username).exists():
                continue
            pin = f"{secrets.randbelow(10**4):04d}"
            staff_create(
                username=username,
                role=role,
                credential_number=f"PA-DEMO-{n:04d}",
                password=DEMO_PASSWORD,
                pin=pin,
                first_name=first,
                last_name=last,
                all_rooms=role in PROPERTY_WIDE,
                rooms=[] if role in PROPERTY_WIDE else [room],
            )
            created.append((username, role, pin))
        with transaction.atomic():
            load_rooms_and_tables()
        if {username for username, _, _ in created} == {username for username, *_ in DEMO_STAFF}:
            play_a_demo_day({username: pin for username, _, pin in created})
            self.stdout.write(
                "A demo gaming day was played: rounds at T1-T3; T1 closed, counted (its drop box mistyped and "
                "recounted by the shift supervisor) and verified at the cage; "
                "a Bad Beat at T2 verified, distributed and partly paid; the display adjusted; a full house on the "
                "High Hand Tracking Slip of the current period; progressive rounds at T11-T13 with a straight flush paid at "
                "the table, four aces paid through the cage and the Crazy 4 meter reset."
            )
        if created:
            self.stdout.write(self.style.SUCCESS("Demo staff created. Signing PINs are shown once, now:"))
            for username, role, pin in created:
                self.stdout.write(f"  {username:<13} {role.label:<26} PIN {pin}")
            self.stdout.write(f"Every demo account signs in with the password {DEMO_PASSWORD!r}.")
        else:
            self.stdout.write("Demo data already loaded; nothing changed.")
