from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"

    def ready(self) -> None:
        from casino_backoffice.ledger.invariants import invariant_register

        from .invariants import cage_invariants, high_hand_pool_violations

        invariant_register("cage", cage_invariants)

        from . import today  # noqa: F401  (registers the cage's sections of the admin's Today page)

        invariant_register("high_hand_pools", high_hand_pool_violations)

        from rake.signals import rules_version_loaded

        rules_version_loaded.connect(_boxes_of_loaded_rules, dispatch_uid="cage-boxes-of-loaded-rules")


def _boxes_of_loaded_rules(sender: object, *, room: object, rules: object, **kwargs: object) -> None:
    """The boxes a rules version names are opened in the transaction that loads it."""
    from .services.boxes import boxes_open

    boxes_open(room=room, rules=rules)  # type: ignore[arg-type]
