"""Helpers of the back-office tests of the Bad Beat: a claim played from the table to a payment, a
signed-in browser, the text of a PDF, and a rules version that discontinues bb for bb2."""

from __future__ import annotations

import io
from typing import Any

from django.test import Client
from pypdf import PdfReader

from casino_backoffice.staff.models import User
from jackpots.bad_beat.models import BadBeatClaim, BadBeatShare
from jackpots.bad_beat.services.claims import claim_verify
from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
from jackpots.funds.models import Jackpot
from tests.conftest import PIN
from tests.jackpots.bad_beat import fund_official


def browser(person: User) -> Client:
    signed_in = Client()
    signed_in.force_login(person)
    return signed_in


def pdf_text(content: bytes) -> str:
    """The text of a PDF, its whitespace made single spaces (a line may break anywhere)."""
    assert content.startswith(b"%PDF")
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def paid_in_part(
    *,
    make_claim,
    bad_beat: Jackpot,
    supervisor: User,
    finance: User,
    security: User,
    official_cents: int = 40_003,
    hand: dict[str, Any] | None = None,
) -> BadBeatClaim:
    """The qualifying claim at T1 on a fund of ``official_cents``: verified (the whole fund, the rules
    keep no reserve), distributed, and its losing hand paid at the table by security (Driver's license
    PA-555); the winning hand and the table shares still to pay. ``hand``: another hand than the
    qualifying one (``another_hand``), for a second claim at T1 (a hand is claimed once)."""
    fund_official(bad_beat, official_cents, finance)
    claim = make_claim(**(hand or {}))
    claim_verify(claim=claim, actor=supervisor, pin=PIN)
    distribution = distribution_prepare(claim=claim, actor=finance, pin=PIN, idempotency_key=f"dist-{claim.pk}")
    share_pay(
        share=distribution.shares.get(position=1),
        id_type="Driver's license",
        id_number="PA-555",
        actor=security,
        pin=PIN,
        idempotency_key=f"pay-{claim.pk}",
    )
    return BadBeatClaim.objects.get(pk=claim.pk)


def unpaid_share(claim: BadBeatClaim) -> BadBeatShare:
    return BadBeatShare.objects.filter(distribution__claim=claim, payment__isnull=True).order_by("position").first()
