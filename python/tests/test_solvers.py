"""The simulator's exact solvers from Python (``tabletop_sim.solvers``), without OpenSpiel: known
values of Kuhn poker, the tree's facts, and the errors of bad input."""

import pytest

import tabletop_sim
from tabletop_sim import solvers


def test_kuhn_values_are_the_published_ones():
    tree = solvers.game_tree("kuhn")
    assert tree.game == "kuhn"
    assert tree.num_infosets == 12
    # The uniform profile's NashConv is 11/12 chips (OpenSpiel's exploitability of kuhn_poker
    # under the uniform policy is 0.458333 = 11/24).
    uniform = tree.evaluate(tree.uniform_policy())
    assert uniform["nash_conv"] == pytest.approx(11 / 12, abs=1e-12)
    assert uniform["exploitability"] == pytest.approx(11 / 24, abs=1e-12)
    # CFR+ approaches the equilibrium, whose value for seat 0 is -1/18 chip (Kuhn 1950).
    result = tree.solve("cfr+", 2000)
    assert result["algo"] == "cfr+" and result["iterations"] == 2000
    assert result["value"] == pytest.approx(-1 / 18, abs=1e-3)
    assert 0 <= result["exploitability"] < 2e-3
    assert result["nash_conv"] == pytest.approx(2 * result["exploitability"], abs=1e-15)
    # The average policy is a valid policy of the tree: its evaluation is the one reported.
    again = tree.evaluate(result["average_policy"])
    assert again["nash_conv"] == pytest.approx(result["nash_conv"], abs=1e-15)


def test_infosets_name_the_games_actions():
    tree = solvers.game_tree("goofspiel", num_cards=3, order="descending", imp_info=True)
    # 1 + 3 + 9 (round 1) + 9 * (2 + 4) (round 2) + 36 * 2 (round 3), as `sim solve` builds it.
    assert tree.num_nodes == 1 + 3 + 9 + 9 * 6 + 36 * 2
    game = tabletop_sim.load_game("goofspiel", num_cards=3)
    sets = tree.infosets()
    assert len(sets) == tree.num_infosets
    for key, seat, ids, names in sets:
        assert key.startswith(f"p{seat} ")
        assert [game.action_to_string(a) for a in ids] == names
    assert sets[0] == ("p0 pts=3 bids= res=", 0, [0, 1, 2], ["bid1", "bid2", "bid3"])
    assert set(tree.uniform_policy()) == {k for k, *_ in sets}


def test_solvers_cfr_runs_by_name():
    out = solvers.cfr("goofspiel", 5, algo="cfr", num_cards=3, order="descending")
    assert out["iterations"] == 5 and out["nash_conv"] > 0
    assert sorted(solvers.ALGORITHMS) == sorted(["cfr", "cfr+", "es-mccfr", "os-mccfr", "cfr-alt"])


def test_bad_input_raises_with_the_valid_choices():
    with pytest.raises(ValueError, match="chess.*kuhn, goofspiel"):
        solvers.game_tree("chess")
    with pytest.raises(ValueError, match="cards"):
        solvers.game_tree("goofspiel", cards=3)
    with pytest.raises(ValueError, match="utility"):
        solvers.game_tree("goofspiel", num_cards=3, utility="chips")
    with pytest.raises(ValueError, match="more than 10 nodes"):
        solvers.game_tree("goofspiel", num_cards=3, max_nodes=10)
    tree = solvers.game_tree("kuhn")
    with pytest.raises(ValueError, match="unknown algorithm 'cfr-'.*cfr, cfr\\+, es-mccfr, os-mccfr, cfr-alt"):
        tree.solve("cfr-", 1)
    policy = tree.uniform_policy()
    with pytest.raises(ValueError, match="'3pb' is not an information set"):
        tree.evaluate({**policy, "3pb": [0.5, 0.5]})
    key = next(iter(policy))
    short = {k: v for k, v in policy.items() if k != key}
    with pytest.raises(ValueError, match=f"misses 1 of the 12 information sets.*'{key}'"):
        tree.evaluate(short)
    with pytest.raises(ValueError, match="has 3 probabilities; its actions are 2"):
        tree.evaluate({**policy, key: [0.2, 0.3, 0.5]})
    with pytest.raises(ValueError, match="sums to 0.9"):
        tree.evaluate({**policy, key: [0.4, 0.5]})
    with pytest.raises(ValueError, match="negative or non-finite"):
        tree.evaluate({**policy, key: [1.5, -0.5]})
