"""Sending one notice through Apprise, the only module that imports it (imported itself only
when a notice is sent: judge/mail/noticesend.py).

The address is checked where it is connected to, not by its name: an audit hook
(sys.addaudithook) sees every `socket.connect` of this process, and while a notice is being
sent it refuses an address on loopback, a private network, link-local, multicast or reserved
(an IPv4 address inside IPv6 unwrapped: mapped, 6to4, NAT64), unless [notify] private = true. So a name that resolves to a
public address when checked and to 127.0.0.1 when connected to (DNS rebinding), a redirect,
or a plugin that connects twice, are all checked on the address actually used. Outside a
send the hook does nothing.

What the server answered is watched at requests' HTTPAdapter.send (wrapped once, again doing
nothing outside a send), since Apprise says only whether it worked: an HTTP status, the wait
of a 429 (Retry-After, in seconds or as a date), or that the connection was never made. A URL's
own `?retry=` is ignored (the plugin's retries set to 0): the judge retries, and counts.
Apprise's log, and urllib3's lines of a notice's requests, are kept out of the judge's output
(they may name parts of the URL).
"""
from __future__ import annotations

import contextvars
import ipaddress
import logging
import socket
import sys
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone

MAX_WAIT = 86400  # seconds: the longest 429 wait honoured
_watch: contextvars.ContextVar = contextvars.ContextVar("judge_notice_watch", default=None)
_installed = False


@dataclass
class Result:
    sent: str  # "yes", "no" (surely not: try again) or "unknown" (it may have arrived: never again)
    why: str = ""
    wait: float = 0.0  # seconds a 429 asked for


@dataclass
class _Watch:
    private: bool
    refused: str = ""
    statuses: list = field(default_factory=list)  # (status, Retry-After)
    errors: list = field(default_factory=list)


def refusal(address, private: bool) -> str:
    """Why the judge must not connect to `address` (a socket address), or ""."""
    if private:
        return ""
    if not isinstance(address, tuple) or not address or not isinstance(address[0], str):
        return "a local socket"
    try:
        ip = ipaddress.ip_address(address[0].split("%")[0])
    except ValueError:
        return f"an address that is not an IP address ({address[0]})"
    if ip.version == 6:  # an IPv4 address inside: mapped, 6to4 or NAT64's
        inner = ip.ipv4_mapped or ip.sixtofour or (
            ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF) if ip in ipaddress.ip_network("64:ff9b::/96") else None)
        ip = inner or ip
    if ip.is_loopback:
        return f"{ip} is on loopback"
    if ip.is_private or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified \
            or (ip.version == 4 and ip in ipaddress.ip_network("100.64.0.0/10")):
        return f"{ip} is on a private network"
    return ""


def _audit(event: str, args) -> None:
    if event != "socket.connect":
        return
    watch = _watch.get()
    if watch is None:
        return
    sock, address = args
    if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6) and not watch.private:
        watch.refused = "a local socket"
        raise PermissionError(f"the judge connects to no {watch.refused} for a notice")
    why = refusal(address, watch.private)
    if why:
        watch.refused = why
        raise PermissionError(f"the judge connects to no private address for a notice: {why}")


def _install() -> None:
    global _installed
    if _installed:
        return
    import requests.adapters

    sys.addaudithook(_audit)
    send = requests.adapters.HTTPAdapter.send

    def watched(self, request, *args, **kwargs):
        watch = _watch.get()
        try:
            response = send(self, request, *args, **kwargs)
        except Exception as e:
            if watch is not None:
                watch.errors.append(e)
            raise
        if watch is not None:
            watch.statuses.append((response.status_code, response.headers.get("Retry-After", "")))
        return response

    requests.adapters.HTTPAdapter.send = watched
    # Apprise's log lines, and urllib3's (at DEBUG they name the request's path; a header it
    # cannot parse or a redirect names the URL at WARNING), are dropped while a notice is sent,
    # before any handler sees them (a logger's filter holds for its own records alone)
    for name in ("apprise", "urllib3.connectionpool", "urllib3.util.retry", "urllib3.connection",
                 "urllib3.poolmanager", "urllib3.response"):
        logging.getLogger(name).addFilter(lambda record: _watch.get() is None)
    _installed = True


def retry_after(value: str, now: datetime | None = None) -> float:
    """A Retry-After header's seconds (a number or an HTTP date), 60 when it says nothing usable."""
    value = (value or "").strip()
    if value.isdigit():
        return min(float(value), MAX_WAIT)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return 60.0
    now = now or datetime.now(timezone.utc)
    return min(max((when - now).total_seconds(), 0.0), MAX_WAIT) if when.tzinfo else 60.0


def _never_connected(error: BaseException) -> bool:
    """Whether the request failed before any connection was made (requests wraps urllib3's
    error, which wraps the socket's)."""
    e = error
    for _ in range(8):
        if e is None:
            break
        if type(e).__name__ in ("ConnectTimeout", "ConnectTimeoutError", "NewConnectionError", "NameResolutionError"):
            return True
        inner = getattr(e, "reason", None)
        if not isinstance(inner, BaseException):
            inner = e.args[0] if e.args and isinstance(e.args[0], BaseException) else (e.__cause__ or e.__context__)
        e = inner
    return False


def ready() -> None:
    """Load Apprise and watch its connections (raises ImportError where it is not installed)."""
    _install()
    import apprise  # noqa: F401


def send(url: str, title: str, body: str, private: bool) -> Result:
    """Send one notice to `url`; what became of it (never raising for the server's doing)."""
    ready()
    import apprise

    watch = _Watch(private)
    token = _watch.set(watch)  # (from here Apprise's log is silent: it names the URL when it reads it)
    try:
        plugin = apprise.Apprise.instantiate(url, asset=apprise.AppriseAsset(storage_mode="memory"))
        if plugin is None:
            return Result("no", "Apprise does not understand this URL")
        plugin.retry = 0
        ok = plugin.notify(body=body, title=title)
    except Exception as e:  # noqa: BLE001 - a plugin's own failure is this notice's, never the run's
        ok, why = False, type(e).__name__
    else:
        why = ""
    finally:
        _watch.reset(token)
    if ok:
        return Result("yes")
    if watch.refused:
        return Result("no", f"refused: {watch.refused} ([notify] private = true allows it)")
    status, wait = watch.statuses[-1] if watch.statuses else (0, "")
    if status == 429:
        return Result("no", "HTTP 429 (too many requests)", retry_after(wait))
    if status >= 300:
        return Result("no", f"HTTP {status}")
    if status:  # the service took it, and yet Apprise (or its plugin) failed after
        return Result("unknown", f"the service answered HTTP {status}, then the notice failed ({why or 'Apprise'})")
    if watch.errors:
        if _never_connected(watch.errors[-1]):
            return Result("no", "cannot connect")
        return Result("unknown", f"the connection failed while sending ({type(watch.errors[-1]).__name__})")
    return Result("no", why or "the service refused it")
