"""The Medparts client: tokens, requests, retries, errors and pages. The operations themselves are generated
(``_operations.py``) and inherited from :class:`~medparts._operations.Operations`."""

import email.utils
import http.client
import json as _json
import os
import platform
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from decimal import Decimal
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    MutableMapping,
    Optional,
    Tuple,
    Union,
)

from ._operations import API_VERSION, KEYED_WRITES, Operations
from .errors import (
    APIConnectionError,
    APIError,
    IdempotencyConflictError,
    MedpartsError,
    error_from_response,
)

__all__ = ["Medparts", "ApiResponse", "Headers", "API_VERSION", "DEFAULT_BASE_URL", "Transport"]

__version__ = "1.0.0"

DEFAULT_BASE_URL = "http://localhost:8787"
TOKEN_PATH = "/auth/oauth2/token"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

#: A transport sends one HTTP request and returns (status, headers, body). ``headers`` may be a mapping or a list
#: of (name, value) pairs. It raises ``OSError`` (``urllib.error.URLError``, timeouts, resets) or
#: ``http.client.HTTPException`` when no answer came; those are retried.
Transport = Callable[[str, str, Dict[str, str], Optional[bytes], float], Tuple[int, Any, bytes]]

# Network failures worth another try: URLError, socket timeouts and resets are OSErrors; a connection closed
# mid-answer is an http.client.HTTPException (RemoteDisconnected, IncompleteRead, BadStatusLine).
_NETWORK_ERRORS = (OSError, http.client.HTTPException)

# The writes the API deduplicates by Idempotency-Key, as patterns of their paths (generated: KEYED_WRITES).
_KEYED_PATTERNS = tuple(
    (method, re.compile("[^/]+".join(re.escape(part) for part in re.split(r"\{[^}]+\}", template)) + "$"))
    for method, template in KEYED_WRITES
)


def is_resendable(method: str, path: str) -> bool:
    """Whether a request may be sent again after a failure that leaves unknown whether it was applied.

    GET, HEAD, PUT and DELETE by their meaning (RFC 9110 9.2.2); a POST or PATCH only when the API deduplicates it by
    its Idempotency-Key (``KEYED_WRITES``): a network error, a timeout or a 5xx may come after the server applied it.
    """
    upper = method.upper()
    if upper in ("GET", "HEAD", "PUT", "DELETE"):
        return True
    return any(upper == keyed and pattern.search(path) for keyed, pattern in _KEYED_PATTERNS)


