"""The room's own kinds of irregularity from its Rules Submission (§637a.18(s): "A certificate holder may
clarify and supplement the procedures related to irregularities in this section in the certificate
holder's Rules Submission"): checked with the file, reported and ruled like the regulations' kinds, and
only in the rules version in effect when the irregularity happened."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import Signature
from rake.rules import RulesInvalid, validate_rules
from tables.irregularities.exceptions import IrregularityError, RoundRequired
from tables.irregularities.house_kinds import kinds_at
from tables.irregularities.models import Irregularity, IrregularityRuling
from tables.irregularities.services import irregularity_report, irregularity_rule
from tests.cage.helpers import client_for, post
from tests.conftest import PIN
from tests.rake.factories import RULES, load, round_logged, rules_text

BLIND = {
    "code": "blind_out_of_turn",
    "name": "A blind posted out of turn",
    "procedure": "The blind stands; the player posts again in turn at the next round.",
}
CHIP_DUMP = {
    "code": "chip_dumping",
    "name": "Chips passed between players",
    "procedure": "The shift supervisor rules whether the pot stands.",
    "round": "required",
    "ruled_by": "shift_supervisor",
}


def key() -> str:
    return str(uuid.uuid4())


def records() -> tuple[int, int, int]:
    return Irregularity.objects.count(), IrregularityRuling.objects.count(), Signature.objects.count()


@pytest.fixture
def house_rules(rated_table):
    """Version 2 of the room's rules, in effect from its loading, adds two kinds of its own."""
    return load(rules_text(irregularities=[BLIND, CHIP_DUMP]))


