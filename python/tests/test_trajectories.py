"""Trajectories recorded from self-play replay the games they came from."""

import numpy as np
import pytest

import tabletop_sim
from tabletop_sim import trajectories
from conftest import CONFIGS


@pytest.mark.parametrize("name,players", [c for c in CONFIGS if c[0] != "qax"])
def test_recorded_games_are_consistent(name, players, tmp_path):
    game = tabletop_sim.load_game(name, players=players)
    path = tmp_path / "t.npz"
    # Daimyo's masks are 8960 wide: fewer games keep the compression quick.
    n = 2 if name == "daimyo" else 6
    out = trajectories.record(game, n, path=path, seed=1, n_envs=3)
    saved = np.load(path)
    for k, v in out.items():
        assert np.array_equal(saved[k], v)
    t = len(out["actions"])
    assert out["observations"].shape == (t, game.observation_tensor_size())
    assert out["action_masks"].shape == (t, game.num_distinct_actions())
    assert np.all(out["action_masks"][np.arange(t), out["actions"]] == 1)
    assert sorted(set(out["games"])) == list(range(n))
    assert out["game_returns"].shape == (n, players)
    assert np.allclose(out["returns"], out["game_returns"][out["games"], out["seats"]])


def test_same_seed_same_trajectories_and_a_policy_callable():
    game = tabletop_sim.load_game("goofspiel", num_cards=5)
    a = trajectories.record(game, 10, seed=3, threads=2)
    b = trajectories.record(game, 10, seed=3, threads=1)
    assert all(np.array_equal(a[k], b[k]) for k in a)

    def lowest(obs, masks, seats):
        return masks.argmax(axis=1)

    c = trajectories.record(game, 4, seed=3, agent=lowest)
    assert np.all(c["actions"] == c["action_masks"].argmax(axis=1))
    assert len(c["actions"]) == 4 * 5 * 2
