from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .auth import acting_user
from .permissions import Action


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    full_name = serializers.CharField()
    credential_number = serializers.CharField(allow_null=True)
    roles = serializers.ListField(child=serializers.CharField())
    has_pin = serializers.BooleanField()
    signing_locked = serializers.BooleanField()


class MeView(APIView):
    """Who is signed in, their Board credential number and their roles."""

    required_actions = {"GET": Action.PROFILE_READ}  # every role: a read any member of staff makes

    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        user = acting_user(request)
        data = {
            "username": user.username,
            "full_name": user.get_full_name(),
            "credential_number": user.credential_number,
            "roles": sorted(role.value for role in user.roles),
            "has_pin": user.has_pin,
            "signing_locked": user.signing_locked,
        }
        return Response(MeSerializer(data).data)


urlpatterns = [path("me/", MeView.as_view(), name="api-me")]
