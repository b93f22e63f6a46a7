"""Issue 42: every line our PokerStars text writes has the shape of a line of
PokerStars' own hand histories.

The samples below are written after the format's public descriptions and
the hand histories trackers document (cash game in play chips, « (10/20) »;
local time with its zone, then ET in brackets; « Uncalled bet (N) returned
to X »; side pots « Side pot-1 »; summaries « folded before Flop (didn't
bet) », « showed [..] and won (N) with … », « mucked »). Both readers no one
here wrote read each sample, which shows the samples are the form they
expect; then each line of our texts over random deals, names, amounts,
cards and hand names taken out, must be the shape of a sample line.
Draw poker's lines are not held to samples (neither reader reads it).
"""

from __future__ import annotations

import random
import re

from poker.room.pokerstars import PokerStarsHandHistory
from pokerkit.notation import PokerStarsParser
from tests.games.poker.test_stars_readers import _ramponneau, _seen, _when

from tavern.games.poker.stars import to_pokerstars

SAMPLES = [
    """PokerStars Hand #243017652331: Hold'em No Limit (10/20) - 2023/02/11 21:14:03 CET [2023/02/11 15:14:03 ET]
Table 'Aludra II' 6-max Seat #4 is the button
Seat 1: Ralf77 (2150 in chips)
Seat 2: bluefish (1980 in chips)
Seat 3: K_Orsini (2000 in chips)
Seat 4: tomtom (3420 in chips)
Seat 5: Lavandou (1210 in chips)
Seat 6: ppp (2000 in chips)
Lavandou: posts small blind 10
ppp: posts big blind 20
*** HOLE CARDS ***
Dealt to K_Orsini [Ah Qd]
Ralf77: folds
bluefish: calls 20
K_Orsini: raises 60 to 80
tomtom: folds
Lavandou: folds
ppp: calls 60
bluefish: calls 60
*** FLOP *** [Qs 7h 2c]
ppp: checks
bluefish: checks
K_Orsini: bets 150
ppp: folds
bluefish: calls 150
*** TURN *** [Qs 7h 2c] [Kd]
bluefish: checks
K_Orsini: bets 400
bluefish: folds
Uncalled bet (400) returned to K_Orsini
K_Orsini collected 550 from pot
*** SUMMARY ***
Total pot 550 | Rake 0
Board [Qs 7h 2c Kd]
Seat 1: Ralf77 folded before Flop (didn't bet)
Seat 2: bluefish folded on the Turn
Seat 3: K_Orsini collected (550)
Seat 4: tomtom (button) folded before Flop (didn't bet)
Seat 5: Lavandou (small blind) folded before Flop
Seat 6: ppp (big blind) folded on the Flop
""",
    """PokerStars Hand #243017700112: Hold'em No Limit (10/20) - 2023/07/02 1:05:44 CEST [2023/07/01 19:05:44 ET]
Table 'Aludra II' 6-max Seat #1 is the button
Seat 1: tomtom (900 in chips)
Seat 2: Lavandou (400 in chips)
Seat 4: ppp (1500 in chips)
Lavandou: posts small blind 10
ppp: posts big blind 20
*** HOLE CARDS ***
Dealt to ppp [Jc Jd]
tomtom: raises 40 to 60
Lavandou: raises 340 to 400 and is all-in
ppp: raises 500 to 900
tomtom: calls 840 and is all-in
*** FLOP *** [2h 9s Jh]
*** TURN *** [2h 9s Jh] [5c]
*** RIVER *** [2h 9s Jh 5c] [Ks]
*** SHOW DOWN ***
ppp: shows [Jc Jd] (three of a kind, Jacks)
tomtom: shows [Ac Kc] (a pair of Kings)
Lavandou: shows [9h 9d] (three of a kind, Nines)
ppp collected 1000 from side pot
ppp collected 1200 from main pot
*** SUMMARY ***
Total pot 2200 Main pot 1200. Side pot 1000. | Rake 0
Board [2h 9s Jh 5c Ks]
Seat 1: tomtom (button) showed [Ac Kc] and lost with a pair of Kings
Seat 2: Lavandou (small blind) showed [9h 9d] and lost with three of a kind, Nines
Seat 4: ppp (big blind) showed [Jc Jd] and won (2200) with three of a kind, Jacks
""",
    """PokerStars Hand #243018000001: Hold'em No Limit (10/20) - 2023/11/20 9:30:00 CET [2023/11/20 3:30:00 ET]
Table 'Aludra II' 6-max Seat #2 is the button
Seat 2: bluefish (2000 in chips)
Seat 3: K_Orsini (2000 in chips)
Seat 5: Lavandou (1500 in chips)
K_Orsini: posts small blind 10
Lavandou: posts big blind 20
*** HOLE CARDS ***
Dealt to Lavandou [8s 3d]
bluefish: folds
K_Orsini: folds
Uncalled bet (10) returned to Lavandou
Lavandou collected 20 from pot
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 2: bluefish (button) folded before Flop (didn't bet)
Seat 3: K_Orsini (small blind) folded before Flop
Seat 5: Lavandou (big blind) collected (20)
""",
    """PokerStars Hand #243018100777: Hold'em No Limit (10/20) - 2023/04/15 22:41:09 CEST [2023/04/15 16:41:09 ET]
Table 'Aludra II' 6-max Seat #3 is the button
Seat 1: Ralf77 (300 in chips)
Seat 2: bluefish (700 in chips)
Seat 3: K_Orsini (2000 in chips)
Seat 4: tomtom (2000 in chips)
tomtom: posts small blind 10
Ralf77: posts big blind 20
*** HOLE CARDS ***
Dealt to bluefish [Td Tc]
bluefish: calls 20
K_Orsini: calls 20
tomtom: calls 10
Ralf77: checks
*** FLOP *** [4d 8c Qh]
tomtom: checks
Ralf77: bets 280 and is all-in
bluefish: raises 400 to 680 and is all-in
K_Orsini: calls 680
tomtom: calls 680
*** TURN *** [4d 8c Qh] [2s]
tomtom: checks
K_Orsini: bets 200
tomtom: calls 200
*** RIVER *** [4d 8c Qh 2s] [7c]
tomtom: bets 1100
K_Orsini: folds
Uncalled bet (1100) returned to tomtom
*** SHOW DOWN ***
tomtom: shows [8h 8d] (three of a kind, Eights)
Ralf77: mucks hand
bluefish: mucks hand
tomtom collected 400 from side pot-2
tomtom collected 1200 from side pot-1
tomtom collected 1200 from main pot
*** SUMMARY ***
Total pot 2800 Main pot 1200. Side pot-1 1200. Side pot-2 400. | Rake 0
Board [4d 8c Qh 2s 7c]
Seat 1: Ralf77 (big blind) mucked
Seat 2: bluefish mucked [Td Tc]
Seat 3: K_Orsini (button) folded on the River
Seat 4: tomtom (small blind) showed [8h 8d] and won (2800) with three of a kind, Eights
""",
]


