"""Who sees what in Nomadi (Spec §2.8, rules 37-39): views, secrets and private log lines."""

from __future__ import annotations

import json
import random

from app.rulesets.nomadi.moves import Accept, Decline, Offer, UseDie
from app.rulesets.nomadi.options import Options
from app.rulesets.nomadi.view import card_token
from tests.rulesets.nomadi_fixtures import A, B, C, STANDARD, position, public, texts, worded


def view_text(ruleset, state, seat) -> str:
    return json.dumps(ruleset.view(state, seat), sort_keys=True)


def test_r37_card_positions_and_water_sources_are_public():
    state = STANDARD.setup(3, Options(), seed=2)
    view = STANDARD.view(state, None)
    assert len(view["cards"]) == 18 and sum(card["water"] for card in view["cards"]) == 9
    assert {tuple(card["cell"]) for card in view["cards"] if card["water"]} == set(STANDARD.board.water_sources)
    assert all(set(card) == {"id", "cell", "water"} for card in view["cards"])
    assert sum(row.count("W") for row in view["board"]["rows"]) == 9


def test_r38_values_of_cards_on_the_board_are_in_no_view():
    state = STANDARD.setup(2, Options(), seed=2)
    tokens = [card_token(card) for card in state["cards"].values()]
    for viewer in (None, 0, 1):
        text = view_text(STANDARD, state, viewer)
        assert not [token for token in tokens if token in text]
        assert '"value"' not in text


def test_r38_a_held_card_is_seen_by_its_holder_only_and_the_count_is_public():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): -1}, n_players=3)
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert ruleset.secrets(after, A) == {"card-01:-1"}
    assert ruleset.view(after, A)["my_cards"] == ["card-01:-1"]
    for viewer in (None, B, C):
        assert "card-01:-1" not in view_text(ruleset, after, viewer)
        assert [p["cards"] for p in ruleset.view(after, viewer)["players"]] == [1, 0, 0]
    private = [event for event in events if event.seats is not None]
    assert [event.seats for event in private] == [(A,)] and "-1" in worded(private[0])
    assert not any("-1" in text for text in public(events))


def test_r38_offer_the_mover_sees_the_value_the_owner_sees_a_claim():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): -2}, owners={"A": B}, n_players=3)
    state, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert [e.seats for e in events if e.seats] == [(A,)]  # only the mover reads the value
    state, events = ruleset.apply(state, A, Offer(claim=3))
    mover, owner, spectator = (ruleset.view(state, seat) for seat in (A, B, None))
    assert mover["offer"]["inspected"] == "card-01 (-2)" and mover["offer"]["value"] == -2
    for view in (owner, spectator):
        assert view["offer"] == {
            "mover": A, "owner": B, "cell": [0, 2], "card": "card-01", "claim": 3, "price": 0, "stage": "answer",
        }
    assert ruleset.secrets(state, A) == {"card-01 (-2)"} and ruleset.secrets(state, B) == set()
    assert not [token for token in ruleset.secrets(state, A) if token in view_text(ruleset, state, B)]
    assert "{seat0} offers the card from {cell} to {seat1} claiming it is worth +3" in public(events)
    accepted, events = ruleset.apply(state, B, Accept())
    assert ruleset.secrets(accepted, B) == {"card-01:-2"} and ruleset.secrets(accepted, A) == set()
    assert "card-01:-2" not in view_text(ruleset, accepted, A)
    assert [e.seats for e in events if e.seats] == [(B,)]  # the owner now learns the value
    declined, _ = ruleset.apply(state, B, Decline())
    assert ruleset.secrets(declined, A) == {"card-01:-2"} and "card-01:-2" not in view_text(ruleset, declined, B)


def test_r38_secrets_appear_in_their_owners_view():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): 2}, options={"hidden_coins": True})
    after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    for seat in (A, B):
        text = view_text(ruleset, after, seat)
        assert ruleset.secrets(after, seat) and all(token in text for token in ruleset.secrets(after, seat))


