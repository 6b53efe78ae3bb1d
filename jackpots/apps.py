from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "jackpots"

    def ready(self) -> None:
        from casino_backoffice.ledger.invariants import invariant_register

        from .invariants import jackpot_invariants

        invariant_register("jackpots", jackpot_invariants)
