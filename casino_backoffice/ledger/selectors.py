"""Reads of the ledger: balances are derived from transfers, never stored (a checkpoint is itself
derived from transfers: ``checkpoints``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import Coalesce

from .checkpoints import balances_of
from .models import Account, Transfer


def account_balance(*, account: Account, as_of: datetime | None = None) -> int:
    """Cents in ``account``: what was debited to it less what was credited from it. Without
    ``as_of``, its latest checkpoint plus the transfers after it: one query whose cost does not grow
    with the account's history (``checkpoints``)."""
    if as_of is None:
        return balances_of(account_ids=[account.pk]).get(account.pk, 0)
    transfers = Transfer.objects.filter(Q(debit=account) | Q(credit=account), posted_at__lte=as_of)
    totals = transfers.aggregate(
        into=Sum("amount_cents", filter=Q(debit=account), default=0),
        out=Sum("amount_cents", filter=Q(credit=account), default=0),
    )
    return int(totals["into"]) - int(totals["out"])


def account_balances(*, accounts: Iterable[Account]) -> dict[int, int]:
    """Balances of many accounts in one query, keyed by account id."""
    ids = [account.pk for account in accounts]
    return {**dict.fromkeys(ids, 0), **balances_of(account_ids=ids)}


def ledger_total() -> int:
    """The sum of every balance: always zero, because every transfer debits what it credits."""
    return 0 if not Transfer.objects.exists() else sum(account_balances(accounts=Account.objects.all()).values())


def balance_of(account: str = "pk") -> Combinable:
    """The balance of the account that the outer query's field ``account`` names, as an expression
    to annotate a list with (``Box.objects.annotate(expected_cents=balance_of("account"))``)."""
    into = (
        Transfer.objects.filter(debit=OuterRef(account))
        .values("debit")
        .annotate(total=Sum("amount_cents"))
        .values("total")
    )
    out = (
        Transfer.objects.filter(credit=OuterRef(account))
        .values("credit")
        .annotate(total=Sum("amount_cents"))
        .values("total")
    )
    return Coalesce(Subquery(into), Value(0)) - Coalesce(Subquery(out), Value(0))


def accounts_with_balances(accounts: QuerySet[Account]) -> QuerySet[Account]:
    """``accounts`` with ``balance_cents`` on each, computed in the same query (a list of accounts
    costs one query, whatever its length)."""
    return accounts.annotate(balance_cents=balance_of("pk"))


def accounts_total_balance(accounts: QuerySet[Account]) -> int:
    """The sum of the balances of ``accounts``, in one query."""
    ids = accounts.order_by().values("pk")
    totals = Transfer.objects.aggregate(
        into=Sum("amount_cents", filter=Q(debit__in=ids), default=0),
        out=Sum("amount_cents", filter=Q(credit__in=ids), default=0),
    )
    return int(totals["into"]) - int(totals["out"])
