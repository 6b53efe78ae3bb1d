"""The one table of actions and roles, walked against every API route and tablet page, and the
services that refuse a role it does not name. Segregation of duties between people, walked over
every pair of steps of every chain of the same money, is in ``test_segregation_walk.py``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import ACTION_ROLES, Action, action_require, may, who_may
from casino_backoffice.staff.roles import Role
from rake.models import TimeCharge
from rake.services import round_record, time_charge_assess
from tables.models import Table
from tables.services import table_set_open
from tests.conftest import PIN
from tests.rake import factories


def interval_start(minutes: int, back: int = 1) -> datetime:
    """The start of an interval of a time-charge table, ``back`` intervals ago, on the room's clock."""
    local = timezone.now().astimezone(ZoneInfo("America/New_York")).replace(second=0, microsecond=0)
    return local.replace(minute=local.minute - local.minute % minutes) - timedelta(minutes=minutes * back)


SIGNED_IN = "any signed-in member of staff"
PUBLIC = "anyone"

# Every API route and tablet page (by URL name) and each method it answers: the action it takes, or
# who may use it. A route missing here fails the walk.
ROUTES: dict[tuple[str, str], Action | str] = {
    ("api-schema", "GET"): PUBLIC,
    ("api-me", "GET"): Action.PROFILE_READ,
    ("api-rooms", "GET"): Action.ROOMS_READ,
    ("api-tables", "GET"): Action.TABLES_READ,
    ("api-rounds", "GET"): Action.ROUNDS_READ,
    ("api-rounds", "POST"): Action.ROUND_RECORD,
    ("api-rounds-batch", "POST"): Action.ROUND_RECORD,
    ("api-time-charges", "GET"): Action.TIME_CHARGES_READ,
    ("api-time-charges", "POST"): Action.TIME_CHARGE_ASSESS,
    ("api-time-charge-verify", "POST"): Action.TIME_CHARGE_VERIFY,
    ("api-rake-calculator", "POST"): Action.RAKE_CALCULATE,
    ("api-rules-versions", "GET"): Action.RULES_VERSIONS_READ,
    ("api-revenue", "GET"): Action.REVENUE_READ,
    ("api-boxes", "GET"): Action.BOXES_READ,
    ("api-jackpots", "GET"): Action.FUNDS_READ,
    ("api-compliance-notices", "POST"): Action.NOTICE_RECORD,
    ("api-counts", "GET"): Action.COUNTS_READ,
    ("api-counts", "POST"): Action.COUNT_RECORD,
    ("api-irregularities", "GET"): Action.IRREGULARITIES_READ,
    ("api-irregularities", "POST"): Action.IRREGULARITY_REPORT,
    ("api-irregularity-rule", "POST"): Action.IRREGULARITY_RULE,
    ("api-round-void", "POST"): Action.ROUND_VOID,
    ("api-equipment", "GET"): Action.EQUIPMENT_READ,
    ("api-equipment", "POST"): Action.DEVICE_FAILURE_RECORD,
    ("api-decks", "GET"): Action.EQUIPMENT_READ,
    ("api-decks", "POST"): Action.DECK_INSPECT,
    ("api-deck-verify", "POST"): Action.DECK_VERIFY,
    ("api-count-witness", "POST"): Action.COUNT_WITNESS,
    ("api-count-recount", "POST"): Action.COUNT_RECOUNT,
    ("api-transports", "POST"): Action.TRANSPORT_CREATE,
    ("api-transport-account", "POST"): Action.TRANSPORT_ACCOUNT,
    ("api-transport-missing-boxes", "POST"): Action.MISSING_BOX_RECORD,
    ("api-cage-verifications", "POST"): Action.CAGE_VERIFY,
    ("api-cage-verification-explain", "POST"): Action.VARIANCE_EXPLAIN,
    ("api-variances", "GET"): Action.VARIANCE_READ,
    ("api-variance-explain", "POST"): Action.VARIANCE_EXPLAIN,
    ("api-gaming-day-close", "POST"): Action.GAMING_DAY_CLOSE,
    ("api-official-record", "GET"): Action.CAGE_RECORD_READ,
    ("api-official-record-lines", "GET"): Action.CAGE_RECORD_READ,
    ("api-trace", "GET"): Action.TRACE_OPEN,
    ("api-bad-beat-claims", "GET"): Action.BAD_BEAT_READ,
    ("api-bad-beat-claims", "POST"): Action.BAD_BEAT_CLAIM,
    ("api-bad-beat-claim", "GET"): Action.BAD_BEAT_READ,
    ("api-bad-beat-claim-verify", "POST"): Action.BAD_BEAT_VERIFY,
    ("api-bad-beat-claim-deny", "POST"): Action.BAD_BEAT_VERIFY,
    ("api-bad-beat-claim-distribution", "POST"): Action.BAD_BEAT_DISTRIBUTE,
    ("api-bad-beat-share-pay", "POST"): Action.BAD_BEAT_PAY,
    ("api-display-adjustments", "POST"): Action.DISPLAY_ADJUST,
    ("api-display-adjustment-witness", "POST"): Action.DISPLAY_WITNESS,
    ("api-fund-transfers", "POST"): Action.FUND_TRANSFER_PREPARE,
    ("api-fund-transfer-approve", "POST"): Action.FUND_TRANSFER_APPROVE,
    ("api-high-hand-periods", "GET"): Action.HIGH_HAND_READ,
    ("api-high-hand-entries", "POST"): Action.HIGH_HAND_RECORD,
    ("api-high-hand-entry-void", "POST"): Action.HIGH_HAND_VOID,
    ("api-high-hand-award-pay", "POST"): Action.HIGH_HAND_PAY,
    ("api-high-hand-unclaimed-approve", "POST"): Action.HIGH_HAND_UNCLAIMED_APPROVE,
    ("api-progressive-meters", "GET"): Action.PROGRESSIVE_READ,
    ("api-display-check", "GET"): Action.BAD_BEAT_RECORDS_READ,
    ("api-progressive-meter-reset", "POST"): Action.PROGRESSIVE_RESET,
    ("api-progressive-rounds", "POST"): Action.PROGRESSIVE_ROUND_RECORD,
    ("api-progressive-round", "GET"): Action.PROGRESSIVE_READ,
    ("api-progressive-round-void", "POST"): Action.PROGRESSIVE_ROUND_VOID,
    ("api-progressive-hands", "POST"): Action.PROGRESSIVE_HAND_RECORD,
    ("api-progressive-hand-validate", "POST"): Action.PROGRESSIVE_VALIDATE,
    ("api-progressive-hand-pay", "POST"): Action.PROGRESSIVE_PAY,
    ("api-progressive-exception-explain", "POST"): Action.PROGRESSIVE_EXPLAIN,
    ("floor:login", "GET"): PUBLIC,
    ("floor:login-code", "GET"): PUBLIC,
    ("floor:second-factor", "GET"): Action.SECOND_FACTOR_USE,
    ("floor:second-factor", "POST"): Action.SECOND_FACTOR_USE,
    ("floor:logout", "POST"): PUBLIC,
    ("floor:home", "GET"): SIGNED_IN,
    ("floor:pin", "GET"): SIGNED_IN,
    ("floor:pin", "POST"): Action.PIN_SET,
    ("floor:tables", "GET"): SIGNED_IN,
    ("floor:table-open-close", "POST"): Action.TABLE_OPEN_CLOSE,
    ("floor:rake-calculator", "GET"): Action.RAKE_CALCULATE,
    ("floor:round-log", "GET"): Action.ROUND_RECORD,
    ("floor:round-log", "POST"): Action.ROUND_RECORD,
    ("floor:time-charges", "GET"): Action.TIME_CHARGES_READ,
    ("floor:time-charge-verify", "POST"): Action.TIME_CHARGE_VERIFY,
    ("floor:cage-count", "GET"): Action.COUNT_RECORD,
    ("floor:cage-count", "POST"): Action.COUNT_RECORD,
    ("floor:cage-notice", "GET"): Action.NOTICE_RECORD,
    ("floor:cage-notice", "POST"): Action.NOTICE_RECORD,
    ("floor:cage-witness", "GET"): Action.COUNT_WITNESS,
    ("floor:cage-witness-sign", "POST"): Action.COUNT_WITNESS,
    ("floor:cage-witness-table", "POST"): Action.COUNT_WITNESS,
    ("floor:cage-recount", "GET"): Action.COUNT_RECOUNT,
    ("floor:cage-recount-sign", "POST"): Action.COUNT_RECOUNT,
    ("floor:irregularity-report", "GET"): Action.IRREGULARITY_REPORT,
    ("floor:irregularity-report-table", "GET"): Action.IRREGULARITY_REPORT,
    ("floor:irregularity-report-table", "POST"): Action.IRREGULARITY_REPORT,
    ("floor:irregularity-rule", "GET"): Action.IRREGULARITY_RULE,
    ("floor:irregularity-rule-sign", "POST"): Action.IRREGULARITY_RULE,
    ("floor:irregularity-log", "GET"): Action.IRREGULARITIES_READ,
    ("floor:equipment", "GET"): Action.EQUIPMENT_READ,
    ("floor:equipment-table", "GET"): Action.EQUIPMENT_READ,
    # The step's own action: a failure (the step walked), out of order, or the return to service.
    ("floor:equipment-step", "POST"): Action.DEVICE_FAILURE_RECORD,
    ("floor:equipment-deck", "POST"): Action.DECK_INSPECT,
    ("floor:equipment-deck-verify", "POST"): Action.DECK_VERIFY,
    ("floor:round-void-list", "GET"): Action.ROUND_VOID,
    ("floor:round-void", "GET"): Action.ROUND_VOID,
    ("floor:round-void", "POST"): Action.ROUND_VOID,
    ("floor:cage-variances", "GET"): Action.VARIANCE_EXPLAIN,
    ("floor:cage-variance-explain", "POST"): Action.VARIANCE_EXPLAIN,
    ("floor:cage-close-days", "GET"): Action.GAMING_DAY_CLOSE,
    ("floor:cage-close-day-sign", "POST"): Action.GAMING_DAY_CLOSE,
    ("floor:cage-surveillance", "GET"): Action.COUNTS_TO_RECORD_READ,
    ("floor:cage-surveillance-rows", "GET"): Action.COUNTS_TO_RECORD_READ,
    ("floor:cage-custody", "GET"): Action.TRANSPORT_CREATE,
    ("floor:cage-custody", "POST"): Action.TRANSPORT_CREATE,
    ("floor:cage-arrivals", "GET"): Action.TRANSPORT_ACCOUNT,
    ("floor:cage-account", "POST"): Action.TRANSPORT_ACCOUNT,
    ("floor:cage-missing-box", "POST"): Action.MISSING_BOX_RECORD,
    ("floor:bad-beat-claim", "GET"): Action.BAD_BEAT_CLAIM,
    ("floor:bad-beat-claim", "POST"): Action.BAD_BEAT_CLAIM,
    ("floor:bad-beat-claims", "GET"): Action.BAD_BEAT_READ,
    ("floor:bad-beat-claim-detail", "GET"): Action.BAD_BEAT_READ,
    ("floor:bad-beat-decide", "GET"): Action.BAD_BEAT_VERIFY,
    ("floor:bad-beat-verify", "POST"): Action.BAD_BEAT_VERIFY,
    ("floor:bad-beat-deny", "POST"): Action.BAD_BEAT_VERIFY,
    ("floor:bad-beat-payouts", "GET"): Action.BAD_BEAT_PAY,
    ("floor:bad-beat-pay", "POST"): Action.BAD_BEAT_PAY,
    ("floor:bad-beat-witness", "GET"): Action.DISPLAY_WITNESS,
    ("floor:bad-beat-witness-sign", "POST"): Action.DISPLAY_WITNESS,
    ("floor:bad-beat-funds", "GET"): Action.DISPLAY_ADJUST,
    ("floor:bad-beat-adjust", "POST"): Action.DISPLAY_ADJUST,
    ("floor:bad-beat-distribute", "POST"): Action.BAD_BEAT_DISTRIBUTE,
    ("floor:high-hand-slip", "GET"): Action.HIGH_HAND_READ,
    ("floor:high-hand-record", "GET"): Action.HIGH_HAND_RECORD,
    ("floor:high-hand-record", "POST"): Action.HIGH_HAND_RECORD,
    ("floor:high-hand-period", "GET"): Action.HIGH_HAND_READ,
    ("floor:high-hand-void", "POST"): Action.HIGH_HAND_VOID,
    ("floor:progressive-round", "GET"): Action.PROGRESSIVE_ROUND_RECORD,
    ("floor:progressive-round", "POST"): Action.PROGRESSIVE_ROUND_RECORD,
    ("floor:progressive-round-detail", "GET"): Action.PROGRESSIVE_READ,
    ("floor:progressive-hand", "POST"): Action.PROGRESSIVE_HAND_RECORD,
    ("floor:progressive-validate", "GET"): Action.PROGRESSIVE_VALIDATE,
    ("floor:progressive-validate-sign", "POST"): Action.PROGRESSIVE_VALIDATE,
    ("floor:progressive-meters", "GET"): Action.PROGRESSIVE_RESET,
    ("floor:progressive-reset", "POST"): Action.PROGRESSIVE_RESET,
    ("floor:progressive-explain", "POST"): Action.PROGRESSIVE_EXPLAIN,
}
HANDLERS = ("get", "post", "put", "patch", "delete")


