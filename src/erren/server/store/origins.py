"""Where an account was registered from, kept as a keyed digest, never as an address.

The collusion audit (:mod:`erren.server.collusion`) asks whether many accounts that feed one
account were registered from one place.  That needs only equality between accounts, so the
store keeps ``users.origin``: BLAKE2b, keyed with a random key made once per database (table
``server_keys``, row :data:`ORIGIN_KEY`), of the client's network — an IPv4 address, or the /64
of an IPv6 address (one household or phone gets a whole /64).  Without the key the digest
cannot be reversed by trying every IPv4 address; nobody, an operator included, reads an
address back from the database.
"""

from __future__ import annotations

import hashlib
import ipaddress
from typing import Final

__all__ = ["IPV6_PREFIX", "ORIGIN_KEY", "network_of", "origin_of"]

ORIGIN_KEY: Final = "origin"
"""The ``server_keys`` row of the origin digest's key."""
IPV6_PREFIX: Final = 64


def network_of(address: str) -> str | None:
    """The network that identifies a client at ``address``: the IPv4 address itself, the /64
    of an IPv6 address (an IPv4-mapped IPv6 address counts as its IPv4); ``None`` for what is
    not an IP address (a test client's ``testclient``, a Unix socket)."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


def origin_of(address: str, key: bytes) -> str | None:
    """The digest kept in ``users.origin`` for a client at ``address`` (32 hex digits)."""
    network = network_of(address)
    if network is None:
        return None
    return hashlib.blake2b(network.encode(), key=key, digest_size=16).hexdigest()
