"""A patron's identification on pages and documents: ``{{ payment.id_number|id_masked }}`` shows its
last four characters only, the one way every page, PDF and export shows it
(``jackpots.funds.reports.id_number_masked``)."""

from django import template

from jackpots.funds.reports import id_number_masked

register = template.Library()


@register.filter
def id_masked(number: str | None) -> str:
    return id_number_masked(number or "")
