"""The PettingZoo face passes PettingZoo's own API tests for every game and player count."""

import numpy as np
import pytest

import tabletop_sim
from conftest import CONFIGS

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from tabletop_sim import pettingzoo as tz  # noqa: E402

SIMULTANEOUS = [c for c in CONFIGS if tabletop_sim.load_game(c[0]).dynamics == "simultaneous"]


@pytest.mark.parametrize("name,players", CONFIGS)
def test_aec_api(name, players):
    # Q.A.X. games run to thousands of plies: fewer cycles keep the suite fast.
    api_test(tabletop_sim.pettingzoo_env(name, players=players), num_cycles=200)


@pytest.mark.parametrize("name,players", SIMULTANEOUS)
def test_parallel_api(name, players):
    parallel_api_test(tz.parallel_env(name, players=players), num_cycles=200)


def test_parallel_refuses_turn_based_games():
    with pytest.raises(ValueError, match="turn-based game; use the AEC environment"):
        tz.parallel_env("kuhn")


@pytest.mark.parametrize("name,players", CONFIGS)
def test_aec_games_end_with_the_returns(name, players):
    """A full random game through the AEC loop: observations match the state, every agent
    ends terminated, and the rewards add up to the game's returns."""
    env = tz.raw_env(name, players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert np.array_equal(obs["observation"], env.state.observation_tensor(seat))
        legal = np.flatnonzero(obs["action_mask"])
        final_state = env.state
        env.step(int(rng.choice(legal)))
    assert final_state.is_terminal()
    assert [total[a] for a in env.possible_agents] == pytest.approx(final_state.returns())


def test_simultaneous_choices_stay_hidden_until_applied():
    """In the AEC face of Goofspiel the second seat observes the same state whatever the
    first seat chose."""
    env = tz.raw_env("goofspiel")
    env.reset(seed=0)
    before = env.observe("player_1")["observation"].copy()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[-1]))
    assert env.agent_selection == "player_1"
    assert np.array_equal(env.observe("player_1")["observation"], before)
    assert env.state.ply() == 0


def test_aec_illegal_action_is_a_value_error():
    env = tz.raw_env("kuhn")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not an action id of kuhn"):
        env.step(7)
    env = tz.raw_env("goofspiel", num_cards=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal for player_0"):
        env.step(9)


def test_truncation_at_max_plies():
    env = tz.raw_env("qax", max_plies=5)
    env.reset(seed=0)
    steps = 0
    while not any(env.truncations.values()):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        steps += 1
    assert steps == 5 and not any(env.terminations.values())


def test_reset_seed_replays():
    def run(seed):
        env = tz.raw_env("dunhuang", players=3)
        env.reset(seed=seed)
        for _ in range(20):
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        return env.state.serialize()

    assert run(5) == run(5) != run(6)
