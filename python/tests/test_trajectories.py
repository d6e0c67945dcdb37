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


@pytest.mark.parametrize("name", ["goofspiel", "daxu"])
def test_parquet_holds_the_npz_columns(name, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    game = tabletop_sim.load_game(name)
    out = trajectories.record(game, 3, path=tmp_path / "t.parquet", seed=2, n_envs=2)
    trajectories.save(out, tmp_path / "t.npz")
    t = len(out["actions"])
    table = pq.read_table(tmp_path / "t.parquet")
    assert table.num_rows == t
    assert table.column_names == [
        "observations",
        "action_masks",
        "actions",
        "seats",
        "games",
        "returns",
        "game_returns",
    ]
    assert table.schema.field("observations").type == pa.list_(
        pa.float32(), game.observation_tensor_size()
    )
    assert table.schema.field("action_masks").type == pa.list_(pa.int8(), game.num_distinct_actions())
    assert table.schema.field("game_returns").type == pa.list_(pa.float32(), game.num_players())
    assert table.schema.field("actions").type == pa.int64()
    for path in ("t.parquet", "t.npz"):
        back = trajectories.load(tmp_path / path)
        assert back.keys() == out.keys()
        for k, v in out.items():
            assert back[k].dtype == v.dtype and np.array_equal(back[k], v), (path, k)


def test_parquet_without_pyarrow_names_the_package(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    out = trajectories.record(tabletop_sim.load_game("kuhn"), 1, seed=0)
    with pytest.raises(ImportError, match="pip install pyarrow"):
        trajectories.save(out, tmp_path / "t.parquet")
