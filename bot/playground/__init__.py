"""The playground: Meeple Hall in the browser, without Discord, a token or the network.

`meeple-hall play` runs the real bot against SimCord's simulated Discord on this machine
and serves two loopback pages: the table's channel (SimCord's page, where the person
plays with the same buttons, menus, slash commands and pictures as in Discord) and a
companion page (their direct messages, more table channels, a Restart button). Games are
stored in a local SQLite file, so a game can be continued on another day.

Needs the `playground` extra (`pip install ".[playground]"`: SimCord's preview server).
"""
