"""*Today*: the work waiting for the cage and finance in their rooms, on the admin's first page.

A cage cashier, finance and compliance open the admin to what the day asks of them, not to a list of
some forty kinds of record: transports arriving and to verify, payouts to pay, variances to explain,
gaming days to close, each with its count and a link to the page that does it. The kernel holds only
the page and this registry; each app says what it has waiting (``today_section``, registered when the
app is ready), so the kernel never imports an app above it.

A section reads only the rooms the person works in (``tables.selectors.rooms_of``): a cashier of room B
never sees room A's transports here, as on every other page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest

# The roles whose admin home is *Today* first; others see it too when something waits in their rooms.
TODAY_FIRST_ROLES = frozenset({"cage_cashier", "finance", "compliance"})
# A section lists its first items; its count says how many there are, its link opens them all.
ITEMS_SHOWN = 8


@dataclass(frozen=True)
class TodayItem:
    """One thing waiting: what it is in words, where it is done, and a detail (an amount, a time)."""

    text: str
    url: str
    detail: str = ""


@dataclass(frozen=True)
class TodaySection:
    """One kind of work waiting: its title, how many, the first of them, and the page of them all."""

    title: str
    count: int
    items: tuple[TodayItem, ...] = ()
    all_url: str = ""
    action: str = "Open"
    done: str = "Nothing waiting."
    notes: tuple[str, ...] = field(default_factory=tuple)


SectionReader = Callable[[HttpRequest], TodaySection | None]
_SECTIONS: dict[str, tuple[int, SectionReader]] = {}


def today_section(name: str, *, order: int) -> Callable[[SectionReader], SectionReader]:
    """Register ``reader`` as a section of *Today*, in ``order`` (transports 10, payouts 20 to 29,
    variances 30, days 40); a reader answers None when the person may not see that work at all."""

    def register(reader: SectionReader) -> SectionReader:
        _SECTIONS[name] = (order, reader)
        return reader

    return register


def today_sections(request: HttpRequest) -> list[TodaySection]:
    """Every registered section for the person of ``request``, in their order."""
    sections = (reader(request) for _, reader in sorted(_SECTIONS.values(), key=lambda entry: entry[0]))
    return [section for section in sections if section is not None]
