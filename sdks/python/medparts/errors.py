"""Errors of the Medparts SDK.

Every error the API answers becomes an :class:`APIError` subclass chosen by its HTTP status, carrying the RFC 9457
problem document (or the RFC 6749 error of the token endpoint) field by field::

    MedpartsError
    ├── APIError                      any error answer (status, type, code, title, detail, errors, ...)
    │   ├── ValidationError           400, 422 (``code`` "validation", "business-rule", ...)
    │   ├── AuthenticationError       401 (and the token endpoint's ``invalid_client``)
    │   ├── ForbiddenError            403 (alias PermissionError_)
    │   ├── NotFoundError             404
    │   ├── ConflictError             409
    │   │   └── IdempotencyConflictError  409 ``idempotency-conflict``
    │   ├── RateLimitError            429 (``retry_after``)
    │   └── ServerError               5xx
    ├── APIConnectionError            no answer after every retry (alias ConnectionError_)
    └── SignatureVerificationError    a webhook delivery that does not verify
"""

from typing import Any, Dict, List, Mapping, Optional

__all__ = [
    "MedpartsError",
    "APIError",
    "ValidationError",
    "AuthenticationError",
    "ForbiddenError",
    "PermissionError_",
    "NotFoundError",
    "ConflictError",
    "IdempotencyConflictError",
    "RateLimitError",
    "ServerError",
    "APIConnectionError",
    "ConnectionError_",
    "SignatureVerificationError",
    "error_from_response",
]


class MedpartsError(Exception):
    """The base of every error this SDK raises."""


