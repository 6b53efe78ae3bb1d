from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# No inline scripts or styles anywhere: every page works under this policy.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)


API_POLICY = "default-src 'none'; frame-ancestors 'none'"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith("/api/") and response.headers.get("Content-Type", "").startswith("application/json"):
            # Data, never a page: it may load nothing and be framed by nothing.
            response.headers.setdefault("Content-Security-Policy", API_POLICY)
        # The admin and the API browser ship inline scripts and styles of their own; they keep Django's
        # defaults (X-Frame-Options DENY, nosniff).
        elif not request.path.startswith(("/admin/", "/api/")):
            response.headers.setdefault("Content-Security-Policy", POLICY)
        return response
