from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Heartbeat


class ReadOnlyAdmin(admin.ModelAdmin):
    """Money rows and signatures: anyone allowed may read them; nobody adds, edits or deletes them
    here. Services are their only writers."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Heartbeat)
class HeartbeatAdmin(ReadOnlyAdmin):
    list_display = ["source", "beat_at", "hostname"]
