from django.contrib import admin

from casino_backoffice.core.admin import ReadOnlyAdmin

from .models import Jackpot


@admin.register(Jackpot)
class JackpotAdmin(ReadOnlyAdmin):
    """The jackpot funds the rules files named; their rules are in each rules version."""

    list_display = ["code", "name", "kind", "room", "created_at"]
    list_filter = ["room", "kind"]
    list_select_related = ["room"]