def test_a_rooms_own_kind_is_reported_and_ruled_like_the_regulations(house_rules, rated_table, dealer, floorperson):
    reported = irregularity_report(
        table=rated_table,
        kind="blind_out_of_turn",
        description="Seat 3 posted the big blind out of turn.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    assert (reported.kind, reported.section, reported.reported_by_id) == (
        "blind_out_of_turn",
        "§637a.18(s)",
        dealer.pk,
    )
    ruled = irregularity_rule(
        irregularity=reported, ruling="The blind stands.", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    assert (ruled.ruled_by_id, ruled.ruling) == (floorperson.pk, "The blind stands.")


def test_a_kind_the_file_has_a_shift_supervisor_rule_on_is_not_ruled_by_a_floorperson(
    house_rules, rated_table, dealer, floorperson, supervisor
):
    round_ = round_logged(rated_table, dealer, pot_cents=4000, uncalled_cents=0, ended_at=timezone.now())
    # Its round is required, as the file says
    with pytest.raises(RoundRequired):
        irregularity_report(
            table=rated_table, kind="chip_dumping", description="x", actor=dealer, pin=PIN, idempotency_key=key()
        )
    reported = irregularity_report(
        table=rated_table,
        kind="chip_dumping",
        round=round_,
        description="Seat 2 folded a full house to seat 5.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    before = records()
    with pytest.raises(ActionNotPermitted):
        irregularity_rule(irregularity=reported, ruling="Stands.", actor=floorperson, pin=PIN, idempotency_key=key())
    assert records() == before
    ruled = irregularity_rule(
        irregularity=reported, ruling="The pot stands.", actor=supervisor, pin=PIN, idempotency_key=key()
    )
    assert ruled.ruled_by_id == supervisor.pk


def test_a_kind_is_only_in_the_rules_in_effect_when_it_happened(house_rules, rated_table, dealer):
    # Before version 2 took effect, the room had no kind of its own: refused, the kinds listed
    before = records()
    with pytest.raises(IrregularityError) as refused:
        irregularity_report(
            table=rated_table,
            kind="blind_out_of_turn",
            description="Seat 3 posted out of turn.",
            occurred_at=house_rules.effective_from - timedelta(minutes=1),
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    assert refused.value.message.startswith("'blind_out_of_turn' is not a kind of irregularity; the kinds are misdeal,")
    assert refused.value.message.endswith("collusion_removal.")
    # A kind no version names is refused naming the room's own
    with pytest.raises(IrregularityError, match=r"and room main's own: blind_out_of_turn, chip_dumping\.$"):
        irregularity_report(
            table=rated_table, kind="angle_shot", description="x", actor=dealer, pin=PIN, idempotency_key=key()
        )
    assert records() == before


def test_the_forms_offer_the_kinds_of_the_table_then_the_rooms_own(house_rules, rated_table):
    codes = [kind.code for kind in kinds_at(table=rated_table, at=timezone.now())]
    # At a Hold'em table: the regulations' poker kinds and disputes, then the room's two
    assert codes == [
        "misdeal",
        "ineligible_player",
        "missing_or_extra_cards",
        "card_face_up_in_deck",
        "fouled_hand",
        "dealer_error_refund",
        "exposed_hole_card",
        "dispute",
        "collusion_removal",
        "blind_out_of_turn",
        "chip_dumping",
    ]
    before = [kind.code for kind in kinds_at(table=rated_table, at=house_rules.effective_from - timedelta(seconds=1))]
    assert before == codes[:-2]


def test_the_api_takes_a_rooms_own_kind(house_rules, rated_table, dealer):
    answered = post(
        client_for(dealer),
        "/api/irregularities/",
        {"table": "T1", "kind": "blind_out_of_turn", "description": "Seat 3 posted out of turn."},
    )
    assert answered.status_code == 201, answered.json()
    assert (answered.json()["kind"], answered.json()["section"]) == ("blind_out_of_turn", "§637a.18(s)")


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        (
            {**BLIND, "code": "misdeal"},
            "irregularities[0] (misdeal): code misdeal is a kind of the regulations (§637a.18); "
            "a room's own kind has a code of its own",
        ),
        (
            {**BLIND, "ruled_by": "dealer"},
            "irregularities[0] (blind_out_of_turn): ruled_by 'dealer' must be one of floorperson, shift_supervisor",
        ),
        (
            {**BLIND, "procedure": " "},
            "irregularities[0] (blind_out_of_turn): procedure must be the procedure in the Rules Submission's words",
        ),
        (
            {**BLIND, "tables": "craps"},
            "irregularities[0] (blind_out_of_turn): tables 'craps' must be one of poker, banked, any",
        ),
        (
            {**BLIND, "payout": "5.00"},
            "irregularities[0] (blind_out_of_turn): unknown key 'payout' (known: code, "
            "name, procedure, round, ruled_by, tables)",
        ),
    ],
)
def test_a_bad_kind_in_the_file_is_reported_with_the_files_errors(kind, error):
    with pytest.raises(RulesInvalid) as refused:
        validate_rules({**RULES, "irregularities": [kind]})
    assert refused.value.errors == [error]


def test_the_rules_version_page_posts_the_rooms_own_kinds(house_rules, rules, client, finance):
    client.force_login(finance)
    page = client.get(f"/admin/tables/rulesversion/{house_rules.pk}/change/").content.decode()
    assert (
        "<p><strong>Chips passed between players</strong> (chip_dumping): The shift supervisor rules whether the pot "
        "stands. <em>At poker tables, with its round; ruled by a shift supervisor.</em></p>"
    ) in page
    first = client.get(f"/admin/tables/rulesversion/{rules.pk}/change/").content.decode()
    assert "None: the regulations&#x27; kinds only." in first


def test_the_log_and_the_admin_name_a_rooms_own_kind_as_the_rules_do(house_rules, rated_table, dealer, client, finance):
    reported = irregularity_report(
        table=rated_table,
        kind="blind_out_of_turn",
        description="Seat 3 posted the big blind out of turn.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    assert reported.get_kind_display() == "A blind posted out of turn"
    # The tablet's log of the day, read by the floor
    client.force_login(dealer)
    page = client.get("/floor/irregularities/").content.decode()
    assert "A blind posted out of turn" in page and ">blind_out_of_turn<" not in page
    # The back office's log in the admin
    client.force_login(finance)
    listed = client.get("/admin/tables/irregularity/").content.decode()
    assert "A blind posted out of turn" in listed


def test_the_admins_kind_filter_offers_a_rooms_own_kind_and_finds_its_rows(
    house_rules, rated_table, dealer, client, finance
):
    own = irregularity_report(
        table=rated_table,
        kind="blind_out_of_turn",
        description="Seat 3 posted the big blind out of turn.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    dispute = irregularity_report(
        table=rated_table,
        kind="dispute",
        description="Seat 5 disputes the side pot.",
        actor=dealer,
        pin=PIN,
        idempotency_key=key(),
    )
    client.force_login(finance)

    listed = client.get("/admin/tables/irregularity/").content.decode()
    filtered = client.get("/admin/tables/irregularity/?kind=blind_out_of_turn")

    # The filter names the room's own kind as its rules do, after the regulations' kinds
    assert "A blind posted out of turn (the room&#x27;s own)" in listed
    assert 0 < listed.index("?kind=dispute") < listed.index("?kind=blind_out_of_turn")
    # Chosen, it lists that kind's rows and no other
    assert [row.pk for row in filtered.context["cl"].result_list] == [own.pk]
    assert dispute.pk in [
        row.pk for row in client.get("/admin/tables/irregularity/?kind=dispute").context["cl"].result_list
    ]
