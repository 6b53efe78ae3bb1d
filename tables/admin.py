from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import PokerRoom, Table


@admin.register(PokerRoom)
class PokerRoomAdmin(SimpleHistoryAdmin):
    list_display = ["code", "name", "timezone", "gaming_day_starts"]
    search_fields = ["code", "name"]


@admin.register(Table)
class TableAdmin(SimpleHistoryAdmin):
    list_display = ["number", "room", "game", "seats", "is_open"]
    list_filter = ["room", "game", "is_open"]
    list_select_related = ["room"]
    search_fields = ["number"]
