"""Pieces every admin shares: money that reads as money, totals under a cashier's lists, read-only rows
with their audit history, and lists of the rooms a person works in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db.models import DateTimeField, F, Model, QuerySet, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join

from casino_backoffice.core.clock import ZONED, ZONED_SECOND, local_text
from casino_backoffice.money import display_cents
from casino_backoffice.staff.signing import SignableDocument

from .models import Heartbeat
from .rooms import visible

MONEY_SUFFIX = "_cents"


def _money_label(verbose_name: str) -> str:
    """'pot cents' -> 'Pot'; 'amount (cents)' -> 'Amount'."""
    words = str(verbose_name).replace("(cents)", "").strip()
    words = words.removesuffix(" cents").strip()
    return words[:1].upper() + words[1:]


def _money_display(attname: str, label: str) -> Callable[[Model], str | None]:
    def show(obj: Model) -> str | None:
        value = getattr(obj, attname)
        return None if value is None else display_cents(value)

    show.short_description = label  # type: ignore[attr-defined]
    show.admin_order_field = attname  # type: ignore[attr-defined]
    return show


# The relations a document reaches its room by, in the order ``_room_of`` tries them.
_ROOM_PATHS = ("room", "table", "box", "jackpot", "claim")
ROOM_ZONE = "room_clock_zone"  # the annotation ``RoomClockAdmin`` adds: the IANA zone of the row's room


def room_zone_path(model: type[Model]) -> str | None:
    """The lookup from ``model`` to its room's time zone (``room__timezone``, ``box__room__timezone``);
    None for a model of no room, whose moments the site's clock reads."""
    for name in _ROOM_PATHS:
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        related_model = field.related_model
        forward = field.concrete and (field.many_to_one or field.one_to_one)
        if not forward or not (isinstance(related_model, type) and issubclass(related_model, Model)):
            continue
        related = related_model._meta
        if any(f.name == "timezone" for f in related.concrete_fields):
            return f"{name}__timezone"
        if any(f.name == "room" for f in related.concrete_fields):
            return f"{name}__room__timezone"
    return None


def _moment_display(attname: str, label: str) -> Callable[[Model], str]:
    def show(obj: Model) -> str:
        return local_text(getattr(obj, attname), getattr(obj, ROOM_ZONE, None) or None, ZONED)

    show.short_description = label  # type: ignore[attr-defined]
    show.admin_order_field = attname  # type: ignore[attr-defined]
    return show


def moment_displays(model_admin: Any, model: type[Model]) -> dict[str, str]:
    """Give ``model_admin`` a display ``<field>_local`` of each date-and-time field of ``model`` on the
    row's room clock (unless it defines its own), and answer ``{field: display}``."""
    displays = {}
    for field in model._meta.concrete_fields:
        if not isinstance(field, DateTimeField):
            continue
        name = f"{field.name}_local"
        if not hasattr(model_admin, name):
            label = str(field.verbose_name)
            setattr(model_admin, name, _moment_display(field.attname, label[:1].upper() + label[1:]))
        displays[field.name] = name
    return displays


def with_room_zone(rows: QuerySet[Any], zone_path: str | None) -> QuerySet[Any]:
    """The rows with their room's zone joined (``ROOM_ZONE``), for the ``_local`` displays."""
    return rows.annotate(**{ROOM_ZONE: F(zone_path)}) if zone_path else rows


class RoomScopedAdmin(admin.ModelAdmin):
    """A person assigned to rooms sees in the admin only the rows of their rooms (``core.rooms``): the
    list, the row's page (another room's is "does not exist"), its exports, and the rooms, tables and
    funds a form offers. A model no room owns is shown whole."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return visible(request.user, super().get_queryset(request))

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        choices = getattr(field, "queryset", None)
        if choices is not None:
            field.queryset = visible(request.user, choices)  # type: ignore[union-attr]
        return field


def room_object_or_404(request: HttpRequest, rows: type[Model] | QuerySet[Any], **lookup: Any) -> Any:
    """The row of a back-office page (a claim to distribute, a transport to verify) among those of the
    rooms the person works in; a 404 when there is none or it is another room's."""
    queryset = rows if isinstance(rows, QuerySet) else rows._default_manager.all()
    return get_object_or_404(visible(request.user, queryset), **lookup)