def _routes() -> Iterator[tuple[str, Any]]:
    """(URL name, view) of every route under /api/ and /floor/."""

    def walk(patterns: list, prefix: str, namespace: str) -> Iterator[tuple[str, str, Any]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), f"{namespace}{pattern.name}", pattern.callback

    for path, name, view in walk(get_resolver().url_patterns, "", ""):
        if path.startswith(("api/", "floor/")):
            yield name, view


def test_every_action_has_its_roles_and_every_route_is_mapped() -> None:
    assert set(ACTION_ROLES) == set(Action)
    assert all(ACTION_ROLES[action] for action in Action)
    routes = dict(_routes())
    assert set(routes) == {name for name, _ in ROUTES}, (
        "a route is missing from ROUTES (or ROUTES names one that is gone)"
    )
    for name, view in routes.items():
        view_class = getattr(view, "cls", None)  # DRF: every method it answers is in ROUTES, as it declares
        if view_class is None:
            continue
        methods = {handler.upper() for handler in HANDLERS if hasattr(view_class, handler)}
        assert methods == {method for n, method in ROUTES if n == name}, name
        for method in methods:
            declared = getattr(view_class, "required_actions", {}).get(method)
            assert declared == (ROUTES[name, method] if isinstance(ROUTES[name, method], Action) else None), (
                name,
                method,
            )


