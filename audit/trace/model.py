"""What a trace is made of: the documents of one chain of money, each with the transfers it posted and
every signature on it, and the checks that the amounts reconcile from one step to the next.

Frozen values, built by ``audit.trace.build`` and rendered by ``audit.trace.render`` (page, JSON, PDF):
the three faces read the same object, so the PDF and the JSON of a trace cannot say different things.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The order the steps of a chain are shown in: from the pot to the patron.
STEPS = (
    "round",
    "rake",
    "drop",
    "box",
    "count",
    "transport",
    "verification",
    "variance",
    "official",
    "claim",
    "period",
    "hit",
    "decision",
    "distribution",
    "award",
    "share",
    "display",
    "payment",
    "patron",
    "transfer",
)


@dataclass(frozen=True)
class Posted:
    """A ledger transfer a document posted: money from ``credit`` to ``debit``."""

    id: int
    kind: str
    debit: str
    credit: str
    amount_cents: int
    posted_at: str


@dataclass(frozen=True)
class Signed:
    """A signature on a document, as the signer stood at that moment (DESIGN: signatures)."""

    purpose: str
    person: str
    role: str
    credential_number: str
    signed_at: str
    content_hash: str


@dataclass(frozen=True)
class Link:
    """One document of the chain."""

    step: str
    kind: str
    id: int
    label: str
    amount_cents: int | None
    at: str
    details: tuple[tuple[str, str], ...] = ()
    transfers: tuple[Posted, ...] = ()
    signatures: tuple[Signed, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class Check:
    """Whether the amounts of two steps agree: ``actual`` against ``expected``, and why they differ."""

    step: str
    what: str
    expected_cents: int
    actual_cents: int
    explanation: str = ""

    @property
    def difference_cents(self) -> int:
        return self.actual_cents - self.expected_cents

    @property
    def reconciles(self) -> bool:
        return self.difference_cents == 0


@dataclass(frozen=True)
class Trace:
    """The chain a document belongs to, upstream and downstream, in the order of ``STEPS``."""

    start: str
    room: str
    zone: str
    links: tuple[Link, ...]
    checks: tuple[Check, ...] = field(default=())

    @property
    def reconciles(self) -> bool:
        return all(check.reconciles or check.explanation for check in self.checks)

    def steps(self) -> list[tuple[str, list[Link]]]:
        return [(step, [link for link in self.links if link.step == step]) for step in STEPS if self.of(step)]

    def of(self, step: str) -> list[Link]:
        return [link for link in self.links if link.step == step]
