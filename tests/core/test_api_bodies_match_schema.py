"""Every operation's answers against the committed openapi.yaml (issue 26, item 3): the fast version
of what ``make proof`` checks with schemathesis.

On the demo's room (``manage.py load_demo``: a day played through every service), each test walks a
product's operations through the API as its people would, every answer of the walk checked against
the schema of its operation and status (``tests.schema_bodies``: strictly, a key the schema does not
name fails too). Together the walks answer every operation of the schema with a success, except
``NOT_WALKED``, whose state the demo day does not reach; their answers are checked wherever their own
API tests take them.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from tables.models import PokerRoom, Table
from tables.services import table_set_open
from tests.conftest import PIN
from tests.schema_bodies import SchemaChecker

CHECKER = SchemaChecker()

# Operations whose success needs a state the demo day does not hold: a gaming day that is over, a
# discontinued Bad Beat fund, a closed High Hand period with its award or its unclaimed pool.
NOT_WALKED = {
    "gaming_days_close_create": "the demo's only gaming day is not over",
    "fund_transfers_create": "the demo has no discontinued Bad Beat fund",
    "fund_transfers_approve_create": "the demo has no discontinued Bad Beat fund",
    "high_hand_awards_pay_create": "the demo's High Hand period is still open",
    "high_hand_unclaimed_approve_create": "the demo's High Hand period is still open",
}
WALKS: dict[str, set[str]] = {
    "reads": {
        "me_retrieve",
        "rooms_list",
        "tables_list",
        "rules_versions_list",
        "jackpots_list",
        "boxes_list",
        "counts_list",
        "rounds_list",
        "time_charges_list",
        "variances_list",
        "high_hand_periods_list",
        "progressive_meters_list",
        "display_check_list",
        "progressive_rounds_retrieve",
        "bad_beat_claims_list",
        "bad_beat_claims_retrieve",
        "official_record_list",
        "official_record_lines.csv_retrieve",
        "revenue_retrieve",
        "trace_retrieve",
    },
    "rake": {
        "rake_calculator_create",
        "rounds_create",
        "rounds_batch_create",
        "time_charges_create",
        "time_charges_verify_create",
    },
    "bad_beat": {
        "bad_beat_claims_create",
        "bad_beat_claims_verify_create",
        "bad_beat_claims_deny_create",
        "bad_beat_claims_distribution_create",
        "bad_beat_shares_pay_create",
        "display_adjustments_create",
        "display_adjustments_witness_create",
    },
    "high_hand": {"high_hand_entries_create", "high_hand_entries_void_create"},
    "irregularities": {
        "irregularities_create",
        "irregularities_rule_create",
        "irregularities_list",
        "rounds_void_create",
    },
    "equipment": {"equipment_create", "equipment_list", "decks_create", "decks_verify_create", "decks_list"},
    "progressive": {
        "progressive_rounds_create",
        "progressive_hands_create",
        "progressive_hands_validate_create",
        "progressive_hands_pay_create",
        "progressive_exceptions_explain_create",
        "progressive_meters_reset_create",
        "progressive_rounds_void_create",
    },
    "cage": {
        "compliance_notices_create",
        "counts_create",
        "counts_recount_create",
        "counts_witness_create",
        "transports_create",
        "transports_account_create",
        "transports_missing_boxes_create",
        "cage_verifications_create",
        "cage_verifications_explain_create",
        "variances_explain_create",
    },
}


def test_the_walks_and_the_operations_not_walked_are_every_operation_of_the_schema() -> None:
    walked = set().union(*WALKS.values())
    assert walked.isdisjoint(NOT_WALKED)
    assert walked | set(NOT_WALKED) == CHECKER.operations()


@pytest.fixture
def checked(monkeypatch) -> SchemaChecker:
    """Every answer under /api/ during the test is checked against the schema (parsed once)."""
    CHECKER.seen = set()
    request = Client.request

    def checked_request(self: Client, **kwargs: Any) -> Any:
        response = request(self, **kwargs)
        if response.wsgi_request.path.startswith("/api/"):
            CHECKER.check(response)
        return response

    monkeypatch.setattr(Client, "request", checked_request)
    return CHECKER


class Walk:
    """The demo's room with a person of every role (PIN ``PIN``), each with an API client."""

    def __init__(self, make_staff: Any) -> None:
        call_command("load_demo", stdout=StringIO())
        self.room = PokerRoom.objects.get(code="main")
        self.people: dict[Role, User] = {role: make_staff(role, rooms=[self.room]) for role in Role}

    def get(self, role: Role, url: str, params: dict[str, Any] | None = None) -> Any:
        client = APIClient()
        client.force_authenticate(self.people[role])
        response = client.get(url, params or {})
        assert response.status_code == 200, (url, response.status_code, response.content[:500])
        return response.json() if response.get("Content-Type", "").startswith("application/json") else response

    def post(self, role: Role, url: str, body: dict[str, Any], *, status: int = 200, key: bool = True) -> Any:
        client = APIClient()
        client.force_authenticate(self.people[role])
        headers = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())} if key else {}
        response = client.post(url, {"pin": PIN, **body}, format="json", **headers)
        assert response.status_code == status, (url, response.status_code, response.content[:800])
        return response.json()

    def open_table(self, number: str) -> Table:
        table = Table.objects.select_related("room").get(room=self.room, number=number)
        return table_set_open(table=table, is_open=True, actor=self.people[Role.FLOORPERSON])

    def close_table(self, number: str) -> Table:
        table = Table.objects.select_related("room").get(room=self.room, number=number)
        return table_set_open(table=table, is_open=False, actor=self.people[Role.FLOORPERSON])


