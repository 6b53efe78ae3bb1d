"""Reporting an irregularity and ruling on it: two signed, insert-only documents (§637a.18).

``irregularity_report``: the dealer or floorperson at the table reports what went wrong and signs;
``irregularity_rule``: a floorperson or above who did not report it rules in words and signs, a
dispute's ruling by a poker shift supervisor or above (§637a.18(a): 'the decision of the Poker shift
supervisor is final'). ``irregularity_record_within``: the report written inside another service's
transaction (``rake``'s void of a round records its irregularity with the void).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.idempotency import DocumentOnce, request_fingerprint
from casino_backoffice.poker import InvalidCards, parse_cards
from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, action_require
from casino_backoffice.staff.services import VerifiedSigner, pin_check, signature_add
from casino_backoffice.staff.signing import SigningRule

from ..models import Round, Table
from ..selectors import gaming_day
from .exceptions import AlreadyRuled, IrregularityError, RoundRequired, RuledByReporter
from .house_kinds import KindInEffect, house_kinds_in_effect, kind_in_effect
from .kinds import KIND_RULES, IrregularityKind, MisdealCause, RoundNeed
from .models import Irregularity, IrregularityRuling

_MAX_CARDS_TEXT = 160


@dataclass(frozen=True)
class IrregularityReport:
    """An irregularity as checked (``irregularity_check``): what its record holds but who signs it."""

    table: Table
    kind: str
    section: str
    round: Round | None
    occurred_at: datetime
    cause: str
    cards: str
    description: str
    compliance_notified: str
    # The time as asked (None: the round's end, or when it was reported): a retry asks the same.
    occurred_at_asked: datetime | None = None

    def fingerprint(self) -> str:
        return request_fingerprint(
            {
                "table": self.table.pk,
                "kind": self.kind,
                "round": self.round.pk if self.round else None,
                "occurred_at": self.occurred_at_asked,
                "cause": self.cause,
                "cards": self.cards,
                "description": self.description,
                "compliance_notified": self.compliance_notified,
            }
        )


def irregularity_check(
    *,
    table: Table,
    kind: str,
    description: str,
    round: Round | None = None,
    cause: str = "",
    cards: str = "",
    compliance_notified: str = "",
    occurred_at: datetime | None = None,
    now: datetime | None = None,
) -> IrregularityReport:
    """The report these values make, or the first rule they break (``IrregularityError``): a kind of
    the regulations' list at a table of its games, a misdeal with its cause (§637a.18(g)(1)-(4)) and no
    other kind with one, the round a kind's money needs (``RoundRequired``) and only a round of that
    table, cards that are cards, a description, and for the removal of a player the compliance
    representative notified (§637a.18(c)). ``occurred_at`` defaults to the round's end, else now."""
    now = now or timezone.now()
    asked = occurred_at
    occurred_at = occurred_at or (round.ended_at if round is not None else now)
    found = _kind_found(kind, table=table, at=occurred_at)
    rule, label = found.rule, found.label
    if problem := found.table_problem(game=table.game):
        raise IrregularityError(f"Table {table.number}: {problem}")
    cause = (cause or "").strip()
    if rule.cause and cause not in MisdealCause.values:
        raise IrregularityError(
            f"Say the misdeal's cause (§637a.18(g)(1)-(4)): one of {', '.join(MisdealCause.values)}."
        )
    if not rule.cause and cause:
        raise IrregularityError(f"Only a misdeal has a cause (§637a.18(g)); {label} has none.")
    _round_check(found, round=round, table=table)
    description = (description or "").strip()
    if not description:
        raise IrregularityError("Describe what happened: the description stays on the record.")
    compliance_notified = (compliance_notified or "").strip()
    if rule.compliance_notice and not compliance_notified:
        raise IrregularityError(
            "Say who at compliance was notified of the player's removal (§637a.18(c): 'shall notify a casino "
            "compliance representative as expeditiously as possible')."
        )
    if occurred_at > now:
        raise IrregularityError("An irregularity cannot happen in the future.")
    return IrregularityReport(
        table=table,
        kind=found.code,
        section=found.section_at(table.game),
        round=round,
        occurred_at=occurred_at,
        cause=cause,
        cards=_cards_text(cards),
        description=description,
        compliance_notified=compliance_notified,
        occurred_at_asked=asked,
    )


