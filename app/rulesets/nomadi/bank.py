"""The bank: every coin that changes hands, and the log line that announces it (Spec §2.7, R-39).

Balances are integers that may go negative (R-35: interest-free bank credit); a payment to the
bank is always made in full.  With public coins (the default) each line says the amount.  In the
hidden-coins variant (R-39 [D]) the public line says what happened without the amount and the
amount goes into a private line for the seats whose purses changed, so the log does not keep
everyone's books for them.

Each payment's ``reason`` is words that end the log line's template (``"landing on a water
source at {cell} (R-30)"``): values in it are placeholders filled from ``args``, so a line is one
msgid of the game's catalogs (docs/i18n.md) whatever the cell or the count.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Event, Seat, amount
from app.rulesets.nomadi.state import NomadiState

Args = dict[str, dict[str, Any]]


def coins_arg(value: int) -> dict[str, Any]:
    """``value`` coins as an event argument (``amount(5, "coins")``: "5 coins", "1 coin")."""
    return amount(value, "coin" if value == 1 else "coins")


def _announce(state: NomadiState, seats: tuple[Seat, ...], public: str, exact: str, args: Args, value: int,
              events: list[Event]) -> None:
    exact_args = {**args, "coins": coins_arg(value)}
    if state["options"]["hidden_coins"]:
        events.append(Event.trusted(public, args))
        events.append(Event.trusted(exact, exact_args, seats=seats))
    else:
        events.append(Event.trusted(exact, exact_args))


def pay_out(state: NomadiState, seat: Seat, value: int, reason: str, events: list[Event], args: Args | None = None) -> None:
    """The bank pays ``value`` coins to ``seat`` (R-7: the bank has no limit)."""
    state["coins"][seat] += value
    _announce(
        state, (seat,),
        f"{{seat{seat}}} is paid by the bank: {reason}",
        f"{{seat{seat}}} receives {{coins}}: {reason}",
        args or {}, value, events,
    )


def pay_in(state: NomadiState, seat: Seat, value: int, reason: str, events: list[Event], args: Args | None = None) -> None:
    """``seat`` pays ``value`` coins to the bank, into debt if need be (R-35)."""
    state["coins"][seat] -= value
    _announce(
        state, (seat,),
        f"{{seat{seat}}} pays the bank: {reason}",
        f"{{seat{seat}}} pays {{coins}}: {reason}",
        args or {}, value, events,
    )


def transfer(state: NomadiState, giver: Seat, receiver: Seat, value: int, reason: str, events: list[Event],
             args: Args | None = None) -> None:
    """``giver`` pays ``value`` coins to ``receiver`` (R-41; the caller has checked that no debt arises)."""
    state["coins"][giver] -= value
    state["coins"][receiver] += value
    _announce(
        state, (giver, receiver),
        f"{{seat{giver}}} gives coins to {{seat{receiver}}}: {reason}",
        f"{{seat{giver}}} gives {{coins}} to {{seat{receiver}}}: {reason}",
        args or {}, value, events,
    )
