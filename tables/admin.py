import difflib
import json
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import ReadOnlyAdmin, RoomScopedAdmin
from casino_backoffice.core.clock import ZONED, local_text, zone_of
from casino_backoffice.core.exports import Column, Kind, Report, export_response
from casino_backoffice.money import display_cents, format_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from casino_backoffice.staff.roles import Role

from .games import Game, seat_limit_problem
from .irregularities.house_kinds import house_kinds_of
from .models import PokerRoom, Round, RulesVersion, Table
from .services import room_upsert, table_upsert
from .time_zones import time_zone_problem

# Rooms and tables change only through their services (``room_upsert``, ``table_upsert``): the
# forms check what the services check, so a refusal is a form error, and the save calls the service.
# A room's code and a table's room and number name them, so they are set once; tables open and
# close on the floor (``table_set_open``); neither is deleted here.


def _saved_as(obj: Any, saved: Any) -> None:
    """Point the admin's object at the row the service saved, for the admin's log and redirect."""
    obj.pk = saved.pk
    obj._state.adding = False
    obj._state.db = saved._state.db


class PokerRoomForm(forms.ModelForm):
    class Meta:
        model = PokerRoom
        fields = ["code", "name", "timezone", "gaming_day_starts"]

    def clean_timezone(self) -> str:
        name = self.cleaned_data["timezone"]
        if problem := time_zone_problem(name):
            raise forms.ValidationError(problem)
        return name


@admin.register(PokerRoom)
class PokerRoomAdmin(RoomScopedAdmin, SimpleHistoryAdmin):
    form = PokerRoomForm
    list_display = ["code", "name", "timezone", "gaming_day_starts"]
    search_fields = ["code", "name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # A room's time zone and gaming-day start are posted rules: they change with a rules version
        # (``manage.py load_rules``), never here, so a day's boundaries move only with the rules on record.
        return ["code", "timezone", "gaming_day_starts"] if obj is not None else []

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A new room is opened by an administrator holding the all-rooms grant (as its first rules are).
        user = request.user
        return (
            may(user, Action.ROOM_UPSERT)
            and Role.ADMINISTRATOR in getattr(user, "roles", ())
            and bool(getattr(user, "works_everywhere", False))
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.ROOM_UPSERT)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: PokerRoom, form: Any, change: bool) -> None:
        saved = room_upsert(
            code=obj.code,
            name=obj.name,
            timezone_name=obj.timezone,
            gaming_day_starts=obj.gaming_day_starts,
            actor=acting_user(request),
        )
        _saved_as(obj, saved)


class TableForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ["room", "number", "game", "seats"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("game")
            and data.get("seats") is not None
            and (problem := seat_limit_problem(game=data["game"], seats=data["seats"]))
        ):
            self.add_error("seats", problem)
        return data


@admin.register(Table)
class TableAdmin(RoomScopedAdmin, SimpleHistoryAdmin):
    form = TableForm
    list_display = ["number", "room", "game", "seats", "is_open"]
    list_filter = ["room", "game", "is_open"]
    list_select_related = ["room"]
    search_fields = ["number"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["room", "number", "is_open"] if obj is not None else ["is_open"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.TABLE_UPSERT)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.TABLE_UPSERT)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        saved = table_upsert(
            room=obj.room, number=obj.number, game=Game(obj.game), seats=obj.seats, actor=acting_user(request)
        )
        _saved_as(obj, saved)


# --- Rules versions and rounds of play (issue 4) ---------------------------------------------------


def _pretty(content: dict) -> list[str]:
    return json.dumps(content, indent=2, sort_keys=True, ensure_ascii=False).splitlines()


_ROUND_WORDS = {"optional": "with its round when there is one", "required": "with its round", "none": "with no round"}


@admin.register(RulesVersion)
class RulesVersionAdmin(ReadOnlyAdmin):
    """Every version of each room's rules, with what changed from the version before it."""

    list_display = ["room", "number", "effective", "loaded", "loaded_by", "source_name", "short_sha"]
    list_filter = ["room"]
    list_select_related = ["room", "loaded_by"]
    readonly_fields = [
        "room",
        "number",
        "effective",
        "loaded",
        "loaded_by",
        "source_name",
        "content_sha256",
        "dated_back",
        "irregularity_kinds",
        "changes",
        "source",
    ]
    exclude = ["content", "source_text"]

    @admin.display(description="The room's own kinds of irregularity (§637a.18(s))")
    def irregularity_kinds(self, version: RulesVersion) -> str:
        kinds = house_kinds_of(version.content)
        if not kinds:
            return "None: the regulations' kinds only."
        return format_html_join(
            "\n",
            "<p><strong>{}</strong> ({}): {} <em>At {} tables, {}; ruled by a {}.</em></p>",
            (
                (k.name, k.code, k.procedure, k.tables, _ROUND_WORDS[k.round], k.ruled_by.replace("_", " "))
                for k in kinds.values()
            ),
        )

    @admin.display(description="In effect from", ordering="effective_from")
    def effective(self, version: RulesVersion) -> str:
        return local_text(version.effective_from, version.room, ZONED)  # the room's clock, with its zone

    @admin.display(description="Loaded at", ordering="loaded_at")
    def loaded(self, version: RulesVersion) -> str:
        return local_text(version.loaded_at, version.room, ZONED)

    @admin.display(description="Dated back")
    def dated_back(self, version: RulesVersion) -> str:
        # A version takes effect no earlier than its loading, but the first of a new room (rake's rules_load).
        if version.effective_from >= version.loaded_at:
            return "No: in effect from its loading or later."
        return (
            f"Dated back: in effect from {local_text(version.effective_from, version.room, ZONED)}, before it was "
            f"loaded at {local_text(version.loaded_at, version.room, ZONED)}, as only the first version of a new "
            "room may be."
        )

    @admin.display(description="SHA-256")
    def short_sha(self, version: RulesVersion) -> str:
        return version.content_sha256[:12]

    @admin.display(description="Changes from the previous version")
    def changes(self, version: RulesVersion) -> str:
        previous = RulesVersion.objects.filter(room=version.room, number__lt=version.number).order_by("-number").first()
        before = _pretty(previous.content) if previous else []
        label = f"version {previous.number}" if previous else "nothing"
        diff = "\n".join(
            difflib.unified_diff(
                before, _pretty(version.content), fromfile=label, tofile=f"version {version.number}", lineterm=""
            )
        )
        return format_html("<pre>{}</pre>", diff or "No change.")

    @admin.display(description="File as loaded")
    def source(self, version: RulesVersion) -> str:
        return format_html("<pre>{}</pre>", version.source_text)