def test_whoever_loads_rules_may_change_rooms_and_tables() -> None:
    """A rules file sets the room and its tables: ``rules_load`` calls ``room_upsert`` and ``table_upsert``."""
    assert ACTION_ROLES[Action.RULES_LOAD] <= ACTION_ROLES[Action.ROOM_UPSERT] & ACTION_ROLES[Action.TABLE_UPSERT]


def test_may_follows_the_table_for_every_role_and_action(make_staff) -> None:
    for role in Role:
        person = make_staff(role)
        for action in Action:
            assert may(person, action) == (role in ACTION_ROLES[action]), (role, action)
    person.is_active = False
    assert not any(may(person, action) for action in Action)


def test_a_refusal_names_the_action_and_who_may(dealer) -> None:
    with pytest.raises(ActionNotPermitted) as refused:
        action_require(actor=dealer, action=Action.REVENUE_READ)
    assert refused.value.message == (
        "Only a poker room manager, finance, compliance or an administrator may read the poker "
        f"revenue report; {dealer} is a dealer."
    )
    assert (refused.value.status, refused.value.code, refused.value.action) == (403, "not_permitted", "revenue_read")


# --- The walk -------------------------------------------------------------------------------------


@pytest.fixture
def floor_state(rules, dealer, floorperson) -> dict[str, int]:
    """An open time-charge table with a charge to verify, a closed table to open, a Bad Beat claim
    to read (claimed at T1, which offers the Bad Beat whether open or not), and a High Hand period."""
    from jackpots.bad_beat.services.claims import claim_open
    from jackpots.funds.models import Jackpot
    from jackpots.high_hand.models import HighHandPeriod, PeriodStatus

    # The banked tables' progressives too, and a round of T11 to read.
    from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
    from tests.jackpots.bad_beat import QUALIFYING
    from tests.jackpots.progressive_helpers import progressive_rules_text

    # A later version takes effect as it is loaded (issue 24): its round ends after that.
    factories.load(progressive_rules_text())
    progressive_round = progressive_round_record(
        table=table_set_open(table=Table.objects.get(number="T11"), is_open=True, actor=floorperson),
        ended_at=timezone.now(),
        wagers=[SeatWager(1, 100)],
        chips_collected=1,
        community_cards="",
        actor=dealer,
        idempotency_key="walk-progressive-round",
    )
    stud = table_set_open(table=Table.objects.get(number="T7"), is_open=True, actor=floorperson)
    charge, _ = time_charge_assess(
        table=stud, interval_starts_at=interval_start(30), players_seated=4, actor=dealer, idempotency_key="walk"
    )
    t1 = Table.objects.select_related("room").get(number="T1")
    claim = claim_open(
        jackpot=Jackpot.objects.get(room=t1.room, code="bb"),
        table=t1,
        actor=floorperson,
        pin=PIN,
        idempotency_key="walk",
        **QUALIFYING,
    )
    now = timezone.now()
    period = HighHandPeriod.objects.create(
        room=t1.room,
        jackpot=Jackpot.objects.get(room=t1.room, code="hh"),
        rules_version=rules,
        starts_at=now - timedelta(minutes=10),
        ends_at=now + timedelta(minutes=50),
        status=PeriodStatus.OPEN,
        opened_at=now,
    )
    # A round of T2 (lim, open) that took rake, to void.
    t2 = table_set_open(table=Table.objects.get(number="T2"), is_open=True, actor=floorperson)
    round_ = round_record(
        table=t2,
        ended_at=now - timedelta(minutes=2),
        players_dealt_in=6,
        pot_cents=6000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key="walk-round",
    ).round
    return {
        "table": t1.pk,
        "open_table": stud.pk,
        "round": round_.pk,
        "charge": charge.pk,
        "claim": claim.pk,
        "period": period.pk,
        "progressive_round": progressive_round.pk,
    }


