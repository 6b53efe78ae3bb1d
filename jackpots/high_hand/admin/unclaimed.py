"""Uncollected High Hand awards in the admin, and finance's approval of where they go (§637a.16(i))."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.html import format_html
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import room_object_or_404, signatures_html
from casino_backoffice.core.clock import ZONED, local_text
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.funds.admin import SignForm, require, sign_page
from jackpots.funds.exports import credential, person
from jackpots.high_hand.admin.common import HighHandAdmin, period_link
from jackpots.high_hand.models import HighHandUnclaimed
from jackpots.high_hand.reports import unclaimed_into, unclaimed_words
from jackpots.high_hand.services.awards import unclaimed_approve

# --- Uncollected awards (§637a.16(i)) -------------------------------------------------------------


class ApprovedFilter(admin.SimpleListFilter):
    title = "approval"
    parameter_name = "approved"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "To approve"), ("yes", "Approved")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "no":
            return queryset.filter(approved_by__isnull=True)
        if self.value() == "yes":
            return queryset.filter(approved_by__isnull=False)
        return queryset


@admin.register(HighHandUnclaimed)
class HighHandUnclaimedAdmin(HighHandAdmin, SimpleHistoryAdmin):
    """Awards not collected in time (§637a.16(b)(6)): the schedule prepares where each goes as the
    posted rules say (§637a.16(i)), finance approves and signs, and the money moves then."""

    list_display = ["prepared_at", "award_link", "amount", "destination_words", "approval", "into"]
    list_filter = [
        ApprovedFilter,
        "award__period__room",
        ("award__period__jackpot", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = [
        "award__entry",
        "award__period__room",
        "approved_by",
        "into_period__jackpot",
        "into_period__room",
    ]
    date_hierarchy = "prepared_at"
    fields = ["award_link", "destination_words", "prepared_at", "approved_by", "approved_at", "into", "signed_by"]
    readonly_fields = ["award_link", "destination_words", "into", "signed_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[HighHandUnclaimed]:
        return super().get_queryset(request).select_related(*self.list_select_related)

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "approve_link"] if may(request.user, Action.HIGH_HAND_UNCLAIMED_APPROVE) else shown

    @admin.display(description="Award", ordering="award")
    def award_link(self, unclaimed: HighHandUnclaimed) -> str:
        return format_html(
            '<a href="{}">award {}</a>: {}',
            reverse("admin:jackpots_highhandaward_change", args=[unclaimed.award_id]),
            unclaimed.award_id,
            unclaimed.award.entry.player_name,
        )

    @admin.display(description="Amount", ordering="award__amount_cents")
    def amount(self, unclaimed: HighHandUnclaimed) -> str:
        return display_cents(unclaimed.award.amount_cents)

    @admin.display(description="The rules send it", ordering="destination")
    def destination_words(self, unclaimed: HighHandUnclaimed) -> str:
        return unclaimed_words(unclaimed.destination)

    @admin.display(description="Approved", ordering="approved_at")
    def approval(self, unclaimed: HighHandUnclaimed) -> str:
        if unclaimed.approved_by is None:
            return "not yet"
        return (
            f"{local_text(unclaimed.approved_at, unclaimed.award.period.room.timezone, ZONED)} by {person(unclaimed.approved_by)} "
            f"({credential(unclaimed.approved_by)})"
        )

    @admin.display(description="Into the pool of", ordering="into_period__starts_at")
    def into(self, unclaimed: HighHandUnclaimed) -> str:
        return period_link(unclaimed.into_period) if unclaimed.into_period else "—"

    @admin.display(description="Signatures")
    def signed_by(self, unclaimed: HighHandUnclaimed) -> str:
        return signatures_html(unclaimed)

    @admin.display(description="", empty_value="")
    def approve_link(self, unclaimed: HighHandUnclaimed) -> str:
        if unclaimed.approved_by_id is not None:
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Approve and sign…</a>',
            reverse("admin:jackpots_highhandunclaimed_approve", args=[unclaimed.pk]),
        )

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.approve_view)
        return [
            path("<int:unclaimed_id>/approve/", view, name="jackpots_highhandunclaimed_approve"),
            *super().get_urls(),
        ]

    def approve_view(self, request: HttpRequest, unclaimed_id: int) -> HttpResponse:
        """Finance approves where an uncollected award goes and signs (``unclaimed_approve``,
        §637a.16(i)): its money moves back from the awards to collect into the fund's next pool."""
        require(request, Action.HIGH_HAND_UNCLAIMED_APPROVE)
        unclaimed = room_object_or_404(
            request,
            HighHandUnclaimed.objects.select_related(
                "award__entry__table", "award__period__jackpot", "award__period__room", "approved_by", "into_period"
            ),
            pk=unclaimed_id,
        )
        award = unclaimed.award
        form = SignForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                done = unclaimed_approve(unclaimed=unclaimed, actor=acting_user(request), pin=form.cleaned_data["pin"])
            except DomainError as refused:
                error = refused.message
            else:
                into = done.into_period
                assert into is not None
                self.message_user(
                    request,
                    f"Award {award.pk} not collected: {display_cents(award.amount_cents)} moved into the pool of the "
                    f"period from {local_text(into.starts_at, award.period.room.timezone, ZONED)}.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_highhandunclaimed_changelist")
        zone = award.period.room.timezone
        into = unclaimed_into(unclaimed)
        entry = award.entry
        facts: list[tuple[str, Any]] = [
            ("Award", f"{award.pk}: {award.period.jackpot.name} ({award.period.jackpot.code})"),
            (
                "Period won",
                f"{local_text(award.period.starts_at, zone, ZONED)} to {local_text(award.period.ends_at, zone, ZONED)}",
            ),
            ("Player", f"{entry.player_name} ({entry.table.number} seat {entry.seat}), {entry.words}"),
            ("Amount", display_cents(award.amount_cents)),
            ("Collect by", local_text(award.collect_by, zone, ZONED)),
            ("Prepared by the schedule", local_text(unclaimed.prepared_at, zone, ZONED)),
            ("The posted rules send it", unclaimed_words(unclaimed.destination)),
            (
                "Goes into the pool of",
                f"the period from {local_text(into.starts_at, zone, ZONED)} ({into.get_status_display().lower()})"
                if into is not None
                else "the next period to close after the approval (kept in the fund until then)"
                if unclaimed.destination == "fund"
                else "no period open at or after the time limit yet: approve when one opens",
            ),
        ]
        if unclaimed.approved_by is not None:
            facts.append(
                (
                    "Approved",
                    f"by {person(unclaimed.approved_by)} ({credential(unclaimed.approved_by)}) at "
                    f"{local_text(unclaimed.approved_at, zone, ZONED)}",
                )
            )
        back = ("Back to the uncollected awards", reverse("admin:jackpots_highhandunclaimed_changelist"))
        return sign_page(
            request,
            title=f"Approve where award {award.pk} goes",
            facts=facts,
            rule=HighHandUnclaimed.APPROVER.words,
            form=form if unclaimed.approved_by_id is None else None,
            submit_label="Approve, sign and move the money",
            back=back,
            error=error,
            note="An award not collected within the time the rules allow goes where the posted rules say "
            "(§637a.16(i)); the money moves when you sign.",
            breadcrumbs=[("High Hand uncollected awards", back[1])],
        )
