"""What must hold of the records at every moment, checked from the database alone.

A load test, a fault test, a restored backup and a room's own night audit ask the same question:
is every cent where the records say it is? ``invariants_check`` answers it with a list of
violations (empty when all holds), each a sentence a finance person reads. The ledger's own checks
are here; each app adds the checks of its documents (``invariant_register`` in its ``AppConfig.ready``),
so this module names no app above the kernel.

The ledger's checks:

- Double entry: the sum of every account's balance is zero (each transfer debits what it credits).
- Derived balances: every account's balance read through its checkpoints equals the sum of its
  whole history (a checkpoint never drifts from the transfers it covers).
- Never below zero: no box, container in custody, fund, revenue or payout account holds less than
  nothing (``NON_NEGATIVE_KINDS``; the database refuses it too, migration ``ledger`` 0005).
- Reversals: each reverses one transfer, the same amount between the same two accounts the other
  way, and only through a correction signed by two people, or a signed document an app declares
  reverses what it names (``reversing_document_register``: a round of play voided, §637a.18(i)).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import connection, models, transaction
from django.db.models import Sum

from casino_backoffice.staff.models import Signature

from .checkpoints import balance_sql
from .models import Account, AccountKind, BalanceCheckpoint, Correction, Transfer, TransferKind

# The accounts that hold money that is really there: what goes out of them first came in (the banked
# games' house share among them). Players' money at the tables (pots, wagers) and the house's funding of
# the banked games are where money comes from and run negative by design; variances and the cage's
# over/short are signed by nature.
NON_NEGATIVE_KINDS = frozenset(
    {
        AccountKind.DROP_BOX,
        AccountKind.JACKPOT_BOX,
        AccountKind.CONTAINER,
        AccountKind.FUND,
        AccountKind.REVENUE,
        AccountKind.BANKED_REVENUE,
        AccountKind.PAYOUT,
    }
)

Invariant = Callable[[], list[str]]
_REGISTERED: dict[str, Invariant] = {}


def invariant_register(name: str, check: Invariant) -> None:
    """Add an app's check, under a name its violations are reported with (registering again replaces it)."""
    _REGISTERED[name] = check


# Signed documents, besides a correction, whose reversals are signed by the document itself: each app
# registers its own in its ``AppConfig.ready`` (``rake``: a round voided, ``RoundVoid``).
_REVERSING_DOCUMENTS: set[type[models.Model]] = set()


def reversing_document_register(model: type[models.Model]) -> None:
    """Declare that a signed document of ``model`` signs the reversals that reference it."""
    _REVERSING_DOCUMENTS.add(model)


def _signed_by_their_document(reversals: list[Transfer]) -> set[int]:
    """The reversals referencing a registered reversing document that carries a signature."""
    signed: set[int] = set()
    for model in _REVERSING_DOCUMENTS:
        content_type = ContentType.objects.get_for_model(model)
        documents = set(Signature.objects.filter(document_type=content_type).values_list("document_id", flat=True))
        signed |= {r.pk for r in reversals if r.reference_type_id == content_type.pk and r.reference_id in documents}
    return signed


def documents_moved(
    documents: models.QuerySet[Any], *, kind: TransferKind, expected: Callable[[Any], int], says: str
) -> list[str]:
    """Each document of ``documents`` moved exactly what it says: the transfers of ``kind`` that
    reference it add up to ``expected(document)``. ``says`` words the document in a violation
    ("Count {pk}")."""
    model = documents.model
    moved = {
        row["reference_id"]: int(row["total"])
        for row in Transfer.objects.filter(reference_type=ContentType.objects.get_for_model(model), kind=kind)
        .values("reference_id")
        .annotate(total=Sum("amount_cents"))
    }
    violations = []
    for document in documents.order_by("pk"):
        wanted, done = expected(document), moved.get(str(document.pk), 0)
        if wanted != done:
            violations.append(f"{says.format(pk=document.pk)} says {wanted} cents, the ledger moved {done}.")
    return violations


def _history_balances() -> dict[int, int]:
    """Every account's balance summed over its whole history, in one query."""
    transfer = connection.ops.quote_name(Transfer._meta.db_table)
    sql = f"""
        SELECT account_id, SUM(amount) FROM (
            SELECT debit_id AS account_id, amount_cents AS amount FROM {transfer}
            UNION ALL
            SELECT credit_id, -amount_cents FROM {transfer}
        ) movements GROUP BY account_id
    """  # noqa: S608 (the name comes from the model)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {account_id: int(total) for account_id, total in cursor.fetchall()}


def _checkpoint_balances() -> dict[int, int]:
    account = connection.ops.quote_name(Account._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT a.id, {balance_sql('a.id')} FROM {account} a")  # noqa: S608
        return {account_id: int(balance) for account_id, balance in cursor.fetchall()}


def ledger_invariants() -> list[str]:
    violations: list[str] = []
    history = _history_balances()
    total = sum(history.values())
    if total != 0:
        violations.append(f"The balances of all accounts sum to {total} cents, not 0: debits and credits differ.")
    if BalanceCheckpoint.objects.exists():
        derived = _checkpoint_balances()
        for account_id, balance in sorted(derived.items()):
            if balance != history.get(account_id, 0):
                violations.append(
                    f"Account {account_id}: its checkpoints give {balance} cents, its history {history.get(account_id, 0)}."
                )
    for account in Account.objects.filter(kind__in=NON_NEGATIVE_KINDS).order_by("pk"):
        if history.get(account.pk, 0) < 0:
            violations.append(
                f"{account.code} ({account.get_kind_display()}) holds {history[account.pk]} cents: below zero."
            )
    reversals = list(Transfer.objects.filter(reverses__isnull=False).select_related("reverses"))
    for reversal in reversals:
        original = reversal.reverses
        assert original is not None
        if (reversal.debit_id, reversal.credit_id, reversal.amount_cents) != (
            original.credit_id,
            original.debit_id,
            original.amount_cents,
        ):
            violations.append(f"Transfer {reversal.pk} does not reverse transfer {original.pk} exactly.")
    signed = set(Correction.objects.filter(reversal__isnull=False).values_list("reversal_id", flat=True))
    signed |= _signed_by_their_document(reversals)
    for reversal_id in sorted({reversal.pk for reversal in reversals} - signed):
        violations.append(
            f"Reversal {reversal_id} was posted without a correction signed by two people, nor a signed document "
            "of its own."
        )
    return violations


invariant_register("ledger", ledger_invariants)


def invariants_check() -> list[str]:
    """Every violation of every registered check, each prefixed by its check's name; [] when all holds.

    The checks read one snapshot of the database: outside a transaction, on PostgreSQL, they run in a
    read-only REPEATABLE READ transaction of their own, so transfers committed between two of their
    queries (a live room) are never half seen. Inside a caller's transaction they read what it sees."""
    own_transaction = not connection.in_atomic_block
    with transaction.atomic():
        if own_transaction and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        violations: list[str] = []
        for name, check in _REGISTERED.items():
            violations.extend(f"{name}: {violation}" for violation in check())
        return violations
