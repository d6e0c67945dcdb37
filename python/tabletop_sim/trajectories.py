"""Self-play trajectories for imitation learning and offline RL, saved as ``.npz`` or Parquet.

``record(game, n_games, path=None, seed=0, threads=1, agent=None)`` plays ``n_games``
complete games with :class:`tabletop_sim.VecEnv` (self-play: every decision of every seat),
choosing each move uniformly at random in Rust (``agent=None``) or with a Python callable
``agent(observations, masks, seats) -> int64[n]`` for the whole batch, and returns (and, with
``path``, saves with :func:`save`) the arrays, one row per decision, in the order the
decisions were made within each game, games in the order they ended:

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

``save(data, path)`` writes these arrays: a path ending in ``.parquet`` as a Parquet table
(needs the optional ``pyarrow``), anything else with ``numpy.savez_compressed``. The Parquet
table has one row per decision and the same columns: ``observations``, ``action_masks`` and
``game_returns`` are fixed-size lists (``list<float32>[L]``, ``list<int8>[A]``, and the row's
game's ``list<float32>[P]``, i.e. ``game_returns[games]``), the others scalars of the dtypes
above. ``load(path)`` reads either format back into the same dict of arrays.

Games are reproducible from ``seed`` (and ``n_envs``); see :class:`tabletop_sim.VecEnv`.

**From ``sim tournament``.** ``sim tournament ... --trajectories DIR`` writes the decisions of
every finished game of a tournament (any agents, every seat) into ``DIR/part-G.npz`` files in
this layout, plus ``game_ids`` (int64 [G]: each game's tournament index, the ``game`` column
of ``games.csv``); ``games`` indexes the rows of the file's ``game_returns``. ``load(DIR)``
reads a directory of such parts into one dict (parts in game order, ``games`` renumbered so
``returns == game_returns[games, seats]`` still holds).
"""

import numpy as np

from ._tabletop_sim import VecEnv

__all__ = ["load", "record", "save"]


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
        save(out, path)
    return out


def _is_parquet(path):
    return str(path).endswith(".parquet")


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as e:
        raise ImportError("Parquet needs the optional pyarrow package: pip install pyarrow") from e
    return pyarrow, pyarrow.parquet


def save(data, path):
    """Writes ``record``'s arrays to ``path``: Parquet if it ends in ``.parquet`` (needs
    ``pyarrow``), else ``.npz`` (see the module docs for the layout)."""
    if not _is_parquet(path):
        np.savez_compressed(path, **data)
        return
    pa, pq = _pyarrow()

    def fixed(rows):
        rows = np.ascontiguousarray(rows)
        return pa.FixedSizeListArray.from_arrays(pa.array(rows.reshape(-1)), rows.shape[1])

    games = np.asarray(data["games"])
    table = pa.table(
        {
            "observations": fixed(data["observations"]),
            "action_masks": fixed(data["action_masks"]),
            "actions": pa.array(data["actions"]),
            "seats": pa.array(data["seats"]),
            "games": pa.array(games),
            "returns": pa.array(data["returns"]),
            "game_returns": fixed(np.asarray(data["game_returns"])[games]),
        }
    )
    pq.write_table(table, str(path))


def load(path):
    """Reads arrays written by :func:`save` (``.npz`` or ``.parquet``), or a directory of
    ``sim tournament --trajectories`` parts, into the dict ``record`` returns."""
    import pathlib

    if pathlib.Path(path).is_dir():
        return _load_parts(sorted(pathlib.Path(path).glob("part-*.npz")), path)
    if not _is_parquet(path):
        with np.load(path) as f:
            return {k: f[k] for k in f.files}
    _, pq = _pyarrow()
    table = pq.read_table(str(path))

    def column(name, dtype):
        col = table.column(name).combine_chunks()
        if hasattr(col.type, "list_size"):
            width = col.type.list_size
            return col.flatten().to_numpy(zero_copy_only=False).astype(dtype).reshape(-1, width)
        return col.to_numpy(zero_copy_only=False).astype(dtype)

    out = {
        "observations": column("observations", np.float32),
        "action_masks": column("action_masks", np.int8),
        "actions": column("actions", np.int64),
        "seats": column("seats", np.int64),
        "games": column("games", np.int64),
        "returns": column("returns", np.float32),
    }
    per_row = column("game_returns", np.float32)
    # Every game has at least one decision: its first row carries its returns.
    _, first = np.unique(out["games"], return_index=True)
    out["game_returns"] = per_row[first]
    return out


def _load_parts(parts, path):
    """Concatenates the parts of a ``--trajectories`` directory (see the module docs)."""
    if not parts:
        raise ValueError(f"{path} holds no trajectory parts (part-*.npz)")
    loaded = []
    for p in parts:
        with np.load(p) as f:
            loaded.append({k: f[k] for k in f.files})
    offsets = np.cumsum([0] + [len(d["game_returns"]) for d in loaded[:-1]])
    out = {k: np.concatenate([d[k] for d in loaded]) for k in loaded[0] if k != "games"}
    out["games"] = np.concatenate([d["games"] + off for d, off in zip(loaded, offsets)])
    return out
