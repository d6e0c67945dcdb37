"""VecEnv: batched stepping in Rust replays exactly at any thread count, auto-resets, runs
built-in opponents, and refuses bad input with a clear error."""

import numpy as np
import pytest

import tabletop_sim
from conftest import CONFIGS


def random_actions(masks, rng):
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def trajectory(name, players, threads, learner=None, steps=60, n_envs=5):
    game = tabletop_sim.load_game(name, players=players)
    env = tabletop_sim.VecEnv(game, n_envs, seed=3, threads=threads, learner=learner)
    rng = np.random.default_rng(0)
    obs, masks, seats = env.reset()
    out = [(obs.copy(), masks.copy(), seats.copy())]
    for _ in range(steps):
        obs, masks, rewards, terminated, seats = env.step(random_actions(masks, rng))
        out.append((obs.copy(), masks.copy(), rewards.copy(), terminated.copy(), seats.copy()))
    return out


@pytest.mark.parametrize("name,players", CONFIGS)
def test_same_seeds_same_trajectories_at_1_and_2_threads(name, players):
    a = trajectory(name, players, threads=1)
    b = trajectory(name, players, threads=2)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            assert np.array_equal(u, v)


def test_buffers_match_the_states():
    game = tabletop_sim.load_game("dunhuang", players=3)
    env = tabletop_sim.VecEnv(game, 4, seed=1, threads=2)
    rng = np.random.default_rng(1)
    masks = env.action_masks()
    for _ in range(30):
        obs, masks, _, _, seats = env.step(random_actions(masks, rng))
        for i in range(4):
            state = env.state(i)
            assert np.array_equal(obs[i], state.observation_tensor(int(seats[i])))
            assert np.array_equal(masks[i], state.legal_actions_mask(int(seats[i])))


def test_games_end_auto_reset_and_pay_returns():
    game = tabletop_sim.load_game("goofspiel", num_cards=4)
    env = tabletop_sim.VecEnv(game, 3, seed=0)
    rng = np.random.default_rng(0)
    masks = env.action_masks()
    ended = 0
    for _ in range(8 * 4):  # 2 seats decide in turn at each of 4 rounds
        _, masks, rewards, terminated, _ = env.step(random_actions(masks, rng))
        for i in np.flatnonzero(terminated):
            ended += 1
            assert rewards[i].sum() == pytest.approx(1.0)
            assert env.state(i).ply() == 0  # already the next game
        assert np.all(rewards[~terminated] == 0)
    assert ended == 3 * 4


@pytest.mark.parametrize("name,players", [("kuhn", 2), ("dunhuang", 4), ("goofspiel", 3), ("daxu", 2)])
def test_learner_mode_returns_only_the_learners_decisions(name, players):
    game = tabletop_sim.load_game(name, players=players)
    env = tabletop_sim.VecEnv(game, 6, seed=2, learner=1, threads=2)
    rng = np.random.default_rng(2)
    masks = env.action_masks()
    assert np.all(env.seats == 1)
    for _ in range(40):
        _, masks, _, _, seats = env.step(random_actions(masks, rng))
        assert np.all(seats == 1)


def test_bad_input_raises_and_changes_nothing():
    game = tabletop_sim.load_game("kuhn")
    env = tabletop_sim.VecEnv(game, 2)
    before = env.observations.copy()
    with pytest.raises(ValueError, match=r"actions has shape \(3,\), expected \(2,\)"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"environment 1 \(kuhn game 0, seat 0\): action 5 is not legal; legal: \[0, 1\]"):
        env.step(np.array([0, 5], dtype=np.int64))
    assert np.array_equal(env.observations, before)
    with pytest.raises(ValueError, match="learner seat 2 is out of range"):
        tabletop_sim.VecEnv(game, 2, learner=2)
    with pytest.raises(ValueError, match="n_envs must be at least 1"):
        tabletop_sim.VecEnv(game, 0)


def test_random_actions_are_legal_and_replay():
    game = tabletop_sim.load_game("dunhuang", players=2)

    def run():
        env = tabletop_sim.VecEnv(game, 4, seed=5, threads=2)
        masks = env.action_masks()
        seen = []
        for _ in range(50):
            actions = env.random_actions()
            assert all(masks[i, a] == 1 for i, a in enumerate(actions))
            seen.append(actions.copy())
            _, masks, _, _, _ = env.step(actions)
        return np.array(seen)

    assert np.array_equal(run(), run())


@pytest.mark.parametrize("opponents", ["greedy", "mcts:iters=10"])
def test_builtin_opponents_replay_at_1_and_2_threads(opponents):
    def run(threads):
        game = tabletop_sim.load_game("dunhuang", players=3)
        env = tabletop_sim.VecEnv(game, 4, seed=4, threads=threads, learner=2, opponents=opponents)
        rng = np.random.default_rng(4)
        masks = env.action_masks()
        out = []
        for _ in range(25):
            obs, masks, rewards, _, seats = env.step(random_actions(masks, rng))
            assert np.all(seats == 2)
            out.append((obs.copy(), rewards.copy()))
        return out

    for (a, b), (c, d) in zip(run(1), run(2)):
        assert np.array_equal(a, c) and np.array_equal(b, d)


def test_bad_opponents_spec():
    with pytest.raises(ValueError, match="unknown agent 'alphazero'"):
        tabletop_sim.VecEnv(tabletop_sim.load_game("kuhn"), 2, learner=0, opponents="alphazero")
