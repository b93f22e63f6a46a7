"""How many tables each worker should run (issue 32 §5).

Every worker sweeps on its own (TableManager._sweep) and decides alone, from
what Redis says: how many tables are live (``tavern:live``), how many
workers are alive (their heartbeats) and how many it holds itself. The
same arithmetic on every worker spreads the tables without a leader:

* a worker takes orphaned tables (their owner died or let them go) only up
  to its fair share, leaving the rest to the others' sweeps — not, as the
  first survivor to sweep used to, every one of them;
* a worker holding more than its share plus one (:data:`TOLERANCE`) hands
  the surplus over, each table at the end of its running deal, and the
  workers under their share take them.
"""

from __future__ import annotations

#: Tables a worker may hold above its share before it hands any over: a
#: move pauses the table a few seconds (the lease, a sweep), so an
#: off-by-one spread is not worth one.
TOLERANCE = 1
#: Sweeps an orphan may stay unclaimed before a worker takes it whatever
#: its share: every live worker has swept meanwhile, so the share arithmetic
#: was fooled (a worker counted alive that is not): a table must never
#: wait for an owner forever.
STRANDED_SWEEPS = 3


def fair_share(tables: int, workers: int) -> int:
    """The most tables one of ``workers`` live workers should run: ⌈tables / workers⌉."""
    return -(-max(0, tables) // max(1, workers))


def orphans_to_take(orphans: int, mine: int, tables: int, workers: int) -> int:
    """How many of ``orphans`` this worker, holding ``mine`` of the
    ``tables`` live ones, takes in one sweep: what it lacks of its share."""
    return max(0, min(orphans, fair_share(tables, workers) - mine))


def surplus(mine: int, tables: int, workers: int) -> int:
    """How many of its tables this worker hands over: none while it holds
    at most its share plus :data:`TOLERANCE`, else down to its share."""
    share = fair_share(tables, workers)
    return mine - share if mine > share + TOLERANCE else 0
