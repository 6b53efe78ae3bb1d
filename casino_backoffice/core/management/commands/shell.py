"""Django's ``shell`` without the auto-import of django-simple-history's historical models, which
are generated at run time and cannot be imported by path (Django would print a warning each time)."""

from __future__ import annotations

from django.core.management.commands import shell


class Command(shell.Command):
    def get_auto_imports(self) -> list[str] | None:
        imports = super().get_auto_imports()
        if imports is None:
            return None
        return [path for path in imports if ".Historical" not in path]
