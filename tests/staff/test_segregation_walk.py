"""Segregation of duties is between people, not roles: a walk over every pair of steps of every chain.

Each chain is the steps of one sum of money, each taken by its own person; the walk gives one person
the roles of two steps of the same chain, lets them take the earlier step, and asks the later one
of them: refused, naming the step they took, with nothing changed. Beside it, the three cases the
issue found (a floorperson-cashier who validated and paid a $5,001.60 progressive payout, a
security officer-cashier who carried a container and verified it at the cage, finance-cashier who
prepared a Bad Beat distribution and paid a share of it)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from cage.models import Box, Variance, VarianceKind
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_recount,
    count_witness,
    missing_box_record,
    transport_account,
    transport_create,
    variance_explain,
)
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.ledger.services import correction_approve, correction_prepare
from casino_backoffice.staff.exceptions import SignerNotIndependent
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.display import (
    display_adjust,
    display_witness,
    fund_transfer_approve,
    fund_transfer_prepare,
)
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.funds.models import Jackpot
from jackpots.high_hand.models import HighHandAward, HighHandPeriod, PeriodStatus
from jackpots.high_hand.services.awards import award_pay
from jackpots.high_hand.services.periods import period_announce, periods_run
from jackpots.high_hand.services.slip import entry_record
from jackpots.progressive.models import ProgressivePayment
from jackpots.progressive.services.hands import progressive_pay, progressive_validate
from tests.cage.helpers import client_for, post, refused
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official
from tests.jackpots.progressive_helpers import hand, play
from tests.rake import factories

pytestmark = pytest.mark.django_db

_keys = itertools.count(1)

# The refusal's code: segregation of duties; the validation of a progressive payout by the person
# who recorded the hand kept the code it was published with.
REFUSAL_CODES = {"segregation_of_duties", "same_person"}


def _key() -> str:
    return f"walk-{next(_keys)}"


@dataclass(frozen=True)
class Step:
    """One signed step of a chain: its name in the refusal, the role that takes it, and how."""

    name: str
    role: Role
    take: Callable[[SimpleNamespace, User], Any]


@dataclass(frozen=True)
class Chain:
    """The steps of one sum of money; ``allowed``: pairs of steps one person may take (and why)."""

    name: str
    setup: Callable[[pytest.FixtureRequest], SimpleNamespace]
    steps: tuple[Step, ...]
    allowed: frozenset[tuple[str, str]] = frozenset()
    marks: tuple[pytest.MarkDecorator, ...] = ()


# --- The cage: count, witness, custody, accounting, verification, explanation, correction ---------


def _drop_box(request: pytest.FixtureRequest) -> SimpleNamespace:
    """T1 closed after three rounds: its drop box holds $15.00 by the ledger."""
    table = request.getfixturevalue("closed_table")
    boxes_sync(room=table.room)
    return SimpleNamespace(room=table.room, drop=Box.objects.get(room=table.room, code="T1-drop"))


def _boxes(request: pytest.FixtureRequest) -> SimpleNamespace:
    ctx = _drop_box(request)
    ctx.hh = Box.objects.get(room=ctx.room, code="T1-hh")
    return ctx


def _count(ctx: SimpleNamespace, actor: User) -> None:
    # The dealer typed $150.00 for the $15.00 in the box: the cage counts $15.00, a variance to explain.
    ctx.count = count_record(box=ctx.drop, counted_cents=15_000, actor=actor, pin=PIN, idempotency_key=_key())


def _witness(ctx: SimpleNamespace, actor: User) -> None:
    count_witness(count=ctx.count, actor=actor, pin=PIN, surveillance_reference="CAM-7")


def _recount(ctx: SimpleNamespace, actor: User) -> None:
    ctx.first_count = ctx.count
    ctx.count = count_recount(
        count=ctx.count,
        counted_cents=14_000,
        reason="Typed $150.00; recounted, still wrong",
        actor=actor,
        pin=PIN,
        idempotency_key=_key(),
    )


def _carry_counts(ctx: SimpleNamespace, actor: User) -> None:
    ctx.transport = transport_create(
        room=ctx.room, seal=f"S-{next(_keys)}", counts=[ctx.count], actor=actor, pin=PIN, idempotency_key=_key()
    )


def _verify_container(ctx: SimpleNamespace, actor: User) -> None:
    ctx.verification = cage_verify(
        transport=ctx.transport, counted=1_500, confirm_variance=True, actor=actor, pin=PIN, idempotency_key=_key()
    )


def _cage_variance(ctx: SimpleNamespace) -> Variance:
    return Variance.objects.get(
        verification=ctx.verification, kind__in=[VarianceKind.CAGE_VS_TABLE, VarianceKind.CAGE_COUNT]
    )


def _explain(ctx: SimpleNamespace, actor: User) -> None:
    variance_explain(variance=_cage_variance(ctx), reason="The dealer typed a zero too many.", actor=actor, pin=PIN)


def _correct(ctx: SimpleNamespace, actor: User) -> None:
    variance = _cage_variance(ctx)
    variance_explain(
        variance=variance,
        reason="The dealer typed a zero too many.",
        correction_cents=abs(variance.amount_cents),
        box=ctx.drop,
        actor=actor,
        pin=PIN,
    )


def _carry_boxes(ctx: SimpleNamespace, actor: User) -> None:
    ctx.transport = transport_create(
        room=ctx.room, seal=f"B-{next(_keys)}", boxes=[ctx.drop, ctx.hh], actor=actor, pin=PIN, idempotency_key=_key()
    )


def _missing_box(ctx: SimpleNamespace, actor: User) -> None:
    missing_box_record(
        transport=ctx.transport, box=ctx.hh, reason="Not in the cart at the cage door", actor=actor, pin=PIN
    )


def _account(ctx: SimpleNamespace, actor: User) -> None:
    transport_account(transport=ctx.transport, box_codes=["T1-drop"], actor=actor, pin=PIN)


def _verify_boxes(ctx: SimpleNamespace, actor: User) -> None:
    # The missing High Hand box counts nothing: its expected $6.00 is a variance to explain.
    ctx.verification = cage_verify(
        transport=ctx.transport, counted={"T1-drop": 1_500}, actor=actor, pin=PIN, idempotency_key=_key()
    )


COUNT = Step("count", Role.DEALER, _count)
WITNESS = Step("witness", Role.FLOORPERSON, _witness)
CUSTODY = Step("custody of the container", Role.SECURITY, _carry_counts)
VERIFICATION = Step("cage verification", Role.CAGE_CASHIER, _verify_container)
EXPLANATION = Step("explanation of the variance", Role.SHIFT_SUPERVISOR, _explain)

# --- Bad Beat: claim, verification, distribution, payment of a share (§637a.15(f)-(g)) --------------


def _bad_beat(request: pytest.FixtureRequest) -> SimpleNamespace:
    jackpot = request.getfixturevalue("bad_beat")
    fund_official(jackpot, 10_000, request.getfixturevalue("finance"))
    return SimpleNamespace(make_claim=request.getfixturevalue("make_claim"))


def _claim(ctx: SimpleNamespace, actor: User) -> None:
    ctx.claim = ctx.make_claim(actor=actor)


def _claim_verify(ctx: SimpleNamespace, actor: User) -> None:
    claim_verify(claim=ctx.claim, actor=actor, pin=PIN)


def _distribute(ctx: SimpleNamespace, actor: User) -> None:
    ctx.distribution = distribution_prepare(claim=ctx.claim, actor=actor, pin=PIN, idempotency_key=_key())


def _share_pay(ctx: SimpleNamespace, actor: User) -> None:
    share = ctx.distribution.shares.get(position=1)
    share_pay(share=share, id_type="Passport", id_number="X1", actor=actor, pin=PIN, idempotency_key=_key())


# --- Progressive: the hand, its validation, its payment at the cage (§655a.11(i)(4)(i)(C)-(D)) -------


def _progressive(request: pytest.FixtureRequest) -> SimpleNamespace:
    return SimpleNamespace(stud=request.getfixturevalue("stud"))


def _royal(ctx: SimpleNamespace, actor: User) -> None:
    round_ = play(ctx.stud, actor, {5: "1.00"}, community="Qs Js Ts")
    ctx.hand = hand(round_, actor, 5, "As Ks")


def _validate(ctx: SimpleNamespace, actor: User) -> None:
    progressive_validate(hand=ctx.hand, actor=actor, pin=PIN)


def _progressive_pay(ctx: SimpleNamespace, actor: User) -> None:
    progressive_pay(
        hand=ctx.hand, patron_name="Rae Royal", id_type="Passport", id_number="X1", actor=actor, pin=PIN,
        idempotency_key=_key(),
    )  # fmt: skip


# --- High Hand: the hand on the Tracking Slip, the award's payment (§637a.16(f), (h)) ----------------


def _high_hand(request: pytest.FixtureRequest) -> SimpleNamespace:
    table = request.getfixturevalue("rated_table")
    periods_run(room=table.room, at=timezone.now())
    period = HighHandPeriod.objects.get(status=PeriodStatus.OPEN)
    fund_official(period.jackpot, 7_000, request.getfixturevalue("finance"))
    return SimpleNamespace(table=table, period=period, dealer=request.getfixturevalue("dealer"))


def _hand_on_the_slip(ctx: SimpleNamespace, actor: User) -> None:
    period = ctx.period
    entry_record(
        jackpot=period.jackpot, table=ctx.table, seat=4, player_name="Hal Hand", player_phone="215-555-0100",
        id_type="Passport", id_number="X1", dealer=ctx.dealer, players_dealt_in=7, pot_cents=8_000,
        cards="Ts Td Th 4c 4d", made_at=period.starts_at + (min(timezone.now(), period.ends_at) - period.starts_at) / 2,
        actor=actor, pin=PIN, idempotency_key=_key(),
    )  # fmt: skip
    periods_run(room=period.room, at=period.ends_at + timedelta(seconds=30))
    period.refresh_from_db()
    period_announce(period=period, contributions_cents=7_000, at=timezone.now())


def _award_pay(ctx: SimpleNamespace, actor: User) -> None:
    award = HighHandAward.objects.get(period=ctx.period)
    award_pay(award=award, id_type="Passport", id_number="X1", actor=actor, pin=PIN, idempotency_key=_key())


# --- Same documents, two signatures: the display's adjustment and its witness (§637a.15(h)), a
# discontinued fund's transfer (§637a.15(i)), a ledger correction: prepared, then approved -----------


def _display(request: pytest.FixtureRequest) -> SimpleNamespace:
    jackpot = request.getfixturevalue("bad_beat")
    fund_official(jackpot, 25_000, request.getfixturevalue("finance"))
    return SimpleNamespace(jackpot=jackpot)


def _display_adjust(ctx: SimpleNamespace, actor: User) -> None:
    ctx.adjustment = display_adjust(jackpot=ctx.jackpot, actor=actor, pin=PIN, idempotency_key=_key())


def _display_witness(ctx: SimpleNamespace, actor: User) -> None:
    display_witness(adjustment=ctx.adjustment, actor=actor, pin=PIN)


def _discontinued(request: pytest.FixtureRequest) -> SimpleNamespace:
    """bb stops collecting, from now: bb2 is the Bad Beat offered at T1."""
    ctx = _display(request)
    rules = factories.RULES
    bb2 = {**next(item for item in rules["jackpots"] if item["code"] == "bb"), "code": "bb2", "name": "New Bad Beat"}
    tables = [
        {**table, "jackpots": ["bb2" if code == "bb" else code for code in table["jackpots"]]}
        for table in rules["tables"]
    ]
    version = factories.load(factories.rules_text(jackpots=[*rules["jackpots"], bb2], tables=tables))
    ctx.destination = Jackpot.objects.get(room=version.room, code="bb2")
    return ctx


def _fund_transfer_prepare(ctx: SimpleNamespace, actor: User) -> None:
    ctx.transfer = fund_transfer_prepare(
        source=ctx.jackpot, destination=ctx.destination, amount_cents=25_000, reason="Approved procedure DP-1",
        actor=actor, pin=PIN, idempotency_key=_key(),
    )  # fmt: skip


def _fund_transfer_approve(ctx: SimpleNamespace, actor: User) -> None:
    fund_transfer_approve(transfer=ctx.transfer, actor=actor, pin=PIN)


def _posted_in_error(request: pytest.FixtureRequest) -> SimpleNamespace:
    ctx = _display(request)
    ctx.posted = Transfer.objects.latest("pk")
    return ctx


def _correction_prepare(ctx: SimpleNamespace, actor: User) -> None:
    ctx.correction = correction_prepare(transfer=ctx.posted, reason="Posted to the wrong fund", actor=actor, pin=PIN)


def _correction_approve(ctx: SimpleNamespace, actor: User) -> None:
    correction_approve(correction=ctx.correction, actor=actor, pin=PIN)


CHAINS = (
    Chain(
        "table count explained",
        _drop_box,
        (COUNT, WITNESS, CUSTODY, VERIFICATION, EXPLANATION),
    ),
    Chain(
        "table count corrected",
        _drop_box,
        (COUNT, WITNESS, CUSTODY, VERIFICATION, Step("correction of the official record", Role.FINANCE, _correct)),
    ),
    Chain(
        "recount",
        _drop_box,
        (
            COUNT,
            WITNESS,
            Step("recount", Role.SHIFT_SUPERVISOR, _recount),
            Step("witness of the recount", Role.FLOORPERSON, _witness),
            CUSTODY,
            VERIFICATION,
        ),
        # The floorperson who witnessed a wrong count may watch its recount too: the recount is another
        # person's count, and the witness attests only what they saw counted.
        allowed=frozenset({("witness", "witness of the recount")}),
    ),
    Chain(
        "uncounted boxes",
        _boxes,
        (
            Step("custody of the boxes", Role.SECURITY, _carry_boxes),
            Step("missing box exception", Role.SHIFT_SUPERVISOR, _missing_box),
            Step("accounting at the cage", Role.FLOORPERSON, _account),
            Step("cage verification of the boxes", Role.CAGE_CASHIER, _verify_boxes),
            EXPLANATION,
        ),
        # The supervisor who excused the missing box may explain the variance its absence made.
        allowed=frozenset({("missing box exception", "explanation of the variance")}),
    ),
    Chain(
        "bad beat",
        _bad_beat,
        (
            Step("claim", Role.FLOORPERSON, _claim),
            Step("verification", Role.SHIFT_SUPERVISOR, _claim_verify),
            Step("distribution", Role.FINANCE, _distribute),
            Step("payment of a share", Role.CAGE_CASHIER, _share_pay),
        ),
    ),
    Chain(
        "progressive",
        _progressive,
        (
            Step("hand", Role.DEALER, _royal),
            Step("validation", Role.FLOORPERSON, _validate),
            Step("payment at the cage", Role.CAGE_CASHIER, _progressive_pay),
        ),
    ),
    Chain(
        "high hand",
        _high_hand,
        (
            Step("hand on the tracking slip", Role.FLOORPERSON, _hand_on_the_slip),
            Step("payment of the award", Role.CAGE_CASHIER, _award_pay),
        ),
        # The pool is announced by hand, with official money no count made.
        marks=(pytest.mark.pools_by_hand,),
    ),
    Chain(
        "display",
        _display,
        (
            Step("display adjustment", Role.FINANCE, _display_adjust),
            Step("witness of the display", Role.FLOORPERSON, _display_witness),
        ),
    ),
    Chain(
        "fund transfer",
        _discontinued,
        (
            Step("fund transfer", Role.FINANCE, _fund_transfer_prepare),
            Step("approval of the fund transfer", Role.FINANCE, _fund_transfer_approve),
        ),
    ),
    Chain(
        "ledger correction",
        _posted_in_error,
        (
            Step("ledger correction", Role.FINANCE, _correction_prepare),
            Step("approval of the ledger correction", Role.FINANCE, _correction_approve),
        ),
    ),
)


def _pairs() -> list[Any]:
    """Every (earlier, later) pair of steps of every chain, each pair of step names once."""
    seen: set[tuple[str, str]] = set()
    pairs = []
    for chain in CHAINS:
        for earlier, later in itertools.combinations(range(len(chain.steps)), 2):
            names = (chain.steps[earlier].name, chain.steps[later].name)
            if names in seen or names in chain.allowed:
                continue
            seen.add(names)
            pairs.append(
                pytest.param(chain, earlier, later, id=f"{chain.name}: {names[0]} -> {names[1]}", marks=chain.marks)
            )
    return pairs


def _snapshot() -> tuple[int, int]:
    return Signature.objects.count(), Transfer.objects.count()


def _person(make_staff: Callable[..., User], *roles: Role) -> User:
    first, *more = dict.fromkeys(roles)
    return make_staff(first, extra_roles=more)


@pytest.mark.parametrize("chain", [pytest.param(chain, id=chain.name, marks=chain.marks) for chain in CHAINS])
def test_each_chain_is_signed_through_by_one_person_a_step(request, make_staff, chain: Chain) -> None:
    ctx = chain.setup(request)
    for step in chain.steps:
        step.take(ctx, _person(make_staff, step.role))


@pytest.mark.parametrize(("chain", "earlier", "later"), _pairs())
def test_whoever_took_a_step_signs_no_later_step_of_the_same_money(
    request, make_staff, chain: Chain, earlier: int, later: int
) -> None:
    # Given one person holding the roles of both steps, who took the earlier one
    ctx = chain.setup(request)
    one = _person(make_staff, chain.steps[earlier].role, chain.steps[later].role)
    for index, step in enumerate(chain.steps[:later]):
        step.take(ctx, one if index == earlier else _person(make_staff, step.role))
    before = _snapshot()

    # When they take the later one, then it is refused and nothing changed
    with pytest.raises(DomainError) as refused:
        chain.steps[later].take(ctx, one)
    assert refused.value.code in REFUSAL_CODES, refused.value
    assert _snapshot() == before


# --- The cases of the finding ----------------------------------------------------------------------


def test_a_floorperson_cashier_validates_a_5001_60_progressive_payout_and_may_not_pay_it(
    crazy4, dealer, make_staff
) -> None:
    # Given four aces at Crazy 4 Poker on a meter of $5,001.60, validated by a floorperson who is a cashier too
    round_ = play(crazy4, dealer, {6: "1.00", 3: "5.00", 1: "1.00", 2: "1.00"})
    ctx = SimpleNamespace(hand=hand(round_, dealer, 6, "As Ah Ad Ac 2d"))
    assert ctx.hand.amount_cents == 5_001_60
    both = make_staff(Role.FLOORPERSON, extra_roles=[Role.CAGE_CASHIER])
    validation = progressive_validate(hand=ctx.hand, actor=both, pin=PIN)
    before = _snapshot()

    # When they pay it at the cage, then it is refused, naming their validation, and nothing is paid
    with pytest.raises(SignerNotIndependent) as refused:
        _progressive_pay(ctx, both)

    assert str(refused.value) == (
        f"You validated this money (progressive validation {validation.pk}): the payment at the cage of the same "
        "money is signed by someone else (§655a.11(i)(4)(i)(D), §657a.11(e)(4))."
    )
    assert refused.value.code == "segregation_of_duties"
    assert _snapshot() == before and not ProgressivePayment.objects.exists()
    _progressive_pay(ctx, make_staff(Role.CAGE_CASHIER))  # another cashier pays it
    assert ProgressivePayment.objects.get().hand.amount_cents == 5_001_60


def test_the_api_refuses_the_validator_the_payment_with_400_segregation_of_duties(crazy4, dealer, make_staff) -> None:
    round_ = play(crazy4, dealer, {6: "1.00", 3: "5.00", 1: "1.00", 2: "1.00"})
    aces = hand(round_, dealer, 6, "As Ah Ad Ac 2d")
    both = make_staff(Role.FLOORPERSON, extra_roles=[Role.CAGE_CASHIER])
    progressive_validate(hand=aces, actor=both, pin=PIN)
    before = _snapshot()

    body = refused(
        post(
            client_for(both),
            f"/api/progressive/hands/{aces.pk}/pay/",
            {"patron_name": "Rae Royal", "id_type": "Passport", "id_number": "X1"},
        ),
        400,
        "segregation_of_duties",
    )

    assert body["detail"].startswith("You validated this money (progressive validation ")
    assert _snapshot() == before and not ProgressivePayment.objects.exists()


def test_a_security_cashier_carries_a_container_and_may_not_verify_it_at_the_cage(request, make_staff) -> None:
    ctx = _drop_box(request)
    _count(ctx, make_staff(Role.DEALER))
    _witness(ctx, make_staff(Role.FLOORPERSON))
    both = make_staff(Role.SECURITY, extra_roles=[Role.CAGE_CASHIER])
    _carry_counts(ctx, both)
    before = _snapshot()

    with pytest.raises(SignerNotIndependent) as refused:
        _verify_container(ctx, both)

    assert str(refused.value) == (
        f"You carried this money (transport {ctx.transport.pk}): the cage verification of the same money is "
        "signed by someone else (§637a.15(e))."
    )
    ctx.transport.refresh_from_db()
    assert _snapshot() == before and not hasattr(ctx.transport, "verification")
    _verify_container(ctx, make_staff(Role.CAGE_CASHIER))


def test_finance_cashier_prepares_a_bad_beat_distribution_and_may_not_pay_a_share_of_it(request, make_staff) -> None:
    ctx = _bad_beat(request)
    _claim(ctx, make_staff(Role.FLOORPERSON))
    _claim_verify(ctx, make_staff(Role.SHIFT_SUPERVISOR))
    both = make_staff(Role.FINANCE, extra_roles=[Role.CAGE_CASHIER])
    _distribute(ctx, both)
    before = _snapshot()

    with pytest.raises(SignerNotIndependent) as refused:
        _share_pay(ctx, both)

    assert str(refused.value) == (
        f"You prepared this money (Bad Beat distribution {ctx.distribution.pk}): the payment of a share of the "
        "same money is signed by someone else (§637a.15(g))."
    )
    assert _snapshot() == before
    _share_pay(ctx, make_staff(Role.CAGE_CASHIER))


def test_the_witness_of_a_wrong_count_may_witness_its_recount_but_its_counter_may_not(request, make_staff) -> None:
    ctx = _drop_box(request)
    dealer_floorperson = make_staff(Role.DEALER, extra_roles=[Role.FLOORPERSON])
    _count(ctx, dealer_floorperson)
    floorperson = make_staff(Role.FLOORPERSON)
    _witness(ctx, floorperson)
    _recount(ctx, make_staff(Role.SHIFT_SUPERVISOR))
    before = _snapshot()

    with pytest.raises(SignerNotIndependent) as refused:
        _witness(ctx, dealer_floorperson)

    assert str(refused.value) == (
        f"You counted this money (count {ctx.first_count.pk}): the witness of the recount of the same money is "
        "signed by someone else (§637a.15(d)(1))."
    )
    assert _snapshot() == before
    _witness(ctx, floorperson)
