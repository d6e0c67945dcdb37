"""Built-in agents asked for moves from Python."""

import pytest

import tabletop_sim
from conftest import CONFIGS


@pytest.mark.parametrize("name,players", CONFIGS)
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_builtin_agents_play_whole_games(name, players, spec):
    game = tabletop_sim.load_game(name, players=players, **({"max_rounds": 20} if name == "qax" else {}))
    bot = tabletop_sim.agent(spec, seed=1)
    state = game.new_initial_state(seed=2)
    while not state.is_terminal():
        if state.is_simultaneous_node():
            choice = {p: bot.step(state, p) for p in state.acting_players()}
            for p, a in choice.items():
                assert a in state.legal_actions(p)
            state.apply_actions(choice)
        else:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)


def test_mcts_beats_nothing_but_answers_legally():
    state = tabletop_sim.load_game("dunhuang").new_initial_state(seed=0)
    a = tabletop_sim.agent("mcts:iters=50").step(state)
    assert a in state.legal_actions()


def test_same_seed_same_moves():
    game = tabletop_sim.load_game("kuhn")
    moves = [
        [tabletop_sim.agent("mcts:iters=30", seed=9).step(game.new_initial_state(seed=s)) for s in range(5)]
        for _ in range(2)
    ]
    assert moves[0] == moves[1]


def test_agent_errors():
    with pytest.raises(ValueError, match="unknown agent 'alphazero'"):
        tabletop_sim.agent("alphazero")
    with pytest.raises(ValueError, match="greedy"):
        tabletop_sim.agent("greedy:samples=0")
    state = tabletop_sim.load_game("kuhn").new_initial_state()
    bot = tabletop_sim.agent("random")
    with pytest.raises(ValueError, match="seat 1 does not act now"):
        bot.step(state, 1)


def test_a_panicking_agent_is_an_exception_and_the_interpreter_survives():
    state = tabletop_sim.load_game("kuhn").new_initial_state()
    bot = tabletop_sim.agent("panic:ply=0")
    with pytest.raises(BaseException) as info:
        bot.step(state)
    assert type(info.value).__name__ == "PanicException"
    assert tabletop_sim.agent("random").step(state) in state.legal_actions()
