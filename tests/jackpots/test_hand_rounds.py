"""A jackpot hand belongs to its round (§637a.15(c), §637a.16(c): the round's rake and contributions
and the hand paid from them are one story): a Bad Beat claim or a Tracking Slip entry names its round,
a round that does not agree with the hand is refused naming what differs, a hand recorded before its
round is linked when the round arrives, and compliance lists the hands still without one."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from casino_backoffice.staff.signing import content_hash
from jackpots.bad_beat.exceptions import ClaimInvalid
from jackpots.bad_beat.hand_rounds import hand_round_of_claim
from jackpots.bad_beat.models import BadBeatClaim, BadBeatClaimRound
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.board.hand_rounds import hands_without_round
from jackpots.high_hand.exceptions import HighHandRefused
from jackpots.high_hand.hand_rounds import hand_round_of_entry
from jackpots.high_hand.models import HighHandEntry, HighHandEntryRound, HighHandPeriod, PeriodStatus
from jackpots.high_hand.services.periods import periods_run
from jackpots.high_hand.services.slip import entry_record
from rake.services import round_record
from rake.services.rounds import RoundRequest, rounds_record_batch
from tables.games import Game
from tables.models import Round, Table
from tables.services import table_set_open, table_upsert
from tests.conftest import PIN
from tests.jackpots.back_office import browser
from tests.jackpots.bad_beat import another_hand
from tests.jackpots.helpers import snapshot as bad_beat_snapshot
from tests.jackpots.high_hand_helpers import snapshot as high_hand_snapshot

_keys = itertools.count(1)


@pytest.fixture(autouse=True, params=["one_statement", "orm"])
def write_path(request, monkeypatch) -> str:
    """Every test runs on both of the round's write paths (rake.services.rounds.ONE_STATEMENT_WRITES)."""
    monkeypatch.setattr("rake.services.rounds.ONE_STATEMENT_WRITES", request.param == "one_statement")
    monkeypatch.setattr("casino_backoffice.ledger.services.UNNEST_INSERTS", request.param == "one_statement")
    return request.param


@pytest.fixture
def log(rated_table, dealer):
    """``log(ended_at, players=7, pot_cents=8_000, table=T1)``: a round as the table system sends it."""

    def play(ended_at: datetime, *, players: int = 7, pot_cents: int = 8_000, table: Table | None = None) -> Round:
        return round_record(
            table=table or rated_table,
            ended_at=ended_at,
            players_dealt_in=players,
            pot_cents=pot_cents,
            uncalled_bet_cents=0,
            flop_dealt=True,
            voided=False,
            actor=dealer,
            idempotency_key=f"hand-round-{next(_keys)}",
        ).round

    return play


@pytest.fixture
def open_period(rated_table) -> HighHandPeriod:
    periods_run(room=rated_table.room, at=timezone.now())
    return HighHandPeriod.objects.get(status=PeriodStatus.OPEN)


@pytest.fixture
def made_at(open_period) -> datetime:
    """A moment of the open period a little before now: its round may end between it and now."""
    return max(open_period.starts_at, timezone.now() - timedelta(minutes=2))


@pytest.fixture
def record(open_period, rated_table, dealer, floorperson, made_at):
    """``record(**changes)``: aces full of kings at T1, seven players dealt in, an $80.00 pot."""

    def entry(**changes) -> HighHandEntry:
        values = {
            "jackpot": open_period.jackpot,
            "table": rated_table,
            "seat": 4,
            "player_name": "Hal Hand",
            "player_phone": "215-555-0100",
            "id_type": "Driver's license",
            "id_number": "PA-99887766",
            "dealer": dealer,
            "players_dealt_in": 7,
            "pot_cents": 8_000,
            "cards": "Ah Ad Ac Kh Ks",
            "made_at": made_at,
            "actor": floorperson,
            "pin": PIN,
            "idempotency_key": f"hh-round-{next(_keys)}",
            **changes,
        }
        return entry_record(**values)

    return entry


@pytest.fixture
def other_table(rated_table, manager, floorperson) -> Table:
    table = table_upsert(room=rated_table.room, number="T2", game=Game.HOLDEM, seats=9, actor=manager)
    return table_set_open(table=table, is_open=True, actor=floorperson)


def _signed_as_it_is(document) -> bool:
    signature = document.signatures().get()
    return content_hash(type(document).objects.get(pk=document.pk).signing_content()) == signature.content_hash


# --- The Tracking Slip -----------------------------------------------------------------------------


def test_an_entry_naming_its_round_is_recorded_in_it_and_signed_with_it(record, log, made_at) -> None:
    round_ = log(timezone.now())

    entry = record(round=round_)

    assert (entry.round_id, hand_round_of_entry(entry)) == (round_.pk, round_.pk)
    assert entry.signing_content()["round"] == round_.pk and _signed_as_it_is(entry)


