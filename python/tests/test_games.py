"""Every game through the Python API: playouts, masks, tensors, saved positions, hidden
information and errors."""

import random

import numpy as np
import pytest

import tabletop_sim
from conftest import CONFIGS, playout, random_step


def test_registry_lists_every_game():
    assert set(tabletop_sim.GAMES) == {"daxu", "dunhuang", "qax", "daimyo", "kuhn", "goofspiel"}
    reg = tabletop_sim.registered_games()
    assert set(reg) == set(tabletop_sim.GAMES)


@pytest.mark.parametrize("name,players", CONFIGS)
def test_facts_match_the_states(name, players):
    game = tabletop_sim.load_game(name, players=players)
    facts = game.facts()
    assert facts["short_name"] == name == game.name
    assert facts["players"] == players == game.num_players()
    assert facts["num_action_ids"] == game.num_distinct_actions()
    assert facts["observation_shape"] == game.observation_tensor_shape()
    assert sum(f[1] for f in game.observation_layout()) == game.observation_tensor_size()
    assert game.dynamics in ("sequential", "simultaneous")
    state = game.new_initial_state(seed=1)
    assert state.num_players() == players
    assert state.get_game().name == name


@pytest.mark.parametrize("name,players", CONFIGS)
def test_random_playouts_masks_and_tensors(name, players):
    """Two random games to the end; at every node the mask equals the legal actions and
    every seat's tensor has the declared shape, dtype and finite values."""
    game = tabletop_sim.load_game(name, players=players)
    shape = tuple(game.observation_tensor_shape())
    num_actions = game.num_distinct_actions()
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        plies = 0
        while not state.is_terminal():
            acting = state.acting_players()
            assert acting
            if state.is_simultaneous_node():
                assert state.current_player() == tabletop_sim.SIMULTANEOUS
            else:
                assert acting == [state.current_player()]
            for seat in range(players):
                legal = state.legal_actions(seat)
                mask = state.legal_actions_mask(seat)
                assert mask.dtype == np.int8 and mask.shape == (num_actions,)
                assert list(np.flatnonzero(mask)) == legal
                assert (len(legal) > 0) == (seat in acting)
                obs = state.observation_tensor(seat)
                assert obs.dtype == np.float32 and obs.shape == shape
                assert np.all(np.isfinite(obs))
            random_step(state, rng)
            plies += 1
            assert plies <= game.max_game_length()
        assert state.current_player() == tabletop_sim.TERMINAL
        assert state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == players and len(state.scores()) == players
        if game.utility == "constant_sum" and "returns=win_share" in game.variant:
            assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("name,players", CONFIGS)
def test_serialize_round_trip_and_clone(name, players):
    """A saved position loads equal, with its chance stream: both copies play on alike."""
    game = tabletop_sim.load_game(name, players=players)
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(min(6, game.max_game_length() - 1)):
        if state.is_terminal():
            break
        random_step(state, rng)
    text = state.serialize()
    assert '"format": "tabletop-sim position v1"' in text
    loaded = game.deserialize_state(text)
    assert loaded == state and loaded.serialize() == text
    anywhere = tabletop_sim.deserialize_state(text)
    assert anywhere == state and anywhere.get_game().variant == game.variant
    copy = state.clone()
    assert copy == state
    a, b, c = state, loaded, copy
    playout(a, 11)
    playout(b, 11)
    playout(c, 11)
    assert a == b == c and a.returns() == b.returns() == c.returns()


@pytest.mark.parametrize("name,players", CONFIGS)
def test_equal_seeds_give_equal_games(name, players):
    game = tabletop_sim.load_game(name, players=players)
    a, b = game.new_initial_state(seed=9), game.new_initial_state(seed=9)
    playout(a, 1)
    playout(b, 1)
    assert a == b and a.scores() == b.scores()


