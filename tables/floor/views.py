"""Tablet pages of the tables app: the tables of the rooms a person works in, opened and closed from the floor."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from casino_backoffice.core.clock import local
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may

from ..models import Table
from ..selectors import visible_to
from ..services import table_set_open


@dataclass(frozen=True)
class LastChange:
    """Who last opened or closed a table, and when on the room's clock (from the table's history)."""

    words: str
    by: str
    at_local: datetime


def last_changes(tables: list[Table]) -> dict[int, LastChange]:
    """The last opening or closing of each of ``tables``, in one query: the history rows that
    ``table_set_open`` writes with its reason ('opened by ...', 'closed by ...') and the person."""
    zones = {table.pk: table.room for table in tables}
    changes: dict[int, LastChange] = {}
    rows = (
        Table.history.filter(id__in=zones, history_change_reason__regex=r"^(opened|closed) by ")
        .select_related("history_user")
        .order_by("id", "-history_date", "-history_id")
    )
    for row in rows:
        if row.id not in changes:
            changes[row.id] = LastChange(
                words="opened" if row.history_change_reason.startswith("opened") else "closed",
                by=str(row.history_user) if row.history_user else row.history_change_reason.split(" by ", 1)[1],
                at_local=local(row.history_date, zones[row.id]),
            )
    return changes


@login_required
def tables(request: HttpRequest) -> HttpResponse:
    can_open = may(acting_user(request), Action.TABLE_OPEN_CLOSE)
    rows = list(
        visible_to(request.user, Table.objects.select_related("room")).order_by(
            "room__code", Length("number"), "number"
        )
    )
    changes = last_changes(rows)
    listed = [(table, changes.get(table.pk)) for table in rows]
    return render(request, "tables/floor/tables.html", {"tables": listed, "can_open": can_open})


@login_required
@require_POST
def table_open_close(request: HttpRequest, table_id: int) -> HttpResponse:
    """Open or close a table (``table_set_open``) once the person confirmed it: the first post shows what
    will change, who last changed it and when, and asks; the confirmed post does it, and the table's
    history records who and when."""
    user = acting_user(request)
    table = get_object_or_404(visible_to(request.user, Table.objects.select_related("room")), pk=table_id)
    is_open = request.POST.get("is_open") == "1"
    if request.POST.get("confirmed") != "1" and may(user, Action.TABLE_OPEN_CLOSE) and table.is_open != is_open:
        context = {
            "table": table,
            "is_open": is_open,
            "last": last_changes([table]).get(table.pk),
            "now_local": local(timezone.now(), table.room),
            "person": user,
        }
        return render(request, "tables/floor/table_confirm.html", context)
    was_open = table.is_open
    try:
        table_set_open(table=table, is_open=is_open, actor=user)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        if was_open == is_open:
            # A confirmation sent twice (a double tap, a second tablet): the first one did it.
            last = last_changes([table]).get(table.pk)
            since = f" ({last.words} by {last.by} at {last.at_local:%H:%M})" if last else ""
            messages.info(request, f"{table} was {'open' if is_open else 'closed'} already{since}: nothing changed.")
        else:
            messages.success(request, f"{table} is {'open' if is_open else 'closed'}.")
    return redirect("floor:tables")