def test_an_entry_without_a_round_takes_the_one_round_that_agrees(record, log, made_at) -> None:
    log(made_at - timedelta(minutes=5))  # ended before the hand: another round
    log(timezone.now(), pot_cents=9_000)  # another pot
    round_ = log(timezone.now())

    assert record().round_id == round_.pk


def test_an_entry_two_rounds_agree_with_is_left_without_one(record, log) -> None:
    log(timezone.now())
    log(timezone.now())

    entry = record()

    assert entry.round_id is None and not HighHandEntryRound.objects.exists()


@pytest.mark.parametrize(
    ("round_changes", "differs"),
    [
        ({"players": 8}, "was logged with 8 players dealt in, not 7: the players dealt in differ."),
        ({"pot_cents": 9_000}, "was logged with a pot of $90.00, not $80.00: the pot differs."),
        ({"ended_before_the_hand": True}, ": the time differs."),
        ({"table": "T2"}, "was played at T2, not T1: the table differs."),
    ],
    ids=["players", "pot", "time", "table"],
)
def test_an_entry_naming_a_round_that_does_not_agree_is_refused_naming_what_differs(
    record, log, other_table, made_at, round_changes, differs
) -> None:
    round_changes = dict(round_changes)  # the parameters are shared by both write paths
    # A round that ended five minutes before the hand was made is another round.
    ended_at = made_at - timedelta(minutes=5) if round_changes.pop("ended_before_the_hand", False) else timezone.now()
    table = other_table if round_changes.pop("table", None) else None
    round_ = log(ended_at, table=table, **round_changes)
    before = high_hand_snapshot()

    with pytest.raises(HighHandRefused) as refused:
        record(round=round_)

    assert refused.value.code == "round_mismatch" and refused.value.status == 400
    assert refused.value.message.startswith(f"Round {round_.pk} ")
    assert refused.value.message.endswith(f"{differs} Nothing was recorded.")
    assert high_hand_snapshot() == before and not HighHandEntryRound.objects.exists()


def test_an_entry_recorded_before_its_round_is_linked_when_the_round_arrives(record, log, made_at) -> None:
    entry = record()
    assert entry.round_id is None and [hand.pk for hand in hands_without_round()] == []  # T1 logs no rounds yet

    log(timezone.now(), players=8)  # not its round
    assert [(hand.kind, hand.pk) for hand in hands_without_round()] == [("High Hand entry", entry.pk)]
    round_ = log(timezone.now())

    link = HighHandEntryRound.objects.get()
    assert (link.entry_id, link.round_id) == (entry.pk, round_.pk)
    assert hand_round_of_entry(HighHandEntry.objects.get(pk=entry.pk)) == round_.pk
    assert _signed_as_it_is(entry)  # the signed entry did not change
    assert hands_without_round() == []


def test_a_batch_of_rounds_links_the_entry_to_its_round(record, rated_table, dealer, made_at) -> None:
    entry = record()
    now = timezone.now()

    results = rounds_record_batch(
        rounds=[
            RoundRequest(
                table=rated_table,
                ended_at=now,
                players_dealt_in=players,
                pot_cents=8_000,
                uncalled_bet_cents=0,
                flop_dealt=True,
                voided=False,
                idempotency_key=f"batch-{players}",
            )
            for players in (6, 7)
        ],
        actor=dealer,
    )

    rounds = [result.round for result in results]  # type: ignore[union-attr]
    assert list(HighHandEntryRound.objects.values_list("entry_id", "round_id")) == [(entry.pk, rounds[1].pk)]


def test_a_round_posted_again_links_nothing_again(record, rated_table, dealer, made_at) -> None:
    entry = record()
    ended_at = timezone.now()
    for _ in range(2):
        round_record(
            table=rated_table,
            ended_at=ended_at,
            players_dealt_in=7,
            pot_cents=8_000,
            uncalled_bet_cents=0,
            flop_dealt=True,
            voided=False,
            actor=dealer,
            idempotency_key="the-same-round",
        )

    assert list(HighHandEntryRound.objects.values_list("entry_id", flat=True)) == [entry.pk]


