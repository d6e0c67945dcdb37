#!/usr/bin/env python3
"""A tour of the Python package, notebook style: load a game, read its facts, play it, save
and load a position, then (if ``open_spiel`` is installed) run OpenSpiel's own CFR on Kuhn
poker through the bridge.

    pip install ./python && python examples/python/quickstart.py
"""

import random

import tabletop_sim

# --- A game and its facts ------------------------------------------------------------
game = tabletop_sim.load_game("dunhuang", players=3)
print(game)
print("dynamics", game.dynamics, "| chance", game.chance_mode, "| information", game.information)
print("actions", game.num_distinct_actions(), "| tensor", game.observation_tensor_shape())
for name, length, meaning in game.observation_layout()[:3]:
    print(f"  {name} [{length}]: {meaning}")

# --- Play a game with random moves -----------------------------------------------------
state = game.new_initial_state(seed=7)
rng = random.Random(7)
while not state.is_terminal():
    if state.ply() == 10:
        saved = state.serialize()  # a saved position, with the chance stream
    action = rng.choice(state.legal_actions())
    if state.ply() < 3:
        print(f"seat {state.current_player()} plays {state.action_to_string(action)}")
    state.apply_action(action)
print("scores", state.scores(), "returns", state.returns(), "after", state.ply(), "plies")

# --- The position at ply 10, loaded again, plays on identically ------------------------
again = game.deserialize_state(saved)
print("loaded ply", again.ply(), "| seat 0 sees:", again.observation_string(0).splitlines()[0])

# --- Errors are exceptions with the simulator's message --------------------------------
try:
    again.apply_action(331)
except ValueError as e:
    print("ValueError:", str(e)[:100], "...")

# --- OpenSpiel's CFR on Kuhn poker, through the bridge ---------------------------------
try:
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    import tabletop_sim.openspiel  # noqa: F401  registers tabletop_<name>
except ImportError:
    print("open_spiel not installed: skipping the CFR part")
else:
    kuhn = pyspiel.load_game("tabletop_kuhn")
    solver = cfr.CFRSolver(kuhn)
    for i in range(1, 201):
        solver.evaluate_and_update_policy()
        if i in (1, 10, 100, 200):
            conv = exploitability.nash_conv(kuhn, solver.average_policy())
            # Returns are (2 + chips) / 4, so NashConv in chips is 4x.
            print(f"CFR iteration {i:3d}: NashConv {conv:.5f} ({4 * conv:.5f} chips)")
