from typing import Any, cast

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UsernameField
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from knox.models import AuthToken
from simple_history.admin import SimpleHistoryAdmin

from casino_backoffice.core.admin import ReadOnlyAdmin
from casino_backoffice.core.exceptions import DomainError

from .auth import acting_user
from .models import RefusedAction, SecondFactorEvent, Signature, SignInAttempt, User
from .permissions import Action, may
from .roles import Role
from .second_factor.services import second_factor_reset
from .services import api_token_revoke, signing_unlock


class RoleFilter(admin.SimpleListFilter):
    """People by role, in words (a role is a group named by its code)."""

    title = "role"
    parameter_name = "role"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(role.value, str(role.label)) for role in Role]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        return queryset.filter(groups__name=self.value()) if self.value() else queryset


class _RoomsForm:
    """The rooms a person works in, on the admin's add and change forms: rooms, or the all-rooms grant
    (property-wide staff, by choice); one or the other, never neither. Only a person holding the
    all-rooms grant offers it or rooms that are not theirs, and nobody grants themselves rooms."""

    fields: dict[str, forms.Field]
    instance: User
    acting: User

    def _add_rooms_field(self, acting: User) -> None:
        self.acting = acting
        rooms = apps.get_model("tables", "PokerRoom").objects.order_by("code")
        if not acting.works_everywhere:
            rooms = rooms.filter(staff=acting)
        cast(forms.ModelMultipleChoiceField, self.fields["rooms"]).queryset = rooms
        if self.instance.pk:
            self.fields["rooms"].initial = list(self.instance.poker_rooms.values_list("pk", flat=True))
        self.fields["all_rooms"].disabled = not acting.works_everywhere
        if self.instance.pk and self.instance.pk == acting.pk:
            self.fields["rooms"].disabled = self.fields["all_rooms"].disabled = True
            self.fields["rooms"].help_text = "Your own rooms are given by another administrator."

    def _check_rooms(self, data: dict[str, Any]) -> dict[str, Any]:
        if self.fields["rooms"].disabled:
            return data
        if not data.get("rooms") and not data.get("all_rooms"):
            raise forms.ValidationError(
                "Give the rooms this person works in, or the all-rooms grant (property-wide staff only): a person "
                "given neither works nowhere."
            )
        return data

    def _save_rooms(self, user: User) -> None:
        if self.fields["rooms"].disabled:
            return
        offered = set(cast(forms.ModelMultipleChoiceField, self.fields["rooms"]).queryset or ())
        given = set(self.cleaned_data.get("rooms", []))  # type: ignore[attr-defined]
        # From the rooms' side, whose staff history is kept; rooms not offered to the acting person stay as they are.
        for room in offered - given:
            room.staff.remove(user)
        for room in given:
            room.staff.add(user)


def _rooms_field() -> forms.ModelMultipleChoiceField:
    return forms.ModelMultipleChoiceField(
        queryset=apps.get_model("tables", "PokerRoom").objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="The poker rooms this person works in: a person given none works nowhere.",
    )


class StaffCreationForm(_RoomsForm, AdminUserCreationForm):
    rooms = _rooms_field()

    class Meta:
        model = User
        fields = ("username", "credential_number", "all_rooms")
        field_classes = {"username": UsernameField}

    def clean(self) -> dict[str, Any]:
        return self._check_rooms(super().clean() or {})


class StaffChangeForm(_RoomsForm, UserChangeForm):
    rooms = _rooms_field()

    class Meta:
        model = User
        fields = "__all__"
        field_classes = {"username": UsernameField}

    def clean(self) -> dict[str, Any]:
        return self._check_rooms(super().clean() or {})


