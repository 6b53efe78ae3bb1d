from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "casino_backoffice.core"
    label = "core"
    verbose_name = "Operations"
