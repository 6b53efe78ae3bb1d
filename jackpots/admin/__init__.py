"""The jackpots in the admin: the funds and each round's drops here; the Bad Beat's claims and their
documents (``bad_beat``), its display and fund transfers (``display``) and its reports (``reports``),
the High Hand's periods, Tracking Slips, awards and reports (``high_hand``) and the progressive
meters, their rounds and paytable returns (``progressive``) and their hands, validations and
payments (``progressive_payouts``) in their modules,
registered as this package is imported."""

from django.contrib import admin

from casino_backoffice.core.admin import ReadOnlyAdmin, ReadOnlyInline
from casino_backoffice.money import display_cents
from tables.admin import RoundAdmin
from tables.models import Round

from ..models import Jackpot, RoundDrop


@admin.register(Jackpot)
class JackpotAdmin(ReadOnlyAdmin):
    """The jackpot funds the rules files named; their rules are in each rules version."""

    list_display = ["code", "name", "kind", "room", "created_at"]
    list_filter = ["room", "kind"]
    list_select_related = ["room"]


class RoundDropInline(ReadOnlyInline):
    model = RoundDrop
    readonly_fields = ("jackpot_code", "amount", "rule")
    fields = readonly_fields

    @admin.display(description="Amount")
    def amount(self, drop: RoundDrop) -> str:
        return display_cents(drop.amount_cents)


# A round's drops are jackpots' rows, shown under the round: tables (below jackpots) registers the
# round's admin without them, and jackpots registers it again with them.
admin.site.unregister(Round)


@admin.register(Round)
class RoundWithDropsAdmin(RoundAdmin):
    inlines = [*RoundAdmin.inlines, RoundDropInline]


# Registered as they are imported (Django imports ``jackpots.admin`` only).
from . import bad_beat, display, high_hand, progressive, progressive_payouts, reports  # noqa: E402

__all__ = ["bad_beat", "display", "high_hand", "progressive", "progressive_payouts", "reports"]