@admin.register(User)
class StaffAdmin(SimpleHistoryAdmin, UserAdmin):
    form = StaffChangeForm
    add_form = StaffCreationForm
    list_display = ["username", "full_name", "credential_number", "role_names", "is_active", "signing_locked_at"]
    list_filter = [RoleFilter, "is_active", "is_staff"]
    search_fields = ["username", "first_name", "last_name", "credential_number"]
    readonly_fields = ["failed_pin_attempts", "signing_locked_at", "last_login", "date_joined"]
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Board credential and signing", {"fields": ("credential_number", "failed_pin_attempts", "signing_locked_at")}),
        ("Rooms", {"fields": ("rooms", "all_rooms")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "username",
                    "credential_number",
                    "usable_password",
                    "password1",
                    "password2",
                    "rooms",
                    "all_rooms",
                ),
            },
        ),
    )
    actions = ["unlock_signing", "reset_second_factor"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return super().get_queryset(request).prefetch_related("groups")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        acting = acting_user(request)

        class WithRooms(form):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                self._add_rooms_field(acting)

        return WithRooms

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        form._save_rooms(form.instance)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_unlock_signing_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.SIGNING_UNLOCK)

    def has_reset_second_factor_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.SECOND_FACTOR_RESET)

    @admin.display(description="Name", ordering="last_name")
    def full_name(self, user: User) -> str:
        return user.get_full_name()

    @admin.display(description="Roles")
    def role_names(self, user: User) -> str:
        """The roles in words ('Poker shift supervisor'), not the groups' codes."""
        labels = dict(Role.choices)
        return ", ".join(str(labels.get(group.name, group.name)) for group in user.groups.all())

    @admin.action(description="Unlock signing after wrong PINs", permissions=["unlock_signing"])
    def unlock_signing(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            try:
                signing_unlock(user=user, actor=acting_user(request))
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        self.message_user(request, f"Signing unlocked for {queryset.count()} people.")

    @admin.action(
        description="Reset the second factor (a lost phone: password alone until they set up another)",
        permissions=["reset_second_factor"],
    )
    def reset_second_factor(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        reset = []
        for user in queryset:
            try:
                if second_factor_reset(user=user, actor=acting_user(request)):
                    reset.append(user.get_username())
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        if reset:
            self.message_user(request, f"Second factor reset for {', '.join(reset)} (recorded).")
        else:
            self.message_user(request, "None of them had a second factor.", messages.WARNING)


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ["signed_at", "document_type", "document_id", "purpose", "signer", "role", "credential_number"]
    list_filter = ["document_type", "purpose", "role"]
    list_select_related = ["signer", "document_type"]
    search_fields = ["credential_number", "signer__username", "document_id"]
    date_hierarchy = "signed_at"


@admin.register(SignInAttempt)
class SignInAttemptAdmin(ReadOnlyAdmin):
    """Every attempt to sign in with a password, for compliance: who, when, from where, and whether it
    was refused because the person was locked out."""

    list_display = ["at", "username", "succeeded", "reason", "refused_locked", "address"]
    list_filter = ["succeeded", "reason", "refused_locked"]
    search_fields = ["username", "address"]
    date_hierarchy = "at"


@admin.register(RefusedAction)
class RefusedActionAdmin(ReadOnlyAdmin):
    """Every action refused to a person whose roles may not take it, for compliance."""

    list_display = ["at", "username", "action", "roles"]
    list_filter = ["action"]
    search_fields = ["username", "action"]
    date_hierarchy = "at"


@admin.register(SecondFactorEvent)
class SecondFactorEventAdmin(ReadOnlyAdmin):
    """Every second factor turned on, removed by its person or reset by an administrator, for compliance."""

    list_display = ["at", "user", "kind", "actor"]
    list_filter = ["kind"]
    list_select_related = ["user", "actor"]
    search_fields = ["user__username", "actor__username"]
    date_hierarchy = "at"


# knox registers its tokens with their digests in full and a form that makes them; this list shows the
# start of a digest only (nothing a request could carry), and revokes.
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """The API tokens of table and cage systems, each acting as one person with that person's roles and
    rooms. A token is made at the command line (``manage.py drf_create_token USERNAME``) and shown
    once; only its digest is stored. An administrator revokes one here."""

    list_display = ["digest_start", "user", "created", "expiry"]
    list_display_links = None
    list_select_related = ["user"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "user__credential_number"]
    date_hierarchy = "created"
    actions = ["revoke"]

    @admin.display(description="Digest (start)")
    def digest_start(self, token: AuthToken) -> str:
        return f"{token.digest[:8]}..."

    def action_checkbox(self, token: AuthToken) -> SafeString:
        # The box selects the row by its key (the digest, which knox makes the primary key); its label
        # names the token by its start and its person, not by knox's text of the whole digest.
        label = format_html("Select the API token {} of {}", self.digest_start(token), token.user)
        checkbox = forms.CheckboxInput({"class": "action-select", "aria-label": label}, lambda value: False)
        return checkbox.render(helpers.ACTION_CHECKBOX_NAME, str(token.pk))

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # revoking is the service's, recorded with who did it
        return actions

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return may(request.user, Action.STAFF_MANAGE)

    @admin.action(description="Revoke the selected API tokens", permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[AuthToken]) -> None:
        revoked = 0
        for token in queryset.select_related("user"):
            try:
                api_token_revoke(token=token, actor=acting_user(request))
            except DomainError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
            revoked += 1
        self.message_user(request, f"{revoked} API token{'s' if revoked != 1 else ''} revoked.")
