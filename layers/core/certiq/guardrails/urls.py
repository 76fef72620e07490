"""Checks the URLs an answer cites or shows, behind an SSRF guard on every hop.

A URL in an answer was written by a document or a model: fetching it is a server-side request to
an address someone else chose. Every hop (the first request and each redirect) is checked before
anything is sent: http or https only, no credentials in the URL, the scheme's default port unless
the port is allowed, an optional domain allowlist, and every address the host name resolves to
must be a public unicast address (no loopback, private, link-local, multicast, reserved,
unspecified, shared or cloud metadata address, also when written in decimal, octal, hex or inside
an IPv6 address). The request then goes to the address that was checked (the name is sent as the
Host header and TLS server name), so a second DNS answer cannot point it elsewhere (rebinding).

Reachability: HEAD, then GET when HEAD fails or the page is HTML (its title tells a soft 404,
which HEAD cannot show); at most ``max_redirects`` redirects within
``timeout_seconds`` for the whole check; soft 404s (a 200 page titled "Page not found", a
redirect to /404 or to the home page) count as dead.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from certiq.config import UrlCheckSettings
from certiq.ports import UrlVerdict

Resolver = Callable[[str, int], Sequence[str]]
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_PORTS = {"http": 80, "https": 443}
REDIRECTS = frozenset({301, 302, 303, 307, 308})

# Instance metadata services: AWS (IPv4 and IPv6), GCP, Azure, Oracle, Alibaba, DigitalOcean.
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(address)
    for address in ("169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200")
)
BLOCKED_HOST_NAMES = frozenset(
    {"localhost", "metadata", "metadata.google.internal", "instance-data", "kubernetes.default"}
)
BLOCKED_SUFFIXES = (".localhost", ".internal", ".local", ".localdomain", ".home.arpa")
# IANA's special-purpose address registries, every entry (globally reachable or not): none is a
# web server an answer should link to. IPv4: iana-ipv4-special-registry; IPv6:
# iana-ipv6-special-registry (the forms that embed an IPv4 address are judged by that address).
SPECIAL_PURPOSE_IPV4 = tuple(
    ipaddress.ip_network(block)
    for block in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.31.196.0/24",
        "192.52.193.0/24",
        "192.88.99.0/24",
        "192.168.0.0/16",
        "192.175.48.0/24",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "240.0.0.0/4",
        "255.255.255.255/32",
    )
)
SPECIAL_PURPOSE_IPV6 = tuple(
    ipaddress.ip_network(block)
    for block in (
        "::/128",
        "::1/128",
        "100::/64",
        "100:0:0:1::/64",
        "2001::/23",
        "2001:db8::/32",
        "2620:4f:8000::/48",
        "3fff::/20",
        "5f00::/16",
        "fc00::/7",
        "fe80::/10",
    )
)
# The well-known NAT64 prefix embeds the IPv4 address in its last 32 bits (RFC 6052); the
# local-use one (64:ff9b:1::/48) is not globally reachable and is refused whole.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
_TITLE = re.compile(r"<(title|h1)[^>]*>(.*?)</\1\s*>", re.IGNORECASE | re.DOTALL)
_SOFT_404_TEXT = re.compile(
    r"\b404\b|not found|page (?:introuvable|non trouv[ée]e|inexistante)|"
    r"(?:doesn.t|does not|no longer) exists?|no longer available|nicht gefunden|no encontrada",
    re.IGNORECASE,
)
_SOFT_404_PATH = re.compile(
    r"/(?:404|not[-_]?found|page[-_]?not[-_]?found|error[-_]?404|erreur[-_]?404)(?:\.html?|\.php)?/?$",
    re.IGNORECASE,
)


class UrlRefused(Exception):
    """A hop the SSRF guard refuses; the message is the reason shown to operators."""


class HostUnresolved(Exception):
    """The host name has no address: nothing can be checked or sent, the link is dead."""


@dataclass(frozen=True)
class Target:
    """A hop that passed the guard: where to connect and what to say the host is."""

    url: httpx.URL
    host: str
    address: IpAddress


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for host (IPv4 and IPv6)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def address_refusal(address: IpAddress) -> str | None:
    """Why an address may not be contacted, or None for a public unicast address."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if address in _LOCAL_NAT64:
            return "local-use NAT64 address"
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if address.teredo is not None:
            return "Teredo tunnel address"
        if embedded is not None:
            reason = address_refusal(embedded)
            return f"IPv6 form of a refused address ({reason})" if reason else None
    if address in METADATA_ADDRESSES:
        return "cloud metadata address"
    if address.is_loopback:
        return "loopback address"
    special = SPECIAL_PURPOSE_IPV4 if address.version == 4 else SPECIAL_PURPOSE_IPV6
    block = next((block for block in special if address in block), None)
    if block is not None and not (address.is_unspecified or address.is_link_local):
        kind = "private" if address.is_private and block.prefixlen <= 16 else "special-purpose"
        return f"{kind} address ({block}, IANA special-purpose registry)"
    checks = (
        ("unspecified", address.is_unspecified),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
    )
    for name, refused in checks:
        if refused:
            return f"{name} address"
    if not address.is_global:
        return "not a public address"
    return None