def shape(line: str, names: list[str]) -> str:
    """The line without what changes from deal to deal: names, amounts,
    cards, hand names, the table, the zone; the seat's role in brackets
    (PokerStars' « (button) », which readers do not need) left out."""
    for name in sorted(names, key=len, reverse=True):
        line = line.replace(name, "NAME")
    line = re.sub(r" \((?:button|small blind|big blind)\)", "", line)
    line = re.sub(r"Table '[^']+'", "Table 'TABLE'", line)
    line = re.sub(r"\b[2-9TJQKA][cdhs]\b", "C", line)
    line = re.sub(r"\[C( C)*\]", "[CARDS]", line)
    line = re.sub(r"(shows \[CARDS\]) \(.+\)$", r"\1 (HAND)", line)
    line = re.sub(r"(with) .+$", r"\1 HAND", line)
    line = re.sub(r"\d+", "#", line)
    line = re.sub(r" [A-Z]{2,4} \[", " TZ [", line)
    return re.sub(r"( Side pot-# #\.)+", " Side pot-# #.", line)


def _shapes(text: str) -> set[str]:
    names = re.findall(r"^Seat \d+: (.+?) \(\d+ in chips\)", text, re.M)
    return {shape(line, names) for line in text.splitlines() if line}


def test_the_samples_are_the_form_both_readers_read() -> None:
    for text in SAMPLES:
        h = PokerStarsHandHistory(text)
        h.parse()
        assert h.total_pot and h.winners
        (hh,) = list(PokerStarsParser()(text, error_status=True))
        assert not list(hh)[-1].status  # pokerkit plays the sample to its end


def test_every_line_we_write_has_the_shape_of_a_pokerstars_line() -> None:
    known = set().union(*(_shapes(text) for text in SAMPLES))
    rng = random.Random(4205)
    written: set[str] = set()
    for deal in range(30):
        engine = _ramponneau(rng)
        record = engine.record()
        hero = rng.choice(engine.players)
        text = to_pokerstars(record, hero=hero, shown=_seen(record, hero), number=deal + 1, when=_when(rng),
                             table="La Chope")
        written |= _shapes(text)
    assert written - known == set(), sorted(written - known)
    assert len(written) > 30  # the deals wrote most kinds of line