class APIError(MedpartsError):
    """An error answer of the API.

    Attributes:
        status: The HTTP status (``int``).
        type: The problem type URI (``https://<host>/docs/errors/<slug>``); ``None`` for token endpoint errors.
        code: What to branch on: the slug at the end of ``type`` (``"idempotency-conflict"``), or the token
            endpoint's ``error`` (``"invalid_client"``).
        title: The problem's title (the OAuth ``error`` for the token endpoint).
        detail: What happened, for a person.
        instance: The request path the problem is about.
        errors: A list of ``{"field": ..., "detail": ...}`` dicts (``field`` absent when the message names none);
            empty when ``detail`` says it all. Older error forms are normalized to this shape.
        correlation_id: The request's correlation id (the ``X-Correlation-Id`` header, else the body's): quote
            it to support.
        problem: The whole error body as parsed (a dict), or ``{}`` when it was not JSON.
        headers: The answer's headers (case-insensitive mapping).
        retry_after: Seconds the answer asked to wait (``Retry-After``), or ``None``.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        problem: Optional[Dict[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
        correlation_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Optional[bytes] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.problem: Dict[str, Any] = dict(problem or {})
        self.headers: Mapping[str, str] = headers if headers is not None else {}
        self.retry_after = retry_after
        self.body = body
        p = self.problem
        oauth = "error" in p and isinstance(p.get("error"), str) and "type" not in p
        self.type: Optional[str] = p.get("type") if isinstance(p.get("type"), str) else None
        if oauth:
            # RFC 6749 {error, error_description}; before 2026-12-07 a 409 was {"error": "<sentence>"} too.
            is_code = p["error"].replace("_", "").isalpha() and p["error"].islower()
            self.code: Optional[str] = p["error"] if is_code else None
            self.title: Optional[str] = p["error"] if is_code else None
            self.detail: Optional[str] = p.get("error_description") or p["error"]
        else:
            self.code = self.type.rstrip("/").rsplit("/", 1)[-1] if self.type else None
            self.title = p.get("title") if isinstance(p.get("title"), str) else None
            self.detail = p.get("detail") if isinstance(p.get("detail"), str) else None
        self.instance: Optional[str] = p.get("instance") if isinstance(p.get("instance"), str) else None
        self.errors: List[Dict[str, Any]] = _normalize_errors(p.get("errors"))
        self.correlation_id: Optional[str] = correlation_id or (
            p.get("correlationId") if isinstance(p.get("correlationId"), str) else None
        )

    def __str__(self) -> str:
        text = f"{self.status}"
        if self.code:
            text += f" {self.code}"
        text += f": {self.detail or self.title or self.message}"
        fields = [f"{e['field']}: {e.get('detail', '')}" if e.get("field") else str(e.get("detail", "")) for e in self.errors]
        if fields:
            text += " [" + "; ".join(fields) + "]"
        if self.correlation_id:
            text += f" (correlation id {self.correlation_id})"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, detail={self.detail!r})"


class ValidationError(APIError):
    """400 (``validation``: invalid fields, each in ``errors`` with its ``field``) or 422 (``business-rule``)."""


class AuthenticationError(APIError):
    """401: no valid token (or, from the token endpoint, ``invalid_client``: wrong id or secret)."""


class ForbiddenError(APIError):
    """403: ``insufficient-scope`` (the token lacks the scope) or ``forbidden`` (a requester or facility not yours)."""


PermissionError_ = ForbiddenError


class NotFoundError(APIError):
    """404: no such resource for this client (test and live data are invisible to each other)."""


class ConflictError(APIError):
    """409: the state does not allow it (``order-changed``, ``price-option-used``, ...)."""


class IdempotencyConflictError(ConflictError):
    """409 ``idempotency-conflict``: the key was used with another body, or its first request is still running."""

    @property
    def in_progress(self) -> bool:
        """True for "the request is currently being processed" (the one 409 worth retrying unchanged)."""
        return "currently being processed" in (self.detail or "")


class RateLimitError(APIError):
    """429: too many requests; ``retry_after`` says how long to wait."""


class ServerError(APIError):
    """5xx: the server failed or a storage service was unavailable."""


class APIConnectionError(MedpartsError):
    """No answer (connection refused or reset, timeout, DNS) after every retry. ``__cause__`` is the last error."""

    def __init__(self, message: str, *, attempts: int = 1) -> None:
        super().__init__(message)
        self.attempts = attempts


ConnectionError_ = APIConnectionError


class SignatureVerificationError(MedpartsError):
    """A webhook delivery whose ``Medparts-Signature`` does not verify (tampered, another secret, stale, malformed)."""


def _normalize_errors(raw: Any) -> List[Dict[str, Any]]:
    """``errors`` as a list of ``{field?, detail}`` whatever the version's form (list of dicts or strings, or map)."""
    out: List[Dict[str, Any]] = []
    if isinstance(raw, list):
        for entry in raw:
            if isinstance(entry, dict):
                item = dict(entry)
                item.setdefault("detail", "")
                out.append(item)
            else:
                out.append({"detail": str(entry)})
    elif isinstance(raw, dict):  # versions before 2026-12-07: {"field": ["message", ...]}
        for field, messages in raw.items():
            for message in messages if isinstance(messages, list) else [messages]:
                out.append({"field": field, "detail": str(message)})
    return out


_BY_STATUS = {
    400: ValidationError,
    401: AuthenticationError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def error_from_response(
    status: int,
    body: Any,
    *,
    headers: Optional[Mapping[str, str]] = None,
    correlation_id: Optional[str] = None,
    retry_after: Optional[float] = None,
    raw: Optional[bytes] = None,
) -> APIError:
    """The :class:`APIError` subclass for an error answer (``body`` is the parsed JSON, or anything else)."""
    problem = body if isinstance(body, dict) else {}
    if status >= 500:
        cls = ServerError
    else:
        cls = _BY_STATUS.get(status, APIError)
    code = ""
    if isinstance(problem.get("type"), str):
        code = problem["type"].rstrip("/").rsplit("/", 1)[-1]
    if cls is ConflictError and (code == "idempotency-conflict" or (set(problem) == {"error"})):
        cls = IdempotencyConflictError
    message = problem.get("detail") or problem.get("error_description") or problem.get("error") or f"HTTP {status}"
    if not problem and raw:
        message = raw[:500].decode("utf-8", "replace")
    return cls(
        str(message),
        status=status,
        problem=problem,
        headers=headers,
        correlation_id=correlation_id,
        retry_after=retry_after,
        body=raw,
    )