def _ends_in_a_number(host: str) -> bool:
    """WHATWG URL: a host whose last label is a number (decimal, or 0x hex) is an IPv4 address,
    and a URL whose such host does not parse as one is invalid."""
    last = host.rstrip(".").rsplit(".", 1)[-1]
    return bool(re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]*", last))


def _is_dotted_quad(host: str) -> bool:
    try:
        return str(ipaddress.IPv4Address(host)) == host
    except ValueError:
        return False


def _non_standard_ipv4(host: str) -> bool:
    """Decimal, octal, hex or shortened IPv4 ("2130706433", "0x7f.1"): resolvers accept them."""
    if not re.fullmatch(r"[0-9a-fx.]+", host) or not re.search(r"\d", host):
        return False
    try:
        packed = socket.inet_aton(host)
    except OSError:
        return False
    return socket.inet_ntoa(packed) != host


class GuardedUrlChecker:
    """Implements the UrlChecker port with httpx.

    ``resolver`` and ``transport`` are injected in tests (a fake DNS; a transport that carries
    the request to a test server): nothing in it can be told to let a refused address through.
    """

    name = "httpx-guarded"

    def __init__(
        self,
        settings: UrlCheckSettings,
        *,
        resolver: Resolver = system_resolver,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._settings = settings
        self._resolver = resolver
        # trust_env off: a proxy from the environment would make the request somewhere else.
        self._client = httpx.Client(
            transport=transport,
            follow_redirects=False,
            trust_env=False,
            headers={"user-agent": settings.user_agent},
        )

    def close(self) -> None:
        self._client.close()

    # --- the guard ---------------------------------------------------------------------------

    def guard(self, url: str) -> Target:
        """The checked address to connect to for ``url``.

        Raises UrlRefused with the reason, or HostUnresolved when the name has no address.
        """
        if len(url) > 2048:
            raise UrlRefused("URL longer than 2048 characters")
        if re.search(r"[\s\\\x00-\x1f\x7f]", url):
            raise UrlRefused("URL holds spaces, backslashes or control characters")
        scheme = urlsplit(url).scheme.lower()
        if scheme not in DEFAULT_PORTS:
            raise UrlRefused(f"scheme {scheme or '(none)'!r} is not http or https")
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, ValueError) as error:
            raise UrlRefused(f"not a valid URL ({error})") from error
        if parsed.userinfo:
            raise UrlRefused("credentials (user@) in the URL")
        host = parsed.raw_host.decode("ascii").lower().rstrip(".")
        if not host:
            raise UrlRefused("no host")
        port = parsed.port or DEFAULT_PORTS[scheme]
        if port != DEFAULT_PORTS[scheme] and port not in self._settings.allowed_ports:
            raise UrlRefused(f"port {port} is not allowed")
        if host in BLOCKED_HOST_NAMES or host.endswith(BLOCKED_SUFFIXES):
            raise UrlRefused(f"host name {host!r} is internal")
        if _non_standard_ipv4(host):
            raise UrlRefused("IP address written in a non-standard form")
        if _ends_in_a_number(host) and not _is_dotted_quad(host):
            # Refused before any lookup: a resolver could read it as an address, or as a name.
            raise UrlRefused("host ends in a number but is not a valid IPv4 address")
        allowed_domains = [domain.lower().strip(".") for domain in self._settings.allowed_domains]
        if allowed_domains and not any(
            host == domain or host.endswith("." + domain) for domain in allowed_domains
        ):
            raise UrlRefused(f"host {host!r} is not in the allowed domains")
        literal = True
        try:
            addresses = [ipaddress.ip_address(host)]
        except ValueError:
            literal = False
            try:
                addresses = [
                    ipaddress.ip_address(a.split("%")[0]) for a in self._resolver(host, port)
                ]
            except (OSError, UnicodeError) as error:
                raise HostUnresolved(f"host {host!r} does not resolve ({error})") from error
            if not addresses:
                raise HostUnresolved(f"host {host!r} does not resolve") from None
        for address in addresses:
            reason = address_refusal(address)
            if reason is not None:
                where = str(address) if literal else f"{host} resolves to {address}"
                raise UrlRefused(f"{where}: {reason}")
        address = addresses[0]
        return Target(url=parsed.copy_with(host=str(address)), host=host, address=address)

    # --- the check ---------------------------------------------------------------------------

    def check(self, url: str) -> UrlVerdict:
        deadline = time.monotonic() + self._settings.timeout_seconds
        verdict, html = self._follow(url, "HEAD", deadline)
        # GET when HEAD failed, and for an HTML page, whose title tells a soft 404.
        if verdict.allowed and (html or not verdict.reachable) and time.monotonic() < deadline:
            verdict, _ = self._follow(url, "GET", deadline)
        return verdict

    def _follow(self, url: str, method: str, deadline: float) -> tuple[UrlVerdict, bool]:
        """The verdict after following redirects, and whether the last answer was HTML."""
        current = url
        for hop in range(self._settings.max_redirects + 1):
            try:
                target = self.guard(current)
            except UrlRefused as error:
                where = "" if hop == 0 else f"redirect {hop} to {current}: "
                refused = f"refused: {where}{error}"
                return UrlVerdict(url, False, False, None, current, refused), False
            except HostUnresolved as error:
                return UrlVerdict(url, True, False, None, current, str(error)), False
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return UrlVerdict(url, True, False, None, current, "timed out"), False
            try:
                response, body = self._send(method, target, current, remaining)
            except httpx.TimeoutException:
                return UrlVerdict(url, True, False, None, current, f"{method} timed out"), False
            except httpx.HTTPError as error:
                failed = f"{method} failed: {error}"
                return UrlVerdict(url, True, False, None, current, failed), False
            location = response.headers.get("location")
            if response.status_code in REDIRECTS and location:
                current = urljoin(current, location)
                continue
            html = "html" in response.headers.get("content-type", "").lower()
            return self._judge(url, current, method, response.status_code, body, hop), html
        too_many = f"more than {self._settings.max_redirects} redirects"
        return UrlVerdict(url, True, False, None, current, too_many), False

    def _send(
        self, method: str, target: Target, logical: str, timeout: float
    ) -> tuple[httpx.Response, bytes]:
        default = DEFAULT_PORTS[target.url.scheme]
        port = target.url.port
        host_header = target.host if port in (None, default) else f"{target.host}:{port}"
        request = self._client.build_request(
            method,
            target.url,
            headers={"host": host_header},
            timeout=timeout,
            extensions={"sni_hostname": target.host} if target.url.scheme == "https" else {},
        )
        response = self._client.send(request, stream=True)
        try:
            body = b""
            if method == "GET" and response.status_code == 200:
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) >= self._settings.max_body_bytes:
                        break
        finally:
            response.close()
        return response, body[: self._settings.max_body_bytes]

    def _judge(
        self, url: str, final: str, method: str, status: int, body: bytes, hops: int
    ) -> UrlVerdict:
        if status >= 400:
            return UrlVerdict(url, True, False, status, final, f"{method} answered HTTP {status}")
        if not 200 <= status < 300:
            return UrlVerdict(url, True, False, status, final, f"{method} answered HTTP {status}")
        soft = _soft_404(url, final, body, hops)
        if soft:
            return UrlVerdict(url, True, False, status, final, f"soft 404: {soft}")
        return UrlVerdict(url, True, True, status, final, f"{method} answered HTTP {status}")


def _soft_404(url: str, final: str, body: bytes, hops: int) -> str | None:
    """Why a 200 answer is really a missing page, or None."""
    final_path = urlsplit(final).path
    if hops and _SOFT_404_PATH.search(final_path):
        return f"redirected to {final_path}"
    if hops and final_path in ("", "/") and urlsplit(url).path not in ("", "/"):
        return "redirected to the home page"
    text = body.decode("utf-8", errors="replace")
    for _, heading in _TITLE.findall(text):
        if _SOFT_404_TEXT.search(heading):
            return f"the page says {' '.join(heading.split())[:80]!r}"
    return None