def _url(name: str, state: dict[str, int]) -> str:
    kwargs = {
        "floor:table-open-close": {"table_id": state["table"]},
        "floor:time-charge-verify": {"charge_id": state["charge"]},
        "api-time-charge-verify": {"pk": state["charge"]},
        # The cage's and the Bad Beat's documents need not exist: a role is refused before the document
        # is looked up.
        **{
            route: {"pk": 1}
            for route in (
                "api-irregularity-rule",
                "api-round-void",
                "api-deck-verify",
                "api-count-witness",
                "api-count-recount",
                "api-transport-account",
                "api-transport-missing-boxes",
                "api-cage-verification-explain",
                "api-variance-explain",
                "api-bad-beat-claim",
                "api-bad-beat-claim-verify",
                "api-bad-beat-claim-deny",
                "api-bad-beat-claim-distribution",
                "api-bad-beat-share-pay",
                "api-display-adjustment-witness",
                "api-fund-transfer-approve",
                "api-high-hand-entry-void",
                "api-high-hand-award-pay",
                "api-high-hand-unclaimed-approve",
                "api-progressive-meter-reset",
                "api-progressive-round",
                "api-progressive-round-void",
                "api-progressive-hand-validate",
                "api-progressive-hand-pay",
                "api-progressive-exception-explain",
            )
        },
        # No count or transport in this state: a page that may act says there is none.
        "floor:cage-witness-sign": {"count_id": 1},
        "floor:cage-witness-table": {"table_id": 0},
        "floor:cage-recount-sign": {"count_id": 1},
        "floor:cage-variance-explain": {"variance_id": 1},
        "floor:irregularity-report-table": {"table_id": state["open_table"]},
        "floor:irregularity-rule-sign": {"irregularity_id": 0},
        "floor:equipment-table": {"table_id": state["table"]},
        "floor:equipment-step": {"table_id": state["table"], "device": "shuffler", "step": "failed"},
        "floor:equipment-deck": {"table_id": state["table"]},
        "floor:equipment-deck-verify": {"deck_id": 0},
        "floor:round-void": {"round_id": state["round"]},
        "floor:cage-account": {"transport_id": 1},
        "floor:cage-missing-box": {"transport_id": 1},
        "floor:bad-beat-claim-detail": {"claim_id": state["claim"]},
        # No document 0: a page that may act says there is none.
        "floor:bad-beat-verify": {"claim_id": 0},
        "floor:bad-beat-deny": {"claim_id": 0},
        "floor:bad-beat-pay": {"share_id": 0},
        "floor:bad-beat-witness-sign": {"adjustment_id": 0},
        "floor:bad-beat-adjust": {"jackpot_id": 0},
        "floor:bad-beat-distribute": {"claim_id": 0},
        "floor:high-hand-period": {"period_id": state["period"]},
        "floor:high-hand-void": {"entry_id": 0},
        "floor:progressive-round-detail": {"round_id": state["progressive_round"]},
        "floor:progressive-hand": {"round_id": state["progressive_round"]},
        # No document 0: a page that may act says there is none.
        "floor:progressive-validate-sign": {"hand_id": 0},
        "floor:progressive-reset": {"meter_id": 0},
        "floor:progressive-explain": {"exception_id": 0},
    }.get(name, {})
    return reverse(name, kwargs=kwargs)


_FLOOR_POSTS: dict[str, dict[str, str]] = {
    "floor:pin": {"current_password": "wrong", "pin": "1357", "pin_again": "1357"},
    "floor:second-factor": {"step": "start"},
    "floor:table-open-close": {"is_open": "1"},
    "floor:time-charge-verify": {"pin": PIN},
    "floor:round-log": {"pot": "not money"},
    "floor:cage-count": {"counted": "not money", "pin": PIN},
    "floor:cage-notice": {"notified": "", "pin": PIN},
    "floor:cage-witness-sign": {"surveillance_reference": "CAM-1", "pin": PIN},
    "floor:cage-witness-table": {"count": "1", "surveillance_reference": "CAM-1", "pin": PIN},
    "floor:cage-recount-sign": {"counted": "7.90", "reason": "typed 79.00", "pin": PIN},
    "floor:cage-variance-explain": {"reason": "a chip under the lid", "pin": PIN},
    "floor:cage-custody": {"carry": "boxes", "boxes-seal": "S-1", "boxes-pin": PIN},
    "floor:cage-account": {"pin": PIN},
    "floor:cage-missing-box": {"reason": "gone", "pin": PIN},
    "floor:cage-close-day-sign": {"room": "main", "gaming_day": "2026-01-01", "pin": PIN},
    "floor:bad-beat-claim": {"board": "Ad Ac Kc 7s 7h", "pin": PIN},
    "floor:bad-beat-verify": {"pin": PIN},
    "floor:bad-beat-deny": {"reason": "Below the posted hand.", "pin": PIN},
    "floor:bad-beat-pay": {"id_type": "Passport", "id_number": "X1", "pin": PIN},
    "floor:bad-beat-witness-sign": {"pin": PIN},
    "floor:bad-beat-adjust": {"pin": PIN},
    "floor:bad-beat-distribute": {"method": "cash", "pin": PIN},
    "floor:high-hand-record": {"hole": "As Ad", "board": "Ac Ks Kd 2c 3h", "pin": PIN},
    "floor:high-hand-void": {"reason": "Wrong seat.", "pin": PIN},
    "floor:progressive-round": {"table": "0", "chips_collected": "1"},
    "floor:progressive-hand": {"seat": "1", "cards": "2c 3d", "community": "9h 8h 4s"},
    "floor:progressive-validate-sign": {"pin": PIN},
    "floor:progressive-reset": {"pin": PIN},
    "floor:progressive-explain": {"explanation": "A chip fell.", "pin": PIN},
    "floor:irregularity-report-table": {"kind": "misdeal", "description": "Dealt wrong.", "pin": PIN},
    "floor:irregularity-rule-sign": {"ruling": "Misdeal.", "pin": PIN},
    "floor:equipment-step": {"failure": "jammed", "description": "Jammed.", "pin": PIN},
    "floor:equipment-deck": {"dealt_from": "hand", "pin": PIN},
    "floor:equipment-deck-verify": {"pin": PIN},
    "floor:round-void": {"reason": "An extra card.", "pin": PIN},
}