@pytest.fixture
def walk(db, make_staff, checked) -> Walk:
    return Walk(make_staff)


def _walked(checked: SchemaChecker, name: str) -> None:
    succeeded = {operation for operation, status in checked.seen if 200 <= status < 300}
    assert WALKS[name] <= succeeded, sorted(WALKS[name] - succeeded)


def now(minutes: int = 0) -> str:
    return (timezone.now() - timedelta(minutes=minutes)).isoformat()


# --- The walks ------------------------------------------------------------------------------------


def test_every_read_answers_as_the_schema_says(walk, checked) -> None:
    finance, cashier = Role.FINANCE, Role.CAGE_CASHIER
    for url in ("/api/me/", "/api/rooms/", "/api/tables/", "/api/rules-versions/", "/api/jackpots/"):
        walk.get(finance, url)
    for url in ("/api/boxes/", "/api/counts/", "/api/rounds/", "/api/time-charges/", "/api/variances/"):
        walk.get(finance, url)
    walk.get(finance, "/api/high-hand/periods/")
    meters = walk.get(finance, "/api/progressive/meters/")
    assert meters
    assert walk.get(finance, "/api/display-check/")
    assert walk.get(Role.FLOORPERSON, f"/api/progressive/rounds/{_progressive_round()}/")["hands"]
    claims = walk.get(finance, "/api/bad-beat/claims/")
    walk.get(finance, f"/api/bad-beat/claims/{claims['results'][0]['id']}/")
    walk.get(cashier, "/api/official-record/")
    walk.get(cashier, "/api/official-record/lines.csv")
    walk.get(finance, "/api/revenue/", {"room": "main", "group_by": "table,gaming_day"})
    walk.get(Role.COMPLIANCE, "/api/trace/", {"claim": claims["results"][0]["id"]})
    _walked(checked, "reads")


def _progressive_round() -> int:
    from jackpots.progressive.models import ProgressiveRound

    return ProgressiveRound.objects.filter(hands__isnull=False).order_by("pk").values_list("pk", flat=True)[0]


def test_the_rake_answers_as_the_schema_says(walk, checked) -> None:
    dealer, floor = Role.DEALER, Role.FLOORPERSON
    walk.post(floor, "/api/rake-calculator/", {"table": "T2", "room": "main", "pot": "120.00"}, key=False)
    round_ = {"table": "T2", "room": "main", "ended_at": now(1), "players_dealt_in": 6, "pot": "64.00"}
    walk.post(dealer, "/api/rounds/", round_, status=201)
    batch = [{**round_, "ended_at": now(n), "idempotency_key": f"batch-{n}"} for n in (2, 3)]
    walk.post(dealer, "/api/rounds/batch/", {"rounds": batch}, key=False)
    walk.open_table("T9")
    moment = timezone.now()
    start = moment.replace(minute=moment.minute - moment.minute % 20, second=0, microsecond=0) - timedelta(minutes=20)
    charge = walk.post(
        floor, "/api/time-charges/", {"table": "T9", "interval_starts_at": start.isoformat()}, status=201
    )
    walk.post(Role.SHIFT_SUPERVISOR, f"/api/time-charges/{charge['id']}/verify/", {}, key=False)
    _walked(checked, "rake")