def _kind_found(kind: str, *, table: Table, at: datetime) -> KindInEffect:
    """The kind ``kind`` names at the table's room when it happened: the regulations' or the room's own
    (§637a.18(s)); refused, listing both, when it is neither."""
    found = kind_in_effect(kind, room=table.room, at=at)
    if found is None:
        house = ", ".join(house_kinds_in_effect(room=table.room, at=at))
        raise IrregularityError(
            f"{kind!r} is not a kind of irregularity; the kinds are {', '.join(IrregularityKind.values)}"
            + (f", and room {table.room.code}'s own: {house}." if house else ".")
        )
    return found


def _round_check(found: KindInEffect, *, round: Round | None, table: Table) -> None:
    """The round a kind's money needs (``RoundRequired``), only a round of that table, and for a refund
    a round that recorded it: the refund leaves the pot before the rake (§637a.18(k)(3))."""
    rule, label, kind = found.rule, found.label, found.code
    if rule.round == RoundNeed.REQUIRED and round is None:
        raise RoundRequired(
            f"{label} ({rule.section}) is recorded with its round of play: the money is the round's. Name the round."
        )
    if round is None:
        return
    if rule.round == RoundNeed.NONE:
        raise IrregularityError(f"{label} ({rule.section}) names no round of poker.")
    if round.table_id != table.pk:
        raise IrregularityError(f"Round {round.pk} was played at another table, not table {table.number}.")
    if kind == IrregularityKind.DEALER_ERROR_REFUND and not round.refund_cents:
        raise IrregularityError(
            f"Round {round.pk} records no refund from its pot. The refund leaves the pot before the rake "
            "(§637a.18(k)(3)): the round is logged with it (refund), then reported."
        )


def _cards_text(cards: str) -> str:
    """The cards involved as every card is stored ('As Kd'). A card may appear twice across the groups
    given (an extra card found is often a duplicate, §637a.18(i)), never within one group."""
    found: list[str] = []
    for group in (cards or "").replace(",", " ").split():
        try:
            found += [str(card) for card in parse_cards(group)]
        except InvalidCards as error:
            raise IrregularityError(f"The cards involved: {error}.") from None
    text = " ".join(found)
    if len(text) > _MAX_CARDS_TEXT:
        raise IrregularityError(f"Name at most {(_MAX_CARDS_TEXT + 1) // 3} cards involved.")
    return text


def irregularity_report(
    *,
    table: Table,
    kind: str,
    description: str,
    actor: User,
    pin: str,
    idempotency_key: str,
    round: Round | None = None,
    cause: str = "",
    cards: str = "",
    compliance_notified: str = "",
    occurred_at: datetime | None = None,
) -> Irregularity:
    """The dealer or floorperson at the table reports an irregularity and signs it (``irregularity_check``
    says what a report needs). A round voided for missing or extra cards (§637a.18(i)) is a round the
    table logged void; a round recorded with its rake is voided by a floorperson or above
    (``POST /api/rounds/{id}/void/``), which records this irregularity with the void."""
    action_require(actor=actor, action=Action.IRREGULARITY_REPORT, of=table)
    report = irregularity_check(
        table=table,
        kind=kind,
        description=description,
        round=round,
        cause=cause,
        cards=cards,
        compliance_notified=compliance_notified,
        occurred_at=occurred_at,
    )
    if report.kind == IrregularityKind.MISSING_OR_EXTRA_CARDS and report.round is not None and not report.round.voided:
        raise IrregularityError(
            f"Round {report.round.pk} was recorded with its rake and drops: a floorperson or above voids it "
            f"(POST /api/rounds/{report.round.pk}/void/), which records this irregularity and returns what it took."
        )
    once = DocumentOnce(model=Irregularity, idempotency_key=idempotency_key, fingerprint=report.fingerprint())
    return once.record(lambda: _report_write(once, report=report, actor=actor, pin=pin))


def _report_write(
    once: DocumentOnce[Irregularity], *, report: IrregularityReport, actor: User, pin: str
) -> Irregularity:
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        return irregularity_record_within(
            report=report, signer=signer, idempotency_key=once.idempotency_key, fingerprint=once.fingerprint
        )


