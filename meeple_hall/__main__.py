"""`python -m meeple_hall`: the same as the `meeple-hall` command."""

from meeple_hall.cli import main

main()
