"""The traces in a gaming day's package (issue 29, item 4: "the claims, periods and awards with their
traces"): each Bad Beat claim of the day, each High Hand period that began in it and each progressive
hit of its banked rounds, its chain as JSON (with the SHA-256 of its content) and, where money went to
patrons (a claim, a period with an award, a hit that paid), as the PDF a person reads, which prints the
same SHA-256."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date

from django.db.models import Exists, OuterRef

from casino_backoffice.staff.models import User
from jackpots.bad_beat.models import BadBeatClaim
from jackpots.high_hand.models import HighHandAward, HighHandPeriod
from tables.models import PokerRoom
from tables.selectors import gaming_day_bounds

from ..trace.build import trace_of
from ..trace.render import trace_json, trace_pdf, trace_sha256
from .contents import DayFile, day_hits


def _files(start: str, pk: int, actor: User, *, with_pdf: bool) -> Iterator[DayFile]:
    trace = trace_of(start=start, pk=pk, actor=actor)
    document = {**trace_json(trace), "sha256": trace_sha256(trace)}  # as GET /api/trace/ answers it
    yield f"traces/{start}-{pk}.json", (json.dumps(document, indent=1, ensure_ascii=False) + "\n").encode()
    if with_pdf:
        yield f"traces/{start}-{pk}.pdf", trace_pdf(trace)


def day_traces(*, room: PokerRoom, day: date, actor: User, pdfs: bool = True) -> Iterator[DayFile]:
    """The traces of the day's claims, of the High Hand periods that began in the day and of its
    progressive hits."""
    for claim_id in BadBeatClaim.objects.filter(room=room, gaming_day=day).order_by("pk").values_list("pk", flat=True):
        yield from _files("claim", claim_id, actor, with_pdf=pdfs)
    start, end = gaming_day_bounds(room=room, day=day)
    periods = (
        HighHandPeriod.objects.filter(room=room, starts_at__gte=start, starts_at__lt=end)
        .annotate(awarded=Exists(HighHandAward.objects.filter(period=OuterRef("pk"))))
        .order_by("starts_at", "pk")
    )
    for period_id, awarded in periods.values_list("pk", "awarded"):
        yield from _files("period", period_id, actor, with_pdf=pdfs and awarded)
    for hit_id, amount_cents in day_hits(room=room, day=day).values_list("pk", "amount_cents"):
        yield from _files("hit", hit_id, actor, with_pdf=pdfs and amount_cents > 0)
