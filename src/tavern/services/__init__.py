"""Use-cases over the store. Each module is a set of functions taking a
SQLAlchemy session; they run in the caller's transaction and never commit
(the caller uses :func:`tavern.store.db.run_transaction` or
:func:`tavern.store.db.session_scope`).

* :mod:`.ledger`  — écus, tokens, chips, caves, rake, audit
* :mod:`.hands`   — daily free hands and premium packs
* :mod:`.taverns` — villages, taverns, the shop, inventory, tables
* :mod:`.seats`   — sitting down with a cave, se lever / se rasseoir, ramasser
* :mod:`.users`   — accounts and password hashes
* :mod:`.archive` — every hand's record
* :mod:`.seed`    — the demo data of ``tavern seed``
"""