def test_the_irregularities_and_a_void_answer_as_the_schema_says(walk, checked) -> None:
    dealer, floor = Role.DEALER, Role.FLOORPERSON
    round_ = {"table": "T2", "room": "main", "ended_at": now(1), "players_dealt_in": 6, "pot": "64.00"}
    logged = walk.post(dealer, "/api/rounds/", round_, status=201)
    walk.post(floor, f"/api/rounds/{logged['id']}/void/", {"reason": "An extra Qh in the deck."}, status=201)
    misdeal = {"room": "main", "table": "T2", "kind": "misdeal", "cause": "wrong_starting_position", "description": "x"}
    reported = walk.post(dealer, "/api/irregularities/", misdeal, status=201)
    walk.post(floor, f"/api/irregularities/{reported['id']}/rule/", {"ruling": "Redealt."}, status=201)
    assert len(walk.get(Role.COMPLIANCE, "/api/irregularities/", {"room": "main"})["results"]) == 2
    _walked(checked, "irregularities")


def test_the_equipment_and_deck_logs_answer_as_the_schema_says(walk, checked) -> None:
    dealer, floor = Role.DEALER, Role.FLOORPERSON
    jam = {"room": "main", "table": "T11", "device": "shuffler", "step": "failed", "failure": "jammed"}
    walk.post(dealer, "/api/equipment/", {**jam, "description": "Jammed; reshuffled."}, status=201)
    out = {"room": "main", "table": "T11", "device": "shuffler", "step": "out_of_order", "marking": "covered"}
    walk.post(floor, "/api/equipment/", {**out, "description": "Covered."}, status=201)
    back = {"room": "main", "table": "T11", "device": "shuffler", "step": "returned", "description": "Repaired."}
    walk.post(floor, "/api/equipment/", back, status=201)
    deck = walk.post(dealer, "/api/decks/", {"room": "main", "table": "T11", "dealt_from": "shoe"}, status=201)
    walk.post(floor, f"/api/decks/{deck['id']}/verify/", {}, status=201)
    assert len(walk.get(Role.COMPLIANCE, "/api/equipment/", {"room": "main", "table": "T11"})["results"]) == 3
    assert walk.get(Role.SURVEILLANCE, "/api/decks/", {"room": "main"})["results"][0]["verification"] is not None
    _walked(checked, "equipment")


def test_the_bad_beat_answers_as_the_schema_says(walk, checked) -> None:
    floor, supervisor, finance = Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.FINANCE
    # The demo's denied claim blocks nothing: the same hand, with six players dealt in, qualifies.
    claim = {
        "jackpot": "bb",
        "table": "T2",
        "room": "main",
        "pot": "65.00",
        "players_dealt_in": 6,
        "board": "Ah Ad Kd 7c 7s",
        "losing": {"seat": 3, "name": "Ann Rivera", "hole": "Ac Kh"},
        "winning": {"seat": 7, "name": "Walt Chen", "hole": "7d 7h"},
        "others": [{"seat": seat, "name": f"Player {seat}"} for seat in (1, 2, 5, 9)],
        "surveillance_reference": "CAM-9",
    }
    claimed = walk.post(floor, "/api/bad-beat/claims/", claim, status=201)
    walk.post(supervisor, f"/api/bad-beat/claims/{claimed['id']}/verify/", {}, key=False)
    other = {**claim, "board": "Qs Qd 3c 8h 8c", "losing": {**claim["losing"], "hole": "Qh 3d"}}
    other["winning"] = {**claim["winning"], "hole": "8s 8d"}
    denied = walk.post(floor, "/api/bad-beat/claims/", other, status=201)
    walk.post(supervisor, f"/api/bad-beat/claims/{denied['id']}/deny/", {"reason": "Not a Bad Beat."}, key=False)
    adjustment = walk.post(finance, "/api/display-adjustments/", {"jackpot": "bb", "room": "main"}, status=201)
    walk.post(floor, f"/api/display-adjustments/{adjustment['id']}/witness/", {}, key=False)
    distribution = walk.post(finance, f"/api/bad-beat/claims/{claimed['id']}/distribution/", {}, status=201)
    share = distribution["shares"][0]["id"]
    pay = {"id_type": "Driver's license", "id_number": "PA-1"}
    walk.post(Role.SECURITY, f"/api/bad-beat/shares/{share}/pay/", pay)
    _walked(checked, "bad_beat")


def test_the_high_hand_answers_as_the_schema_says(walk, checked) -> None:
    entry = {
        "jackpot": "hh",
        "table": "T2",
        "room": "main",
        "seat": 5,
        "player_name": "Ada Moss",
        "player_phone": "215-555-0100",
        "id_type": "Driver's license",
        "id_number": "PA-2",
        "dealer": walk.people[Role.DEALER].username,
        "players_dealt_in": 7,
        "pot": "90.00",
        "cards": "As Ad Ah Kc Kd",
        "made_at": now(),
    }
    recorded = walk.post(Role.FLOORPERSON, "/api/high-hand/entries/", entry, status=201)
    walk.post(
        Role.SHIFT_SUPERVISOR, f"/api/high-hand/entries/{recorded['id']}/void/", {"reason": "Misread."}, key=False
    )
    _walked(checked, "high_hand")


