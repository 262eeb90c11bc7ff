"""The one test of whether a login session is still current (docs/decisions.md, *Session keys*).

A session cookie carries an account id, the account's random ``session_key`` and its
``session_epoch`` at login.  A logout raises the epoch, which ends every session issued before; the
key, which no other account has, keeps a cookie from logging in as another account that got the
same id (ids come back after a restore).  Every place that must know whether a session still holds
renders this one predicate, in whatever statement needs it: the one-statement move
(``app/db/move_writer.py``), the locking move path and the session look-ups
(``app/services/accounts/identity.py``).
"""

from __future__ import annotations


def current_login_sql(account: str, session: str, key: str) -> str:
    """SQL that is true when the session ``session`` (an epoch) of the account ``account`` whose key
    is ``key`` has not ended.

    ``account``, ``session`` and ``key`` are SQL expressions (bound parameters such as ``$9`` or
    ``:account``, or columns); the text works on PostgreSQL and SQLite.
    """
    return (f"EXISTS (SELECT 1 FROM accounts AS login_account WHERE login_account.id = {account} "
            f"AND login_account.session_epoch = {session} AND login_account.session_key = {key})")
