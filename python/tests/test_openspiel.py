"""The OpenSpiel face: OpenSpiel's own random-simulation test on every game, and its Python
CFR and exploitability on the bridged Kuhn poker and Goofspiel equal to the same algorithms
on OpenSpiel's own implementations of those games (the bridge changes nothing)."""

import pytest

pyspiel = pytest.importorskip("pyspiel")
import tabletop_sim  # noqa: E402
import tabletop_sim.openspiel  # noqa: E402,F401  (registers the games)
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

# Q.A.X. runs to thousands of plies by default; a round limit keeps the simulation short.
SIM_PARAMS = {"qax": {"max_rounds": 15}}


@pytest.mark.parametrize("name", tabletop_sim.GAMES)
def test_openspiel_random_simulation(name):
    lo, hi = tabletop_sim.load_game(name).player_range
    for players in range(lo, hi + 1):
        game = pyspiel.load_game(
            tabletop_sim.openspiel.short_name(name),
            {"players": players, **SIM_PARAMS.get(name, {})},
        )
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_game_type_is_declared_honestly():
    t = pyspiel.GameType
    kuhn = pyspiel.load_game("tabletop_kuhn").get_type()
    assert kuhn.chance_mode == t.ChanceMode.EXPLICIT_STOCHASTIC
    assert kuhn.information == t.Information.IMPERFECT_INFORMATION
    assert kuhn.dynamics == t.Dynamics.SEQUENTIAL
    assert kuhn.utility == t.Utility.CONSTANT_SUM
    goof = pyspiel.load_game("tabletop_goofspiel").get_type()
    assert goof.dynamics == t.Dynamics.SIMULTANEOUS
    assert goof.information == t.Information.IMPERFECT_INFORMATION
    dun = pyspiel.load_game("tabletop_dunhuang").get_type()
    assert dun.chance_mode == t.ChanceMode.SAMPLED_STOCHASTIC


def _cfr_nash_conv(game, iterations):
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return exploitability.nash_conv(game, solver.average_policy())


def test_cfr_on_kuhn_equals_openspiel_kuhn_poker():
    """The bridged Kuhn's returns are (2 + chips) / 4: every NashConv is OpenSpiel's / 4."""
    ours = pyspiel.load_game("tabletop_kuhn")
    theirs = pyspiel.load_game("kuhn_poker")
    assert exploitability.nash_conv(ours, policy.UniformRandomPolicy(ours)) * 4 == pytest.approx(
        exploitability.nash_conv(theirs, policy.UniformRandomPolicy(theirs)), abs=1e-9
    )
    assert _cfr_nash_conv(ours, 30) * 4 == pytest.approx(_cfr_nash_conv(theirs, 30), abs=1e-6)


def test_cfr_on_goofspiel_equals_openspiel_goofspiel():
    """Goofspiel(3), descending points, hidden bids: returns are win shares, OpenSpiel's
    win_loss is 2 * share - 1, so every NashConv is OpenSpiel's / 2."""
    ours = pyspiel.convert_to_turn_based(
        pyspiel.load_game(
            "tabletop_goofspiel", {"num_cards": 3, "order": "descending", "imp_info": True}
        )
    )
    theirs = pyspiel.convert_to_turn_based(
        pyspiel.load_game(
            "goofspiel",
            {
                "num_cards": 3,
                "points_order": "descending",
                "returns_type": "win_loss",
                "imp_info": True,
            },
        )
    )
    assert _cfr_nash_conv(ours, 10) * 2 == pytest.approx(_cfr_nash_conv(theirs, 10), abs=1e-6)


def test_explicit_chance_enumerates_the_deal():
    state = pyspiel.load_game("tabletop_kuhn").new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(2)
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 2] * 2)
    state.apply_action(0)
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1]


def test_bad_parameters_raise():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'cards'.*num_cards"):
        pyspiel.load_game("tabletop_goofspiel", {"cards": 3})
    with pytest.raises(ValueError, match="num_cards = 99 is outside 1..=16"):
        pyspiel.load_game("tabletop_goofspiel", {"num_cards": 99})


@pytest.mark.parametrize("name,params", [("tabletop_kuhn", {}), ("tabletop_goofspiel", {"num_cards": 4})])
def test_openspiel_mcts_bot_plays_through_evaluate_bots(name, params):
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game(name, params)
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    rng = np.random.RandomState(0)
    bots = [
        mcts.MCTSBot(game, 2, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        uniform_random.UniformRandomBot(1, rng),
    ]
    for _ in range(3):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sum(returns) == pytest.approx(1.0)
