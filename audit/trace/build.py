"""``trace_of``: the chain a document belongs to, from any of its links, for the person asking.

Compliance and finance read every trace of their rooms (``Action.TRACE_READ``); a cage cashier the trace
of a payment they made (``Action.TRACE_OPEN``, ``NotYourPayment`` otherwise); nobody else. A document of
another room is not there for them (``TraceNotFound``, as the API answers another room's document).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import models

from cage.models import Box, CageVerification, Count, Transport
from casino_backoffice.core.clock import zone_of
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.permissions import Action, may, who_may
from jackpots.bad_beat.models import BadBeatClaim, BadBeatPayment
from jackpots.high_hand.models import HighHandAward, HighHandAwardPayment, HighHandPeriod
from jackpots.progressive.models import ProgressiveHand, ProgressivePayment
from tables.models import PokerRoom, Round
from tables.selectors import visible_to

from ..exceptions import NotYourPayment, TraceAskedWrongly, TraceNotFound
from .cage_steps import box_add, count_add, counts_standing, drops_into, transport_add
from .collect import Chain
from .jackpot_steps import claim_add, hit_add, period_add
from .model import Trace
from .round_steps import round_add

# What a trace starts from (the API's parameters), the model it names, and how the chain is built.
STARTS: dict[str, type[models.Model]] = {
    "round": Round,
    "box": Box,
    "count": Count,
    "transport": Transport,
    "verification": CageVerification,
    "claim": BadBeatClaim,
    "period": HighHandPeriod,
    "award": HighHandAward,
    "hit": ProgressiveHand,
    "payment": BadBeatPayment,
    "award_payment": HighHandAwardPayment,
    "hit_payment": ProgressivePayment,
    "transfer": Transfer,
}
PAYMENTS = ("payment", "award_payment", "hit_payment")
# The counts of a box a trace names, newest first.
RECENT_COUNTS = 20


def _box(chain: Chain, box: Box) -> None:
    box_add(chain, box)
    for count in counts_standing([box]).prefetch_related("variances").order_by("-counted_at")[:RECENT_COUNTS]:
        count_add(chain, count)


def _count(chain: Chain, count: Count) -> None:
    count_add(chain, count)
    rounds, dropped = drops_into(count.box, count)
    chain.check(
        "count",
        f"the {rounds} rounds' money into box {count.box.code} for what the count covers, against its expected",
        expected=dropped,
        actual=count.expected_cents,
        explanation="time charges or voided rounds in the box" if dropped != count.expected_cents else "",
    )


def _transfer(chain: Chain, transfer: Transfer) -> None:
    document = transfer.reference
    for start, model in STARTS.items():
        if start != "transfer" and isinstance(document, model):
            BUILDERS[start](chain, document)
            return
    if document is not None and hasattr(document, "round"):  # a drop, a void: the round's chain
        round_add(chain, document.round)
        return
    chain.add(
        "transfer",
        transfer,
        f"Transfer {transfer.pk}: {transfer.get_kind_display()}",
        amount_cents=transfer.amount_cents,
        at=transfer.posted_at,
    )


BUILDERS: dict[str, Callable[[Chain, Any], None]] = {
    "round": round_add,
    "box": _box,
    "count": _count,
    "transport": lambda chain, transport: transport_add(chain, transport, focus=True),
    "verification": lambda chain, verification: transport_add(chain, verification.transport, focus=True),
    "claim": claim_add,
    "period": period_add,
    "award": lambda chain, award: period_add(chain, award.period),
    "hit": hit_add,
    "payment": lambda chain, payment: claim_add(chain, payment.share.distribution.claim, payment=payment),
    "award_payment": lambda chain, payment: period_add(chain, payment.award.period, payment=payment),
    "hit_payment": lambda chain, payment: hit_add(chain, payment.hand),
    "transfer": _transfer,
}


def trace_asked(params: Any) -> tuple[str, int]:
    """The one document a request names (``?payment=12``): exactly one of ``STARTS``, a whole number."""
    named = [(start, params.get(start)) for start in STARTS if params.get(start) not in (None, "")]
    if len(named) != 1:
        raise TraceAskedWrongly(
            f"Name exactly one document to trace from, as ?round=ID; one of: {', '.join(STARTS)}."
            + (f" This asks for {len(named)}." if named else "")
        )
    start, value = named[0]
    if not str(value).isdigit() or int(value) < 1 or int(value) > 2**63 - 1:
        raise TraceAskedWrongly(f"{start}={value!r}: a document is named by its id, a whole number such as 12.")
    return start, int(value)


def trace_of(*, start: str, pk: int, actor: Any) -> Trace:
    """The chain the document ``start`` ``pk`` belongs to, as ``actor`` may read it."""
    if start not in STARTS:
        raise TraceAskedWrongly(f"{start!r} is not a document a trace starts from; one of: {', '.join(STARTS)}.")
    _may_ask(actor)
    document = visible_to(actor, STARTS[start]._default_manager.all()).filter(pk=pk).first()
    if document is None:
        raise TraceNotFound(f"There is no {start.replace('_', ' ')} {pk} in your rooms.")
    if not may(actor, Action.TRACE_READ):
        if start not in PAYMENTS or getattr(document, "paid_by_id", None) != actor.pk:
            raise NotYourPayment(
                f"A cage cashier reads the trace of a payment they made; {start.replace('_', ' ')} {pk} is not one. "
                f"Every trace: {who_may(Action.TRACE_READ)}."
            )
    room = _room_of(document)
    chain = Chain(room=room, start=f"{start}:{pk}")
    BUILDERS[start](chain, document)
    return Trace(
        start=f"{start}:{pk}",
        room=room.code,
        zone=str(zone_of(room)),
        links=chain.links(),
        checks=tuple(chain.checks),
    )


def _may_ask(actor: Any) -> None:
    if not (may(actor, Action.TRACE_READ) or may(actor, Action.TRACE_OPEN)):
        raise ActionNotPermitted(f"{actor} may not read the trace of a dollar: {who_may(Action.TRACE_OPEN)} may.")


ROOM_PATHS = (
    "room",
    "table.room",
    "box.room",
    "period.room",
    "round.table.room",
    "share.distribution.claim.room",
    "award.period.room",
    "hand.round.table.room",
)


def _room_of(document: models.Model) -> PokerRoom:
    for path in ROOM_PATHS:
        found: Any = document
        for part in path.split("."):
            found = getattr(found, part, None)
        if isinstance(found, PokerRoom):
            return found
    if isinstance(document, Transfer):
        reference = document.reference
        if reference is not None:
            return _room_of(reference)
        code = document.debit.code.split(":")[1]
        return PokerRoom.objects.get(code=code)
    raise TraceNotFound(f"{document} belongs to no room.")