def test_the_progressives_answer_as_the_schema_says(walk, checked) -> None:
    dealer, floor, supervisor = Role.DEALER, Role.FLOORPERSON, Role.SHIFT_SUPERVISOR
    wagers = [{"seat": 1, "amount": "5.00"}, {"seat": 3, "amount": "5.00"}]
    played = {"table": "T12", "room": "main", "ended_at": now(1), "wagers": wagers, "chips_collected": 2}
    round_ = walk.post(dealer, "/api/progressive/rounds/", played, status=201)
    hand = {"round": round_["id"], "seat": 3, "cards": "As Ah Ad Ac 7d", "light_confirmed": True}
    recorded = walk.post(dealer, "/api/progressive/hands/", hand, status=201)
    walk.post(floor, f"/api/progressive/hands/{recorded['id']}/validate/", {}, key=False)
    payee = {"patron_name": "Ace Winner", "id_type": "Driver's license", "id_number": "PA-3"}
    walk.post(Role.CAGE_CASHIER, f"/api/progressive/hands/{recorded['id']}/pay/", payee)
    meter = next(m for m in walk.get(floor, "/api/progressive/meters/") if m["code"] == "c4p")
    walk.post(supervisor, f"/api/progressive/meters/{meter['id']}/reset/", {}, key=False)
    mismatch = walk.post(
        dealer, "/api/progressive/rounds/", {**played, "ended_at": now(), "chips_collected": 3}, status=201
    )
    explain = {"explanation": "A chip was returned."}
    walk.post(supervisor, f"/api/progressive/exceptions/{mismatch['exception']}/explain/", explain, key=False)
    voided = {"reason": "Two cards found face up in the deck."}
    walk.post(floor, f"/api/progressive/rounds/{mismatch['id']}/void/", voided, status=201)
    assert walk.get(floor, f"/api/progressive/rounds/{mismatch['id']}/")["voided"] is True
    _walked(checked, "progressive")


def test_the_counts_and_the_cage_answer_as_the_schema_says(walk, checked) -> None:
    dealer, floor, supervisor, security = Role.DEALER, Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.SECURITY
    walk.close_table("T3")
    notice = walk.post(
        floor, "/api/compliance-notices/", {"room": "main", "notified": "J. Smith", "method": "phone"}, status=201
    )
    witnessed = []
    for box in walk.get(floor, "/api/boxes/", {"room": "main", "table": "T3"})["results"]:
        expected = Decimal(box["expected"] or "0")
        typed = expected + (1 if box["kind"] == "rake" else 0)  # the drop box mistyped, then recounted
        body = {"box": box["code"], "room": "main", "counted": f"{typed:.2f}", "notice": notice["id"]}
        count = walk.post(dealer, "/api/counts/", body, status=201)
        if box["kind"] == "rake":
            recount = {"counted": f"{expected:.2f}", "reason": "Counted again."}
            count = walk.post(supervisor, f"/api/counts/{count['id']}/recount/", recount, status=201)
        witness = {"surveillance_reference": "CAM-3"}
        witnessed.append(walk.post(floor, f"/api/counts/{count['id']}/witness/", witness, key=False))
    transport = walk.post(
        security, "/api/transports/", {"seal": "S-3", "counts": [c["id"] for c in witnessed]}, status=201
    )
    counted = sum(Decimal(c["counted"]) for c in witnessed) + 100
    verify = {"transport": transport["id"], "counted": f"{counted:.2f}", "confirm_variance": True}
    verification = walk.post(Role.CAGE_CASHIER, "/api/cage-verifications/", verify, status=201)
    explain = {"reason": "A chip fell."}
    manager = Role.FINANCE  # not the supervisor who recounted
    walk.post(manager, f"/api/cage-verifications/{verification['id']}/explain/", explain, key=False)
    variances = walk.get(Role.FINANCE, "/api/variances/", {"room": "main", "unresolved": "true"})["results"]
    walk.post(manager, f"/api/variances/{variances[0]['id']}/explain/", explain, key=False)

    walk.close_table("T2")
    carried = walk.post(security, "/api/transports/", {"seal": "B-2", "boxes": ["T2-drop", "T2-hh"]}, status=201)
    missing = {"box": "T2-hh", "reason": "Not in the cart."}
    walk.post(supervisor, f"/api/transports/{carried['id']}/missing-boxes/", missing, status=201)
    walk.post(floor, f"/api/transports/{carried['id']}/account/", {"boxes": ["T2-drop"]}, key=False)
    _walked(checked, "cage")
