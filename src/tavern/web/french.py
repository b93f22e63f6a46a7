"""The services' refusals, said in French on the pages.

The services word their refusals in English (they are shared with the CLI and
the runtime); the site speaks French. Each known sentence has its French form
here; an unknown one is shown as it is, so a new service message is never
lost, only untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tavern.web.rendering import GAME_LABELS


def _game(code: str) -> str:
    return GAME_LABELS.get(code, code)


def _decks(m: re.Match[str]) -> str:
    word = m["word"]
    need = "un jeu de cartes" if word == "a deck" else f"{word.split()[0]} jeux de cartes"
    return (f"Pour ouvrir une table de {_game(m['game'])}, il faut {need} ({m['item']}) entreposé(s) "
            f"dans la taverne et libre(s) ; libres : {m['free']}.")


Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]

RULES: list[Rule] = [(re.compile(p), f) for p, f in [
    (r"^to open a (?P<game>\w+) table you need (?P<word>a deck|\d+ decks) \((?P<item>.*)\) stored in the "
     r"tavern and not used by another table§ free: (?P<free>\d+)$", _decks),
    (r"^(?P<game>\w+) is played by (?P<lo>\d+) to (?P<hi>\d+) players$",
     lambda m: f"{_game(m['game'])} se joue de {m['lo']} à {m['hi']} joueurs."),
    (r"^the stake '(?P<key>\w+)' must be a whole number of chips above 0$",
     lambda m: f"La mise « {m['key']} » est un nombre entier de jetons supérieur à 0."),
    (r"^the small blind cannot be more than the big blind$",
     lambda m: "La petite blinde ne peut pas dépasser la grosse blinde."),
    (r"^draw poker is played (?P<list>.+)$",
     lambda m: f"Le Draw Poker se joue en {m['list'].replace(', ', ', en ')} (champ Variante)."),
    (r"^the rake is between 0 and (?P<max>\d+) %$", lambda m: f"Le rake est compris entre 0 et {m['max']} %."),
    (r"^the rake cap cannot be negative$", lambda m: "Le plafond du rake ne peut pas être négatif."),
    (r"^the cave is between (?P<a>\d+)× and (?P<b>\d+)× the big blind \((?P<lo>\d+) to (?P<hi>\d+) chips\)"
     r"§ the owner may only narrow it$",
     lambda m: f"La cave est comprise entre {m['a']}× et {m['b']}× la grosse blinde "
               f"({m['lo']} à {m['hi']} jetons) ; le propriétaire peut seulement resserrer ces bornes."),
    (r"^unknown game '(?P<g>[^']*)'; known: .*$", lambda m: f"Jeu inconnu : « {m['g']} »."),
    (r"^this item is not yours$", lambda m: "Cet article ne vous appartient pas."),
    (r"^this deck is in use at an open table; close the table first$",
     lambda m: "Ce jeu de cartes sert à une table ouverte : fermez d'abord la table."),
    (r"^you can only store items in your own tavern$",
     lambda m: "On n'entrepose que dans sa propre taverne."),
    (r"^the table still has players seated$",
     lambda m: "Des joueurs sont encore assis à cette table : elle ne peut pas fermer."),
    (r"^chips are still out at this table$",
     lambda m: "Des jetons sont encore en jeu à cette table : elle ne peut pas fermer."),
    (r"^no such open table$", lambda m: "Cette table n'est pas ouverte."),
    (r"^the village already has a tavern called '(?P<n>.*)'$",
     lambda m: f"Le village a déjà une taverne nommée « {m['n']} »."),
    (r"^a (?P<what>village|tavern) needs a name$",
     lambda m: f"{'Un village' if m['what'] == 'village' else 'Une taverne'} doit avoir un nom."),
    (r"^a level is 0 or more$", lambda m: "Le niveau est un nombre entier positif ou nul."),
]]


def sentence(message: str) -> str:
    """One English refusal in French (unchanged when unknown)."""
    for pattern, french in RULES:
        m = pattern.match(message.strip())
        if m:
            return french(m)
    return message


# Sentences that contain "; " themselves, kept whole when a list is split.
_INNER = ("; the owner may only narrow it", "; free: ")


def french(message: str) -> str:
    """A service's refusal in French; validation lists come joined by "; "."""
    for inner in _INNER:
        message = message.replace(inner, inner.replace(";", "§"))
    parts = [sentence(part) for part in message.split("; ")]
    return " ".join(p if p.endswith((".", "!", "?")) else p + "." for p in parts).replace("§", ";")
