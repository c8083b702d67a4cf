"""Where a notification may go: http or https, and (unless NOTIFY_ALLOW_PRIVATE) never an address of
this host, its networks or its cloud's metadata service, checked when the URL is set and again on the
addresses the name resolves to at each delivery (a name may resolve elsewhere later)."""
import ipaddress
import socket
from urllib.parse import urlsplit

# Not all flagged private by the ipaddress module: shared (carrier-grade NAT) space, and the
# metadata services some clouds serve outside link-local.
EXTRA_REFUSED = [ipaddress.ip_network(n) for n in ("100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15",
                                                    "fd00:ec2::254/128")]


class RefusedUrl(ValueError):
    """The URL may not receive notifications; the message says why."""


def refused_address(address):
    """Why `address` (an IP text) may not be posted to, or None."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address (metadata services live there)"
    if ip.is_private or any(ip in net for net in EXTRA_REFUSED):
        return "a private address"
    if ip.is_multicast or ip.is_reserved or ip.is_unspecified:
        return "a reserved address"
    return None


def parse_callback(url):
    """(scheme, host, port, path with query) of a callback URL, or RefusedUrl."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RefusedUrl("the callback URL must be an http or https URL with a host")
    if parts.username or parts.password:
        raise RefusedUrl("the callback URL may not carry a user name or password")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise RefusedUrl("the callback URL's port is not a number from 1 to 65535") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def _literal(host):
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return None


def check_callback(url, allow_private):
    """N2's check: the URL's form, and its host when it is an address or a name of this host. A name
    that does not resolve now is accepted (checked again at each delivery)."""
    _, host, port, _ = parse_callback(url)
    if allow_private:
        return
    if host.lower() in ("localhost", "localhost.localdomain") or host.lower().endswith(".localhost"):
        raise RefusedUrl(f"the callback URL's host {host} is this host (a loopback address)")
    addresses = [_literal(host)] if _literal(host) else _resolve(host, port, strict=False)
    for address in addresses:
        why = refused_address(address)
        if why:
            raise RefusedUrl(f"the callback URL's host {host} is {why} ({address})")


def _resolve(host, port, strict=True):
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        if strict:
            raise RefusedUrl(f"the callback URL's host {host} does not resolve") from None
        return []
    return list(dict.fromkeys(info[4][0] for info in infos))


def resolve_for_delivery(host, port, allow_private):
    """The address to connect to: the first the name resolves to, every one of them checked (a name
    with one refused address is refused, so a rebinding answer cannot pick it)."""
    addresses = [_literal(host)] if _literal(host) else _resolve(host, port)
    if not allow_private:
        for address in addresses:
            why = refused_address(address)
            if why:
                raise RefusedUrl(f"{host} resolves to {why} ({address})")
    if not addresses:
        raise RefusedUrl(f"{host} resolves to no address")
    return addresses[0]
