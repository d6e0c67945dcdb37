"""Self-play trajectories for imitation learning and offline RL, saved as ``.npz``.

``record(game, n_games, path=None, seed=0, threads=1, agent=None)`` plays ``n_games``
complete games with :class:`tabletop_sim.VecEnv` (self-play: every decision of every seat),
choosing each move uniformly at random in Rust (``agent=None``) or with a Python callable
``agent(observations, masks, seats) -> int64[n]`` for the whole batch, and returns (and, with
``path``, saves with ``numpy.savez_compressed``) the arrays, one row per decision, in the
order the decisions were made within each game, games in the order they ended:

========================  =================  ===================================================
key                       dtype, shape       meaning
========================  =================  ===================================================
``observations``          float32 [T, L]     the deciding seat's observation tensor
``action_masks``          int8 [T, A]        its legal actions
``actions``               int64 [T]          the action id chosen
``seats``                 int64 [T]          the deciding seat
``games``                 int64 [T]          the game's index, ``0..n_games`` in the order the games ended
``returns``               float32 [T]        the deciding seat's return at the end of its game
``game_returns``          float32 [G, P]     every seat's return, per game
========================  =================  ===================================================

Games are reproducible from ``seed`` (and ``n_envs``); see :class:`tabletop_sim.VecEnv`.
"""

import numpy as np

from ._tabletop_sim import VecEnv

__all__ = ["record"]


def record(game, n_games, path=None, seed=0, threads=1, agent=None, n_envs=64):
    """Plays and records ``n_games`` self-play games of ``game`` (see the module docs)."""
    if n_games < 1:
        raise ValueError("n_games must be at least 1")
    n_envs = max(1, min(n_envs, n_games))
    env = VecEnv(game, n_envs, seed=seed, threads=threads)
    obs, masks, seats = env.reset()
    open_steps = [[] for _ in range(n_envs)]
    done_games = []
    while len(done_games) < n_games:
        if agent is None:
            actions = env.random_actions()
        else:
            actions = np.asarray(agent(obs, masks, seats), dtype=np.int64)
        for i in range(n_envs):
            open_steps[i].append((obs[i].copy(), masks[i].copy(), int(actions[i]), int(seats[i])))
        obs, masks, rewards, terminated, seats = env.step(actions)
        for i in np.flatnonzero(terminated):
            if len(done_games) < n_games:
                done_games.append((open_steps[i], rewards[i].copy()))
            open_steps[i] = []
    rows = [(g, step) for g, (steps, _) in enumerate(done_games) for step in steps]
    game_returns = np.array([r for _, r in done_games], dtype=np.float32)
    out = {
        "observations": np.array([s[0] for _, s in rows], dtype=np.float32),
        "action_masks": np.array([s[1] for _, s in rows], dtype=np.int8),
        "actions": np.array([s[2] for _, s in rows], dtype=np.int64),
        "seats": np.array([s[3] for _, s in rows], dtype=np.int64),
        "games": np.array([g for g, _ in rows], dtype=np.int64),
        "game_returns": game_returns,
    }
    out["returns"] = game_returns[out["games"], out["seats"]]
    if path is not None:
        np.savez_compressed(path, **out)
    return out
