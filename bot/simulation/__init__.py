"""A community season in simulation (issue 26): the real bot in SimCord over days of virtual
time, with players, faults and planted bugs, and invariants checked after every step.

`meeple-hall simulate --days D --seed S` runs one season; `run.season()` is the same for
tests. The modules: `world` (servers and players, from one seeded generator), `actions`
(what players, moderators and the host do, through SimCord's public surface), `faults`
(restarts and Discord errors), `invariants` (one named check each), `plants` (bugs planted
from outside the bot, to prove the invariants can fail) and `run` (the loop and the report).
"""
