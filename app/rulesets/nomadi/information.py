"""What one seat knows of a Nomadi game, turned back into a whole game: ``Nomadi.determinize``.

:func:`determinize` rebuilds the state layout of ``state.py`` from what the seat sees.  Everything
a view shows is copied (stones, flags, dice, this turn's moves, card positions and ids, the seat's
own cards, the public claim and price of an offer); the rest is drawn from ``rng``:

* the values of the cards the seat has not seen: the 18-card multiset (R-8: four each of +1, +2,
  +3, three each of -1, -2) minus the seat's own cards and, for the mover, the card it inspected,
  dealt at random onto the face-down cards on the board, the other seats' hands, the offered card
  (for everyone but the mover) and the cards still to be laid (house rule R-42) -- exactly the
  distribution a shuffle leaves them;
* ids of cards nobody shows (other hands, the pool): the ids not seen anywhere;
* other seats' balances in the hidden-coins variant (R-39): the seat's own balance give or take
  ``HIDDEN_COIN_SPREAD``;
* the PRNG state.

Every drawn card carries ``"sampled": True`` (a key the rules and the view never read) so that
the evaluation (``evaluation.py``) can count it at the mean of the drawn values -- the seat's
expectation of an unseen card -- instead of at a value the seat does not know.  Without the mark a
one-ply search would accept or refuse an offered card on the luck of three draws.

The view comes from the wire side of the contract (``Ruleset.view``: a JSON object), so it is read
as ``dict[str, Any]``; what is built from it is a typed :class:`~app.rulesets.nomadi.state.NomadiState`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.rulesets.base import Rng, Seat
from app.rulesets.nomadi.board import Board, cell_key
from app.rulesets.nomadi.components import CARD_IDS, CARD_VALUES, STONES_EACH
from app.rulesets.nomadi.state import Card, NomadiState, PendingOffer, Stone, TableOptions, move_record

HIDDEN_COIN_SPREAD = 4
"""Hidden coins (R-39): another seat's balance is drawn from the seat's own +/- this many."""


def determinize(board: Board, view: dict[str, Any], seat: Seat, rng: Rng) -> NomadiState:
    """A state whose ``view(state, seat)`` equals ``view``; the parts the seat cannot see come from
    ``rng`` (module docstring).  Raises ``ValueError`` for a view of another board."""
    if view["board"]["name"] != board.name:
        raise ValueError(f"view is of board {view['board']['name']!r}, not {board.name!r}")
    players = view["players"]
    n_players = len(players)
    phase = view["phase"]
    over = phase == "over"
    shown_offer = view["offer"]
    mover_sees = shown_offer is not None and "value" in shown_offer

    own = [_parse_card(token) for token in view.get("my_cards", [])]
    unseen = Counter(CARD_VALUES)
    unseen.subtract(card["value"] for card in own)
    if mover_sees:
        unseen[shown_offer["value"]] -= 1
    if over:  # every hand shows its values at the end
        for other, player in enumerate(players):
            if other != seat:
                unseen.subtract(player["card_values"])
    hidden = [value for value, count in sorted(unseen.items()) for _ in range(max(count, 0))]
    rng.shuffle(hidden)

    def drawn(card_id: str) -> Card:
        return Card(id=card_id, value=hidden.pop() if hidden else 1, sampled=True)

    known_ids = {card["id"] for card in own} | {card["id"] for card in view["cards"]}
    if shown_offer is not None:
        known_ids.add(shown_offer["card"])
    free_ids = [card_id for card_id in CARD_IDS if card_id not in known_ids]
    rng.shuffle(free_ids)

    cards = {cell_key(card["cell"]): drawn(card["id"]) for card in view["cards"]}
    hands: list[list[Card]] = []
    for other, player in enumerate(players):
        if other == seat:
            hands.append(own)
        elif over:
            values = list(player["card_values"])
            rng.shuffle(values)
            hands.append([Card(id=free_ids.pop(), value=value) for value in values])
        else:
            hands.append([drawn(free_ids.pop()) for _ in range(player["cards"])])

    offer: PendingOffer | None = None
    if shown_offer is not None:
        if mover_sees:
            card = Card(id=shown_offer["card"], value=shown_offer["value"])
        else:
            card = drawn(shown_offer["card"])
        landing = list(shown_offer["cell"])
        stone = next(s["id"] for s in view["stones"] if s["cell"] == landing)
        offer = PendingOffer(
            stone=stone, cell=landing, card=card, owner=shown_offer["owner"],
            claim=shown_offer["claim"], price=shown_offer["price"],
        )
    card_pool = [drawn(free_ids.pop()) for _ in range(view["cards_to_lay"])]

    own_coins = players[seat]["coins"]
    balances = [
        player["coins"] if player["coins"] is not None
        else own_coins + rng.randrange(2 * HIDDEN_COIN_SPREAD + 1) - HIDDEN_COIN_SPREAD
        for player in players
    ]

    each = STONES_EACH[n_players]
    stones = [
        Stone(owner=number // each, cell=None, departed=False, locked=False) for number in range(n_players * each)
    ]
    for shown in view["stones"]:
        stones[shown["id"]] = Stone(
            owner=shown["owner"], cell=list(shown["cell"]), departed=shown["departed"], locked=shown["locked"],
        )

    shown_options = view["options"]
    return {
        "board": board.name,
        "players": n_players,
        "options": TableOptions(
            short_game=shown_options["short_game"],
            trading=shown_options["trading"],
            hidden_coins=shown_options["hidden_coins"],
            first_player="random",  # only setup reads it
            voluntary_pass=shown_options["voluntary_pass"],
            card_placement="players" if view["cards_to_lay"] else "random",  # only setup reads it
            turn_limit=view["turn_limit"],
        ),
        "colours": list(view["colours"]),
        "start_player": view["start_player"],
        "phase": phase,
        "current": view["current"],
        "turn": view["turn"],
        "oasis": view["board"]["oasis"],
        "stones": stones,
        "cards": cards,
        "card_pool": card_pool,
        "hands": hands,
        "coins": balances,
        "dice": [die["value"] for die in view["dice"]],
        "used": [die["used"] for die in view["dice"]],
        "history": [move_record(m["stone"], m["die"], list(m["from"]), list(m["to"])) for m in view["moved"]],
        "crossed": view["chasm"]["crossed"],
        "all_crossed": view["chasm"]["all_crossed"],
        "start_emptied": view["start_emptied"],
        "arrivals": view["arrivals"],
        "offer": offer,
        "end_reason": view.get("end_reason"),
        "rng": rng.next64(),
    }


def _parse_card(token: str) -> Card:
    """``"card-07:+3" -> {"id": "card-07", "value": 3}`` (``view.card_token``, backwards)."""
    card_id, _, value = token.partition(":")
    return Card(id=card_id, value=int(value))