@pytest.mark.parametrize("name,players", CONFIGS)
def test_determinize_leaks_no_hidden_information(name, players):
    """Every world determinize makes for a seat looks the same to that seat: equal tensor,
    observation, information state and legal actions."""
    game = tabletop_sim.load_game(name, players=players)
    state = game.new_initial_state(seed=2)
    rng = random.Random(2)
    checked = 0
    while not state.is_terminal() and checked < 8:
        for seat in range(players):
            own = state.observation_tensor(seat)
            for seed in range(3):
                world = state.determinize(seat, seed)
                assert np.array_equal(world.observation_tensor(seat), own)
                assert world.observation_string(seat) == state.observation_string(seat)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.legal_actions(seat) == state.legal_actions(seat)
        random_step(state, rng)
        checked += 1


def test_hidden_cards_differ_between_seats():
    """The tensor is per seat: Kuhn's two seats see different private cards."""
    state = tabletop_sim.load_game("kuhn").new_initial_state(seed=0)
    assert not np.array_equal(state.observation_tensor(0), state.observation_tensor(1))
    worlds = {str(state.determinize(0, s)) for s in range(20)}
    assert len(worlds) == 2  # the opponent holds either of the two other cards


@pytest.mark.parametrize("name,players", CONFIGS)
def test_action_names_both_ways(name, players):
    game = tabletop_sim.load_game(name, players=players)
    state = game.new_initial_state(seed=4)
    seats = state.acting_players()
    for action in state.legal_actions(seats[0]):
        text = state.action_to_string(action)
        assert game.action_to_string(action) == text
        assert game.string_to_action(text) == action
        assert state.string_to_action(text) == action


def test_write_observation_tensor_into_a_buffer():
    game = tabletop_sim.load_game("dunhuang", players=3)
    state = game.new_initial_state(seed=0)
    buf = np.zeros(game.observation_tensor_size(), dtype=np.float32)
    state.write_observation_tensor(1, buf)
    assert np.array_equal(buf, state.observation_tensor(1))
    with pytest.raises(ValueError, match="length"):
        state.write_observation_tensor(1, np.zeros(3, dtype=np.float32))


def test_variants_reach_the_rules():
    game = tabletop_sim.load_game("goofspiel", players=3, num_cards=5, imp_info=True)
    assert "num_cards=5" in game.variant and "imp_info=true" in game.variant
    assert game.max_game_length() == 5
    state = game.new_initial_state()
    assert playout(state, 0) == 5


# --- errors: a Python exception with the library's message, never a crash ---------------


def test_bad_game_name_lists_the_games():
    with pytest.raises(ValueError, match="unknown game 'chess'; valid games: daimyo, daxu"):
        tabletop_sim.load_game("chess")


def test_bad_variant_key_lists_the_parameters():
    with pytest.raises(ValueError, match="unknown parameter 'cards'.*valid parameters: num_cards"):
        tabletop_sim.load_game("goofspiel", cards=3)


def test_bad_variant_value_names_the_value():
    with pytest.raises(ValueError, match="bad value 'many' for parameter 'num_cards'"):
        tabletop_sim.load_game("goofspiel", num_cards="many")


def test_bad_player_count_names_the_range():
    with pytest.raises(ValueError, match="daxu is played by exactly 2 players, got 5"):
        tabletop_sim.load_game("daxu", players=5)


def test_illegal_action_names_the_legal_ones():
    state = tabletop_sim.load_game("dunhuang").new_initial_state(seed=0)
    legal = set(state.legal_actions())
    illegal = next(a for a in range(tabletop_sim.load_game("dunhuang").num_distinct_actions()) if a not in legal)
    before = state.serialize()
    with pytest.raises(ValueError, match="is illegal for seat .*; legal: "):
        state.apply_action(illegal)
    assert state.serialize() == before  # a refused action changes nothing


def test_action_ids_out_of_range():
    state = tabletop_sim.load_game("kuhn").new_initial_state()
    with pytest.raises(ValueError, match="not an action id of kuhn"):
        state.apply_action(2)
    with pytest.raises(ValueError, match="ids are >= 0"):
        state.apply_action(-1)
    with pytest.raises(OverflowError):
        state.apply_action(1 << 80)
    with pytest.raises(ValueError, match="not an action id"):
        state.action_to_string(99)
    with pytest.raises(ValueError, match="not an action of"):
        state.string_to_action("fold everything")


