"""Pure rules engines, one module or package per game family.

Nothing here does I/O, reads a clock, uses global randomness or asyncio.
The engine contract every game follows is in :mod:`tavern.games.base`.
"""
