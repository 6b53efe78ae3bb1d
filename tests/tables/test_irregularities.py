"""Irregularities on the record (§637a.18, §655a.5(b), §655a.13, §657a.13): a signed, insert-only report
and its signed ruling."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import RefusedAction, Signature
from casino_backoffice.staff.roles import Role
from tables.games import Game
from tables.irregularities.exceptions import AlreadyRuled, IrregularityError, RoundRequired, RuledByReporter
from tables.irregularities.kinds import IrregularityKind, MisdealCause
from tables.irregularities.models import Irregularity, IrregularityRuling, IrregularityStatus
from tables.irregularities.services import irregularity_report, irregularity_rule
from tables.services import room_upsert, table_set_open, table_upsert
from tests.conftest import PIN
from tests.rake.factories import round_logged


def key() -> str:
    return str(uuid.uuid4())


def records() -> tuple[int, int, int]:
    return Irregularity.objects.count(), IrregularityRuling.objects.count(), Signature.objects.count()


logged_round = round_logged


def test_a_day_with_a_misdeal_reported_by_the_dealer_and_ruled_by_the_floorperson(open_table, dealer, floorperson):
    # Given a misdeal at T1: the dealer dealt to the wrong starting position (§637a.18(g)(2))
    reported = irregularity_report(
        table=open_table,
        kind="misdeal",
        cause="wrong_starting_position",
        description="Dealt from seat 4 instead of seat 3; cards returned for a reshuffle.",
        cards="As kd",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    # Then it is on the record, signed by the dealer, with the provision and the cause
    assert (reported.kind, reported.section, reported.cause, reported.cards) == (
        "misdeal",
        "§637a.18(g)",
        MisdealCause.WRONG_STARTING_POSITION,
        "As Kd",
    )
    assert reported.status == IrregularityStatus.REPORTED and reported.room_id == open_table.room_id
    assert [(s.purpose, s.signer_id, s.role) for s in reported.signatures()] == [("reporter", dealer.pk, "dealer")]

    # When the floorperson rules
    ruling = irregularity_rule(
        irregularity=reported,
        ruling="Misdeal declared; reshuffled and redealt.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    # Then it is ruled, signed by the floorperson
    assert Irregularity.objects.get(pk=reported.pk).status == IrregularityStatus.RULED
    assert [(s.purpose, s.signer_id) for s in ruling.signatures()] == [("ruler", floorperson.pk)]


def test_a_misdeal_without_its_cause_and_a_cause_on_another_kind_are_refused(open_table, dealer):
    before = records()
    with pytest.raises(IrregularityError, match=r"misdeal's cause \(§637a.18\(g\)\(1\)-\(4\)\)"):
        irregularity_report(
            table=open_table, kind="misdeal", description="x", actor=dealer, pin=PIN, idempotency_key=key()
        )
    with pytest.raises(IrregularityError, match="Only a misdeal has a cause"):
        irregularity_report(
            table=open_table,
            kind="fouled_hand",
            cause="wrong_starting_position",
            description="x",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    assert records() == before


@pytest.mark.parametrize("kind", ["missing_or_extra_cards", "dealer_error_refund"])
def test_a_kind_whose_money_is_a_rounds_is_refused_without_its_round(open_table, dealer, kind):
    before = records()
    with pytest.raises(RoundRequired, match="is recorded with its round of play") as refused:
        irregularity_report(
            table=open_table, kind=kind, description="Seat 2's hand.", actor=dealer, pin=PIN, idempotency_key=key()
        )
    assert refused.value.code == "irregularity_round_required"
    assert records() == before


def test_missing_cards_of_a_round_logged_void_are_recorded_with_it(rated_table, dealer):
    round_ = logged_round(rated_table, dealer, voided=True)
    reported = irregularity_report(
        table=rated_table,
        kind="missing_or_extra_cards",
        round=round_,
        description="51 cards: the round was voided and the pot returned; the deck replaced.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    assert (reported.round_id, reported.section, reported.gaming_day) == (round_.pk, "§637a.18(i)", round_.gaming_day)
    assert reported.occurred_at == round_.ended_at


def test_missing_cards_of_a_round_recorded_with_its_rake_are_voided_by_a_floorperson_not_reported(rated_table, dealer):
    round_ = logged_round(rated_table, dealer)
    before = records()
    with pytest.raises(IrregularityError, match=rf"POST /api/rounds/{round_.pk}/void/"):
        irregularity_report(
            table=rated_table,
            kind="missing_or_extra_cards",
            round=round_,
            description="51 cards.",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    assert records() == before


def test_a_banked_kind_cites_its_games_chapter_and_is_refused_at_a_poker_table(room, manager, floorperson, dealer):
    stud = table_set_open(
        table=table_upsert(room=room, number="M1", game=Game.MISSISSIPPI_STUD, seats=6, actor=manager),
        is_open=True,
        actor=floorperson,
    )
    crazy = table_upsert(room=room, number="C1", game=Game.CRAZY_4_POKER, seats=6, actor=manager)
    holdem = table_upsert(room=room, number="T1", game=Game.HOLDEM, seats=10, actor=manager)
    sections = [
        irregularity_report(
            table=table,
            kind=kind,
            description="The shuffler showed 51 cards; the deck was removed.",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        ).section
        for table, kind in ((stud, "shuffler_miscount"), (crazy, "shuffler_miscount"), (crazy, "banked_card_error"))
    ]
    assert sections == ["§655a.5(b)", "§657a.5(b)", "§657a.13(a)-(d)"]
    before = records()
    with pytest.raises(IrregularityError, match="is recorded at a Mississippi Stud or Crazy 4 Poker table"):
        irregularity_report(
            table=holdem, kind="shuffler_miscount", description="x", actor=dealer, pin=PIN, idempotency_key=key()
        )
    with pytest.raises(IrregularityError, match="is a poker irregularity"):
        irregularity_report(
            table=stud, kind="fouled_hand", description="x", actor=dealer, pin=PIN, idempotency_key=key()
        )
    assert records() == before


def test_an_exposed_hole_card_cites_the_provision_of_its_game(room, manager, dealer):
    sections = {}
    for number, game in (
        ("T1", Game.HOLDEM),
        ("T7", Game.SEVEN_CARD_STUD),
        ("T5", Game.FIVE_CARD_STUD),
        ("T9", Game.DRAW_HIGH),
    ):
        table = table_upsert(room=room, number=number, game=game, seats=8, actor=manager)
        sections[game.value] = irregularity_report(
            table=table,
            kind="exposed_hole_card",
            description="Seat 5's card turned up.",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        ).section
    assert sections == {
        "holdem": "§637a.18(p)",
        "seven_card_stud": "§637a.18(m)",
        "five_card_stud": "§637a.18(n)",
        "draw_high": "§637a.18(o)",
    }


def test_a_dispute_is_ruled_by_the_shift_supervisor_not_a_floorperson(open_table, dealer, floorperson, supervisor):
    dispute = irregularity_report(
        table=open_table,
        kind="dispute",
        description="Seat 3 says seat 7 acted out of turn.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    before = records()
    other_floorperson = type(floorperson).objects.exclude(pk=floorperson.pk).filter(groups__name="floorperson").first()
    for person in (dealer, other_floorperson) if other_floorperson else (dealer,):
        with pytest.raises(
            ActionNotPermitted, match="Only a poker shift supervisor or a poker room manager may rule on a dispute"
        ):
            irregularity_rule(
                irregularity=dispute, ruling="Action stands.", actor=person, pin=PIN, idempotency_key=key()
            )
    assert records() == before
    ruled = irregularity_rule(
        irregularity=dispute, ruling="Seat 7's action stands; warned.", actor=supervisor, pin=PIN, idempotency_key=key()
    )
    assert [(s.purpose, s.role, s.rule) for s in ruled.signatures()] == [
        ("ruler", "shift_supervisor", "ruler by poker shift supervisor, poker room manager (§637a.18(a))")
    ]


def test_a_ruling_by_the_reporter_or_a_dealer_is_refused_and_counts_no_pin(open_table, dealer, floorperson):
    reported = irregularity_report(
        table=open_table,
        kind="fouled_hand",
        description="Seat 2's hand touched the muck.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    before = records()
    with pytest.raises(RuledByReporter, match=r"reported irregularity \d+ and cannot also rule on it"):
        irregularity_rule(
            irregularity=reported, ruling="Reconstructed.", actor=floorperson, pin="0000", idempotency_key=key()
        )
    with pytest.raises(ActionNotPermitted, match="Only a floorperson or above may rule on an irregularity"):
        irregularity_rule(irregularity=reported, ruling="Reconstructed.", actor=dealer, pin=PIN, idempotency_key=key())
    assert records() == before
    floorperson.refresh_from_db()
    assert floorperson.failed_pin_attempts == 0


def test_a_second_ruling_under_another_key_is_refused_and_a_retry_answers_the_first(
    open_table, dealer, floorperson, supervisor
):
    reported = irregularity_report(
        table=open_table,
        kind="card_face_up_in_deck",
        description="The 7h face up.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    first_key = key()
    first = irregularity_rule(
        irregularity=reported, ruling="Placed with the discards.", actor=floorperson, pin=PIN, idempotency_key=first_key
    )
    before = records()
    again = irregularity_rule(
        irregularity=reported, ruling="Placed with the discards.", actor=floorperson, pin=PIN, idempotency_key=first_key
    )
    assert again.pk == first.pk and records() == before
    with pytest.raises(AlreadyRuled, match="a ruling is final") as refused:
        irregularity_rule(irregularity=reported, ruling="Redeal.", actor=supervisor, pin=PIN, idempotency_key=key())
    assert refused.value.status == 409
    assert records() == before


def test_the_same_report_under_one_key_is_recorded_once(open_table, dealer):
    same = key()
    first = irregularity_report(
        table=open_table,
        kind="ineligible_player",
        description="Seat 9 was dealt in while away.",
        actor=dealer,
        pin=PIN,
        idempotency_key=same,
    )
    before = records()
    again = irregularity_report(
        table=open_table,
        kind="ineligible_player",
        description="Seat 9 was dealt in while away.",
        actor=dealer,
        pin=PIN,
        idempotency_key=same,
    )
    assert again.pk == first.pk and records() == before


def test_a_removal_for_collusion_carries_the_notice_to_compliance(open_table, floorperson):
    before = records()
    with pytest.raises(IrregularityError, match=r"who at compliance was notified .*§637a.18\(c\)"):
        irregularity_report(
            table=open_table,
            kind="collusion_removal",
            description="Seats 2 and 5 signalled.",
            actor=floorperson,
            pin=PIN,
            idempotency_key=key(),
        )
    assert records() == before
    removal = irregularity_report(
        table=open_table,
        kind="collusion_removal",
        description="Seats 2 and 5 signalled; seat 5 asked to leave.",
        compliance_notified="J. Rivera, by phone",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )
    assert (removal.section, removal.compliance_notified) == ("§637a.18(b)-(c)", "J. Rivera, by phone")


def test_a_person_of_another_room_reports_nothing_there(open_table, make_staff, manager):
    elsewhere = room_upsert(
        code="east",
        name="East Room",
        timezone_name="America/New_York",
        gaming_day_starts=timezone.now().time().replace(hour=6, minute=0, second=0, microsecond=0),
        actor=manager,
    )
    dealer_east = make_staff(Role.DEALER, rooms=[elsewhere])
    before = records()
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        irregularity_report(
            table=open_table, kind="fouled_hand", description="x", actor=dealer_east, pin=PIN, idempotency_key=key()
        )
    assert records() == before and RefusedAction.objects.filter(user=dealer_east).count() == 1


def test_irregularities_and_rulings_are_never_updated_or_deleted(open_table, dealer, floorperson):
    reported = irregularity_report(
        table=open_table, kind="fouled_hand", description="Seat 2.", actor=dealer, pin=PIN, idempotency_key=key()
    )
    ruling = irregularity_rule(
        irregularity=reported, ruling="Reconstructed.", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    for table, pk in (("tables_irregularity", reported.pk), ("tables_irregularityruling", ruling.pk)):
        # The models' own table names.
        for sql in (f"UPDATE {table} SET idempotency_key = 'x' WHERE id = %s", f"DELETE FROM {table} WHERE id = %s"):  # noqa: S608
            with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, [pk])
    assert Irregularity.objects.get(pk=reported.pk).idempotency_key == reported.idempotency_key


def test_every_kind_of_the_issue_is_in_the_catalogue():
    assert set(IrregularityKind.values) == {
        "misdeal",
        "ineligible_player",
        "missing_or_extra_cards",
        "card_face_up_in_deck",
        "fouled_hand",
        "dealer_error_refund",
        "exposed_hole_card",
        "banked_card_error",
        "shuffler_miscount",
        "dispute",
        "collusion_removal",
    }
