"""Tablet pages of the tables app: the tables of the rooms a person works in, opened and closed from the floor."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may

from ..models import Table
from ..selectors import visible_to
from ..services import table_set_open


@login_required
def tables(request: HttpRequest) -> HttpResponse:
    can_open = may(acting_user(request), Action.TABLE_OPEN_CLOSE)
    rows = visible_to(request.user, Table.objects.select_related("room")).order_by(
        "room__code", Length("number"), "number"
    )
    return render(request, "tables/floor/tables.html", {"tables": rows, "can_open": can_open})


@login_required
@require_POST
def table_open_close(request: HttpRequest, table_id: int) -> HttpResponse:
    user = acting_user(request)
    table = get_object_or_404(visible_to(request.user, Table.objects.all()), pk=table_id)
    is_open = request.POST.get("is_open") == "1"
    try:
        table_set_open(table=table, is_open=is_open, actor=user)
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{table} is {'open' if is_open else 'closed'}.")
    return redirect("floor:tables")
