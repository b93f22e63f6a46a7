"""tavern: a multiplayer card-game web server."""

__version__ = "0.1.0"
