"""What the Python wheel's build settings change in speed: a native search of Othello to
depth 9 and of Connect Four to depth 13, and 300,000 MCTS playouts on Connect Four,
through the package. Time it in two environments, each with a wheel of its own, by
alternating runs, for example
`farm-bench -n 15 --vs "ENV_B/bin/python benches/python_wheel_speed.py" -- ENV_A/bin/python benches/python_wheel_speed.py`
(python/Cargo.toml has the last comparison)."""

import libminimax as m
from libminimax.games import ConnectFour, Othello

m.search(Othello(), depth=9)
m.search(ConnectFour(), depth=13)
m.Mcts(seed=1).search(ConnectFour(), playouts=300000)
