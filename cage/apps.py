from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"

    def ready(self) -> None:
        from casino_backoffice.ledger.invariants import invariant_register

        from .invariants import cage_invariants, high_hand_pool_violations

        invariant_register("cage", cage_invariants)
        invariant_register("high_hand_pools", high_hand_pool_violations)
