"""The rules of Nimalia (William Liévin), after the rules reference ``reference.md`` (section 0 rulings first).

The ruleset class comes first; its methods are the contract and call the helpers below, grouped
by phase: setup, the draft (choose, reveal, pass), round scoring.  Where a card may go (P1 - P4)
is ``placement.py``; the state's layout is ``state.py``.
"""

from __future__ import annotations

import itertools
from typing import Any

from app.rulesets.base import Event, IllegalMove, Result, Rng, Ruleset, Seat, amount, card, copy_state, words
from app.rulesets.nimalia.cards import ROTATIONS, card_token, deck
from app.rulesets.nimalia import evaluation, information
from app.rulesets.nimalia.moves import AnyMove, Move, Place
from app.rulesets.nimalia.objectives import COLOURS, OBJECTIVES
from app.rulesets.nimalia.options import FIRST_GAME_SET, LEVELS, GoalLevel, Options as NimaliaOptions
from app.rulesets.nimalia.placement import check_placement, legal_anchors, reserve_grid
from app.rulesets.nimalia.reserve import as_position, footprint
from app.rulesets.nimalia.scoring import PASSING, ROUNDS, game_result, score_round
from app.rulesets.nimalia.state import NimaliaState, Placement
from app.rulesets.nimalia.view import build_view


