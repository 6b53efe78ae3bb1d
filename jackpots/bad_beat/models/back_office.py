"""Pages of the back office about the Bad Beat that are not tables of their own, listed with the
jackpots' models in the admin so that finance and compliance always find them (as ``rake`` lists
its poker revenue report): the display check of §637a.15(h)(2) and the Bad Beat reports."""

from __future__ import annotations

from jackpots.funds.models import Jackpot


class BadBeatDisplayCheck(Jackpot):
    """The display check (§637a.15(h)(2)): each Bad Beat fund's finance record against the amount
    displayed to patrons, a page over the funds (``jackpots.bad_beat.reports.display_check``)."""

    class Meta:
        proxy = True
        default_permissions = ("view",)
        verbose_name = "Bad Beat display check"
        verbose_name_plural = "Bad Beat display check"

    def __str__(self) -> str:
        return "Bad Beat display check"


class BadBeatReport(Jackpot):
    """The Bad Beat's reports: the posted rules and the table notices (§637a.15(b)), the fund
    statement, the claims of a period; pages over the funds and claims (``jackpots.bad_beat.reports``)."""

    class Meta:
        proxy = True
        default_permissions = ("view",)
        verbose_name = "Bad Beat report"
        verbose_name_plural = "Bad Beat reports"

    def __str__(self) -> str:
        return "Bad Beat reports"
