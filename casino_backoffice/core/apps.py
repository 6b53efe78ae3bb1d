from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "casino_backoffice.core"
    label = "core"
    verbose_name = "Operations"

    def ready(self) -> None:
        from django.core.signals import request_finished, request_started

        from .audit import acting_cleared

        # A served request names its person itself; it neither takes nor leaves an acting person.
        request_started.connect(acting_cleared, dispatch_uid="core.audit.request_started")
        request_finished.connect(acting_cleared, dispatch_uid="core.audit.request_finished")