def test_bad_seats():
    state = tabletop_sim.load_game("kuhn").new_initial_state()
    for bad in (2, -1):
        with pytest.raises(ValueError, match="seat .* is out of range: this game has 2 seats"):
            state.observation_tensor(bad)
        with pytest.raises(ValueError, match="out of range"):
            state.legal_actions(bad)
        with pytest.raises(ValueError, match="out of range"):
            state.determinize(bad, 0)
        with pytest.raises(ValueError, match="out of range"):
            state.information_state_string(bad)


def test_simultaneous_node_errors():
    state = tabletop_sim.load_game("goofspiel").new_initial_state()
    with pytest.raises(ValueError, match="simultaneous node .*: use apply_actions"):
        state.apply_action(0)
    with pytest.raises(ValueError, match="name the seat"):
        state.legal_actions()
    with pytest.raises(ValueError, match="one entry per seat"):
        state.apply_actions([0])
    with pytest.raises(ValueError, match="an acting seat has no action"):
        state.apply_actions({0: 0})
    with pytest.raises(ValueError, match="illegal"):
        state.apply_actions([0, 15])
    seq = tabletop_sim.load_game("kuhn").new_initial_state()
    with pytest.raises(ValueError, match="turn-based node: use apply"):
        seq.apply_actions([0, None])


def test_terminal_state_refuses_actions():
    state = tabletop_sim.load_game("kuhn").new_initial_state()
    playout(state, 0)
    with pytest.raises(ValueError, match="the game is over"):
        state.apply_action(0)


def test_bad_positions():
    game = tabletop_sim.load_game("kuhn")
    with pytest.raises(ValueError, match="not a valid position"):
        game.deserialize_state("{not json")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        tabletop_sim.deserialize_state(
            '{"format": "tabletop-sim position v1", "game": "chess", "state": {}}'
        )
    other = tabletop_sim.load_game("goofspiel").new_initial_state().serialize()
    with pytest.raises(ValueError, match="holds a position of game 'goofspiel', not 'kuhn'"):
        game.deserialize_state(other)
    goof = tabletop_sim.load_game("goofspiel")
    three = tabletop_sim.load_game("goofspiel", players=3).new_initial_state().serialize()
    with pytest.raises(ValueError, match="differ from this game's"):
        goof.deserialize_state(three)
    broken = game.new_initial_state().serialize().replace('"players": 2', '"players": 9')
    with pytest.raises(ValueError, match="bad kuhn state"):
        game.deserialize_state(broken)


@pytest.mark.parametrize("name,players", CONFIGS)
def test_random_calls_raise_only_python_errors(name, players):
    """Hundreds of calls with arbitrary arguments at random states: each returns or raises
    an ordinary Python exception (a Rust panic would be PanicException, a BaseException that
    this test does not catch, and a crash would end the run)."""
    game = tabletop_sim.load_game(name, players=players)
    state = game.new_initial_state(seed=1)
    rng = random.Random(1)
    ids = [0, 1, 2, 5, 17, 331, 4267, 8959, 10**6, -3, 2**40]
    for _ in range(300):
        call = rng.randrange(6)
        arg = rng.choice(ids)
        try:
            if call == 0:
                state.apply_action(arg)
            elif call == 1:
                state.apply_actions([rng.choice(ids) for _ in range(rng.randrange(players + 2))])
            elif call == 2:
                state.observation_tensor(arg)
            elif call == 3:
                state.legal_actions(arg)
            elif call == 4:
                state.action_to_string(arg)
            else:
                state = state.determinize(arg, 3)
        except (ValueError, OverflowError, TypeError):
            pass
        if state.is_terminal():
            state = game.new_initial_state(seed=rng.randrange(100))
        elif rng.random() < 0.5:
            random_step(state, rng)
