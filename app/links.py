"""Where the links the server sends outside the browser point (e-mails, password-reset links), and
what ``serve`` warns about at start when they would lead nowhere.

Links start with ``public_url``; without it, ``http://HOST:PORT`` as ``serve`` listens
(``--host``/``--port`` count: ``serve`` hands them to its workers as the settings).  A host behind
a proxy that sets neither sends links to ``http://127.0.0.1:8000/...``, which work for nobody else.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from app.config import Settings


def link_warnings(settings: Settings) -> list[str]:
    """One sentence per problem with the links ``settings`` make (none when all is well):

    - cookies are Secure (``cookie_secure``: the site is served over HTTPS) but the links are not https;
    - the links name a loopback or unspecified address (or ``localhost``) while the server listens
      on another address (people reach it from elsewhere, so the links lead nowhere for them).
    """
    problems = []
    site = settings.site_url
    hint = "set CARAVANSERAI_PUBLIC_URL to the address people use (https://games.example.org)"
    if settings.cookie_secure and not site.startswith("https://"):
        problems.append(f"cookies are Secure (CARAVANSERAI_COOKIE_SECURE=true) but links in e-mails and "
                        f"password-reset links start with {site}, not https: {hint}")
    if _local(urlsplit(site).hostname or "") and not _loopback(settings.host):
        problems.append(f"the server listens on {settings.host} but links in e-mails and password-reset links "
                        f"start with {site}, which leads nowhere for anyone else: {hint}")
    return problems


def _local(host: str) -> bool:
    """Loopback, unspecified (``0.0.0.0``, ``::``) or ``localhost``: no address another machine can use."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def _loopback(host: str) -> bool:
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