ROUND_COLUMNS = [
    Column("id", Kind.INTEGER),
    Column("room"),
    Column("table"),
    Column("game"),
    Column("ended_at", Kind.DATETIME),
    Column("gaming_day", Kind.DATE),
    Column("shift"),
    Column("players_dealt_in", Kind.INTEGER),
    Column("pot", Kind.MONEY),
    Column("uncalled_bet", Kind.MONEY),
    Column("refund", Kind.MONEY),
    Column("flop_dealt", Kind.BOOLEAN),
    Column("voided", Kind.BOOLEAN),
    Column("rules_version", Kind.INTEGER),
    Column("rake", Kind.MONEY),
    Column("drops"),
]


def _export(rounds: list[Round], extension: str) -> HttpResponse:
    # Voided: logged voided, or voided after by a signed void (``rake``'s, read by its reverse name).
    voided_after = set(
        Round.objects.filter(pk__in=[r.pk for r in rounds], void__isnull=False).values_list("pk", flat=True)
    )
    rows = [
        [
            r.pk,
            r.table.room.code,
            r.table.number,
            r.game,
            r.ended_at,
            r.gaming_day,
            r.shift,
            r.players_dealt_in,
            r.pot_cents,
            r.uncalled_bet_cents,
            r.refund_cents,
            r.flop_dealt,
            r.voided or r.pk in voided_after,
            r.rules_version.number,
            r.rake_cents,
            "; ".join(f"{d.jackpot_code} {format_cents(d.amount_cents)}" for d in r.drops.all()),
        ]
        for r in rounds
    ]
    # Times in the rooms' zone; rounds of rooms in several zones are shown in the site's.
    zones = {r.table.room.timezone for r in rounds}
    zone = zone_of(zones.pop() if len(zones) == 1 else None)
    return export_response(
        Report(columns=ROUND_COLUMNS, rows=rows, title="Rounds", filename="rounds", time_zone=zone), extension
    )


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    """Rounds of play as logged, with the rake and drops their rules took. Never edited. The drops are
    jackpots' rows: ``jackpots.admin`` adds their inline, since tables knows nothing of jackpots."""

    list_display = [
        "id",
        "table",
        "ended_at",
        "gaming_day",
        "shift",
        "game",
        "players_dealt_in",
        "pot",
        "rake",
        "voided",
        "rules_version",
    ]
    list_filter = ["gaming_day", "shift", "game", "voided", "table__room", "table"]
    list_select_related = ["table__room", "rules_version__room"]
    search_fields = ["idempotency_key", "table__number"]
    date_hierarchy = "ended_at"
    actions = ["export_csv", "export_xlsx"]
    exclude = ["request_sha256"]
    totals = ["pot_cents", "rake_cents"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Every round's rake is a read of the table of actions, as GET /api/rounds/ is: not the cage's.
        return may(request.user, Action.ROUNDS_READ) and super().has_view_permission(request, obj)

    @admin.display(description="Pot", ordering="pot_cents")
    def pot(self, round_: Round) -> str:
        return display_cents(round_.pot_cents)

    @admin.display(description="Rake", ordering="rake_cents")
    def rake(self, round_: Round) -> str:
        return display_cents(round_.rake_cents)

    def _rows(self, queryset) -> list[Round]:
        return list(queryset.select_related("table__room", "rules_version").prefetch_related("drops"))

    @admin.action(description="Export the selected rounds as CSV")
    def export_csv(self, request: HttpRequest, queryset) -> HttpResponse:
        return _export(self._rows(queryset), "csv")

    @admin.action(description="Export the selected rounds as XLSX")
    def export_xlsx(self, request: HttpRequest, queryset) -> HttpResponse:
        return _export(self._rows(queryset), "xlsx")


# The irregularity log and the equipment and deck logs register as their modules are imported (Django
# imports ``tables.admin`` only).
from tables.equipment import admin as equipment_admin  # noqa: E402, F401
from tables.irregularities import admin as irregularities_admin  # noqa: E402, F401
