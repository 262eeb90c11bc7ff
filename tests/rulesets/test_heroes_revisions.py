"""The table option ``house_revision``: which revision of the full edition's house data a game
plays (``catalogue.py``, ``data/revisions.json``).  A new table gets the newest; a full-edition table
stored before the option (its options the four older keys, as the platform stored them) plays
revision 1 and replays exactly as it was played; a revision that does not exist is refused.  Each
expected value is worked out by hand from ``data/spells.json`` (revision 1) and
``data/revisions.json`` (revision 2: Fireball and Summon Serfs 2 VP, Bountiful Harvest and Deep
Mines 1 VP; revision 3: Fireball 2 Mana, Song of Glory and Earthquake 3 Mana)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app.rulesets.heroes import catalogue
from app.rulesets.heroes.catalogue import NEWEST, REVISIONS, load_revisions, of
from app.rulesets.heroes.moves import Cast
from app.rulesets.heroes.options import Options
from tests.rulesets.heroes_fixtures import A, B, FULL, full_position, play, put, resources, units
from tests.rulesets.heroes_full_golden import CHANGED_IN_REVISION_2, FULL_GOLDEN_FILE
from tests.rulesets.heroes_golden import replay_checking_each_ply, ply_hashes, result_hash
from tests.support.players import Player

FULL_GOLDEN = json.loads(FULL_GOLDEN_FILE.read_text())["games"]
LOBBY_FORM = {"nomads": "wandering", "round_limit": 12, "first_player": "random", "edition": "full"}
"""What the lobby's form sends: every option of the schema, which ``house_revision`` is not in."""


def test_the_newest_revision_is_3_and_the_lobby_form_does_not_show_it():
    assert NEWEST == 3 and sorted(REVISIONS) == [1, 2, 3]
    assert "house_revision" not in Options.model_json_schema()["properties"]
    assert FULL.parse_options({}).house_revision == 3


def test_a_new_table_gets_the_newest_revision_and_its_state_says_so():
    assert FULL.new_table_options(LOBBY_FORM).house_revision == 3
    assert FULL.new_table_options({}).house_revision == 3
    state = FULL.setup(2, FULL.new_table_options(LOBBY_FORM), 3)
    assert state["options"]["house_revision"] == 3 and of(state) is REVISIONS[3]


def test_full_edition_options_stored_before_the_option_play_revision_1_in_the_layout_of_before():
    stored = FULL.parse_options(LOBBY_FORM)  # the dump a table created before the option holds
    assert stored.house_revision == 1
    state = FULL.setup(2, stored, 3)
    assert state["options"] == LOBBY_FORM  # no house_revision key
    assert of(state) is REVISIONS[1]
    assert FULL.parse_options({**LOBBY_FORM, "house_revision": 2}).house_revision == 2
    assert FULL.parse_options({**LOBBY_FORM, "house_revision": 3}).house_revision == 3


def test_an_unknown_revision_is_refused():
    for wrong in (0, 4):
        with pytest.raises(ValidationError, match=f"there is no house data revision {wrong} \\(revisions: 1, 2, 3\\)"):
            FULL.parse_options({"house_revision": wrong})


def test_creating_a_table_stores_the_newest_revision_and_refuses_an_unknown_one(client):
    ana = Player(client, "Ana")
    created = ana.post("/api/tables", {"ruleset": "heroes", "seats": 2, "options": LOBBY_FORM})
    assert created.status_code == 201
    assert client.get(f"/api/tables/{created.json()['id']}").json()["options"]["house_revision"] == 3
    refused = ana.post("/api/tables", {"ruleset": "heroes", "seats": 2, "options": {"house_revision": 7}})
    assert refused.status_code == 400
    assert "there is no house data revision 7" in refused.json()["error"]["message"]


@pytest.mark.parametrize("revision, vp", [(1, 0), (2, 1), (3, 1)])
def test_deep_mines_scores_the_vp_of_the_games_revision(revision, vp):
    """Cast (spec 1.7): pay 1 Mana, gain 3 Ore, score its VP (0 in revision 1, 1 in 2 and 3);
    no seat holds an Interrupt, so it resolves at once."""
    state = full_position(hands=[["deep_mines-1"], []], house_revision=revision)
    resources(state, A, ore=2, mana=1)
    state, _ = play(state, (A, Cast(card="deep_mines-1")))
    player = state["players"][A]
    assert player["resources"] == {"ore": 5, "mana": 0, "food": 0} and player["score"] == vp


@pytest.mark.parametrize("revision, vp", [(1, 1), (2, 2), (3, 2)])
def test_fireball_scores_the_vp_of_the_games_revision(revision, vp):
    state = full_position(hands=[["fireball-1"], []], house_revision=revision)
    put(state, "N_mountain", A, warrior=1)
    put(state, "E_forest", B, serf=1, warrior=1)
    resources(state, A, mana=3)
    state, _ = play(state, (A, Cast(card="fireball-1", target="E_forest")))
    assert units(state, "E_forest", B) == {"serf": 0, "warrior": 1, "hero": 0}
    assert state["players"][A]["score"] == vp
    assert FULL.view(state, B)["spell_cards"]["fireball"]["vp"] == vp  # the renderer's card, of the same revision


