"""The AI players: levels `random`, `good` and `strong` behind one call, for every game.

Pure code on the engine contract (no Discord), so that the bot's process pool, the
`meeple-hall arena` command and the tests share it. An AI never reads the real state's
secrets: every level works on `engine.determinize(state, seat, seed)`.

- `levels`: `choose(engine, state, seat, level, seed, think)`, the one entry.
- `mcts`: the `strong` level's search over determinized states, for plans of a whole turn.
- `turns`: the `strong` level following its plan through a turn's later steps.
- `evaluate`: what a cut-off playout is worth to each seat.
- `pool`: `choose_in_pool(...)`, the same call in a worker process, awaitable.
- `arena`: AIs against each other, with win rates and decision times.
"""

from meeple_hall.games.ai.levels import LEVELS, NoStrategy, choose

__all__ = ["LEVELS", "NoStrategy", "choose"]
