"""The schema's answers that every operation may give, whatever its view declares: the kernel answers
them before or around any view (docs/architecture.md, Errors).

- 400: a request holding a NUL character, or a query parameter no view can read (``RefuseNulMiddleware``,
  the lists' bounded pagination);
- 401/403: no credentials, or credentials the API does not accept (DRF);
- 404: no such path, document or export format;
- 405: a method the path does not take.

Each is a JSON ``{detail}`` or ``{detail, code}`` (the one exception handler), so the schema names it
once here, as a drf-spectacular postprocessing hook, for every operation that does not already say it.
"""

from __future__ import annotations

from typing import Any

_ERROR = {
    "type": "object",
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "required": ["detail"],
}
_KERNEL_ANSWERS = {
    "400": "The request cannot be read (a NUL character, a malformed parameter): nothing recorded. "
    "`{detail, code}` or `{field: [message]}`.",
    "401": "No credentials, or credentials the API does not accept: nothing recorded. `{detail}`.",
    "403": "The credentials were refused, or the role may not act: nothing recorded. `{detail, code}`.",
    "404": "No such path, document or export format: nothing recorded. `{detail}`.",
    "405": "The path does not take this method: nothing recorded. `{detail}`.",
}


def kernel_answers(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Add the kernel's error answers to every operation that does not document them."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, description in _KERNEL_ANSWERS.items():
                operation["responses"].setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": _ERROR}}}
                )
    return result
