"""The signed tokens in e-mail links (itsdangerous, keyed with the session key): confirming an
address and unsubscribing, both without logging in.

A token names the account and the address it was made for, so a link from an older address
never acts on the newer one.  Confirmation links expire (``CONFIRM_MAX_AGE``); unsubscribe links
do not (an old mail must still stop the mails).
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.services.errors import AppError

CONFIRM_MAX_AGE = 7 * 86400
"""Seconds a confirmation link works."""


class Tokens:
    """Makes and reads the two kinds of token with ``secret``."""

    def __init__(self, secret: str) -> None:
        self._confirm = URLSafeTimedSerializer(secret, salt="caravanserai-notify-confirm")
        self._unsubscribe = URLSafeTimedSerializer(secret, salt="caravanserai-notify-unsubscribe")

    def confirm(self, account_id: int, email: str) -> str:
        """A token that confirms ``email`` for ``account_id``."""
        return self._confirm.dumps([account_id, email])

    def unsubscribe(self, account_id: int, email: str) -> str:
        """A token that turns off ``account_id``'s turn mails to ``email``."""
        return self._unsubscribe.dumps([account_id, email])

    def read_confirm(self, token: str) -> tuple[int, str]:
        """``(account_id, email)`` of a confirmation token; raises ``AppError(bad_request)`` when it is
        forged, damaged or older than ``CONFIRM_MAX_AGE``."""
        return _read(self._confirm, token, CONFIRM_MAX_AGE)

    def read_unsubscribe(self, token: str) -> tuple[int, str]:
        """``(account_id, email)`` of an unsubscribe token; raises ``AppError(bad_request)``."""
        return _read(self._unsubscribe, token, None)


def _read(serializer: URLSafeTimedSerializer, token: str, max_age: int | None) -> tuple[int, str]:
    try:
        account_id, email = serializer.loads(token, max_age=max_age)
    except (BadSignature, TypeError, ValueError):  # SignatureExpired is a BadSignature
        raise AppError("bad_request", "this link is not valid (damaged, or too old); ask for a new one") from None
    if not isinstance(account_id, int) or not isinstance(email, str):
        raise AppError("bad_request", "this link is not valid")
    return account_id, email