def irregularity_record_within(
    *, report: IrregularityReport, signer: VerifiedSigner, idempotency_key: str, fingerprint: str
) -> Irregularity:
    """Write the irregularity and its reporter's signature in the caller's transaction. At most one
    round voided for missing or extra cards per round (a unique constraint): a second is refused."""
    if report.kind == IrregularityKind.MISSING_OR_EXTRA_CARDS and report.round is not None:
        if Irregularity.objects.filter(round=report.round, kind=report.kind).exists():
            raise IrregularityError(f"Round {report.round.pk} is already recorded void for missing or extra cards.")
    table = report.table
    irregularity = Irregularity.objects.create(
        room=table.room,
        table=table,
        gaming_day=report.round.gaming_day if report.round else gaming_day(room=table.room, at=report.occurred_at),
        round=report.round,
        occurred_at=report.occurred_at,
        kind=report.kind,
        section=report.section,
        cause=report.cause,
        cards=report.cards,
        description=report.description,
        compliance_notified=report.compliance_notified,
        reported_by=signer.user,
        reported_at=signer.verified_at,
        idempotency_key=idempotency_key,
        request_sha256=fingerprint,
    )
    signature_add(document=irregularity, rule=Irregularity.REPORTER, signer=signer)
    return irregularity


# --- Rulings --------------------------------------------------------------------------------------


def irregularity_rule(
    *, irregularity: Irregularity, ruling: str, actor: User, pin: str, idempotency_key: str
) -> IrregularityRuling:
    """A floorperson or above rules on an irregularity in words and signs; a dispute is ruled by a poker
    shift supervisor or above, whose decision is final (§637a.18(a)), as is a room's own kind whose
    Rules Submission says so (§637a.18(s)). Never by who reported it, and once
    (``AlreadyRuled``, 409, for a second ruling under another key)."""
    # A dispute, or a room's own kind its Rules Submission has a shift supervisor rule on (§637a.18(s)).
    if irregularity.kind in IrregularityKind.values:
        dispute = KIND_RULES[IrregularityKind(irregularity.kind)].ruled_by_supervisor
    else:
        found = kind_in_effect(irregularity.kind, room=irregularity.room, at=irregularity.occurred_at)
        dispute = found is not None and found.rule.ruled_by_supervisor
    action_require(actor=actor, action=Action.DISPUTE_RULE if dispute else Action.IRREGULARITY_RULE, of=irregularity)
    ruling = (ruling or "").strip()
    if not ruling:
        raise IrregularityError("Give the ruling in words: it stays on the record.")
    fingerprint = request_fingerprint({"irregularity": irregularity.pk, "ruling": ruling})
    once = DocumentOnce(model=IrregularityRuling, idempotency_key=idempotency_key, fingerprint=fingerprint)
    rule = IrregularityRuling.DISPUTE_RULER if dispute else IrregularityRuling.RULER
    return once.record(
        lambda: _rule_write(once, irregularity=irregularity, ruling=ruling, rule=rule, actor=actor, pin=pin)
    )


def _ruled_refusal(irregularity: Irregularity, *, actor: User) -> None:
    if actor.pk == irregularity.reported_by_id:
        raise RuledByReporter(
            f"{actor} reported irregularity {irregularity.pk} and cannot also rule on it: another floorperson or "
            "above rules. Nothing was recorded."
        )
    ruled = IrregularityRuling.objects.filter(irregularity_id=irregularity.pk).select_related("ruled_by").first()
    if ruled is not None:
        raise AlreadyRuled(
            f"Irregularity {irregularity.pk} was ruled on by {ruled.ruled_by} at "
            f"{local_text(ruled.ruled_at, irregularity.room, ZONED)}; "
            "a ruling is final. Nothing was recorded."
        )


def _rule_write(
    once: DocumentOnce[IrregularityRuling],
    *,
    irregularity: Irregularity,
    ruling: str,
    rule: SigningRule,
    actor: User,
    pin: str,
) -> IrregularityRuling:
    _ruled_refusal(irregularity, actor=actor)  # before the PIN: a refused ruling counts no wrong PIN
    signer = pin_check(user=actor, pin=pin)
    with transaction.atomic(durable=True):
        locked = Irregularity.objects.select_for_update().get(pk=irregularity.pk)
        once.replay_under_lock()
        _ruled_refusal(locked, actor=actor)
        written = IrregularityRuling.objects.create(
            irregularity=locked,
            reported_by_id=locked.reported_by_id,
            ruling=ruling,
            ruled_by=actor,
            ruled_at=signer.verified_at,
            idempotency_key=once.idempotency_key,
            request_sha256=once.fingerprint,
        )
        signature_add(document=written, rule=rule, signer=signer)
    return written
