from django.apps import AppConfig


class JackpotsConfig(AppConfig):
    name = "jackpots"

    def ready(self) -> None:
        from casino_backoffice.ledger.invariants import invariant_register, reversing_document_register

        # Each product's rules module registers the reader of its kind of item of a rules file's
        # ``jackpots`` (``jackpots.funds.rules.jackpot_kind_reader``) as it is imported.
        from .bad_beat import rules as bad_beat_rules  # noqa: F401
        from .high_hand import rules as high_hand_rules  # noqa: F401
        from .invariants import jackpot_invariants

        invariant_register("jackpots", jackpot_invariants)

        from .progressive.models import ProgressiveRoundVoid

        # A banked round voided returns its wagers by reversals that the void, signed, references.
        reversing_document_register(ProgressiveRoundVoid)

        # Each product's section of the admin's Today page registers itself as it is imported.
        from .bad_beat import today as bad_beat_today  # noqa: F401
        from .high_hand import today as high_hand_today  # noqa: F401
        from .progressive import today as progressive_today  # noqa: F401