@pytest.mark.parametrize("card, costs", [
    ("fireball", [(3, 1), (3, 2), (2, 2)]), ("glory", [(4, 3), (4, 3), (3, 3)]), ("earthquake", [(4, 2), (4, 2), (3, 2)]),
    ("summon_serfs", [(2, 1), (2, 2), (2, 2)]), ("harvest", [(1, 0), (1, 1), (1, 1)]), ("counterspell", [(2, 1)] * 3),
])
def test_each_revision_keeps_its_own_mana_and_vp(card, costs):
    """(Mana, VP) in revisions 1, 2, 3: revision 3 changes only the Mana of Fireball, Song of Glory
    and Earthquake, so revision 1 and 2 games play with the values they were played with."""
    assert [(REVISIONS[revision].spell(f"{card}-1").mana, REVISIONS[revision].spell(f"{card}-1").vp)
            for revision in (1, 2, 3)] == costs


@pytest.mark.parametrize("revision, castable", [(2, False), (3, True)])
def test_fireball_costs_2_mana_from_revision_3(revision, castable):
    """North holds 2 Mana: Fireball (3 Mana in revision 2) cannot be cast; in revision 3 (2 Mana)
    it kills South's Serf in East's Forest (the weakest unit there), leaves 0 Mana and scores 2 VP."""
    state = full_position(hands=[["fireball-1"], []], house_revision=revision)
    put(state, "N_mountain", A, warrior=1)
    put(state, "E_forest", B, serf=1, warrior=1)
    resources(state, A, mana=2)
    move = Cast(card="fireball-1", target="E_forest")
    assert (move in FULL.legal_moves(state, A)) is castable
    if castable:
        state, _ = play(state, (A, move))
        assert units(state, "E_forest", B) == {"serf": 0, "warrior": 1, "hero": 0}
        assert state["players"][A]["resources"]["mana"] == 0 and state["players"][A]["score"] == 2


@pytest.mark.parametrize("revision, mana_left", [(2, 1), (3, 2)])
def test_song_of_glory_costs_the_mana_of_the_games_revision(revision, mana_left):
    """5 Mana - 4 (revision 2) or - 3 (revision 3); 3 VP in both."""
    state = full_position(hands=[["glory-1"], []], house_revision=revision)
    resources(state, A, mana=5)
    state, _ = play(state, (A, Cast(card="glory-1")))
    assert state["players"][A]["resources"]["mana"] == mana_left and state["players"][A]["score"] == 3


@pytest.mark.parametrize("game", FULL_GOLDEN, ids=lambda game: f"{game['n_players']}p-{game['seed']}")
def test_a_full_edition_game_stored_before_revisions_replays_ply_by_ply(game):
    """Recorded on ``main`` before revisions existed (``heroes_full_golden.py``): every state,
    view, legal-move list, log entry and the result stay the same with revision 1."""
    assert "house_revision" not in game["stored_options"]
    state = FULL.setup(game["n_players"], FULL.parse_options(game["stored_options"]), game["seed"])
    assert ply_hashes(FULL, state, []) == game["plies"][0], "setup"
    state = replay_checking_each_ply(FULL, state, game)
    assert not FULL.to_act(state)
    assert result_hash(FULL, state) == game["result"]


def test_the_same_moves_score_otherwise_with_revision_2():
    """The golden games cast spells whose VP revision 2 changes: played again with revision 2, the
    same moves end with other scores (so the replay above proves the revision is read)."""
    cast = {wire["card"].rpartition("-")[0] for game in FULL_GOLDEN for _, wire in game["moves"] if wire["type"] == "cast"}
    assert cast & set(CHANGED_IN_REVISION_2)
    differ = 0
    for game in FULL_GOLDEN:
        state = FULL.setup(game["n_players"], FULL.parse_options({**game["stored_options"], "house_revision": 2}),
                           game["seed"])
        for seat, wire in game["moves"]:
            state, _ = FULL.check_and_apply(state, seat, FULL.parse_move(wire))
        differ += [player["score"] for player in state["players"]] != game["final_scores"]
    assert differ >= 1


def test_a_revision_patch_must_name_what_it_changes():
    base = {name: catalogue.read(name) for name in catalogue.FILES}

    def revision_2(changes):
        return {"revisions": [{"revision": 2, "changes": changes}]}

    patched = load_revisions(base, revision_2({"spells.json": {"cards": {"glory": {"vp": 4}}}}))
    assert patched[2].spell("glory-1").vp == 4 and patched[1].spell("glory-1").vp == 3
    assert patched[2].spell("fireball-1") == patched[1].spell("fireball-1")
    with pytest.raises(ValueError, match="no entry fire_ball"):
        load_revisions(base, revision_2({"spells.json": {"cards": {"fire_ball": {"vp": 2}}}}))
    with pytest.raises(ValueError, match="no key 'points'"):
        load_revisions(base, revision_2({"spells.json": {"cards": {"fireball": {"points": 2}}}}))
    with pytest.raises(ValueError, match="may change only"):
        load_revisions(base, revision_2({"house_values.json": {"resource_cap": 12}}))
    with pytest.raises(ValueError, match="their names"):
        load_revisions(base, revision_2({"spells.json": {"cards": {"fireball": {"name": "Fire Ball"}}}}))
    with pytest.raises(ValueError, match="follow on from 1"):
        load_revisions(base, {"revisions": [{"revision": 3, "changes": {}}]})
