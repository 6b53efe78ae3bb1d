from django.apps import AppConfig


class RakeConfig(AppConfig):
    name = "rake"

    def ready(self) -> None:
        from casino_backoffice.ledger.invariants import reversing_document_register

        from .models import RoundVoid

        # A round voided returns its rake and drops by reversals that the void, signed, references.
        reversing_document_register(RoundVoid)
