"""A trace as the API answers it and as its canonical JSON reads (``render.trace_json``): one set of
serializers, so the JSON document, the API's body and the schema cannot drift. Money as "12.34"."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino_backoffice.core.api import CentsField

from .model import Check, Link, Trace


class PostedOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The ledger transfer.")
    kind = serializers.CharField(help_text="The transfer's kind (rake, drop, verification, payout...).")
    debit = serializers.CharField(help_text="The account code the money went to.")
    credit = serializers.CharField(help_text="The account code the money came from.")
    amount = CentsField(source="amount_cents")
    posted_at = serializers.CharField(help_text="On the room's clock, with its zone.")


class SignedOutput(serializers.Serializer):
    purpose = serializers.CharField()
    person = serializers.CharField()
    role = serializers.CharField(help_text="The role the person signed in.")
    credential_number = serializers.CharField(help_text="The gaming credential as it stood when signed.")
    signed_at = serializers.CharField(help_text="On the room's clock, with its zone.")
    content_hash = serializers.CharField(help_text="The SHA-256 of the content signed.")


class DetailOutput(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.CharField()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        name, value = instance
        return {"name": name, "value": value}


class LinkOutput(serializers.Serializer):
    step = serializers.CharField(help_text="round, rake, drop, box, count, transport, verification, variance...")
    kind = serializers.CharField(help_text="The document's model.")
    id = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the field is named as the document says it
    amount = CentsField(source="amount_cents", allow_null=True)
    at = serializers.CharField(help_text="On the room's clock, with its zone; empty when the document has no moment.")
    details = DetailOutput(many=True)
    transfers = PostedOutput(many=True)
    signatures = SignedOutput(many=True)

    def to_representation(self, instance: Link) -> dict[str, Any]:
        data = super().to_representation(instance)
        if instance.amount_cents is None:
            data["amount"] = None
        return data


class CheckOutput(serializers.Serializer):
    step = serializers.CharField()
    what = serializers.CharField(help_text="What is checked against what.")
    expected = CentsField(source="expected_cents")
    actual = CentsField(source="actual_cents")
    difference = CentsField(source="difference_cents", help_text="actual - expected.")
    reconciles = serializers.BooleanField()
    explanation = serializers.CharField(help_text="Why the amounts differ, when they do.")


class TraceContentOutput(serializers.Serializer):
    """What a trace says: the content its SHA-256 is of (``render.trace_sha256``)."""

    start = serializers.CharField(help_text='The document traced from, "payment:12".')
    room = serializers.CharField()
    zone = serializers.CharField(help_text="The room's time zone every moment is shown in.")
    reconciles = serializers.BooleanField(help_text="Every check agrees, or its difference is explained.")
    links = LinkOutput(many=True)
    checks = CheckOutput(many=True)


class TraceOutput(TraceContentOutput):
    """The API's body: the content and its SHA-256 (given in the context as ``sha256``)."""

    sha256 = serializers.SerializerMethodField(
        help_text="The SHA-256 of the trace's canonical JSON (every field but this one, keys sorted, "
        "no spaces, UTF-8), as printed on its PDF."
    )

    def get_sha256(self, trace: Trace) -> str:
        return str(self.context["sha256"])


def link_data(link: Link) -> dict[str, Any]:
    return dict(LinkOutput(link).data)


def check_data(check: Check) -> dict[str, Any]:
    return dict(CheckOutput(check).data)


def content_data(trace: Trace) -> dict[str, Any]:
    return dict(TraceContentOutput(trace).data)
