"""The house players' levels, weakest first. Their names are French because
they are the names players choose from (issue 29: « named in French »); the
code compares them through these constants only."""

from __future__ import annotations

BEGINNER = "débutant"
REGULAR = "habitué"
FORT = "fort"
LEVELS = (BEGINNER, REGULAR, FORT)