class MoneyAdmin(admin.ModelAdmin):
    """Money reads as money (``$1,234.56``), never as raw cents: every field of the model named
    ``*_cents`` is shown, in lists and on read-only detail pages, by a display of the same name
    without the suffix (``pot_cents`` -> "Pot"), unless the admin already defines one."""

    def __init__(self, model: type[Model], admin_site: Any) -> None:
        super().__init__(model, admin_site)
        self.money_fields: dict[str, str] = {}
        model_fields = {field.name for field in model._meta.get_fields()}
        for field in model._meta.concrete_fields:
            if not field.name.endswith(MONEY_SUFFIX):
                continue
            name = field.name.removesuffix(MONEY_SUFFIX)
            if name in model_fields:
                name = f"{name}_money"
            if not hasattr(self, name):
                setattr(self, name, _money_display(field.attname, _money_label(str(field.verbose_name))))
            self.money_fields[field.name] = name

    def _as_money(self, names: Sequence[Any]) -> list[Any]:
        shown: list[Any] = []
        for name in names:
            name = self.money_fields.get(name, name) if isinstance(name, str) else name
            if name not in shown:
                shown.append(name)
        return shown

    def get_list_display(self, request: HttpRequest) -> Any:
        return self._as_money(super().get_list_display(request))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = list(super().get_readonly_fields(request, obj))
        # A money field shown read-only is shown by its display, which the form must know is read-only.
        return readonly + [self.money_fields[name] for name in readonly if name in self.money_fields]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_fields(request, obj))
        readonly = set(self.get_readonly_fields(request, obj))
        editable = self.has_change_permission(request, obj) if obj is not None else self.has_add_permission(request)
        # An amount someone may type stays the form's field; an amount shown is shown as money.
        shown: list[Any] = []
        for name in fields:
            if name in self.money_fields and (not editable or name in readonly):
                name = self.money_fields[name]
            if name not in shown:
                shown.append(name)
        return shown


class RoomClockAdmin(admin.ModelAdmin):
    """Moments read on the room's clock with its zone ("2026-12-03 21:14 EST"), never the site's: every
    date-and-time field of the model is shown, in lists and on read-only detail pages, by a display of
    the same name with ``_local`` (``counted_at`` -> "Counted at"). The room's zone comes with the rows,
    joined by the queryset (``room_zone_path``), so a list of a busy day costs no query more."""

    def __init__(self, model: type[Model], admin_site: Any) -> None:
        super().__init__(model, admin_site)
        self.zone_path = room_zone_path(model)
        self.moment_fields = moment_displays(self, model)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return with_room_zone(super().get_queryset(request), self.zone_path)

    def _shown_on_clock(self, names: Sequence[Any]) -> list[Any]:
        return [self.moment_fields.get(name, name) if isinstance(name, str) else name for name in names]

    def get_list_display(self, request: HttpRequest) -> Any:
        return self._shown_on_clock(super().get_list_display(request))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly + [self.moment_fields[name] for name in readonly if name in self.moment_fields]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_fields(request, obj))
        readonly = set(self.get_readonly_fields(request, obj))
        editable = self.has_change_permission(request, obj) if obj is not None else self.has_add_permission(request)
        return [
            self.moment_fields[name] if name in self.moment_fields and (not editable or name in readonly) else name
            for name in fields
        ]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """The declared fieldsets read the same way: each moment shown read-only on the room's clock (a
        line of several fields, a tuple, field by field)."""
        fieldsets = super().get_fieldsets(request, obj)
        if not self.fieldsets:
            return fieldsets  # built from ``get_fields``, moments already on the room's clock
        readonly = set(self.get_readonly_fields(request, obj))
        editable = self.has_change_permission(request, obj) if obj is not None else self.has_add_permission(request)

        def shown(name: Any) -> Any:
            if isinstance(name, tuple | list):
                return tuple(shown(each) for each in name)
            if name in self.moment_fields and (not editable or name in readonly):
                return self.moment_fields[name]
            return name

        return [
            (title, {**options, "fields": [shown(name) for name in options["fields"]]}) for title, options in fieldsets
        ]


class TotalsAdmin(admin.ModelAdmin):
    """A summary line under a list: the totals of every row the filters select (not only the page's),
    computed with one aggregate query. ``totals`` names the money fields to sum; an admin with other
    figures (balances) overrides ``changelist_totals``."""

    totals: Sequence[str] = ()
    change_list_template = "admin/change_list_totals.html"

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        if not self.totals:
            return []
        opts = queryset.model._meta
        sums = queryset.aggregate(**{name: Sum(name, default=0) for name in self.totals})
        return [(_money_label(opts.get_field(name).verbose_name), int(sums[name])) for name in self.totals]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        response = super().changelist_view(request, extra_context)
        context = getattr(response, "context_data", None)
        changelist = context.get("cl") if context else None
        if changelist is not None:
            assert context is not None
            context["totals"] = [
                (label, display_cents(cents)) for label, cents in self.changelist_totals(changelist.queryset)
            ]
            context["totals_count"] = changelist.result_count
        return response


_HISTORY_TYPES = {"+": "Created", "~": "Changed", "-": "Deleted"}


def _room_of(obj: Model) -> Any:
    """The room whose clock reads the document's history: its own, its table's or its box's; None
    (the site's zone) for a document of no room."""
    for path in ("room", "table", "box", "jackpot", "claim"):
        related = getattr(obj, path, None)
        if related is None:
            continue
        if hasattr(related, "timezone"):
            return related
        if getattr(related, "room", None) is not None:
            return related.room
    return None