def test_r39_coins_public_by_default():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): 2}, coins=[5, 7])
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert [p["coins"] for p in ruleset.view(after, None)["players"]] == [6, 7]
    assert "{seat0} receives 1 coin: landing on a desert card at {cell}" in public(events)


def test_r39_hidden_coins_each_player_sees_only_their_own_balance():
    ruleset, state, _ = position(["AB."], dice=(2,), cards={(0, 2): 2}, coins=[5, 7], options={"hidden_coins": True})
    after, events = ruleset.apply(state, A, UseDie(die=2, stone=(0, 0), to=(0, 2)))
    assert [p["coins"] for p in ruleset.view(after, A)["players"]] == [6, None]
    assert [p["coins"] for p in ruleset.view(after, B)["players"]] == [None, 7]
    assert [p["coins"] for p in ruleset.view(after, None)["players"]] == [None, None]
    assert ruleset.view(after, A)["purse"] == "purse-0:6" and "purse" not in ruleset.view(after, None)
    assert ruleset.secrets(after, A) >= {"purse-0:6"}
    exact = "{seat0} receives 1 coin: landing on a desert card at {cell}"
    assert exact in texts(events, A) and exact not in texts(events, B)
    assert "{seat0} is paid by the bank: landing on a desert card at {cell}" in public(events)


def test_r39_everything_is_revealed_when_the_game_ends():
    ruleset, state, _ = position(["gAB."], dice=(2,), arrivals=2, options={"hidden_coins": True},
                                 hands=[[{"id": "card-09", "value": 3}], []])
    after, _ = ruleset.apply(state, A, UseDie(die=2, stone=(0, 2), to=(0, 0)))
    spectator = ruleset.view(after, None)
    assert [p["coins"] for p in spectator["players"]] == [9, 5]
    assert [p["card_values"] for p in spectator["players"]] == [[3], []]
    assert spectator["result"]["scores"] == [12, 5]
    assert ruleset.secrets(after, A) == set()


NEW_KEY = "zz_new_secret"


def with_new_field(state: dict) -> dict:
    """A copy of ``state`` with a field no view knows at the top level and in every record."""
    state = json.loads(json.dumps(state))
    records = [state, state["options"], *state["stones"], *state["cards"].values(), *state["card_pool"],
               *(card for hand in state["hands"] for card in hand)]
    if state["offer"] is not None:
        records += [state["offer"], state["offer"]["card"]]
    for record in records:
        record[NEW_KEY] = "x"
    return state


def states_of_every_kind() -> list[dict]:
    """States of a random game in every phase, with cards in hands, in the pool and offered."""
    chooser = random.Random(8)
    state = STANDARD.setup(3, Options(card_placement="players", trading=True, hidden_coins=True, turn_limit=30), 8)
    states = [state]
    while STANDARD.to_act(state):
        seat = min(STANDARD.to_act(state))
        state, _ = STANDARD.apply(state, seat, chooser.choice(STANDARD.legal_moves(state, seat)))
        states.append(state)
    return states


def test_views_are_allow_lists_a_new_state_field_shows_nowhere():
    """A view names every field it shows, so a field added to the state stays private
    until a view names it (at the top level as in a stone, a card or the offer)."""
    states = states_of_every_kind()
    assert {state["phase"] for state in states} == {"cards", "placement", "roll", "move", "claim", "answer", "over"}
    assert any(state["card_pool"] for state in states) and any(any(state["hands"]) for state in states)
    for state in states[::7] + [state for state in states if state["offer"] is not None] + states[-1:]:
        extended = with_new_field(state)
        for viewer in (None, *range(state["players"])):
            view = STANDARD.view(extended, viewer)
            assert NEW_KEY not in json.dumps(view)
            assert view == STANDARD.view(state, viewer)
