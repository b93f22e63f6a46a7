"""The live table runtime: one actor per open table, game-agnostic.

See ``docs/architecture.md`` (tables) and ``docs/protocol.md`` (the WebSocket
messages). Nothing here knows a game's rules: the engine contract of
:mod:`tavern.games.base` says what is legal, what each player sees and what
the deal's result is.
"""
