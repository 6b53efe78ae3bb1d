from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from .selectors import health_check


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, the broker and the scheduler are all well; 503 when one is not. What is
    failing, and each check's details, are for signed-in staff and for the machine itself (127.0.0.1,
    the load balancer's or an operator's probe); anyone else reads only ok or not ok."""
    health = health_check()
    body: dict[str, object] = {"status": "ok" if health.ok else "unhealthy"}
    if request.user.is_authenticated or request.META.get("REMOTE_ADDR") in {"127.0.0.1", "::1"}:
        body |= {"failing": health.failing, **health.checks}
    return JsonResponse(body, status=200 if health.ok else 503)
