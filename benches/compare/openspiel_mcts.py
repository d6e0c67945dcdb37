"""OpenSpiel's C++ MCTS (pyspiel.MCTSBot with a random-rollout evaluator) on goofspiel(13)
and Kuhn poker: simulations per second from the initial state, for comparison with
`cargo bench --bench search` (mcts iterations per second).

Not part of the build or the tests. Run in a throwaway virtualenv:
    python3 -m venv /tmp/osp && /tmp/osp/bin/pip install open_spiel
    /tmp/osp/bin/python benches/compare/openspiel_mcts.py
One MCTS simulation = one selection/expansion + one random rollout to the end, the same work
as one iteration of our `mcts` with `depth=0`.
"""

import statistics
import time

import pyspiel


def sims_per_second(game_string, sims, repeats):
    game = pyspiel.load_game(game_string)
    rates = []
    for r in range(repeats):
        evaluator = pyspiel.RandomRolloutEvaluator(1, r)
        # uct_c, max_simulations, max_memory_mb, solve, seed, verbose
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, r, False)
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[0][0])
        start = time.perf_counter()
        bot.step(state)
        rates.append(sims / (time.perf_counter() - start))
    return statistics.median(rates)


if __name__ == "__main__":
    for name, gs in [
        ("goofspiel(13, descending)", "turn_based_simultaneous_game(game=goofspiel(num_cards=13,points_order=descending))"),
        ("goofspiel(13, random)", "turn_based_simultaneous_game(game=goofspiel(num_cards=13,points_order=random))"),
        ("connect_four", "connect_four"),
    ]:
        print(f"{name}: {sims_per_second(gs, 20000, 5):,.0f} simulations/s (median of 5)")