class Headers(MutableMapping[str, str]):
    """Case-insensitive response headers (``headers["x-correlation-id"] == headers["X-Correlation-Id"]``)."""

    def __init__(self, items: Union[None, Mapping[str, str], Iterable[Tuple[str, str]]] = None) -> None:
        self._items: Dict[str, Tuple[str, str]] = {}
        if items is None:
            return
        # A mapping, an http.client.HTTPMessage (items() keeps repeated headers), or (name, value) pairs.
        pairs = items.items() if hasattr(items, "items") else items
        for name, value in pairs:
            key = name.lower()
            if key in self._items:  # repeated header: join as HTTP does
                self._items[key] = (self._items[key][0], f"{self._items[key][1]}, {value}")
            else:
                self._items[key] = (name, value)

    def __getitem__(self, name: str) -> str:
        return self._items[name.lower()][1]

    def __setitem__(self, name: str, value: str) -> None:
        self._items[name.lower()] = (name, value)

    def __delitem__(self, name: str) -> None:
        del self._items[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Headers({dict(self._items.values())!r})"


class ApiResponse:
    """One HTTP answer: what ``client.last_response`` holds, and what ``client.send()`` returns.

    Attributes:
        status: The HTTP status.
        headers: Case-insensitive headers.
        body: The parsed JSON body (``None`` when empty; a ``str`` for text answers such as X12 or NDJSON).
        raw: The body's bytes.
        method, url: The request.
        attempts: How many times the request was sent (1 + retries).
        idempotency_key: The Idempotency-Key sent (writes), the same on every attempt.
    """

    def __init__(
        self,
        status: int,
        headers: Headers,
        body: Any,
        raw: bytes,
        *,
        method: str,
        url: str,
        attempts: int = 1,
        idempotency_key: Optional[str] = None,
    ) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.raw = raw
        self.method = method
        self.url = url
        self.attempts = attempts
        self.idempotency_key = idempotency_key

    @property
    def data(self) -> Any:
        """The envelope's ``data`` (``{success: true, data, ...}``), or the whole body when it has no envelope."""
        body = self.body
        if isinstance(body, dict) and body.get("success") is True and "data" in body:
            return body["data"]
        return body

    @property
    def correlation_id(self) -> Optional[str]:
        """``X-Correlation-Id`` of this answer (a replay's body still carries the first request's id)."""
        value = self.headers.get("X-Correlation-Id")
        if value:
            return value
        return self.body.get("correlationId") if isinstance(self.body, dict) else None

    @property
    def idempotency_cached(self) -> bool:
        """True when this is the replay of an earlier answer to the same Idempotency-Key."""
        return self.headers.get("X-Idempotency-Cached", "").lower() == "true"

    @property
    def api_version(self) -> Optional[str]:
        """The version the answer is in (``Medparts-Version``)."""
        return self.headers.get("Medparts-Version")

    @property
    def mode(self) -> Optional[str]:
        """``"test"`` (sandbox) or ``"live"`` (``Medparts-Mode``)."""
        return self.headers.get("Medparts-Mode")

    @property
    def rate_limit(self) -> Dict[str, Optional[int]]:
        """``limit``, ``remaining`` and ``reset`` from the RateLimit-* headers (``None`` when absent)."""

        def number(name: str) -> Optional[int]:
            try:
                return int(self.headers.get(name, ""))
            except ValueError:
                return None

        return {
            "limit": number("RateLimit-Limit"),
            "remaining": number("RateLimit-Remaining"),
            "reset": number("RateLimit-Reset"),
        }

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def __repr__(self) -> str:
        return f"<ApiResponse {self.method} {self.url} {self.status} correlation_id={self.correlation_id!r}>"


def _retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` in seconds: delta-seconds, or an HTTP date (RFC 9110); ``None`` when absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _json_default(value: Any) -> Any:
    if isinstance(value, Decimal):  # money: send Decimal("12.50") as "12.50"
        return str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(_query_value(v) for v in value)
    return str(value)


def _is_json_type(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


def _urllib_transport(opener: Any) -> Transport:
    def send(method: str, url: str, headers: Dict[str, str], body: Optional[bytes], timeout: float) -> Tuple[int, Any, bytes]:
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            response = opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as error:  # an answer all the same (4xx, 5xx)
            response = error
        try:
            raw = response.read()
            status = response.status if getattr(response, "status", None) is not None else response.code
            return status, list(response.headers.items()), raw
        finally:
            response.close()

    return send


class Medparts(Operations):
    """A client of the Medparts customer or vendor API (by its credentials: a buyer, test-mode buyer or vendor).

    Every operation of the API is a method (``create_order``, ``search_orders``, ``list_vendor_order_lines``...),
    generated from the OpenAPI document of :data:`API_VERSION`; each returns the answer's ``data``. ``request()``
    calls any path. ``last_response`` holds the last answer's status and headers (correlation id, idempotency
    replay, mode); it is per client, so share a client across threads only if you do not read it.

    Args:
        client_id, client_secret: The API client's credentials.
        base_url: The deployment, without ``/customer/api`` (default ``http://localhost:8787``).
        max_retries: Retries after the first attempt for 429, 500, 502, 503, 504, a 409 "currently being
            processed" and network errors (0 disables them).
        timeout: Seconds to wait for each answer.
        version: The ``Medparts-Version`` sent with every request (default :data:`API_VERSION`, the version the
            generated types describe; ``None`` sends none, leaving the client's pin).
        opener: A ``urllib.request.OpenerDirector`` (or anything with ``open(request, timeout=)``) for proxies,
            TLS settings or tests.
        transport: Instead of ``opener``, a function ``(method, url, headers, body, timeout) -> (status, headers,
            body)``.
        backoff: Base of the exponential backoff in seconds (attempt n waits up to ``backoff * 2**n``, with
            jitter, at least ``Retry-After``); ``max_backoff`` caps it.
        max_retry_wait: The longest ``Retry-After`` the client sleeps through; a longer one raises at once.
        session_consistency: Send back each answer's ``X-Session-Bookmark`` so that reads see earlier writes.
        scope: A space-separated subset of the client's scopes for its tokens (default: all of them).
        sleep: The function that waits (``time.sleep``), replaceable in tests.
    """

    token_refresh_margin = 60.0
    """A cached token is renewed this many seconds before it expires."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        max_retries: int = 3,
        timeout: float = 30,
        version: Optional[str] = API_VERSION,
        opener: Any = None,
        transport: Optional[Transport] = None,
        backoff: float = 0.5,
        max_backoff: float = 20.0,
        max_retry_wait: float = 60.0,
        session_consistency: bool = True,
        scope: Optional[str] = None,
        default_headers: Optional[Mapping[str, str]] = None,
        user_agent: Optional[str] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not client_id or not client_secret:
            raise ValueError("client_id and client_secret are required")
        self.client_id = client_id
        self._client_secret = client_secret
        self.base_url = base_url.rstrip("/")
        self.max_retries = max(0, int(max_retries))
        self.timeout = timeout
        self.version = version
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_wait = max_retry_wait
        self.session_consistency = session_consistency
        self.scope = scope
        self.default_headers = dict(default_headers or {})
        self.user_agent = user_agent or (
            f"medparts-python/{__version__} Python/{platform.python_version()} (API {API_VERSION})"
        )
        self._transport: Transport = transport or _urllib_transport(opener or urllib.request.build_opener())
        self._sleep = sleep
        self._token: Optional[str] = None
        self._token_expires_at = 0.0
        self._token_lock = threading.RLock()
        self._bookmark: Optional[str] = None
        self.last_response: Optional[ApiResponse] = None
        self.token_scope: Optional[str] = None

    @classmethod
    def from_env(cls, prefix: str = "MEDPARTS", **options: Any) -> "Medparts":
        """A client from ``{prefix}_CLIENT_ID``, ``{prefix}_CLIENT_SECRET`` and ``MEDPARTS_URL`` (optional)."""
        client_id = os.environ.get(f"{prefix}_CLIENT_ID")
        client_secret = os.environ.get(f"{prefix}_CLIENT_SECRET")
        if not client_id or not client_secret:
            raise MedpartsError(f"Set {prefix}_CLIENT_ID and {prefix}_CLIENT_SECRET.")
        options.setdefault("base_url", os.environ.get("MEDPARTS_URL") or DEFAULT_BASE_URL)
        return cls(client_id, client_secret, **options)

    def __repr__(self) -> str:
        return f"Medparts(client_id={self.client_id!r}, base_url={self.base_url!r}, version={self.version!r})"

    # -- tokens --------------------------------------------------------------------------------------------------

    def access_token(self) -> str:
        """The cached access token, fetched (client credentials grant) when absent or within a minute of expiry."""
        with self._token_lock:
            if self._token and time.monotonic() < self._token_expires_at - self.token_refresh_margin:
                return self._token
            form = {"grant_type": "client_credentials", "client_id": self.client_id, "client_secret": self._client_secret}
            if self.scope:
                form["scope"] = self.scope
            started = time.monotonic()
            response = self._send("POST", TOKEN_PATH, form=form, auth=False)
            body = response.body if isinstance(response.body, dict) else {}
            token = body.get("access_token")
            if not isinstance(token, str) or not token:
                raise MedpartsError("The token endpoint answered no access_token.")
            try:
                expires_in = float(body.get("expires_in", 3600))
            except (TypeError, ValueError):
                expires_in = 3600.0
            self._token = token
            self._token_expires_at = started + expires_in
            self.token_scope = body.get("scope")
            return token

    def invalidate_token(self) -> None:
        """Forgets the cached token: the next call gets a new one."""
        with self._token_lock:
            self._token = None
            self._token_expires_at = 0.0

    # -- requests ------------------------------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Dict[str, Any]] = None,
        json: Any = None,
        idempotency_key: Optional[str] = None,
        content: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
        correlation_id: Optional[str] = None,
    ) -> Any:
        """Sends a request to ``path`` (``/customer/api/...``, or a full URL) and returns the answer's ``data``
        (the whole body when it has no envelope, ``None`` for a 204).

        ``params`` are query parameters (``None`` values left out, lists comma-joined, booleans ``true``/``false``);
        ``json`` the JSON body (``Decimal`` amounts sent as strings); ``content``/``content_type`` a raw body.
        POST, PUT, PATCH and DELETE carry an ``Idempotency-Key``: ``idempotency_key``, or a new UUID, the same on
        every retry. Raises an :class:`~medparts.errors.APIError` subclass for an error answer and
        :class:`~medparts.errors.APIConnectionError` when no answer came after every retry.
        """
        return self.send(
            method,
            path,
            params=params,
            json=json,
            idempotency_key=idempotency_key,
            content=content,
            content_type=content_type,
            headers=headers,
            correlation_id=correlation_id,
        ).data

    def send(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Dict[str, Any]] = None,
        json: Any = None,
        idempotency_key: Optional[str] = None,
        content: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
        correlation_id: Optional[str] = None,
    ) -> ApiResponse:
        """Like :meth:`request`, but returns the whole :class:`ApiResponse` (status, headers, body, ``data``)."""
        return self._send(
            method.upper(),
            path,
            params=params,
            json_body=json,
            idempotency_key=idempotency_key,
            content=content,
            content_type=content_type,
            headers=headers,
            correlation_id=correlation_id,
        )

    def _url(self, path: str, params: Optional[Mapping[str, Any]]) -> str:
        url = path if path.startswith(("http://", "https://")) else self.base_url + ("" if path.startswith("/") else "/") + path
        if params:
            query = [(k, _query_value(v)) for k, v in params.items() if v is not None]
            if query:
                url += ("&" if "?" in url else "?") + urllib.parse.urlencode(query, safe=",:", quote_via=urllib.parse.quote)
        return url

    def _delay(self, attempt: int, retry_after: Optional[float]) -> float:
        ceiling = min(self.max_backoff, self.backoff * (2 ** attempt))
        delay = random.uniform(ceiling / 2, ceiling)  # "equal jitter": never zero, never in lockstep
        if retry_after is not None:
            delay = max(delay, retry_after)
        return delay

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, Any]] = None,
        json_body: Any = None,
        content: Optional[bytes] = None,
        content_type: Optional[str] = None,
        form: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        correlation_id: Optional[str] = None,
        auth: bool = True,
    ) -> ApiResponse:
        url = self._url(path, params)
        body: Optional[bytes] = None
        base_headers: Dict[str, str] = {"Accept": "application/json", "User-Agent": self.user_agent}
        base_headers.update(self.default_headers)
        if form is not None:
            body = urllib.parse.urlencode(form).encode("ascii")
            base_headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif content is not None:
            body = bytes(content)
            base_headers["Content-Type"] = content_type or "application/octet-stream"
        elif json_body is not None:
            body = _json.dumps(json_body, separators=(",", ":"), ensure_ascii=False, default=_json_default).encode("utf-8")
            base_headers["Content-Type"] = "application/json"
        if auth:
            if self.version:
                base_headers["Medparts-Version"] = self.version
            if method in WRITE_METHODS and idempotency_key is None:
                idempotency_key = str(uuid.uuid4())
            if idempotency_key is not None:
                base_headers["Idempotency-Key"] = idempotency_key
        if correlation_id:
            base_headers["X-Correlation-Id"] = correlation_id
        if headers:
            base_headers.update(headers)

        resendable = not auth or is_resendable(method, urllib.parse.urlsplit(url).path)
        attempt = 0
        renewed = False
        while True:
            request_headers = dict(base_headers)
            if auth:
                request_headers["Authorization"] = f"Bearer {self.access_token()}"
                if self.session_consistency and self._bookmark and "X-Session-Bookmark" not in request_headers:
                    request_headers["X-Session-Bookmark"] = self._bookmark
            try:
                status, raw_headers, raw = self._transport(method, url, request_headers, body, self.timeout)
            except _NETWORK_ERRORS as error:
                if attempt < self.max_retries and resendable:
                    self._sleep(self._delay(attempt, None))
                    attempt += 1
                    continue
                not_again = "" if resendable else "; not sent again: the API does not deduplicate it, and it may have been applied"
                raise APIConnectionError(
                    f"{method} {url}: no answer after {attempt + 1} attempt(s): {error}{not_again}", attempts=attempt + 1
                ) from error

            response_headers = raw_headers if isinstance(raw_headers, Headers) else Headers(raw_headers)
            parsed = self._parse_body(response_headers, raw)
            response = ApiResponse(
                status,
                response_headers,
                parsed,
                raw,
                method=method,
                url=url,
                attempts=attempt + 1,
                idempotency_key=idempotency_key,
            )
            if auth:
                self.last_response = response
                bookmark = response_headers.get("X-Session-Bookmark")
                if bookmark:
                    self._bookmark = bookmark
            if 200 <= status < 300:
                return response

            if (
                auth
                and status == 401
                and not renewed
                and "invalid_token" in response_headers.get("WWW-Authenticate", "")
            ):
                renewed = True  # the token expired or was revoked: one new token, one more try
                self.invalidate_token()
                continue

            retry_after = _retry_after_seconds(response_headers.get("Retry-After"))
            error = error_from_response(
                status,
                parsed,
                headers=response_headers,
                correlation_id=response.correlation_id,
                retry_after=retry_after,
                raw=raw,
            )
            if attempt < self.max_retries and self._retryable(status, error, response, resendable):
                if retry_after is not None and retry_after > self.max_retry_wait:
                    raise error
                self._sleep(self._delay(attempt, retry_after))
                attempt += 1
                continue
            raise error

    @staticmethod
    def _retryable(status: int, error: APIError, response: ApiResponse, resendable: bool = True) -> bool:
        if isinstance(error, IdempotencyConflictError):
            return error.in_progress  # the first request with this key is still running
        if status not in RETRY_STATUSES:
            return False
        # A 429 was not applied; a 5xx may have been (a reply lost on the way): only a resendable request goes again.
        if status != 429 and not resendable:
            return False
        # A replayed 5xx means no order was committed under this key: the same key would replay it forever.
        return not (status >= 500 and response.idempotency_cached)

    @staticmethod
    def _parse_body(headers: Headers, raw: bytes) -> Any:
        if not raw:
            return None
        content_type = headers.get("Content-Type", "")
        if _is_json_type(content_type) or not content_type:
            try:
                return _json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                if _is_json_type(content_type):
                    return raw.decode("utf-8", "replace")
        media = content_type.split(";", 1)[0].strip().lower()
        if media.startswith("text/") or media in ("application/x-ndjson", "application/edi-x12", "application/xml"):
            return raw.decode("utf-8", "replace")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw

    # -- pages ---------------------------------------------------------------------------------------------------

    def paginate(self, operation: Union[Callable[..., Any], str], *args: Any, **kwargs: Any) -> Iterator[Any]:
        """Every item of every page of a list, fetched page by page as you iterate.

        ``operation`` is a list method of this client with its arguments::

            for order in client.paginate(client.search_orders, q='status:"Ordered"', limit=100): ...
            for product in client.paginate(client.search_catalog, {"requesterId": 50001, "facilityId": 1001,
                                                                   "filters": {"query": "cable"}}): ...
            for row in client.paginate(client.list_vendor_offer_import_errors, "imp_..."): ...

        or an HTTP method and path with ``params=``/``json=``::

            for order in client.paginate("GET", "/customer/api/orders/search", params={"limit": 100}): ...

        Offset lists (``pagination.hasMore``; ``offset`` in the query, or in the body's ``pagination`` for catalog
        and user search) continue at ``offset + limit`` until ``hasMore`` is false; cursor lists send the previous
        page's ``nextCursor`` (``cursor`` for EDI) until it is null; the events feed sends ``after`` until
        ``hasMore`` is false (see also :meth:`events`). A list with a single page yields that page's items.
        """
        if isinstance(operation, str):
            method, path = operation.upper(), args[0]
            params = dict(kwargs.pop("params", None) or {})
            body = kwargs.pop("json", None)
            if kwargs or len(args) > 1:
                raise TypeError("paginate(method, path, *, params=None, json=None)")

            def fetch_raw(offset: Optional[int], cursor_param: Optional[str], cursor: Optional[str], paging: Dict[str, str]) -> Any:
                query = dict(params)
                payload = body
                if offset is not None:
                    if paging.get("location") == "body":
                        payload = dict(body or {})
                        payload["pagination"] = dict(payload.get("pagination") or {}, offset=offset)
                    else:
                        query["offset"] = offset
                if cursor_param and cursor is not None:
                    query[cursor_param] = cursor
                return self.request(method, path, params=query, json=payload)

            default_location = "body" if body is not None and method != "GET" else "query"
            return self._pages(fetch_raw, None, default_location)

        paging = getattr(operation, "paging", None)
        call_args = list(args)
        call_kwargs = dict(kwargs)

        def fetch_op(offset: Optional[int], cursor_param: Optional[str], cursor: Optional[str], found: Dict[str, str]) -> Any:
            a, k = list(call_args), dict(call_kwargs)
            if offset is not None:
                if found.get("location") == "body":
                    if "body" in k:
                        k["body"] = self._with_body_offset(k["body"], offset)
                    elif a:
                        a[-1] = self._with_body_offset(a[-1], offset)
                else:
                    k["offset"] = offset
            if cursor_param and cursor is not None:
                k[cursor_param] = cursor
            return operation(*a, **k)

        return self._pages(fetch_op, paging, "query")

    @staticmethod
    def _with_body_offset(body: Any, offset: int) -> Dict[str, Any]:
        payload = dict(body or {})
        payload["pagination"] = dict(payload.get("pagination") or {}, offset=offset)
        return payload

    def _pages(
        self,
        fetch: Callable[[Optional[int], Optional[str], Optional[str], Dict[str, str]], Any],
        paging: Optional[Dict[str, str]],
        default_location: str,
    ) -> Iterator[Any]:
        def generator() -> Iterator[Any]:
            found: Dict[str, str] = dict(paging or {})
            page = fetch(None, None, None, found)
            if not found:
                found.update(self._detect_paging(page, default_location))
            seen_cursors = set()
            while True:
                if not isinstance(page, dict):
                    if isinstance(page, list):
                        yield from page
                    return
                items = page.get(found.get("items", ""))
                if items is None:
                    items = next((v for v in page.values() if isinstance(v, list)), [])
                yield from items
                style = found.get("style")
                if style == "offset":
                    pagination = page.get("pagination") or {}
                    if not pagination.get("hasMore") or not items:
                        return
                    offset = pagination.get("offset", 0) or 0
                    limit = pagination.get("limit") or len(items)
                    page = fetch(int(offset) + int(limit), None, None, found)
                elif style == "cursor":
                    if "hasMore" in found and not page.get(found["hasMore"]):
                        return
                    cursor = page.get(found.get("next", "nextCursor"))
                    if not cursor or cursor in seen_cursors:
                        return
                    seen_cursors.add(cursor)
                    page = fetch(None, found.get("param", "cursor"), cursor, found)
                else:
                    return

        return generator()

    @staticmethod
    def _detect_paging(page: Any, default_location: str) -> Dict[str, str]:
        if not isinstance(page, dict):
            return {"style": "single"}
        items = next((k for k, v in page.items() if isinstance(v, list)), "")
        if isinstance(page.get("pagination"), dict):
            return {"style": "offset", "location": default_location, "items": items}
        if "nextCursor" in page and "hasMore" in page:
            return {"style": "cursor", "param": "after", "next": "nextCursor", "hasMore": "hasMore", "items": items}
        if "nextCursor" in page:
            return {"style": "cursor", "param": "cursor", "next": "nextCursor", "items": items}
        if "cursor" in page:
            return {"style": "cursor", "param": "cursor", "next": "cursor", "items": items}
        return {"style": "single", "items": items}

    def events(
        self,
        *,
        after: Optional[str] = None,
        types: Union[None, str, List[str], Tuple[str, ...]] = None,
        limit: Optional[int] = 100,
        follow: bool = False,
        poll_interval: float = 5.0,
    ) -> Iterator[Dict[str, Any]]:
        """The tenant's events, oldest first, from the one after ``after`` (an event id; default the oldest kept,
        30 days). With ``follow``, waits ``poll_interval`` seconds at the end of the feed and goes on with new
        events (forever: break out of the loop). Save the last event's ``id`` to resume there later.
        """
        cursor = after
        while True:
            page = self.list_events(after=cursor, types=types, limit=limit)  # type: ignore[arg-type]
            for event in page.get("events", []):
                yield event
            cursor = page.get("nextCursor") or cursor
            if page.get("hasMore"):
                continue
            if not follow:
                return
            self._sleep(poll_interval)
