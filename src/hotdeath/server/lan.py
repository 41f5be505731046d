"""In-room play: the address of this machine in its local network, and what to tell people.

``hotdeath serve --lan`` listens on that address (not only on ``127.0.0.1``), prints it as
a link and as a QR code that phones scan, and says what to do when a firewall blocks it.
"""

from __future__ import annotations

import ipaddress
import socket
import textwrap
from typing import Final

from hotdeath.server.qr import terminal_qr

PROBES: Final = ("192.0.2.1", "10.255.255.255", "8.8.8.8")
"""Addresses a datagram socket is pointed at to learn the address a route leaves from
(connecting a UDP socket sends nothing)."""


def usable(address: str) -> bool:
    """Whether ``address`` is an IPv4 address other devices may reach.

    Not loopback, link-local, unspecified or multicast.

    >>> usable("192.168.1.20"), usable("127.0.0.1"), usable("169.254.3.4")
    (True, False, False)
    """
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_address() -> str | None:
    """The IPv4 address of this machine in its local network, or None if it has none.

    The address the machine's routes leave from (its Wi-Fi or Ethernet address), else
    any address its name resolves to that other devices could reach.
    """
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))
                found = str(s.getsockname()[0])
            except OSError:
                continue
        if usable(found):
            return found
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])
        if usable(address):
            return address
    return None


def firewall_advice(port: int) -> list[str]:
    """What to check when a phone cannot open the address: the network, then the firewall."""
    return [
        "If a phone cannot open it, check that it is on the same network (a guest Wi-Fi "
        f"keeps devices apart) and that this computer's firewall lets port {port} in:",
        f"  Linux: sudo ufw allow {port}/tcp (or: sudo firewall-cmd --add-port={port}/tcp)",
        "  macOS: System Settings, Network, Firewall: allow incoming connections for Python",
        "  Windows: allow Python on private networks when Windows Defender Firewall asks",
    ]


def lan_banner(url: str, port: int, colour: bool = False) -> str:
    """The lines ``serve --lan`` prints: the address, its QR code and the firewall advice.

    Each line is at most 80 characters long, but the address's; ``colour``: the QR code
    in white on black whatever the terminal's theme (see :func:`terminal_qr`).
    """
    advice = firewall_advice(port)
    return "\n".join([
        f"hotdeath: open {url} on any phone, tablet or computer in this network, or scan:",
        terminal_qr(url, colour).rstrip("\n"),
        f"hotdeath: {url}",
        "Open a table there, then its Screen link on the TV; phones join by the code shown.",
        *textwrap.wrap(advice[0], 80),
        *advice[1:],
    ])