# --- The Bad Beat claim ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_changes", "claim_changes", "differs"),
    [
        ({"players": 7}, {}, "was logged with 7 players dealt in, not 6: the players dealt in differ."),
        ({}, {"pot_cents": 12_500}, "was logged with a pot of $120.00, not $125.00: the pot differs."),
        ({"ended_minutes_ago": 31}, {}, ": the time differs."),
        ({"table": "T2"}, {}, "was played at T2, not T1: the table differs."),
    ],
    ids=["players", "pot", "time", "table"],
)
def test_a_claim_naming_a_round_that_does_not_agree_is_refused_naming_what_differs(
    make_claim, log, other_table, round_changes, claim_changes, differs
) -> None:
    round_changes = dict(round_changes)  # the parameters are shared by both write paths
    minutes = round_changes.pop("ended_minutes_ago", 3)
    table = other_table if round_changes.pop("table", None) else None
    round_ = log(
        timezone.now() - timedelta(minutes=minutes), table=table, **{"players": 6, "pot_cents": 12_000, **round_changes}
    )
    before = bad_beat_snapshot()

    with pytest.raises(ClaimInvalid) as refused:
        make_claim(round=round_, **claim_changes)

    assert refused.value.code == "round_mismatch" and refused.value.status == 400
    assert refused.value.message.startswith(f"Round {round_.pk} ")
    assert refused.value.message.endswith(f"{differs} Nothing was recorded.")
    assert bad_beat_snapshot() == before and not BadBeatClaimRound.objects.exists()


def test_a_claim_giving_its_pot_takes_the_one_round_not_claimed_that_agrees(make_claim, log) -> None:
    round_ = log(timezone.now() - timedelta(minutes=3), players=6, pot_cents=12_000)

    claim = make_claim(pot_cents=12_000)
    # Another hand of the same table, players and pot: its round is claimed already, so it takes none.
    other = make_claim(pot_cents=12_000, **another_hand(1))

    assert (claim.round_id, claim.happened_at, claim.signing_content()["pot_cents"]) == (
        round_.pk,
        round_.ended_at,
        12_000,
    )
    assert other.round_id is None and hand_round_of_claim(other) is None


def test_a_claim_opened_before_its_round_is_linked_when_the_round_arrives_and_stays_as_signed(
    make_claim, log, bad_beat, supervisor
) -> None:
    claim = make_claim(pot_cents=12_000)
    assert claim.round_id is None

    round_ = log(timezone.now(), players=6, pot_cents=12_000)

    assert list(BadBeatClaimRound.objects.values_list("claim_id", "round_id")) == [(claim.pk, round_.pk)]
    claim = BadBeatClaim.objects.get(pk=claim.pk)
    assert (claim.round_id, hand_round_of_claim(claim)) == (None, round_.pk)
    assert _signed_as_it_is(claim)
    claim_verify(claim=claim, actor=supervisor, pin=PIN)  # its status moves on: the signed content did not


def test_a_claim_without_its_pot_is_not_matched_and_stays_on_the_list(make_claim, log) -> None:
    claim = make_claim()
    log(timezone.now(), players=6, pot_cents=12_000)

    assert claim.round_id is None and not BadBeatClaimRound.objects.exists()
    assert [(hand.kind, hand.pk, hand.pot_cents) for hand in hands_without_round()] == [
        ("Bad Beat claim", claim.pk, None)
    ]


# --- Compliance's list -----------------------------------------------------------------------------


def test_the_list_shows_the_hands_without_a_round_only_in_two_queries(
    make_claim, record, log, made_at, django_assert_max_num_queries
) -> None:
    log(made_at - timedelta(minutes=30), players=2, pot_cents=100)  # T1 logs rounds
    linked_entry = record(round=log(timezone.now()))
    waiting_entry = record(players_dealt_in=9, seat=5, cards="Ah Ad Ac As Kh")
    found_claim = make_claim(
        pot_cents=12_000, round=log(timezone.now() - timedelta(minutes=1), players=6, pot_cents=12_000)
    )
    waiting_claims = [make_claim(**another_hand(n)) for n in (1, 2, 3)]

    with django_assert_max_num_queries(2):
        listed = hands_without_round()

    assert {(hand.kind, hand.pk) for hand in listed} == {
        ("High Hand entry", waiting_entry.pk),
        *(("Bad Beat claim", claim.pk) for claim in waiting_claims),
    }
    assert linked_entry.pk not in [hand.pk for hand in listed if hand.kind == "High Hand entry"]
    assert found_claim.pk not in [hand.pk for hand in listed if hand.kind == "Bad Beat claim"]


def test_compliance_reads_the_hands_without_a_round_in_the_admin(
    make_claim, record, log, made_at, compliance, django_assert_max_num_queries
) -> None:
    log(made_at - timedelta(minutes=30), players=2, pot_cents=100)  # T1 logs rounds
    waiting_entry = record(players_dealt_in=9, seat=5, cards="Ah Ad Ac As Kh")
    waiting_claim = make_claim(**another_hand(1))
    person = browser(compliance)
    url = reverse("admin:jackpots_badbeatreport_hands_without_round")
    person.get(url)  # the session warmed

    with django_assert_max_num_queries(12):
        page = person.get(url, {"room": "main"}).content.decode()

    assert page.count('class="hand-row"') == 2
    assert f"High Hand entry {waiting_entry.pk}" in page and f"Bad Beat claim {waiting_claim.pk}" in page
    assert url in person.get(reverse("admin:jackpots_badbeatreport_changelist")).content.decode()
