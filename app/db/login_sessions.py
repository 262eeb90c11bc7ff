"""The one test of whether a login session is still current (issue 17, item 2).

A session cookie carries an account id and the account's ``session_epoch`` at login; a logout
raises the epoch, which ends every session issued before.  Every place that must know whether a
session still holds renders this one predicate, in whatever statement needs it: the one-statement
move (``app/db/move_writer.py``), the locking move path and the session look-ups
(``app/services/accounts.py``).  Replacing the epoch by, say, a per-account random token changes
this function and the ``accounts`` column, nothing else.
"""

from __future__ import annotations


def current_login_sql(account: str, session: str) -> str:
    """SQL that is true when the session ``session`` of the account ``account`` has not ended.

    ``account`` and ``session`` are SQL expressions (bound parameters such as ``$9`` or
    ``:account``, or columns); the text works on PostgreSQL and SQLite.
    """
    return (f"EXISTS (SELECT 1 FROM accounts AS login_account WHERE login_account.id = {account} "
            f"AND login_account.session_epoch = {session})")
