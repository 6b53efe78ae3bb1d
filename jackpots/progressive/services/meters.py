"""The progressive meters (§655a.12(c), §657a.12(d)): a meter registered from a rules file with the
house's funding of its initial amount, the meter locked for a payout, and its reset after a 100% payout."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino_backoffice.ledger.models import TransferKind
from casino_backoffice.ledger.services import (
    Posting,
    account_open_as,
    transfers_post_within,
)
from casino_backoffice.money import display_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import pin_check, signature_add
from jackpots.progressive.accounts import (
    meter_account,
    meter_funding_account,
    meter_house_account,
    meter_paid_account,
    meter_wagers_account,
    meter_won_account,
)
from jackpots.progressive.exceptions import ProgressiveErrorCode
from jackpots.progressive.models import (
    FundingReason,
    MeterFunding,
    ProgressiveHand,
    ProgressiveMeter,
    ProgressiveValidation,
)
from jackpots.progressive.rules import ProgressiveRule
from jackpots.progressive.selectors import pending_hand, progressive_rule_of_version
from jackpots.progressive.services._common import _refuse
from tables.games import Game
from tables.models import PokerRoom, RulesVersion
from tables.selectors import rules_version_in_effect


def meter_lock(meter: ProgressiveMeter) -> ProgressiveMeter:
    """Every change of a meter's money holds the meter's row: rounds, wins and resets of one meter are
    serialized, so a payout reads the meter as it stands."""
    return ProgressiveMeter.objects.select_for_update(of=("self",)).select_related("room").get(pk=meter.pk)


# --- The meter and its initial amount -------------------------------------------------------------


def progressive_register(
    *, room: PokerRoom, rule: ProgressiveRule, version: RulesVersion, actor: User
) -> ProgressiveMeter:
    """Create the meter a rules file names, or return it, inside the rules load's transaction (whose
    service checked the loader's role). A new meter starts at its posted initial amount, funded by the
    house (§655a.12(c)(3), §657a.12(d)(3)); the meter's game never changes (give a new meter its own code)."""
    meter, created = ProgressiveMeter.objects.get_or_create(
        room=room, code=rule.code, defaults={"name": rule.name, "game": rule.game}
    )
    if not created and meter.game != rule.game:
        raise _refuse(
            f"Meter {rule.code} is a {Game(meter.game).label} meter and cannot become a {Game(rule.game).label} one; "
            "give the new meter its own code.",
            ProgressiveErrorCode.METER_GAME_CHANGED,
        )
    if not created and meter.name != rule.name:
        meter.name = rule.name
        meter.save(update_fields=["name"])
    for spec in (meter_wagers_account, meter_house_account, meter_won_account, meter_paid_account):
        account_open_as(spec(meter=meter))
    if not MeterFunding.objects.filter(meter=meter, reason=FundingReason.INITIAL).exists():
        _meter_fund(
            meter=meter,
            reason=FundingReason.INITIAL,
            version=version,
            amount_cents=rule.initial_cents,
            actor=actor,
            at=timezone.now(),
            idempotency_key=f"progressive:{meter.pk}:initial",
            memo=f"{meter.name}: initial amount as posted in rules version {version.number}",
        )
    return meter


def _meter_fund(
    *,
    meter: ProgressiveMeter,
    reason: FundingReason,
    version: RulesVersion,
    amount_cents: int,
    actor: User,
    at: datetime,
    idempotency_key: str,
    memo: str,
    after_hand: ProgressiveHand | None = None,
) -> MeterFunding:
    """The house puts an amount on the meter (its initial or reset amount), inside the caller's
    transaction, which holds the meter's lock."""
    funding = MeterFunding.objects.create(
        meter=meter,
        reason=reason,
        after_hand=after_hand,
        rules_version=version,
        amount_cents=amount_cents,
        funded_by=actor,
        funded_at=at,
    )
    transfers_post_within(
        postings=[
            Posting(
                debit_id=account_open_as(meter_account(meter=meter)).pk,
                credit_id=account_open_as(meter_funding_account(meter=meter)).pk,
                amount_cents=amount_cents,
                kind=TransferKind.METER_FUNDING,
                idempotency_key=idempotency_key,
                memo=memo,
            )
        ],
        actor=actor,
        reference=funding,
    )
    return funding


def meter_reset(*, meter: ProgressiveMeter, actor: User, pin: str) -> MeterFunding:
    """After a 100% payout, a supervisor resets the meter to the reset amount of the rules in effect,
    funded by the house (§655a.12(c)(3), §657a.12(d)(3)), and signs. Until then the meter is pending:
    the display says so and it pays no share of the meter. The payout is validated first (its
    documentation complete, §655a.11(i)(4)(i)(D)). Wagers made meanwhile stay on the meter."""
    action_require(actor=actor, action=Action.PROGRESSIVE_RESET, of=meter)
    signer = pin_check(user=actor, pin=pin)
    try:
        with transaction.atomic(durable=True):
            meter = meter_lock(meter)
            waiting = pending_hand(meter=meter)
            if waiting is None:
                raise _refuse(
                    f"{meter.name} is not pending a reset: no 100% payout waits for one.",
                    ProgressiveErrorCode.NOT_PENDING,
                )
            if not ProgressiveValidation.objects.filter(hand_id=waiting.pk).exists():
                raise _refuse(
                    f"The {waiting.words} at table {waiting.round.table.number} is not validated yet: its documentation "
                    "is completed before the meter is reset.",
                    ProgressiveErrorCode.NOT_VALIDATED,
                )
            version = rules_version_in_effect(room=meter.room, at=signer.verified_at)
            rule = progressive_rule_of_version(version=version, code=meter.code) if version else None
            if version is None or rule is None:
                raise _refuse(
                    f"The rules in effect post no reset amount for {meter.name}.", ProgressiveErrorCode.NOT_PROGRESSIVE
                )
            funding = _meter_fund(
                meter=meter,
                reason=FundingReason.RESET,
                after_hand=waiting,
                version=version,
                amount_cents=rule.reset_cents,
                actor=actor,
                at=signer.verified_at,
                idempotency_key=f"progressive:hand:{waiting.pk}:reset",
                memo=f"{meter.name} reset to {display_cents(rule.reset_cents)} after hand {waiting.pk}",
            )
            signature_add(document=funding, rule=MeterFunding.RESETTER, signer=signer)
    except IntegrityError:
        raise _refuse(f"{meter.name} was reset meanwhile.", ProgressiveErrorCode.NOT_PENDING) from None
    return funding
