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


SIM = __import__("pathlib").Path(__file__).resolve().parents[2] / "target" / "debug" / "sim"


@pytest.mark.skipif(not SIM.exists(), reason=f"no sim binary at {SIM} (cargo build first)")
@pytest.mark.parametrize("name,variant", [("goofspiel", "num_cards=5"), ("daxu", None)])
def test_sim_tournament_trajectories_load_like_recorded_ones(name, variant, tmp_path):
    import csv
    import subprocess

    cmd = [str(SIM), "tournament", "--game", name, "--agents", "greedy,random", "-n", "6",
           "--seed", "4", "--out", str(tmp_path / "run"), "--trajectories", str(tmp_path / "t")]
    if variant:
        cmd += ["--variant", variant]
    subprocess.run(cmd, check=True, capture_output=True)
    data = trajectories.load(tmp_path / "t")
    game = tabletop_sim.load_game(name, **(dict([variant.split("=")]) if variant else {}))
    t = len(data["actions"])
    assert data["observations"].shape == (t, game.observation_tensor_size())
    assert data["observations"].dtype == np.float32 and data["action_masks"].dtype == np.int8
    assert data["action_masks"].shape == (t, game.num_distinct_actions())
    assert np.all(data["action_masks"][np.arange(t), data["actions"]] == 1)
    assert np.allclose(data["returns"], data["game_returns"][data["games"], data["seats"]])
    assert list(data["game_ids"]) == list(range(6))
    # Game 0's rows replay it: its chance stream is that of a fresh state seeded with the
    # master seed (rng_for(seed, 0, 0)), and its actions lead to its scores in games.csv.
    with open(tmp_path / "run" / "games.csv") as f:
        rows = [r for r in csv.DictReader(f) if int(r["game"]) == 0]
    scores = [int(r["score"]) for r in sorted(rows, key=lambda r: int(r["seat"]))]
    state = game.new_initial_state(seed=4)
    mine = list(np.flatnonzero(data["games"] == 0))
    while not state.is_terminal():
        acting = state.acting_players() if state.is_simultaneous_node() else [state.current_player()]
        joint = {}
        for p in acting:
            k = mine.pop(0)
            assert data["seats"][k] == p
            assert np.array_equal(state.observation_tensor(p), data["observations"][k])
            assert np.array_equal(state.legal_actions_mask(p), data["action_masks"][k])
            joint[p] = int(data["actions"][k])
        if state.is_simultaneous_node():
            state.apply_actions(joint)
        else:
            state.apply_action(joint[acting[0]])
    assert mine == []
    assert list(state.scores()) == scores
