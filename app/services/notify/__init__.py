""""Your turn" notices and invitation notices: what they say,
who wants them, and the channels that carry them.

* ``messages``: the words of a notice (one turn, a digest of the games that wait, an invitation).
* ``turns``: which turns of which people are owed a notice, kept in the database (``notify_turns``).
* ``preferences``: a person's choices: e-mail address and switch, browsers' push subscriptions.
* ``vapid``, ``push``, ``transport``: Web Push (RFC 8030/8291/8292) through http_ece, py-vapid and aiohttp.
* ``mail``: e-mail through aiosmtplib; ``tokens``: the signed links in e-mails.
* ``channels``: push and mail delivering one notice to one account; ``kit``: all of it for one process.
* ``invitations``: telling a friend's invitation to a table, from the process that made it.

``app/services/notify/notifier.py`` ties the turn notices to the fan-out.
"""
