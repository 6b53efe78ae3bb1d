"""The progressives in the admin: the meters, their rounds and paytable returns (``meters``) and their
hands, validations and payments (``payouts``), registered as this package is imported."""

from jackpots.progressive.admin import meters, payouts

__all__ = ["meters", "payouts"]