@pytest.mark.parametrize(("name", "method"), [route for route, who in ROUTES.items() if who != PUBLIC])
def test_every_route_answers_each_role_as_the_table_says(name, method, floor_state, make_staff) -> None:
    """The API refuses with a 403 ``not_permitted`` naming who may; a tablet page shows that message. Each
    role alone, and each role held beside the next by one person (the last beside the first): a person
    may what one of their roles may, and is refused what none of them may."""
    who = ROUTES[name, method]
    url = _url(name, floor_state)
    refusal = who_may(Action(who)) if who != SIGNED_IN else None
    roles = list(Role)
    held = [(role,) for role in roles] + list(zip(roles, roles[1:] + roles[:1], strict=True))
    for pair in held:
        role, *others = pair
        person = make_staff(role, extra_roles=others) if others else make_staff(role)
        allowed = refusal is None or bool(set(pair) & ACTION_ROLES[Action(who)])
        if name.startswith("api-"):
            api = APIClient()
            api.force_authenticate(person)
            response = api.get(url) if method == "GET" else api.post(url, {"pin": PIN}, format="json")
            if allowed:
                assert response.status_code != 403, (name, pair, response.content)
            else:
                assert response.status_code == 403, (name, pair, response.status_code)
                assert set(response.json()) == {"detail", "code"} and response.json()["code"] == "not_permitted"
                assert response.json()["detail"].startswith(f"{refusal}; "), (name, pair)
        else:
            browser = Client()
            browser.force_login(person)
            response = browser.get(url) if method == "GET" else browser.post(url, _FLOOR_POSTS[name], follow=True)
            page = response.content.decode()
            if allowed:
                # Let in: the page answers, or refuses the body on its merits (the close of a day not over: 409).
                assert response.status_code in (200, 400, 409), (name, pair, response.status_code)
                assert refusal is None or escape(refusal) not in page, (name, pair)
            else:
                assert response.status_code in (200, 403), (name, pair, response.status_code)
                assert escape(refusal) in page, (name, pair)


def test_a_refused_role_changes_nothing_from_the_tablet(floor_state, make_staff) -> None:
    """A cage cashier posts to every tablet page that acts: nothing changes, no PIN is counted."""
    cashier = make_staff(Role.CAGE_CASHIER)
    browser = Client()
    browser.force_login(cashier)
    for name in ("floor:table-open-close", "floor:time-charge-verify"):
        browser.post(_url(name, floor_state), _FLOOR_POSTS[name], follow=True)
    assert not Table.objects.get(pk=floor_state["table"]).is_open
    assert TimeCharge.objects.get(pk=floor_state["charge"]).verified_at is None
    cashier.refresh_from_db()
    assert cashier.failed_pin_attempts == 0


# --- Services refuse a role the table does not name, before anything else -----------------------


@pytest.fixture
def service_state(floor_state, make_staff, finance) -> dict[str, Any]:
    """An open Hold'em table, a time charge to verify, a transfer to reverse, a correction to approve,
    a person whose signing is locked."""
    from casino_backoffice.ledger.models import Account, AccountKind, TransferKind
    from casino_backoffice.ledger.services import correction_prepare, transfer_post_atomic

    table_set_open(table=Table.objects.get(number="T1"), is_open=True, actor=make_staff(Role.FLOORPERSON))
    box = Account.objects.create(code="box:walk", name="Box", kind=AccountKind.JACKPOT_BOX)
    pots = Account.objects.create(code="pots:walk", name="Pots", kind=AccountKind.SOURCE)
    transfers = [
        transfer_post_atomic(
            debit=box,
            credit=pots,
            amount_cents=cents,
            kind=TransferKind.DROP,
            idempotency_key=f"walk-{cents}",
            actor=finance,
        )
        for cents in (100, 200)
    ]
    correction = correction_prepare(transfer=transfers[1], reason="wrong box", actor=finance, pin=PIN)
    locked = make_staff(Role.DEALER)
    User.objects.filter(pk=locked.pk).update(failed_pin_attempts=5, signing_locked_at=factories.recently())
    return {
        "t1": Table.objects.get(number="T1"),
        "t7": Table.objects.get(number="T7"),
        "charge": TimeCharge.objects.get(pk=floor_state["charge"]),
        "transfer": transfers[0],
        "correction": correction,
        "locked": locked,
    }


