from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

# No inline scripts or styles anywhere: every page works under this policy.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)


API_POLICY = "default-src 'none'; frame-ancestors 'none'"
# The admin: scripts only from this site's files (its reports print by a file, not an inline handler);
# Django's and the reports' pages carry inline styles.
ADMIN_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
# DRF's browsable API writes its settings in an inline script: it may run inline code, nothing else
# from elsewhere, and is never framed.
API_BROWSER_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self._policy(request, response))
        return response

    @staticmethod
    def _policy(request: HttpRequest, response: HttpResponse) -> str:
        if request.path.startswith("/api/"):
            if response.headers.get("Content-Type", "").startswith("application/json"):
                return API_POLICY  # data, never a page: it may load nothing and be framed by nothing
            return API_BROWSER_POLICY
        if request.path.startswith("/admin/"):
            return ADMIN_POLICY
        return POLICY


class RefuseNulMiddleware:
    """A NUL character in a query string, a form or a JSON body is refused with a 400 before any view
    reads it: PostgreSQL cannot store one in text, and no name, card or amount holds one (the API's
    answer is JSON, as every API error is)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._has_nul(request):
            detail = "The request holds a NUL character (\\u0000), which no field may contain; nothing was recorded."
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": detail, "code": "invalid"}, status=400)
            return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    def _has_nul(self, request: HttpRequest) -> bool:
        query = unquote_to_bytes(request.META.get("QUERY_STRING", ""))
        if b"\x00" in query or "\x00" in request.path:
            return True
        if request.method not in ("POST", "PUT", "PATCH"):
            return False
        if request.content_type == "application/json":
            return b"\x00" in request.body or b"\\u0000" in request.body
        if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return any("\x00" in value for _, values in request.POST.lists() for value in values)
        return False
