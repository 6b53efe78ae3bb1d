from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "casino_backoffice.ledger"
    label = "ledger"
    verbose_name = "Ledger"
