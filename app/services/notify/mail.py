"""E-mail: checking an address, writing the notice and confirmation mails, and sending them (aiosmtplib).

Mails are plain text.  A notice's mail carries its link and the unsubscribe link, in the body and
in the ``List-Unsubscribe`` headers (RFC 2369, one-click per RFC 8058), so mail programs offer
their own "unsubscribe" button.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr

import aiosmtplib
from email_validator import EmailNotValidError, validate_email

from app.config import Settings
from app.i18n import translate
from app.services.errors import AppError
from app.services.notify.messages import Notice

MAX_ADDRESS_LENGTH = 254
"""RFC 5321's limit on a forward path."""


def check_address(address: str) -> str:
    """The normalised address (domain lower-cased), or ``AppError(bad_request)``: at most 254
    characters, one mailbox with a domain that has a dot, no display name, no line breaks
    (email-validator; deliverability is not looked up, the confirmation mail settles it)."""
    if not isinstance(address, str) or not 3 <= len(address.strip()) <= MAX_ADDRESS_LENGTH:
        raise AppError("bad_request", "an e-mail address has 3 to {MAX_ADDRESS_LENGTH} characters", MAX_ADDRESS_LENGTH=MAX_ADDRESS_LENGTH)
    try:
        checked = validate_email(address.strip(), check_deliverability=False)
    except EmailNotValidError as exc:
        raise AppError("bad_request", "not an e-mail address: {exc}", exc=exc) from None
    if len(checked.normalized) > MAX_ADDRESS_LENGTH:
        raise AppError("bad_request", "an e-mail address has at most {MAX_ADDRESS_LENGTH} characters", MAX_ADDRESS_LENGTH=MAX_ADDRESS_LENGTH)
    return checked.normalized


class Mailer:
    """Sends mails through the host's SMTP server (``CARAVANSERAI_SMTP_*``), each within
    ``notify_send_timeout_seconds``."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    @property
    def configured(self) -> bool:
        """Whether the host set up SMTP."""
        return self._settings.smtp_configured

    def message(self, to: str, subject: str, text: str) -> EmailMessage:
        """A plain-text mail from the configured sender to ``to``."""
        settings = self._settings
        message = EmailMessage()
        message["From"] = settings.smtp_from
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False, usegmt=True)
        sender_domain = parseaddr(settings.smtp_from)[1].rpartition("@")[2] or "localhost"
        message["Message-ID"] = make_msgid(domain=sender_domain)
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
        message.set_content(text)
        return message

    async def send(self, message: EmailMessage) -> None:
        """Hand ``message`` to the SMTP server.  Raises ``aiosmtplib.SMTPException``, ``OSError`` or
        ``TimeoutError`` when the server cannot be reached, refuses it or is too slow."""
        settings = self._settings
        await aiosmtplib.send(
            message, hostname=settings.smtp_host, port=settings.smtp_port,
            username=settings.smtp_username or None, password=settings.smtp_password.get_secret_value() or None,
            use_tls=settings.smtp_tls == "tls", start_tls=settings.smtp_tls == "starttls",
            timeout=settings.notify_send_timeout_seconds)


def notice_mail(mailer: Mailer, to: str, name: str, notice: Notice, site_url: str, unsubscribe_url: str,
                language: str | None = None) -> EmailMessage:
    """The mail of a notice (a turn, a digest, an invitation): its lines with the link (each waiting
    game's in a digest), why it came, then the unsubscribe link; its own words in ``language`` (the
    notice's were written in it already)."""
    if len(notice.games) > 1:
        body = "\n".join(f"  {line}\n  {site_url}{game.path}\n" for line, game in zip(notice.lines, notice.games))
    else:
        body = "\n".join(notice.lines) + f"\n\n  {site_url}{notice.path}\n"
    text = (translate(language, "Hello {name},", name=name) + f"\n\n{notice.title}.\n\n{body}\n"
            + translate(language, "You get this mail because you asked Caravanserai to tell you {reason}.",
                        reason=notice.reason) + "\n"
            + translate(language, "To get no more of these mails, follow this link: {url}", url=unsubscribe_url) + "\n")
    message = mailer.message(to, notice.title, text)
    message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def confirm_mail(mailer: Mailer, to: str, name: str, confirm_url: str, language: str | None = None) -> EmailMessage:
    """The mail that asks the owner of ``to`` to confirm it, in ``language``."""
    text = (translate(language, "Hello {name},", name=name) + "\n\n"
            + translate(language, "To get an e-mail from Caravanserai when it is your turn, confirm this address "
                                  "by following the link:") + f"\n\n  {confirm_url}\n\n"
            + translate(language, "If you did not ask for this, ignore this mail: nothing will be sent to you.") + "\n")
    return mailer.message(to, translate(language, "Confirm your address for Caravanserai"), text)