class Nimalia(Ruleset[NimaliaState, NimaliaOptions, AnyMove]):
    """Nimalia for 2-4 players: a simultaneous draft of animal cards over 5 rounds.

    Moves: one kind, ``{"type": "place", "card": "nimalia-card-17", "rotation": 90, "at": [row, col]}``
    (see ``moves.py``).  Every seat that has not yet chosen this step is in ``to_act`` at once.

    Decisions where the spec is silent (each covered by a test):

    * Choosing and placing are one move (Spec D2: "chooses 1 card and places it").  The seat
      leaves ``to_act`` until the step closes.  The browser shows the card on the reserve before
      it is sent (rotate, click a position, confirm), which is where a misclick is caught.
    * A choice may be taken back (``is_reversible``) while it is still face down: not
      if it closed the step (the reveal and the passing show cards to others), and, the
      platform's condition, only while no other seat has chosen since.
    * Positions are counted from a player's first card, which therefore lies at ``[0, 0]``
      (Spec P1 lets it go anywhere; only relative positions matter, P4's note).  Later cards may
      go to negative positions.
    * The step closes when the last seat chooses: all chosen cards are revealed in seat order,
      then the hands pass (D3, D4) or, after the third card, the round is scored (D6).
    * The deck holds exactly 15 cards per player (S4), shuffled at setup; each round deals 3 to
      every seat in seat order.
    * Option ``first_game`` takes precedence over ``goal_level`` (D-5 names both, not how they
      combine).
    * The log names cards by number ("card 17") only when they are revealed (public) or in the
      chooser's own private line; passing is logged without naming cards.
    * A seat's view lists the cards it passed on this round that are still in a hand, and who
      holds them (``passed_on``): at the table a player has seen every hand it passed, and a good
      drafter remembers it; the view says it, so nobody plays worse for a poorer memory, and the
      bots plan with it (``information.py``).
    * The result's ``breakdown`` sums each objective's raw points over the rounds and adds a
      "zero floor" line with what the floor gave back, so the lines add up to the score.
    * O2 is judged per otter: an otter scores when water meets one of the two end points of its
      own river diagonal (§2.1's "3 other spaces at that end point"), even if another otter of
      the same river system touches the lake and it does not.
    * Otters are one species whatever their terrain: for O1, for O12 (two otters side by side
      are a couple) and for the E4 tie-break population.
    * O19's columns and O11's rows are the reserve's own rows and columns (any occupied one).
    * The objective titles ("Otter company", ...) are ours: the cards carry pictures only.
    * An illegal move's message names the rule and never a card of someone else's hand.
    """

    name = "nimalia"
    title = "Nimalia"
    min_players = 2
    max_players = 4
    summary = "Draft animal cards and layer them into a reserve that meets four objectives."
    minutes = (20, 30)
    live_move_seconds = 60  # one card a turn, chosen by everyone at once
    languages = ("en", "fr")  # locales/fr.po
    simultaneous = True
    hidden_information = True
    # The strong bot scores a leaf of its search after two greedy moves more (with two players,
    # the picks the seats make next from the hands just passed), so what a move leaves in the
    # hand it passes counts (bench/results/2026-12-05-vm-bot-levels-4.md)
    bot_playout_plies = 2
    Options = NimaliaOptions
    Move = Move

    def setup(self, n_players: int, options: NimaliaOptions, seed: int) -> NimaliaState:
        """Spec S1 - S4, D1: objectives, shuffled deck, first hands; raises ``ValueError`` for 1 or 5+ players."""
        return new_game(n_players, NimaliaOptions.model_validate(options.model_dump()), seed)

    def to_act(self, state: NimaliaState) -> set[Seat]:
        """Spec D2: every seat that has not chosen its card this step; nobody once the game is over."""
        if state["over"]:
            return set()
        return {seat for seat, pick in enumerate(state["picks"]) if pick is None}

    def legal_moves(self, state: NimaliaState, seat: Seat) -> list[AnyMove]:
        """Every card of the hand, in every rotation, at every legal position (P1 - P4)."""
        if seat not in self.to_act(state):
            return []
        anchors = [((row + 16) * 32 + col + 16, (row, col)) for row, col in legal_anchors(reserve_grid(state, seat))]
        made = _PLACES if len(_PLACES) <= PLACES_KEPT else _forget_places()
        moves: list[AnyMove] = []
        for number in sorted(state["hands"][seat]):
            for turn, rotation in enumerate(ROTATIONS):
                base = (number * 4 + turn) * 1024
                for key, anchor in anchors:
                    move = made.get(base + key)
                    if move is None:
                        move = made[base + key] = Place.trusted(type="place", card=card_token(number),
                                                                rotation=rotation, at=anchor)
                    moves.append(move)
        return moves

    def apply(self, state: NimaliaState, seat: Seat, move: AnyMove) -> tuple[NimaliaState, list[Event]]:
        """Choose and place a card for ``seat``; raises :class:`IllegalMove` naming the broken rule."""
        if state["over"]:
            raise IllegalMove("D6: the game is over after round 5")
        if not isinstance(move, Place):
            raise IllegalMove("{move} is not a Nimalia move", move=repr(move))
        if state["picks"][seat] is not None:
            raise IllegalMove(
                "D2: you have already chosen your card this step; wait until every player has chosen",
                code="not_your_turn",
            )
        placement = check_placement(state, seat, move)
        state = copy_state(state)
        events: list[Event] = []
        choose(state, seat, placement, events)
        picks = [pick for pick in state["picks"] if pick is not None]
        if len(picks) == state["players"]:
            close_step(state, picks, events)
        return state, events

    def view(self, state: NimaliaState, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (``None``: spectator) sees; the shape is documented in ``view.py``."""
        return build_view(state, seat, [reserve_grid(state, other) for other in range(state["players"])])

    def result(self, state: NimaliaState) -> Result | None:
        """Spec E1 - E4 once round 5 is scored, else ``None``."""
        return game_result(state)

    def is_reversible(self, before: NimaliaState, seat: Seat, move: AnyMove, after: NimaliaState) -> bool:
        """A choice still waiting face down (D2): the step did not close, so nothing was revealed
        or passed; the chooser learnt nothing (the card came from their own hand)."""
        return not after["over"] and after["picks"][seat] is not None

    def secrets(self, state: NimaliaState, seat: Seat) -> set[str]:
        """Spec D1, D2: the cards in the seat's hand and the card it has chosen but not yet revealed,
        while nobody else has seen them: only on a round's first step.  From the second on, the
        seat holds a hand another seat passed on (D3, D4), which that seat's view lists
        (``view.passed_on``); ``tests/rulesets/test_nimalia_conformance.py`` checks those cards
        reach no other view."""
        if state["step"] > 1 or state["over"]:
            return set()
        held = list(state["hands"][seat])
        pick = state["picks"][seat]
        if pick is not None:
            held.append(pick["card"])
        return {card_token(number) for number in held}

    # -- bot hooks (app/bots) --------------------------------------------------------------------

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> NimaliaState:
        """A full state behind ``seat``'s view: the other hands, their waiting choices and the
        deck order drawn from ``rng`` among the cards the seat cannot see (``information.py``)."""
        return information.determinize(view, seat, rng)

    def evaluate(self, state: NimaliaState, seat: Seat) -> float:
        """Points now plus what the reserves would score in the rounds left, minus the best
        opponent's (``evaluation.py``)."""
        return evaluation.evaluate(state, seat)


# -- setup ------------------------------------------------------------------------------------

HAND_SIZE = 3
"""Spec D1: cards dealt to each player at the start of a round."""
CARDS_PER_PLAYER = HAND_SIZE * ROUNDS
"""Spec S4: 15 cards per player (30, 45 or 60 in all)."""


PLACES_KEPT = 8192
"""How many ``Place`` moves :meth:`Nimalia.legal_moves` keeps for reuse (a few MB: fewer than all
the moves of every card, more than a game lists)."""
_PLACES: dict[int, Place] = {}
"""The ``Place`` moves :meth:`Nimalia.legal_moves` has listed: moves are frozen, so each is made
once and reused (a listing has about 150, and making them was most of the time of a random game:
``bench/results/2026-12-04-vm-rules-engines.md``).
The key is the int ``((number * 4 + turn) * 32 + row + 16) * 32 + col + 16`` of the card number,
the rotation's index in ``ROTATIONS`` and the anchor (a reserve fits in 6 x 6 around ``(0, 0)``,
so ``row`` and ``col`` are within -6..6); emptied when it holds more than :data:`PLACES_KEPT`."""


def _forget_places() -> dict[int, Place]:
    """Empty :data:`_PLACES` (it outgrew :data:`PLACES_KEPT`) and return it."""
    _PLACES.clear()
    return _PLACES


def objective_combinations(goal_level: GoalLevel = "all") -> list[dict[str, int]]:
    """Spec S2, §2.4, D-5: every legal set of one face per colour from four different cards
    whose levels the goal level allows (592 with all levels), in a fixed order."""
    allowed = LEVELS[goal_level]
    faces = {
        colour: [o.id for o in OBJECTIVES.values() if o.colour == colour and o.level in allowed] for colour in COLOURS
    }
    combinations = []
    for chosen in itertools.product(*(faces[colour] for colour in COLOURS)):
        if len({OBJECTIVES[face].card for face in chosen}) == len(COLOURS):
            combinations.append(dict(zip(COLOURS, chosen)))
    return combinations


def new_game(n_players: int, options: NimaliaOptions, seed: int) -> NimaliaState:
    """Spec S1 - S4 and D1: draw the objectives, shuffle the deck, deal the first hands."""
    if not Nimalia.min_players <= n_players <= Nimalia.max_players:
        raise ValueError(f"Nimalia takes 2 to 4 players, not {n_players}")
    rng = Rng(seed)
    if options.first_game:
        objectives = dict(FIRST_GAME_SET)
    else:
        objectives = rng.choice(objective_combinations(options.goal_level))
    cards = sorted(deck())
    rng.shuffle(cards)
    state: NimaliaState = {
        "players": n_players,
        "options": {"goal_level": options.goal_level, "first_game": options.first_game},
        "objectives": objectives,
        "round": 1,
        "step": 1,
        "deck": cards[: CARDS_PER_PLAYER * n_players],
        "hands": [[] for _ in range(n_players)],
        "picks": [None] * n_players,
        "placements": [[] for _ in range(n_players)],
        "scores": [0] * n_players,
        "history": [],
        "over": False,
        "rng": rng.state,
    }
    deal(state)
    return state


def deal(state: NimaliaState) -> None:
    """Spec D1: 3 cards from the top of the deck to each player, in seat order."""
    for seat in range(state["players"]):
        state["hands"][seat] = state["deck"][:HAND_SIZE]
        state["deck"] = state["deck"][HAND_SIZE:]


# -- the draft (D1 - D6) ----------------------------------------------------------------------


def choose(state: NimaliaState, seat: Seat, placement: Placement, events: list[Event]) -> None:
    """Spec D2: the card leaves the hand and waits, hidden, until every player has chosen."""
    number = placement["card"]
    state["hands"][seat] = [card for card in state["hands"][seat] if card != number]
    state["picks"][seat] = placement
    events.append(Event(text=f"{{seat{seat}}} has chosen a card"))
    events.append(Event(text="You chose card {card}, turned {rotation}°", seats=(seat,),
                        args={"card": amount(number), "rotation": amount(placement["rotation"])}))


def close_step(state: NimaliaState, picks: list[Placement], events: list[Event]) -> None:
    """Spec D2 - D6: reveal every choice (``picks``, one per seat) at once, then pass the hands
    or score the round."""
    for seat, pick in enumerate(picks):
        grid = reserve_grid(state, seat)
        covering = sum(p in grid for p in footprint(as_position(pick["at"])))
        state["placements"][seat].append(pick)
        args = {"card": amount(pick["card"]), "rotation": amount(pick["rotation"])}
        if covering:
            args["spaces"] = amount(covering, "space" if covering == 1 else "spaces")
            events.append(Event(text=f"{{seat{seat}}} placed card {{card}}, turned {{rotation}}°, covering {{spaces}}", args=args,
                                reveals=(seat,)))
        else:
            events.append(Event(text=f"{{seat{seat}}} placed card {{card}}, turned {{rotation}}°", args=args, reveals=(seat,)))
    state["picks"] = [None] * state["players"]
    if state["hands"][0]:
        pass_hands(state, events)
        state["step"] += 1
        return
    score(state, events)
    if state["round"] == ROUNDS:
        state["over"] = True
        events.append(Event(text="The game is over after 5 rounds"))
        return
    state["round"] += 1
    state["step"] = 1
    deal(state)
    events.append(Event(text=NEW_ROUND[PASSING[state["round"]]], args={"round": amount(state["round"])}))


NEW_ROUND = {
    "left": "Round {round}: 3 new cards each; this round cards pass to the left",
    "right": "Round {round}: 3 new cards each; this round cards pass to the right",
}
"""Spec D1, D3: the log's words for a new round, by where its cards pass (one template each, so
that a translation says "left" and "right" in its own words)."""

EVERYONE_PASSES = {
    (False, "left"): "Everyone passes {cards} to the left",
    (False, "right"): "Everyone passes {cards} to the right",
    (True, "left"): "Everyone passes the last card to the left",
    (True, "right"): "Everyone passes the last card to the right",
}
"""Spec D3, D4: the log's words for passing the hands, by (last card?, direction)."""


def receiver(state: NimaliaState, seat: Seat) -> Seat:
    """Spec D3, D5: whom ``seat`` passes to this round (left = next seat, right = previous)."""
    step = 1 if PASSING[state["round"]] == "left" else -1
    return (seat + step) % state["players"]


def pass_hands(state: NimaliaState, events: list[Event]) -> None:
    """Spec D3, D4: every hand goes to the neighbour; only its new holder sees it."""
    hands = state["hands"]
    passed: list[list[int]] = [[] for _ in hands]
    for seat, hand in enumerate(hands):
        passed[receiver(state, seat)] = hand
    state["hands"] = passed
    count = len(passed[0])
    last = count == 1
    args = {} if last else {"cards": amount(count, "cards")}
    events.append(Event(text=EVERYONE_PASSES[last, PASSING[state["round"]]], args=args))
    for seat in range(state["players"]):
        received = f"You received the last card from {{seat{seat}}}" if last else f"You received {{cards}} from {{seat{seat}}}"
        events.append(Event(text=received, args=args, seats=(receiver(state, seat),)))


def score(state: NimaliaState, events: list[Event]) -> None:
    """Spec D6, §2.4: score the round's objectives with the zero floor and keep the record."""
    grids = [reserve_grid(state, seat) for seat in range(state["players"])]
    record = score_round(state["objectives"], state["round"], grids, state["scores"])
    state["history"].append(record)
    state["scores"] = list(record["after"])
    for seat in range(state["players"]):
        # each objective as the table shows it: its colour and title, never its id
        parts = ", ".join(f"{{colour{index}}} {{objective{index}}} {{points{index}}}" for index in range(len(record["steps"])))
        args = {"round": amount(record["round"]), "before": amount(record["before"][seat]),
                "after": amount(record["after"][seat])}
        for index, step in enumerate(record["steps"]):
            args[f"colour{index}"] = words(step["colour"])
            args[f"objective{index}"] = card(OBJECTIVES[step["objective"]].title)
            args[f"points{index}"] = signed(step["points"][seat])
        events.append(Event(text=f"Round {{round}} scoring: {{seat{seat}}} {parts}: {{before}} → {{after}}", args=args))


def signed(points: int) -> dict[str, Any]:
    """An amount argument written with its sign, as a score change reads (``+3``, ``-1``, ``+0``):
    a number in every language, so nothing of it is translated."""
    return {**amount(points), "text": f"{points:+d}"}