def _service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    from casino_backoffice.ledger.services import correction_approve, correction_prepare
    from casino_backoffice.staff.second_factor.services import second_factor_enrol_start, second_factor_reset
    from casino_backoffice.staff.services import pin_set, signing_unlock
    from rake.services import RoundRequest, round_record, rounds_record_batch, rules_load, time_charge_verify
    from tables.services import room_upsert, table_upsert

    def round_(state: dict[str, Any]) -> dict[str, Any]:
        return {
            "table": state["t1"],
            "ended_at": factories.recently(),
            "players_dealt_in": 9,
            "pot_cents": 12000,
            "uncalled_bet_cents": 0,
            "flop_dealt": True,
            "voided": False,
            "idempotency_key": "service",
        }

    return {
        "round_record": (Action.ROUND_RECORD, lambda actor, state: round_record(actor=actor, **round_(state))),
        "rounds_record_batch": (
            Action.ROUND_RECORD,
            lambda actor, state: rounds_record_batch(rounds=[RoundRequest(**round_(state))], actor=actor),
        ),
        "time_charge_assess": (
            Action.TIME_CHARGE_ASSESS,
            lambda actor, state: time_charge_assess(
                table=state["t7"],
                interval_starts_at=interval_start(30, back=2),
                players_seated=4,
                actor=actor,
                idempotency_key="service",
            ),
        ),
        "time_charge_verify": (
            Action.TIME_CHARGE_VERIFY,
            lambda actor, state: time_charge_verify(time_charge=state["charge"], actor=actor, pin=PIN),
        ),
        "table_set_open": (
            Action.TABLE_OPEN_CLOSE,
            lambda actor, state: table_set_open(table=state["t1"], is_open=False, actor=actor),
        ),
        "table_upsert": (
            Action.TABLE_UPSERT,
            lambda actor, state: table_upsert(room=state["t1"].room, number="T1", game="holdem", seats=9, actor=actor),
        ),
        "room_upsert": (
            Action.ROOM_UPSERT,
            lambda actor, state: room_upsert(
                code="main",
                name="Renamed",
                timezone_name="America/New_York",
                gaming_day_starts=time(6),
                actor=actor,
            ),
        ),
        "rules_load": (
            Action.RULES_LOAD,
            lambda actor, state: rules_load(text=factories.rules_text(name="Renamed"), actor=actor),
        ),
        "correction_prepare": (
            Action.CORRECTION_PREPARE,
            lambda actor, state: correction_prepare(
                transfer=state["transfer"],
                reason="wrong box",
                actor=actor,
                pin=PIN,
            ),
        ),
        "correction_approve": (
            Action.CORRECTION_APPROVE,
            lambda actor, state: correction_approve(correction=state["correction"], actor=actor, pin=PIN),
        ),
        "pin_set": (Action.PIN_SET, lambda actor, state: pin_set(user=actor, pin="97531", actor=actor)),
        "signing_unlock": (
            Action.SIGNING_UNLOCK,
            lambda actor, state: signing_unlock(user=state["locked"], actor=actor),
        ),
        "second_factor_enrol_start": (
            Action.SECOND_FACTOR_USE,
            lambda actor, state: second_factor_enrol_start(actor=actor),
        ),
        "second_factor_reset": (
            Action.SECOND_FACTOR_RESET,
            lambda actor, state: second_factor_reset(user=state["locked"], actor=actor),
        ),
        **_irregularity_service_calls(),
        **_equipment_service_calls(),
        **_cage_service_calls(),
        **_jackpot_service_calls(),
        **_high_hand_service_calls(),
        **_progressive_service_calls(),
    }


