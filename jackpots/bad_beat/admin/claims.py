"""Bad Beat claims in the admin (§637a.15(f)-(g)): each claim with its evidence, the evaluator's
verdict in words, the decision, the distribution, the shares and their payments and every signature.

Finance prepares the distribution of a verified claim here, on a page that shows what is signed and
asks for the PIN; the service (``distribution_prepare``) checks every rule, and a refusal shows its
message. The decisions, distributions, shares and payments are in ``documents``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import room_object_or_404
from casino_backoffice.core.clock import ZONED_SECOND, local_text
from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.core.exports import export_response, pdf_response
from casino_backoffice.money import display_cents
from casino_backoffice.staff.auth import acting_user
from casino_backoffice.staff.permissions import Action, may
from jackpots.bad_beat.admin.common import BadBeatAdmin
from jackpots.bad_beat.admin.documents import DecisionInline, DistributionInline
from jackpots.bad_beat.exports import claims_report
from jackpots.bad_beat.models import BadBeatClaim, BadBeatDecision, BadBeatDistribution, ClaimStatus, PayoutMethod
from jackpots.bad_beat.reports import claim_file, claims_with_amounts
from jackpots.bad_beat.selectors import bad_beat_hand_of
from jackpots.bad_beat.services.payouts import LEFTOVER_RULE, distribution_prepare, distribution_split
from jackpots.funds.admin import SignForm, require, sign_page
from jackpots.funds.reports import card_words, game_words

# --- Claims ---------------------------------------------------------------------------------------


_STATUS_SHORT = {
    ClaimStatus.CLAIMED: "claimed, to decide",
    ClaimStatus.VERIFIED: "verified, to distribute",
    ClaimStatus.DENIED: "denied",
    ClaimStatus.DISTRIBUTED: "shares to pay",
    ClaimStatus.PAID: "paid",
}


class QualifiesFilter(admin.SimpleListFilter):
    title = "verdict"
    parameter_name = "verdict"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("qualifies", "Qualifies"), ("does_not", "Does not qualify")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "qualifies":
            return queryset.filter(qualifies=True)
        if self.value() == "does_not":
            return queryset.filter(qualifies=False)
        return queryset


@admin.register(BadBeatClaim)
class BadBeatClaimAdmin(BadBeatAdmin, SimpleHistoryAdmin):
    """Every Bad Beat claim, newest first; a claim's page is its whole file: the hand as seen at the
    table, the evaluator's verdict, the decision, the distribution, the shares and their payments, and
    every signature with the signer's role and Board credential number."""

    list_display = [
        "id",
        "opened_at",
        "table_number",
        "fund",
        "hand",
        "verdict",
        "state",
        "players",
        "payout",
    ]
    list_display_links = ["id", "opened_at"]
    list_filter = ["status", QualifiesFilter, "room", ("jackpot", admin.RelatedOnlyFieldListFilter), "opened_at"]
    list_select_related = ["room", "table", "jackpot", "decision", "distribution"]
    search_fields = ["losing_name", "winning_name", "surveillance_reference", "table__number"]
    date_hierarchy = "opened_at"
    change_list_template = "admin/jackpots/badbeatclaim/change_list.html"
    change_form_template = "admin/jackpots/badbeatclaim/change_form.html"
    inlines = [DecisionInline, DistributionInline]
    fieldsets = [
        (
            "The hand at the table",
            {
                "fields": [
                    "room",
                    "jackpot",
                    "table",
                    "round",
                    "game_name",
                    "happened_at",
                    "players_dealt_in",
                    "board_in_words",
                    "losing",
                    "winning",
                    "others_dealt_in",
                    "surveillance_reference",
                ]
            },
        ),
        (
            "The evaluator's verdict on the posted qualifier",
            {"fields": ["rules_version", "hand_name", "verdict_in_words", "reasons_in_words"]},
        ),
        ("The claim", {"fields": ["status", "opened_by", "opened_at"]}),
    ]
    readonly_fields = [
        "game_name",
        "board_in_words",
        "losing",
        "winning",
        "others_dealt_in",
        "verdict_in_words",
        "reasons_in_words",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[BadBeatClaim]:
        # The list's own related rows too: a queryset that selects some related rows already is not
        # given ``list_select_related`` by the changelist.
        return super().get_queryset(request).select_related(*self.list_select_related, "opened_by", "rules_version")

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_display(request))
        return [*shown, "next_step"] if may(request.user, Action.BAD_BEAT_DISTRIBUTE) else shown

    @admin.display(description="Table", ordering="table__number")
    def table_number(self, claim: BadBeatClaim) -> str:
        return claim.table.number

    @admin.display(description="Fund", ordering="jackpot__code")
    def fund(self, claim: BadBeatClaim) -> str:
        return str(claim.jackpot)

    @admin.display(description="Hand", ordering="hand_name")
    def hand(self, claim: BadBeatClaim) -> str:
        return claim.hand_name

    @admin.display(description="Status", ordering="status")
    def state(self, claim: BadBeatClaim) -> str:
        return _STATUS_SHORT[ClaimStatus(claim.status)]

    @admin.display(description="Players dealt in", ordering="players_dealt_in")
    def players(self, claim: BadBeatClaim) -> int:
        return claim.players_dealt_in

    @admin.display(description="Qualifies", boolean=True, ordering="qualifies")
    def verdict(self, claim: BadBeatClaim) -> bool:
        return claim.qualifies

    @admin.display(description="Payout")
    def payout(self, claim: BadBeatClaim) -> str:
        decision = getattr(claim, "decision", None)
        if decision is None:
            return "—"
        return display_cents(decision.payout_cents) if decision.outcome == "verified" else "denied"

    @admin.display(description="", empty_value="")
    def next_step(self, claim: BadBeatClaim) -> str:
        if claim.status != ClaimStatus.VERIFIED:
            return ""
        return format_html(
            '<a class="button" style="white-space: nowrap" href="{}">Prepare the distribution…</a>',
            reverse("admin:jackpots_badbeatclaim_distribute", args=[claim.pk]),
        )

    @admin.display(description="Game")
    def game_name(self, claim: BadBeatClaim) -> str:
        return game_words(claim.game)

    @admin.display(description="Board")
    def board_in_words(self, claim: BadBeatClaim) -> str:
        return f"{claim.board} ({card_words(claim.board)})"

    def _hand(self, seat: int, name: str, hole: str, hand: str) -> str:
        return format_html(
            "Seat {}, {}: <strong>{}</strong> ({}), made <strong>{}</strong>", seat, name, hole, card_words(hole), hand
        )

    @admin.display(description="Losing hand")
    def losing(self, claim: BadBeatClaim) -> str:
        return self._hand(claim.losing_seat, claim.losing_name, claim.losing_hole, claim.losing_hand)

    @admin.display(description="Winning hand")
    def winning(self, claim: BadBeatClaim) -> str:
        return self._hand(claim.winning_seat, claim.winning_name, claim.winning_hole, claim.winning_hand)

    @admin.display(description="Every other player dealt in (the table share)")
    def others_dealt_in(self, claim: BadBeatClaim) -> str:
        return ", ".join(f"seat {other['seat']} {other['name']}" for other in claim.others) or "none"

    @admin.display(description="Verdict")
    def verdict_in_words(self, claim: BadBeatClaim) -> str:
        if claim.qualifies:
            return f"Qualifies for the {claim.hand_name} under rules version {claim.rules_version.number}."
        return (
            f"Does not qualify under rules version {claim.rules_version.number}: kept as evidence, it can only be "
            "denied."
        )

    @admin.display(description="The evaluator's reasons")
    def reasons_in_words(self, claim: BadBeatClaim) -> str:
        return format_html_join(mark_safe("<br>"), "{}", ((reason,) for reason in claim.reasons))

    def changelist_totals(self, queryset: QuerySet[Any]) -> list[tuple[str, int]]:
        total = BadBeatDecision.objects.filter(claim__in=queryset.values("pk")).aggregate(
            total=Sum("payout_cents", default=0)
        )["total"]
        return [("Payouts fixed at verification", int(total))]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        query = request.GET.urlencode()
        links = {
            extension: reverse("admin:jackpots_badbeatclaim_export", args=[extension]) + (f"?{query}" if query else "")
            for extension in ("csv", "xlsx")
        }
        return super().changelist_view(request, {"export_links": links, **(extra_context or {})})

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        claim = self.get_object(request, object_id)
        context: dict[str, Any] = {**(extra_context or {})}
        if claim is not None and self.has_view_permission(request, claim):
            file = claim_file(claim=claim)
            may_pay = may(request.user, Action.BAD_BEAT_PAY)
            context.update(
                {
                    "file": file,
                    "share_rows": [
                        {
                            "share": share,
                            "payment": file.payments.get(share.pk),
                            "pay_url": reverse("admin:jackpots_badbeatshare_pay", args=[share.pk])
                            if may_pay and share.pk not in file.payments
                            else "",
                        }
                        for share in file.shares
                    ],
                    "may_distribute": may(request.user, Action.BAD_BEAT_DISTRIBUTE)
                    and claim.status == ClaimStatus.VERIFIED,
                }
            )
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:claim_id>/file/", wrap(self.file_view), name="jackpots_badbeatclaim_file"),
            path("<int:claim_id>/distribute/", wrap(self.distribute_view), name="jackpots_badbeatclaim_distribute"),
            path("export/<str:extension>/", wrap(self.export_view), name="jackpots_badbeatclaim_export"),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest, extension: str) -> HttpResponse:
        """Every claim the list's filters select, with its status and amounts, as CSV or XLSX."""
        if not self.has_view_permission(request) or extension not in ("csv", "xlsx"):
            raise PermissionDenied
        changelist = self.get_changelist_instance(request)
        claims = claims_with_amounts(changelist.queryset.order_by("opened_at", "pk"))
        return export_response(claims_report(claims=claims, filename="bad-beat-claims"), extension)

    def file_view(self, request: HttpRequest, claim_id: int) -> HttpResponse:
        """The claim file for the regulator as PDF: the hands in words, the verdict, the rules version and
        its posted qualifier, the surveillance reference, every signature with name, role, Board
        credential number and time, the distribution, each payment with the patron's identification,
        and the ledger transfers."""
        require(request, Action.BAD_BEAT_RECORDS_READ)
        claim = room_object_or_404(request, BadBeatClaim, pk=claim_id)
        context = {
            "file": claim_file(claim=claim),
            "printed_at": timezone.now(),
            "printed_by": acting_user(request),
        }
        return pdf_response(
            template_name="jackpots/reports/claim_file.html",
            context=context,
            filename=f"bad-beat-claim-{claim.pk}",
            request=request,
        )

    def distribute_view(self, request: HttpRequest, claim_id: int) -> HttpResponse:
        """Finance prepares the distribution of a verified claim and signs (``distribution_prepare``,
        §637a.15(g)): the page shows the payout fixed at verification and its split by the posted
        shares before the PIN is asked."""
        require(request, Action.BAD_BEAT_DISTRIBUTE)
        claim = room_object_or_404(
            request, BadBeatClaim.objects.select_related("jackpot", "table", "rules_version", "room"), pk=claim_id
        )
        decision = BadBeatDecision.objects.filter(claim=claim).first()
        form = DistributeForm(request.POST or None)
        error = ""
        if request.method == "POST" and form.is_valid():
            try:
                distribution = distribution_prepare(
                    claim=claim,
                    actor=acting_user(request),
                    pin=form.cleaned_data["pin"],
                    idempotency_key=form.cleaned_data["idempotency_key"],
                    method=form.cleaned_data["method"],
                )
            except DomainError as refused:
                error = refused.message
            else:
                self.message_user(
                    request,
                    f"Distribution of claim {claim.pk} prepared and signed: {display_cents(distribution.total_cents)} "
                    f"in {distribution.shares.count()} shares.",
                    messages.SUCCESS,
                )
                return redirect("admin:jackpots_badbeatclaim_change", claim.pk)
        facts: list[tuple[str, Any]] = [
            ("Claim", f"{claim.pk}: {claim.hand_name} hand at table {claim.table.number}, {game_words(claim.game)}"),
            ("Fund", str(claim.jackpot)),
            ("Status", claim.get_status_display()),
        ]
        table = None
        if decision is not None and decision.outcome == "verified":
            facts += [
                (
                    "Verified by",
                    f"{decision.decided_by} at {local_text(decision.decided_at, claim.room, ZONED_SECOND)}",
                ),
                ("Payout fixed at verification", display_cents(decision.payout_cents)),
            ]
            if claim.status == ClaimStatus.VERIFIED and decision.payout_cents > 0:
                _, hand = bad_beat_hand_of(claim)
                lines = distribution_split(
                    total_cents=decision.payout_cents,
                    shares_bp=hand.shares_bp,
                    losing=(claim.losing_seat, claim.losing_name),
                    winning=(claim.winning_seat, claim.winning_name),
                    others=[(other["seat"], other["name"]) for other in claim.others],
                )
                threshold = settings.TAX_REPORTING_THRESHOLD_CENTS
                table = (
                    ["Share", "Seat", "Patron", "Amount", "Tax documentation"],
                    [
                        (
                            line.share.label,
                            line.seat,
                            line.name,
                            display_cents(line.amount_cents),
                            "yes" if line.amount_cents >= threshold else "",
                        )
                        for line in lines
                    ],
                )
        return sign_page(
            request,
            title=f"Prepare the distribution of claim {claim.pk}",
            facts=facts,
            rule=BadBeatDistribution.PREPARER.words,
            # Only a verified claim is distributed; the page of any other says where it stands.
            form=form if claim.status == ClaimStatus.VERIFIED else None,
            submit_label="Sign the distribution",
            back=("Back to the claim", reverse("admin:jackpots_badbeatclaim_change", args=[claim.pk])),
            error=error,
            table=table,
            note=f"Where the odd cents go: {LEFTOVER_RULE}",
            breadcrumbs=[("Bad Beat claims", reverse("admin:jackpots_badbeatclaim_changelist"))],
        )


class DistributeForm(SignForm):
    method = forms.ChoiceField(label="Paid in", choices=PayoutMethod.choices, initial=PayoutMethod.CASH)
