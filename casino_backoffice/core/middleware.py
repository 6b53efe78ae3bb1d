from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
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
        if request.path.startswith("/api/"):
            # The API reads JSON alone (any other body is DRF's 415): the raw bytes, which Django keeps for
            # DRF, where parsing a form here would leave DRF an empty body.
            return b"\x00" in request.body or b"\\u0000" in request.body
        if request.content_type == "application/json":
            return b"\x00" in request.body or b"\\u0000" in request.body
        if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return any("\x00" in value for _, values in request.POST.lists() for value in values)
        return False


def _refused(request: HttpRequest, status: int, detail: str, code: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    return HttpResponse(detail, status=status, content_type="text/plain; charset=utf-8")


class ApiRequestLimitsMiddleware:
    """Under /api/, before any view reads the request: a URL (path and query) longer than
    ``API_MAX_URL_LENGTH`` characters is a 414, and a body whose Content-Length is over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` a 413, each a JSON error, where Django would answer a generic 400
    (a body too large) or nothing would stop a URL. gunicorn's own request line limit (the Procfile's
    ``--limit-request-line``) is set above this one, so the app answers first."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        url_limit = settings.API_MAX_URL_LENGTH
        if len(request.get_full_path()) > url_limit:
            detail = f"The URL is longer than {url_limit} characters; nothing was recorded."
            return _refused(request, 414, detail, "uri_too_long")
        body_limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isdigit():
            return _refused(request, 400, "The Content-Length header is not a number of bytes.", "bad_request")
        if body_limit is not None and int(declared) > body_limit:
            detail = f"The body is larger than {body_limit} bytes; nothing was recorded."
            return _refused(request, 413, detail, "body_too_large")
        if int(declared) and _nesting_depth(request.body) > API_MAX_JSON_DEPTH:
            detail = (
                f"The JSON body is nested more than {API_MAX_JSON_DEPTH} levels deep; no request of this API is. "
                "Nothing was recorded."
            )
            return _refused(request, 400, detail, "too_deep")
        return self.get_response(request)


# No body of this API nests more than a few levels (a batch of rounds, each with its players); a body
# nested far deeper is refused before the JSON parser recurses into it (about 1,000 levels exhaust
# Python's recursion limit, a 500).
API_MAX_JSON_DEPTH = 32


def _nesting_depth(body: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest, strings skipped, without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > API_MAX_JSON_DEPTH:
                    return deepest
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


class RefuseEmptyParameterMiddleware:
    """Under /api/, a query parameter given with no value (``?to=``, ``?kind``) is a 400 naming it:
    no filter of the API reads an empty value (a date, a choice, a room code), and one read as absent
    would answer more than was asked. The schema says so (``core.schema``: ``minLength`` 1)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            empty = sorted({name for name, values in request.GET.lists() if any(not value for value in values)})
            if empty:
                message = "Give a value, or leave the parameter out."
                return JsonResponse({name: [message] for name in empty}, status=400)
        return self.get_response(request)