def _irregularity_service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    """Irregularities, their rulings and the void of a round refuse before they read anything."""
    from rake.services import round_void
    from tables.irregularities.models import Irregularity
    from tables.irregularities.services import irregularity_report, irregularity_rule
    from tables.models import Round

    return {
        "irregularity_report": (
            Action.IRREGULARITY_REPORT,
            lambda actor, state: irregularity_report(
                table=state["t1"], kind="fouled_hand", description="x", actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "irregularity_rule": (
            Action.IRREGULARITY_RULE,
            lambda actor, state: irregularity_rule(
                irregularity=Irregularity(kind="fouled_hand"), ruling="x", actor=actor, pin=PIN, idempotency_key="s"
            ),
        ),
        "irregularity_rule_of_a_dispute": (
            Action.DISPUTE_RULE,
            lambda actor, state: irregularity_rule(
                irregularity=Irregularity(kind="dispute"), ruling="x", actor=actor, pin=PIN, idempotency_key="s"
            ),
        ),
        "round_void": (
            Action.ROUND_VOID,
            lambda actor, state: round_void(
                round=Round(), reason="Missing cards.", actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
    }


def _equipment_service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    """The steps of a table's devices and the deck log refuse before they read anything."""
    from tables.equipment import services
    from tables.equipment.models import DeckChange

    def step(call: Callable[..., Any], **values: Any) -> Callable[[User, dict[str, Any]], Any]:
        return lambda actor, state: call(
            table=state["t1"], device="shuffler", description="x", actor=actor, pin=PIN, idempotency_key="s", **values
        )

    return {
        "device_failure_record": (
            Action.DEVICE_FAILURE_RECORD,
            step(services.device_failure_record, failure="jammed"),
        ),
        "device_out_of_order": (Action.DEVICE_OUT_OF_ORDER, step(services.device_out_of_order, marking="covered")),
        "device_return": (Action.DEVICE_RETURN, step(services.device_return)),
        "deck_change": (
            Action.DECK_INSPECT,
            lambda actor, state: services.deck_change(
                table=state["t1"], dealt_from="hand", actor=actor, pin=PIN, idempotency_key="s"
            ),
        ),
        "deck_verify": (
            Action.DECK_VERIFY,
            lambda actor, state: services.deck_verify(deck=DeckChange(), actor=actor, pin=PIN, idempotency_key="s"),
        ),
    }


def _cage_service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    """The cage's services refuse before they read anything: the documents they are handed need not exist."""
    from cage import services
    from cage.models import Box, CageVerification, Count, Transport, Variance

    def room(state: dict[str, Any]) -> Any:
        return state["t1"].room

    return {
        "notice_record": (
            Action.NOTICE_RECORD,
            lambda actor, state: services.notice_record(
                room=room(state), notified="J. Smith", method="phone", actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "count_record": (
            Action.COUNT_RECORD,
            lambda actor, state: services.count_record(
                box=Box(room=room(state), table=state["t1"]),
                counted_cents=100,
                actor=actor,
                pin=PIN,
                idempotency_key="service",
            ),
        ),
        "count_witness": (
            Action.COUNT_WITNESS,
            lambda actor, state: services.count_witness(
                count=Count(), actor=actor, pin=PIN, surveillance_reference="CAM-1"
            ),
        ),
        "count_recount": (
            Action.COUNT_RECOUNT,
            lambda actor, state: services.count_recount(
                count=Count(), counted_cents=790, reason="typed 79.00", actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "variance_explain_with_a_correction": (
            Action.VARIANCE_CORRECT,
            lambda actor, state: services.variance_explain(
                variance=Variance(), reason="typed 79.00", correction_cents=7110, actor=actor, pin=PIN
            ),
        ),
        "transport_create": (
            Action.TRANSPORT_CREATE,
            lambda actor, state: services.transport_create(
                room=room(state), seal="S-1", boxes=[Box()], actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "transport_account": (
            Action.TRANSPORT_ACCOUNT,
            lambda actor, state: services.transport_account(
                transport=Transport(), box_codes=["T1-drop"], actor=actor, pin=PIN
            ),
        ),
        "missing_box_record": (
            Action.MISSING_BOX_RECORD,
            lambda actor, state: services.missing_box_record(
                transport=Transport(), box=Box(), reason="gone", actor=actor, pin=PIN
            ),
        ),
        "cage_verify": (
            Action.CAGE_VERIFY,
            lambda actor, state: services.cage_verify(
                transport=Transport(), counted=100, actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "variance_explain": (
            Action.VARIANCE_EXPLAIN,
            lambda actor, state: services.variance_explain(variance=Variance(), reason="found", actor=actor, pin=PIN),
        ),
        "verification_explain": (
            Action.VARIANCE_EXPLAIN,
            lambda actor, state: services.verification_explain(
                verification=CageVerification(), reason="found", actor=actor, pin=PIN
            ),
        ),
        "gaming_day_close": (
            Action.GAMING_DAY_CLOSE,
            # A past gaming day with nothing open: it closes (today's is not over, issue 24).
            lambda actor, state: services.gaming_day_close(
                room=room(state), day=timezone.localdate() - timedelta(days=2), actor=actor, pin=PIN
            ),
        ),
    }


def _jackpot_service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    """The Bad Beat's services refuse before they read anything: the documents they are handed need not exist."""
    from jackpots.bad_beat.models import BadBeatClaim, BadBeatShare, DisplayAdjustment, FundTransfer
    from jackpots.bad_beat.services.claims import SeatedHand, claim_deny, claim_open, claim_verify
    from jackpots.bad_beat.services.display import (
        display_adjust,
        display_witness,
        fund_transfer_approve,
        fund_transfer_prepare,
    )
    from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
    from jackpots.funds.models import Jackpot

    def fund(state: dict[str, Any]) -> Jackpot:
        return Jackpot.objects.get(room=state["t1"].room, code="bb")

    return {
        "claim_open": (
            Action.BAD_BEAT_CLAIM,
            lambda actor, state: claim_open(
                jackpot=fund(state),
                table=state["t1"],
                players_dealt_in=2,
                board="Ad Ac Kc 7s 7h",
                losing=SeatedHand(1, "A", "As Ks"),
                winning=SeatedHand(2, "B", "7d 7c"),
                others=[],
                actor=actor,
                pin=PIN,
                idempotency_key="service",
            ),
        ),
        "claim_verify": (
            Action.BAD_BEAT_VERIFY,
            lambda actor, state: claim_verify(claim=BadBeatClaim(), actor=actor, pin=PIN),
        ),
        "claim_deny": (
            Action.BAD_BEAT_VERIFY,
            lambda actor, state: claim_deny(claim=BadBeatClaim(), reason="no", actor=actor, pin=PIN),
        ),
        "distribution_prepare": (
            Action.BAD_BEAT_DISTRIBUTE,
            lambda actor, state: distribution_prepare(
                claim=BadBeatClaim(), actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "share_pay": (
            Action.BAD_BEAT_PAY,
            lambda actor, state: share_pay(
                share=BadBeatShare(), id_type="License", id_number="1", actor=actor, pin=PIN, idempotency_key="service"
            ),
        ),
        "display_adjust": (
            Action.DISPLAY_ADJUST,
            lambda actor, state: display_adjust(jackpot=fund(state), actor=actor, pin=PIN, idempotency_key="s"),
        ),
        "display_witness": (
            Action.DISPLAY_WITNESS,
            lambda actor, state: display_witness(adjustment=DisplayAdjustment(), actor=actor, pin=PIN),
        ),
        "fund_transfer_prepare": (
            Action.FUND_TRANSFER_PREPARE,
            lambda actor, state: fund_transfer_prepare(
                source=fund(state),
                destination=fund(state),
                amount_cents=100,
                reason="discontinued",
                actor=actor,
                pin=PIN,
                idempotency_key="service",
            ),
        ),
        "fund_transfer_approve": (
            Action.FUND_TRANSFER_APPROVE,
            lambda actor, state: fund_transfer_approve(transfer=FundTransfer(), actor=actor, pin=PIN),
        ),
    }


def _high_hand_service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    """The High Hand's services refuse before they read anything: the documents they are handed need not exist."""
    from jackpots.funds.models import Jackpot
    from jackpots.high_hand.models import HighHandAward, HighHandEntry, HighHandUnclaimed
    from jackpots.high_hand.services.awards import award_pay, unclaimed_approve
    from jackpots.high_hand.services.slip import entry_record, entry_void

    def fund(state: dict[str, Any]) -> Jackpot:
        return Jackpot.objects.get(room=state["t1"].room, code="hh")

    return {
        "entry_record": (
            Action.HIGH_HAND_RECORD,
            lambda actor, state: entry_record(
                jackpot=fund(state),
                table=state["t1"],
                seat=1,
                player_name="A",
                player_phone="1",
                id_type="License",
                id_number="1",
                dealer=actor,
                players_dealt_in=8,
                pot_cents=9_000,
                cards="As Ad Ah Kc Kd",
                made_at=factories.recently(),
                actor=actor,
                pin=PIN,
                idempotency_key="service",
            ),
        ),
        "entry_void": (
            Action.HIGH_HAND_VOID,
            lambda actor, state: entry_void(entry=HighHandEntry(), reason="wrong", actor=actor, pin=PIN),
        ),
        "award_pay": (
            Action.HIGH_HAND_PAY,
            lambda actor, state: award_pay(
                award=HighHandAward(), id_type="License", id_number="1", actor=actor, pin=PIN, idempotency_key="s"
            ),
        ),
        "unclaimed_approve": (
            Action.HIGH_HAND_UNCLAIMED_APPROVE,
            lambda actor, state: unclaimed_approve(unclaimed=HighHandUnclaimed(), actor=actor, pin=PIN),
        ),
    }


def _progressive_service_calls() -> dict[str, tuple[Action, Callable[[User, dict[str, Any]], Any]]]:
    """The progressives' services refuse before they read anything: the documents need not exist."""
    from jackpots.progressive.models import ProgressiveHand, ProgressiveMeter, ProgressiveRound, WagerCountException
    from jackpots.progressive.services.hands import progressive_hand_record, progressive_pay, progressive_validate
    from jackpots.progressive.services.meters import meter_reset
    from jackpots.progressive.services.rounds import SeatWager, progressive_round_record, wager_count_explain
    from jackpots.progressive.services.voids import banked_round_void

    return {
        "progressive_round_record": (
            Action.PROGRESSIVE_ROUND_RECORD,
            lambda actor, state: progressive_round_record(
                table=state["t1"],
                ended_at=factories.recently(),
                wagers=[SeatWager(1, 100)],
                chips_collected=1,
                actor=actor,
                idempotency_key="service",
            ),
        ),
        "progressive_hand_record": (
            Action.PROGRESSIVE_HAND_RECORD,
            lambda actor, state: progressive_hand_record(
                round=ProgressiveRound(), seat=1, cards="As Ks", actor=actor, idempotency_key="service"
            ),
        ),
        "progressive_validate": (
            Action.PROGRESSIVE_VALIDATE,
            lambda actor, state: progressive_validate(hand=ProgressiveHand(), actor=actor, pin=PIN),
        ),
        "progressive_pay": (
            Action.PROGRESSIVE_PAY,
            lambda actor, state: progressive_pay(
                hand=ProgressiveHand(),
                patron_name="A",
                id_type="License",
                id_number="1",
                actor=actor,
                pin=PIN,
                idempotency_key="s",
            ),
        ),
        "meter_reset": (
            Action.PROGRESSIVE_RESET,
            lambda actor, state: meter_reset(meter=ProgressiveMeter(), actor=actor, pin=PIN),
        ),
        "wager_count_explain": (
            Action.PROGRESSIVE_EXPLAIN,
            lambda actor, state: wager_count_explain(
                exception=WagerCountException(), explanation="why", actor=actor, pin=PIN
            ),
        ),
        "banked_round_void": (
            Action.PROGRESSIVE_ROUND_VOID,
            lambda actor, state: banked_round_void(
                round=ProgressiveRound(), reason="Two cards face up.", actor=actor, pin=PIN, idempotency_key="s"
            ),
        ),
    }


def _snapshot() -> tuple:
    from casino_backoffice.ledger.models import Correction, Transfer
    from casino_backoffice.staff.models import Signature
    from tables.models import PokerRoom, Round, RulesVersion

    return (
        list(Table.objects.order_by("pk").values_list("number", "game", "seats", "is_open")),
        list(PokerRoom.objects.values_list("name", "timezone")),
        RulesVersion.objects.count(),
        Round.objects.count(),
        TimeCharge.objects.count(),
        list(TimeCharge.objects.values_list("verified_at", flat=True)),
        Transfer.objects.count(),
        Correction.objects.count(),
        Signature.objects.count(),
        list(User.objects.order_by("pk").values_list("pin_hash", "failed_pin_attempts", "signing_locked_at")),
    )


@pytest.mark.parametrize("service", list(_service_calls()))
def test_every_service_refuses_each_role_the_table_does_not_name_and_changes_nothing(
    service, service_state, make_staff
) -> None:
    action, call = _service_calls()[service]
    refused = [make_staff(role) for role in Role if role not in ACTION_ROLES[action]]
    if not refused:  # every role may (set their own PIN): someone without a role may not
        person = make_staff(Role.DEALER)
        person.groups.clear()
        refused = [User.objects.get(pk=person.pk)]
    before = _snapshot()
    for person in refused:
        with pytest.raises(ActionNotPermitted, match=f"^{re.escape(who_may(action))}; "):
            call(person, service_state)
    assert _snapshot() == before


def test_the_services_walked_are_every_action_a_service_takes() -> None:
    reads = {
        Action.RAKE_CALCULATE,
        Action.RULES_VERSIONS_READ,
        Action.REVENUE_READ,
        Action.STAFF_MANAGE,
        Action.BACK_OFFICE_USE,
        Action.COUNTS_TO_RECORD_READ,
        Action.CAGE_RECORD_READ,
        Action.HIGH_HAND_RECORDS_READ,
        Action.VARIANCE_READ,
        Action.BAD_BEAT_READ,
        Action.BAD_BEAT_RECORDS_READ,
        Action.HIGH_HAND_READ,
        Action.PROGRESSIVE_READ,
        Action.ROUNDS_READ,
        Action.FUNDS_READ,
        Action.BOX_EXPECTED_READ,
        Action.TIME_CHARGES_READ,
        Action.PROFILE_READ,
        Action.ROOMS_READ,
        Action.TABLES_READ,
        Action.BOXES_READ,
        Action.COUNTS_READ,
        Action.IRREGULARITIES_READ,
        Action.IRREGULARITY_FILE_READ,
        Action.EQUIPMENT_READ,
        # The trace of a dollar: who may ask, and who may read any trace (``audit.trace.build.trace_of``).
        Action.TRACE_OPEN,
        Action.TRACE_READ,
        # Declared with the trace for a gaming day's package (issue 29), which no face reads yet.
        Action.DAY_PACKAGE_READ,
    }
    # Signed within another service's write: the supervisor's signature on a round logged late
    # (``round_record``, walked in tests/rake/test_late_entry.py).
    within = {Action.LATE_ENTRY_SIGN}
    assert {action for action, _ in _service_calls().values()} | reads | within == set(Action)


def test_pages_show_what_each_role_may_do_and_hide_the_rest(floor_state, make_staff) -> None:
    open_close = _url("floor:table-open-close", floor_state)
    verify = _url("floor:time-charge-verify", floor_state)
    for role in Role:
        person = make_staff(role)
        browser = Client()
        browser.force_login(person)
        home = browser.get(reverse("floor:home")).content.decode()
        assert (f'href="{reverse("floor:rake-calculator")}"' in home) == may(person, Action.RAKE_CALCULATE), role
        assert (f'href="{reverse("floor:time-charges")}"' in home) == may(person, Action.TIME_CHARGE_VERIFY), role
        assert (f'action="{open_close}"' in browser.get(reverse("floor:tables")).content.decode()) == may(
            person, Action.TABLE_OPEN_CLOSE
        ), role
        assert (f'action="{verify}"' in browser.get(reverse("floor:time-charges")).content.decode()) == may(
            person, Action.TIME_CHARGE_VERIFY
        ), role