def _shown(field: Any, value: Any, room: Any) -> str:
    """A value of the history as the pages show it: a choice's label, the person or document a key
    names, money as money, a moment on the room's clock."""
    if value is None or value == "":
        return "(none)"
    if field is None:
        return str(value)
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if field.is_relation and field.related_model is not None:
        related = field.related_model._default_manager.filter(pk=value).first()
        return str(related) if related is not None else f"#{value}"
    if field.attname.endswith(MONEY_SUFFIX) and isinstance(value, int):
        return display_cents(value)
    if isinstance(value, datetime):
        return local_text(value, room, ZONED)
    return str(value)


def audit_history_rows(obj: Model) -> list[dict[str, Any]]:
    """The audit history of ``obj`` (django-simple-history), oldest first: when (on its room's clock,
    with the zone), what (created, changed, deleted), who (name and Board credential number, or "the
    system" for a scheduled task), why, and each field that changed, from what to what."""
    history = obj.history  # type: ignore[attr-defined]
    records = list(history.select_related("history_user").order_by("history_date", "history_id"))
    fields = {field.name: field for field in obj._meta.concrete_fields}
    room = _room_of(obj)
    rows, previous = [], None
    for record in records:
        changes: list[tuple[str, str, str]] = []
        if previous is not None:
            for change in record.diff_against(previous).changes:
                field = fields.get(change.field)
                label = _money_label(str(field.verbose_name)) if field is not None else change.field
                changes.append((label, _shown(field, change.old, room), _shown(field, change.new, room)))
        rows.append(
            {
                "at": local_text(record.history_date, room, ZONED),
                "what": _HISTORY_TYPES.get(record.history_type, record.history_type),
                "who": str(record.history_user) if record.history_user else "the system (a scheduled task)",
                "why": record.history_change_reason or "",
                "changes": changes,
            }
        )
        previous = record
    return rows


class ReadOnlyAdmin(RoomScopedAdmin, MoneyAdmin, RoomClockAdmin, TotalsAdmin):
    """Money rows and signatures: anyone allowed may read them (of the rooms they work in); nobody
    adds, edits or deletes them here. Services are their only writers. Their *History* is the audit
    history the database keeps of them (``audit_history_rows``), read-only: nothing is reverted here."""

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        if not hasattr(self.model._meta, "simple_history_manager_attribute"):
            return super().history_view(request, object_id, extra_context)
        obj = self.get_object(request, object_id)  # among the rooms the person works in
        if obj is None:
            raise Http404
        if not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": f"Audit history: {obj}",
            "opts": self.model._meta,
            "object": obj,
            "rows": audit_history_rows(obj),
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/audit_history.html", context)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def signatures_html(document: SignableDocument, *, room: Any = None) -> str:
    """Each signature of a document as a list: purpose, name, role, Board credential number, and the
    time on the clock of the document's room (``room``, for a document that reaches its room through
    another, such as a deck's verification), with its zone."""
    room = room or _room_of(document)
    rows = [
        (
            signature.purpose,
            signature.signer.get_full_name() or signature.signer.username,
            signature.get_role_display(),
            signature.credential_number,
            local_text(signature.signed_at, room, ZONED_SECOND),
        )
        for signature in document.signatures()
    ]
    if not rows:
        return "none"
    return format_html("<ul>{}</ul>", format_html_join("", "<li>{}: {} ({}, credential {}) at {}</li>", rows))


def export_links(request: HttpRequest) -> dict[str, str]:
    """The page's own address asking for each export (``?...&export=csv``, ``xlsx``), its filters kept."""
    links = {}
    for extension in ("csv", "xlsx"):
        query = request.GET.copy()
        query["export"] = extension
        links[extension] = "?" + query.urlencode()
    return links


class ReadOnlyInline(admin.TabularInline):
    """The rows of a document shown under it (a transport's boxes, a round's drops): read, never
    added, changed or deleted here; their moments on the room's clock with its zone, as the document's."""

    extra = 0
    can_delete = False

    def __init__(self, parent_model: type[Model], admin_site: Any) -> None:
        super().__init__(parent_model, admin_site)
        self.zone_path = room_zone_path(self.model)
        self.moment_fields = moment_displays(self, self.model)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return with_room_zone(super().get_queryset(request), self.zone_path)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields: list[Any] = list(super().get_fields(request, obj))
        return [self.moment_fields.get(name, name) if isinstance(name, str) else name for name in fields]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [self.moment_fields.get(name, name) for name in super().get_readonly_fields(request, obj)]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Heartbeat)
class HeartbeatAdmin(ReadOnlyAdmin):
    list_display = ["source", "beat_at", "hostname"]
