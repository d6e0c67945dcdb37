"""`tabletop_sim.tournament`: `sim tournament` from Python, with Python callables as agents."""

import csv
import os
import pathlib
import subprocess

import pytest

import tabletop_sim

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIM = pathlib.Path(os.environ.get("SIM", ROOT / "target" / "debug" / "sim"))
GOOF = {"num_cards": 4}


def first_legal(state, seat):
    """A deterministic policy: the smallest legal action id."""
    return state.legal_actions(seat)[0]


def csv_files(out):
    return sorted(p.name for p in pathlib.Path(out).glob("*.csv"))


def read(out, name):
    return (pathlib.Path(out) / name).read_bytes()


def test_a_python_callable_plays_a_tournament_and_the_files_are_those_of_sim(tmp_path):
    report = tabletop_sim.tournament(
        "goofspiel", [first_legal, "random"], 24, seed=3, threads=2, out=tmp_path / "a", **GOOF
    )
    assert report["games"] == 24 and report["failures"] == []
    names = csv_files(report["out"])
    for required in ["games.csv", "agents.csv", "summary.csv", "seats.csv", "agent_seats.csv"]:
        assert required in names
    with open(pathlib.Path(report["out"]) / "agents.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["spec"] for r in rows] == ["callback:name=first_legal", "random"]
    with open(pathlib.Path(report["out"]) / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert len(games) == 48 and {g["agent"] for g in games} == {"callback", "random"}
    # Every game's first trick: the callable bid its lowest card.
    assert "callback" in report["summary"]
    # Deterministic callables give byte-identical files at any thread count.
    again = tabletop_sim.tournament(
        "goofspiel", [first_legal, "random"], 24, seed=3, threads=1, out=tmp_path / "b", **GOOF
    )
    for name in names:
        assert read(report["out"], name) == read(again["out"], name), name


@pytest.mark.skipif(not SIM.exists(), reason=f"no sim binary at {SIM} (cargo build first)")
def test_built_in_agents_write_the_same_bytes_as_the_sim_binary(tmp_path):
    report = tabletop_sim.tournament(
        "goofspiel", ["greedy", "random"], 20, seed=5, threads=2, out=tmp_path / "py", **GOOF
    )
    subprocess.run(
        [str(SIM), "tournament", "--game", "goofspiel", "--agents", "greedy,random", "-n", "20",
         "--seed", "5", "--threads", "1", "--out", str(tmp_path / "cli"), "--variant", "num_cards=4"],
        check=True, capture_output=True,
    )
    names = csv_files(report["out"])
    assert names == csv_files(tmp_path / "cli")
    for name in names:
        assert read(report["out"], name) == read(tmp_path / "cli", name), name


def test_a_python_exception_is_a_tournament_error_naming_the_game_and_ply(tmp_path):
    def flaky(state, seat):
        if state.num_players() and len(state.legal_actions(seat)) <= 2:
            raise ValueError("boom")
        return state.legal_actions(seat)[0]

    with pytest.raises(tabletop_sim.TournamentError) as info:
        tabletop_sim.tournament("goofspiel", [flaky, "random"], 8, threads=2, out=tmp_path / "x", **GOOF)
    message = str(info.value)
    assert "goofspiel" in message and "ply 2" in message, message
    assert "the Python agent 'flaky'" in message and "ValueError: boom" in message, message
    assert isinstance(info.value.__cause__, ValueError)
    report = info.value.report
    assert report["games"] == 0 and len(report["failures"]) == 8
    assert (pathlib.Path(report["out"]) / "errors.csv").exists()
    # fail_fast stops at the first failed game, with the same cause.
    with pytest.raises(tabletop_sim.TournamentError, match="ply 2") as info:
        tabletop_sim.tournament(
            "goofspiel", [flaky, "random"], 8, threads=1, out=tmp_path / "y", fail_fast=True, **GOOF
        )
    assert isinstance(info.value.__cause__, ValueError)
    # allow_failures accepts them; the process is alive and plays on.
    ok = tabletop_sim.tournament(
        "goofspiel", [flaky, "random"], 8, out=tmp_path / "z", allow_failures=True, **GOOF
    )
    assert len(ok["failures"]) == 8
    assert tabletop_sim.tournament("kuhn", [first_legal, "random"], 4, out=tmp_path / "k")["games"] == 4


def test_bad_actions_and_bad_input(tmp_path):
    with pytest.raises(tabletop_sim.TournamentError, match="not an action id of goofspiel"):
        tabletop_sim.tournament("goofspiel", [lambda s, p: 999, "random"], 2, out=tmp_path / "a", **GOOF)
    with pytest.raises(tabletop_sim.TournamentError, match="illegal"):
        tabletop_sim.tournament(
            "goofspiel", [lambda s, p: max(s.legal_actions(p)) + 1, "random"], 2, out=tmp_path / "b", **GOOF
        )
    with pytest.raises(ValueError, match="valid games: .*goofspiel"):
        tabletop_sim.tournament("chess", ["random"], 2, out=tmp_path / "c")
    with pytest.raises(ValueError, match="neither an agent spec"):
        tabletop_sim.tournament("kuhn", [3, "random"], 2, out=tmp_path / "d")
    with pytest.raises(ValueError, match="unknown agent 'alphazero'"):
        tabletop_sim.tournament("kuhn", ["alphazero", first_legal], 2, out=tmp_path / "e")
    with pytest.raises(ValueError, match="num_cards"):
        tabletop_sim.tournament("goofspiel", ["random"], 2, out=tmp_path / "f", num_cards=99)
    with pytest.raises(ValueError, match="registered for kuhn"):
        tabletop_sim.tournament("kuhn", ["callback:name=nobody"], 2, out=tmp_path / "g")
