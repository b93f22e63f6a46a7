"""The web layer: FastAPI app factory, pages, JSON API, auth, CSRF.

No game rules and no money rules live here: every change goes through
``tavern.services``; this package only checks who asks, parses what they send
and renders what comes back.
"""
