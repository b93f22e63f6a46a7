"""Every refusal of the house in French: one code, one sentence.

A :class:`tavern.refusal.Refusal` carries a code and its parameters; this
module is the one place that words them, for the pages, the forms, the JSON
API (``{"code", "message", "params"}``), the table's ``error`` frames and the
command line. ``tests/test_catalogue.py`` walks every code here and every
code the source raises, and fails on a missing or English message.

Why a Python module and not a gettext catalogue: the site speaks one
language, and its messages need more than ``%s`` substitution — card codes
said with French faces (``Qh`` → ``D♥``), a game's French name from its
spec, a field's label from the form, a nested refusal (a replay's "action 3
(B raise) : …"). Here a template is a ``str.format`` string whose parameters
go through the formatters below by name; mypy, ruff and the walking test
see every entry, and a missing one fails a test instead of silently falling
back to the English msgid. If a second language ever comes, the same
``MESSAGES`` table becomes one per language.

Long because it is the catalogue: every sentence the site says, one per
line, in one place where a translator or a reviewer reads them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tavern.cards import SUIT_SYMBOL
from tavern.refusal import from_pydantic

#: code → French template. Parameters in braces; ``field`` (when the template
#: does not place it) is put in front: ``« Grosse blinde » : au moins 2.``
MESSAGES: dict[str, str] = {}


def _section(entries: dict[str, str]) -> None:
    for code, text in entries.items():
        assert code not in MESSAGES, f"code {code} worded twice"
        MESSAGES[code] = text


# --- how parameters are said ------------------------------------------------

_FACES = {"T": "10", "J": "V", "Q": "D", "K": "R"}  # Valet, Dame, Roi
SUIT_NAMES = {"c": "trèfle", "d": "carreau", "h": "cœur", "s": "pique"}
CURRENCIES = {"ecus": "écus", "tokens": "tokens", "chips": "jetons"}

#: Actions as the buttons of the table say them (hand records keep the codes):
#: the one list, the table page's buttons included (table.html hands it to
#: static/games/generic.js).
ACTIONS = {
    "fold": "se coucher", "check": "parole", "call": "suivre", "bet": "miser", "raise": "relancer",
    "post": "payer pour entrer", "show": "montrer", "muck": "jeter", "draw": "piocher",
    "discard": "jeter", "meld": "poser", "lay": "poser", "add": "ajouter", "lay_off": "ajouter", "layoff": "ajouter",
    "knock": "frapper", "gin": "gin", "out": "finir", "go_out": "finir", "swap_joker": "prendre un joker",
    "move_joker": "déplacer un joker", "rearrange": "réarranger", "close": "fermer", "pass": "passer",
    "exchange": "échanger", "keep": "garder", "bid": "enchérir", "play": "jouer", "lead": "entamer",
    "declare": "annoncer", "speak": "annoncer", "protect": "protéger", "take": "prendre", "stand": "servi",
}

#: The piles a card is drawn from, as the table's buttons say them.
PILES = {"stock": "la pioche", "discard_pile": "la défausse"}

#: A table's variant (its betting structure) as the pages say it; the code
#: stays in the records and the forms' values. draw-poker.fr.txt: « Jeux aux
#: limites fixées », « Les jeux à pot limité ».
VARIANTS = {"fixed-limit": "limites fixées", "pot-limit": "pot limité", "no-limit": "sans limite"}


def variant(code: str) -> str:
    """``fixed-limit`` → ``limites fixées``; an unknown variant as it is."""
    return VARIANTS.get(code, code)


#: The title of the page that answers an HTTP status (tavern.web.errors).
STATUS_TITLES = {
    400: "Requête invalide", 401: "Connexion requise", 403: "Accès refusé", 404: "Page introuvable",
    405: "Méthode non permise", 409: "Conflit", 422: "Données invalides", 413: "Requête trop volumineuse",
    429: "Trop de tentatives", 500: "Erreur du serveur", 503: "Site surchargé",
}
ERROR_TITLE = "Erreur"

#: A table's stakes as the village's list says them (« grosse blinde 20 »).
STAKE_LABELS = {"small_blind": "petite blinde", "big_blind": "grosse blinde",
                "small_bet": "petite mise", "unit": "unité", "structure": "structure"}
STAKE_WORDS = {"fixed": "limites fixées", "pot": "pot limité", "no_limit": "sans limite"}

#: The parts of an address the request guard names when it refuses one.
URL_PARTS = {"path": "chemin", "query": "requête"}

#: The shop's items, as the shop and the inventory name them.
ITEM_NAMES = {"deck52": "Jeu de 52 cartes (et 2 jokers)", "deck32": "Jeu de 32 cartes"}

#: A contest's state, as the contests' pages say it.
CONTEST_STATUS = {"registering": "Inscriptions ouvertes", "running": "En cours", "finished": "Terminé",
                  "cancelled": "Annulé"}
#: The numbers of the contest form, as its labels say them.
CONTEST_FIELDS = {
    "fee": "Droit d'entrée", "house_prize": "Prix ajouté par la maison", "starting_chips": "Jetons de départ",
    "seats": "Places par table", "min_players": "Joueurs minimum", "max_players": "Joueurs maximum",
    "late_levels": "Inscription tardive", "action_timer": "Temps pour jouer",
}

#: Fields of the forms and of the table options, as the forms label them.
FIELDS = {
    "game": "Jeu", "variant": "Variante", "name": "Nom", "table_name": "Nom de la table",
    "small_bet": "Petite mise", "stakes": "Mises", "options": "Options",
    "buy_in_min": "Cave minimum", "buy_in_max": "Cave maximum", "rake_percent": "Rake",
    "rake_cap": "Plafond du rake", "no_flop_no_drop": "Pas de flop, pas de rake", "seats": "Places",
    "action_timer_seconds": "Temps pour jouer", "small_blind": "Petite blinde", "big_blind": "Grosse blinde",
    "ante": "Ante", "unit": "Unité", "bet": "Mise", "limit": "Limite", "username": "Nom d'utilisateur",
    "password": "Mot de passe", "level": "Niveau", "role": "Rôle", "amount": "Montant", "cave": "Cave",
    "seat": "Place", "fee": "Droit d'entrée", "house_prize": "Prix de la maison",
    "starting_chips": "Jetons de départ", "min_players": "Joueurs minimum", "max_players": "Joueurs maximum",
    "starts_at": "Début", "payouts": "Prix", "structure": "Structure", "late_levels": "Inscription tardive",
    "seconds_per_action": "Temps pour jouer", "mode": "Mode", "score": "Marque", "target": "Objectif",
    "decks": "Jeux de cartes", "jokers": "Jokers", "next": "Page suivante", "csrf": "Jeton de formulaire",
    "private": "Table privée", "spectators": "Spectateurs admis", "house_seats": "Joueurs de la maison",
    "house_level": "Niveau des joueurs de la maison",
    "village": "Village", "tavern": "Taverne", "kind": "Article", "inventory_id": "Article", "quantity": "Quantité", "seed": "Graine",
    "chat": "Discussion", "text": "Message", "author": "Auteur", "message": "Message", "minutes": "Minutes",
    "opponents": "Adversaires", "fast": "Jouer vite",
}


def card(code: Any) -> str:
    """``Td`` → ``10♦``, ``Qh`` → ``D♥``, ``X1`` → ``Joker``."""
    s = str(code)
    if s.startswith("X"):
        return "Joker"
    if len(s) == 2 and s[1] in SUIT_SYMBOL:
        return _FACES.get(s[0], s[0]) + SUIT_SYMBOL[s[1]]
    return s


def field_label(path: Any) -> str:
    """``stakes.big_blind`` → « Grosse blinde »: the last known label of a path."""
    parts = [p for p in str(path).split(".") if p]
    for p in reversed(parts):
        if p in FIELDS:
            return f"« {FIELDS[p]} »"
    return f"« {path} »" if parts else "« requête »"


#: A day and a time as the village's contests say them (strftime, Paris time): « 27/11 à 14:30 ».
DAY_AND_TIME = "%d/%m à %H:%M"

#: The house's games as the pages say them. Kept here, not asked of the
#: registry: the registry imports the engines, the engines raise refusals, and
#: a refusal asks this module for its words — importing the registry closed
#: the loop refusal → catalogue → registry → base → refusal.
#: tests/test_catalogue.py checks every game of the registry is named here
#: as its spec names itself.
GAME_LABELS = {
    "ramponneau": "Ramponneau", "draw": "Draw Poker", "rami": "Rami", "double_rami": "Double rami",
    "remigio": "Remigio", "gin": "Gin rami", "rummoli": "Rummoli", "rams": "Rams",
}


def _game(name: Any) -> str:
    """A game's French name; a game the house does not know (the suite's own
    test game) is said as it was written."""
    return GAME_LABELS.get(str(name), str(name))


def _joined(values: Any, each: Callable[[Any], str] = str) -> str:
    if isinstance(values, (list, tuple, set, frozenset)):
        return ", ".join(each(v) for v in values)
    return each(values)


def ecus(amount: Any) -> str:
    """An amount of écus as French says it: « 0 écu », « 1 écu », « 2 écus »
    (the singular below two). The one helper of the server side: the pages'
    ``|ecus`` filter and the messages' ``{amount:écus}`` say it through here;
    the browser's twin is ``ecus`` in static/cards.js (issue 42 §7)."""
    return money(amount, "ecus")


#: Each currency's name for one (CURRENCIES names several).
ONE = {"ecus": "écu", "tokens": "token", "chips": "jeton"}


def money(amount: Any, currency: Any) -> str:
    """An amount of a currency (CURRENCIES' codes): « 1 token », « 0 jeton »,
    « 2 écus ». A message says it with ``{needed:money}`` beside its ``currency``."""
    code = str(currency)
    return counted(amount, ONE.get(code, code), CURRENCIES.get(code, code))


def counted(n: Any, one: str, many: str) -> str:
    """« 0 pli », « 1 carte », « 3 jetons »: French puts the singular below two."""
    return f"{n} {one}" if isinstance(n, int) and not isinstance(n, bool) and -2 < n < 2 else f"{n} {many}"


#: A message's counted words: ``{amount:jetons}``, ``{cards:cartes}``, ``{tricks:plis}``.
COUNTED = {"jetons": ("jeton", "jetons"), "cartes": ("carte", "cartes"), "plis": ("pli", "plis")}


def _board_section(x: Any) -> str:
    """A Rummoli section as its board names it (French faces: V, D, R)."""
    if not isinstance(x, Mapping):
        return str(x)
    named = {"poker": "Pot du poker", "rummoli": "Pot Rummoli"}.get(str(x.get("id")))
    return named or str(x.get("label", "")).replace("J", "V").replace("Q", "D").replace("K", "R")


def _left(v: Any) -> str:
    """What stays on a Rummoli board, section by section: « (10♠ 3, 7-8-9 3) »."""
    if not isinstance(v, list) or not v:
        return ""
    return " (" + ", ".join(f"{_board_section(x)} {x.get('chips')}" for x in v if isinstance(x, Mapping)) + ")"


def _held(x: Any) -> str:
    """One player's cards held at a Rummoli deadlock and what he paid for them."""
    if not isinstance(x, Mapping):
        return str(x)
    n, paid = x.get("cards", 0), x.get("amount", 0)
    return f"{x.get('player')} {n} carte{'s' if n > 1 else ''} ({paid} jeton{'s' if paid > 1 else ''})"


FORMATTERS: dict[str, Callable[[Any], str]] = {
    "card": card,
    "called": card,
    "cards": lambda v: _joined(v, card),
    "deadwood": lambda v: _joined(v, card),
    "game": _game,
    "field": field_label,
    "suit": lambda v: SUIT_NAMES.get(str(v), str(v)),
    "currency": lambda v: CURRENCIES.get(str(v), str(v)),
    "action": lambda v: f"« {ACTIONS.get(str(v), str(v))} »",
    "phase": lambda v: ACTIONS.get(str(v), str(v)),
    "sizes": lambda v: " ou ".join(str(x) for x in v) if isinstance(v, (list, tuple)) else str(v),
    "end": lambda v: {"low": "basse", "high": "haute"}.get(str(v), str(v)),
    "expected": lambda v: str(v).replace(" or ", " ou "),  # pydantic's literal_error
    "what": lambda v: ACTIONS.get(str(v), str(v)),
    "actions": lambda v: _joined(v, lambda a: f"« {ACTIONS.get(str(a), str(a))} »"),
    "problems": lambda v: " ".join(french(p.get("code", ""), p.get("params") or {}) for p in v),
    "reasons": lambda v: " ".join(str(r) for r in v),
    "variants": lambda v: _joined(v, lambda x: f"« {x} »"),
    "choices": lambda v: _joined(v, lambda x: f"« {x} »"),
    "missing": lambda v: _joined(v, card) if v else "aucune",
    "extra": lambda v: _joined(v, card) if v else "aucune",
    "decks": lambda n: "un jeu de cartes" if n == 1 else f"{n} jeux de cartes",
    "entered": lambda n: f"{n} inscrit{'s' if isinstance(n, int) and n > 1 else ''}",
    "given": lambda v: _joined(v) if v else "aucun",
    "per_card": lambda n: "un jeton" if n == 1 else f"{n} jetons",
    "held": lambda v: _joined(v, _held) if isinstance(v, list) else str(v),
    "section": _board_section,
    "left": _left,
    "refusal": lambda v: french(v.get("code", ""), v.get("params") or {}) if isinstance(v, Mapping) else str(v),
}


def _say(key: str, value: Any) -> str:
    if key in FORMATTERS:
        return FORMATTERS[key](value)
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, (list, tuple)):
        return _joined(value)
    return str(value)


class _Word(str):
    """A parameter as said, which also knows its value: ``{amount:écus}`` in
    a message says the amount with its unit (:func:`ecus`), ``{amount:money}``
    with the message's ``currency`` (:func:`money`)."""

    value: Any
    currency: Any

    def __new__(cls, said: str, value: Any, currency: Any = "ecus") -> _Word:
        word = super().__new__(cls, said)
        word.value, word.currency = value, currency
        return word

    def __format__(self, spec: str) -> str:
        if spec == "écus":
            return ecus(self.value)
        if spec == "money":
            return money(self.value, self.currency)
        if spec in COUNTED:
            return counted(self.value, *COUNTED[spec])
        return super().__format__(spec)


class _Said(dict[str, str]):
    def __init__(self, params: Mapping[str, Any]) -> None:
        currency = params.get("currency", "ecus")
        super().__init__({k: _Word(_say(k, v), v, currency) for k, v in params.items()})

    def __missing__(self, key: str) -> str:  # a template asking more than given
        return _Word("?", "?")


def french(code: str, params: Mapping[str, Any] | None = None) -> str:
    """The French sentence for ``code`` with ``params``. An unknown code is a
    bug the catalogue test catches; at run time it says a refusal happened
    rather than show an internal name."""
    params = params or {}
    template = MESSAGES.get(code)
    if template is None:
        template = MESSAGES["refused"]
    text = template.format_map(_Said(params))
    if "field" in params and "{field}" not in template:
        if not template.startswith("{"):  # « Places » : le rake…, but « Places » : Rami se joue…
            text = text[:1].lower() + text[1:]
        text = f"{field_label(params['field'])} : {text}"
    return text


# --- validation (pydantic's error types, by their own stable names) ---------

_section({
    "refused": "Ce n'est pas possible.",
    # an HTTP refusal with no code of its own (tavern.web.errors.STATUS_CODES)
    "login_required": "Connectez-vous pour accéder à cette page.",
    "forbidden": "Accès refusé.",
    # /metrics (docs/operations.md): only for the operator's addresses or token
    "metrics_forbidden": ("Les mesures ne se lisent que depuis une adresse autorisée (TAVERN_METRICS_ALLOW) "
                          "ou avec le jeton de l'exploitant (TAVERN_METRICS_TOKEN)."),
    "not_found": "Cette page n'existe pas.",
    "method_not_allowed": "Cette adresse n'accepte pas cette méthode.",
    "conflict": "Cette demande entre en conflit avec l'état présent.",
    "too_large": "Requête trop volumineuse.",
    # the request guard (tavern.web.guard)
    "body_too_large": "Requête trop volumineuse : au plus {limit} Kio pour cette adresse.",
    "control_character": "{where} : Caractère de contrôle refusé.",
    "forbidden_characters": "Certaines valeurs contiennent des caractères interdits.",
    "invalid_values": "Certaines valeurs sont invalides.",
    "too_many_attempts": "Trop de tentatives : réessayez plus tard.",
    "csrf_refused": "Jeton CSRF absent ou invalide : rechargez la page et recommencez.",
    # why a table's WebSocket closes (its close frame's reason; docs/protocol.md)
    "ws_unknown_table": "Table inconnue.",
    "ws_origin_refused": "Origine non autorisée.",
    "ws_login_required": "Connectez-vous pour regarder ou jouer.",
    "ws_table_moved": "La table change de serveur.",
    "ws_play_paused": "Jeu en pause : le serveur a perdu le contact avec son coordinateur. Reprise automatique dès son retour.",
    "ws_store_away": "Jeu en pause : la base de données ne répond pas un instant. Reprise automatique dès son retour.",
    "ws_too_many_connections": "Trop de connexions ouvertes.",
    "ws_session_ended": "Session terminée.",
    "server_error": "Une erreur inattendue est survenue ; elle a été consignée. Réessayez plus tard.",
    "busy": "Le site est très occupé en ce moment : réessayez dans quelques secondes.",
    "store_full": "Le serveur manque d'espace disque : rien n'a été enregistré. L'équipe est prévenue ; réessayez plus tard.",
    "store_away": "La base de données ne répond pas un instant (redémarrage) : réessayez dans quelques secondes.",
    "missing": "Valeur requise.",
    "extra_forbidden": "Champ inconnu.",
    "int_type": "Un nombre entier est attendu.",
    "int_parsing": "Un nombre entier est attendu.",
    "int_from_float": "Un nombre entier est attendu.",
    "float_type": "Un nombre est attendu.",
    "float_parsing": "Un nombre est attendu.",
    "bool_type": "Oui ou non est attendu.",
    "bool_parsing": "Oui ou non est attendu.",
    "string_type": "Un texte est attendu.",
    "string_too_short": "Au moins {min_length} caractère(s).",
    "string_too_long": "Au plus {max_length} caractères.",
    "string_pattern_mismatch": "Ce texte n'a pas la forme attendue.",
    "too_short": "Au moins {min_length} élément(s).",
    "too_long": "Au plus {max_length} éléments.",
    "greater_than_equal": "Au moins {ge}.",
    "greater_than": "Plus que {gt}.",
    "less_than_equal": "Au plus {le}.",
    "less_than": "Moins que {lt}.",
    "literal_error": "Valeur non prévue (au choix : {expected}).",
    "enum": "Valeur non prévue (au choix : {expected}).",
    "dict_type": "Une liste de valeurs nommées est attendue.",
    "list_type": "Une liste est attendue.",
    "model_type": "Un objet est attendu.",
    "model_attributes_type": "Un objet est attendu.",
    "json_invalid": "Ce n'est pas du JSON valide.",
    "json_type": "Ce n'est pas du JSON valide.",
    "union_tag_invalid": "Type de message inconnu.",
    "union_tag_not_found": "Le type du message manque.",
    "datetime_parsing": "Une date et une heure sont attendues.",
    "datetime_type": "Une date et une heure sont attendues.",
    "datetime_from_date_parsing": "Une date et une heure sont attendues.",
    "timezone_aware": "L'heure doit préciser son fuseau horaire.",
    "value_error": "Valeur invalide.",
    "assertion_error": "Valeur invalide.",
    "invalid": "Valeur invalide.",
    "not_a_number_bool": "Un nombre est attendu, pas vrai ou faux.",
})


def validation_refusals(errors: list[Any], prefix: str = "") -> list[dict[str, Any]]:
    """Pydantic's errors as refusals ``{"code", "message", "params"}``, each
    naming its field by the form's label. A validator that raises an
    :class:`tavern.refusal.Invalid` gives its own code and parameters."""
    out = []
    for e in errors:
        loc = [str(p) for p in e.get("loc", ()) if p not in ("body", "query", "path", "form")]
        where = ".".join(p for p in (prefix, *loc) if p)
        code, params = from_pydantic(e)
        if code not in MESSAGES:
            code = "invalid"
        if where and "field" not in params:
            params["field"] = where
        out.append({"code": code, "message": french(code, params), "params": params})
    return out


# --- the services: money, accounts, seats, taverns -------------------------

_section({
    # ledger
    "insufficient_funds": "Fonds insuffisants : il faut {needed:money}, vous n'en avez que {available}. "
                          "Rien n'a été débité.",
    "unknown_owner_kind": "Ce genre de compte n'existe pas ({kind}).",
    "unknown_currency": "Cette monnaie n'existe pas ({currency}).",
    "chips_only_at_table": "Les jetons n'existent qu'à une table, et un compte de table tient des jetons ou des écus.",
    "empty_transfer": "Un virement doit déplacer quelque chose.",
    "bad_amount": "Un montant est un nombre entier positif, pas {amount}.",
    "currency_mismatch": "Les deux comptes d'un mouvement doivent tenir sa monnaie.",
    "same_account": "Un mouvement va d'un compte à un autre compte.",
    "house_issues_no_chips": "La maison émet des écus ou des tokens ; les jetons viennent d'une cave.",
    "bad_rake": "Le rake est un nombre entier de jetons, positif ou nul.",
    "carried_pot_to_seated": "Le pot reporté va aux joueurs assis à la table.",
    "still_has_chips": "{name} a encore des jetons : il n'est pas éliminé.",
    "deal_unbalanced": "Une donne doit s'équilibrer : résultats {results} + rake {rake} + report {carried} ≠ 0.",
    # users
    "bad_username": "Un nom d'utilisateur a de 3 à 40 caractères : lettres, chiffres, « . », « _ » ou « - ».",
    "password_too_short": "Un mot de passe a au moins {minimum} caractères.",
    "unknown_role": "Ce rôle n'existe pas ({role}).",
    "negative_level": "Le niveau est un nombre entier positif ou nul.",
    "username_taken": "Le nom « {username} » est déjà pris.",
    "no_such_user": "Ce joueur n'existe pas.",
    "unknown_player": "Joueur inconnu.",
    # accounts (tavern.web.routers.auth, account)
    "bad_credentials": "Nom d'utilisateur ou mot de passe incorrect.",
    "account_banned": "Ce compte est suspendu par l'administration du site.",
    "username_rule": "Le nom d'utilisateur compte 3 à 40 lettres, chiffres, « . », « _ » ou « - ».",
    "password_short": "Le mot de passe compte au moins {minimum} caractères (hors espaces).",
    "password_long": "Le mot de passe compte au plus {maximum} caractères.",
    "password_common": "Ce mot de passe est l'un des plus courants : choisissez-en un autre.",
    "password_has_name": "Le mot de passe ne doit pas contenir le nom d'utilisateur.",
    "passwords_differ": "Les deux mots de passe diffèrent.",
    "new_passwords_differ": "Les deux nouveaux mots de passe diffèrent.",
    "wrong_current_password": "Le mot de passe actuel est incorrect.",
    "too_many_logins": "Trop de tentatives de connexion échouées. Réessayez dans {minutes} minute(s).",
    "too_many_signups": "Trop de tentatives d'inscription depuis cette adresse. Réessayez dans {minutes} minute(s).",
    "welcome": "Compte créé. Bienvenue au village, {username} !",
    "logged_out": "Vous êtes déconnecté. À bientôt !",
    "logged_out_everywhere": "Vous êtes déconnecté partout ({ended} session(s) fermée(s)).",
    "password_changed": "Mot de passe changé. {ended} autre(s) session(s) de ce compte fermée(s).",
    # the address and « Mot de passe oublié » (tavern.services.accounts, web/routers/recovery.py)
    "email_malformed": "Cette adresse électronique n'est pas valable (par exemple : nom@exemple.fr).",
    "email_taken": "Cette adresse électronique est déjà celle d'un autre compte.",
    "email_already_yours": "Cette adresse est déjà celle de votre compte.",
    "email_link_sent": "Un lien de confirmation vient de partir vers {email} : l'adresse servira une fois confirmée.",
    "email_confirmed": "Adresse {email} confirmée.",
    "email_removed": "Adresse retirée de votre compte.",
    "link_invalid": "Ce lien n'est pas valable : il a déjà servi, il a expiré, ou il est mal recopié.",
    "link_other_account": "Ce lien est celui d'un autre compte : déconnectez-vous d'abord.",
    "too_many_resets": "Trop de demandes de nouveau mot de passe. Réessayez dans {minutes} minute(s).",
    "reset_asked": ("Si un compte correspond et qu'il a une adresse confirmée, un courriel vient d'y partir "
                    "avec un lien valable une heure."),
    "no_such_mail": "Ce courriel n'existe pas ou est déjà parti.",
    "mail_retried": "Le courriel repart tout de suite.",
    "password_reset_done": "Mot de passe changé, et toutes les sessions du compte fermées : connectez-vous.",
    # the site's mails (tavern.services.outbox): subject, paragraphs, button
    "mail_password_changed_body": ("Bonjour {username},\n\nLe mot de passe de votre compte sur {site} vient d'être "
                                   "changé depuis « Mon compte », et ses autres sessions ont été fermées.\n\nSi ce "
                                   "n'est pas vous, demandez un nouveau mot de passe (« Mot de passe oublié ») et "
                                   "écrivez aux administrateurs du site."),
    "mail_totp_changed_body": ("Bonjour {username},\n\nLa double authentification de votre compte sur {site} vient "
                               "d'être activée, retirée ou levée par un administrateur.\n\nSi ce n'est pas vous, "
                               "changez votre mot de passe et écrivez aux administrateurs du site."),
    "mail_copy_link": "Ou copiez cette adresse dans votre navigateur :",
    "mail_confirm_body": ("Bonjour {username},\n\nPour confirmer que cette adresse est bien la vôtre sur {site}, "
                          "ouvrez le lien ci-dessous dans les 24 heures. Elle servira à retrouver votre compte si "
                          "vous oubliez votre mot de passe.\n\nSi vous n'avez rien demandé, ignorez ce courriel : "
                          "l'adresse ne sera pas enregistrée."),
    "mail_changed_body": ("Bonjour {username},\n\nL'adresse de votre compte sur {site} vient d'être remplacée par "
                          "{new}. Les courriels du site n'arriveront plus ici.\n\nSi ce n'est pas vous, changez "
                          "votre mot de passe et écrivez aux administrateurs du site."),
    "mail_reset_body": ("Bonjour {username},\n\nQuelqu'un (vous, sans doute) a demandé un nouveau mot de passe "
                        "pour votre compte sur {site}. Le lien ci-dessous le permet une seule fois, pendant une "
                        "heure.\n\nSi vous n'avez rien demandé, ignorez ce courriel : votre mot de passe ne "
                        "change pas."),
    "mail_password_reset_body": ("Bonjour {username},\n\nLe mot de passe de votre compte sur {site} vient d'être "
                                 "changé par le lien « Mot de passe oublié », et toutes ses sessions ont été "
                                 "fermées.\n\nSi ce n'est pas vous, demandez un nouveau mot de passe et écrivez "
                                 "aux administrateurs du site."),
    # two-factor sign-in (tavern.services.twofactor, web/routers/twofactor.py)
    "totp_wrong": "Ce code n'est pas le bon (six chiffres de l'application, ou un code de secours).",
    "totp_replayed": "Ce code a déjà servi : attendez le suivant de l'application.",
    "totp_already_on": "La double authentification est déjà active sur ce compte.",
    "totp_not_started": "Commencez par afficher le code QR de la double authentification.",
    "totp_needed": "Ce compte demande aussi le code de son application d'authentification.",
    "totp_enrol_first": ("Ce compte doit d'abord activer la double authentification : connectez-vous "
                         "une fois dans le navigateur."),
    "totp_required_here": "La double authentification est obligatoire pour ce compte (administrateur ou tavernier).",
    "totp_expired": "Trop de temps a passé depuis le mot de passe : reconnectez-vous.",
    "too_many_codes": "Trop de codes faux. Réessayez dans {minutes} minute(s).",
    "totp_on": "Double authentification activée. Gardez vos codes de secours en lieu sûr.",
    "totp_off": "Double authentification retirée de votre compte.",
    "totp_lifted": "Double authentification levée pour {username}.",
    "totp_was_off": "{username} n'avait pas de double authentification.",
    "reason_needed": "Dites pourquoi (c'est écrit dans le journal des administrateurs).",
    "session_ended": "Session fermée.",
    "no_such_session": "Cette session n'existe pas ou est déjà fermée.",
    "other_sessions_ended": "{ended} autre(s) session(s) fermée(s).",
    # daily hands
    "no_free_hands_at_level_0": "Les joueurs de niveau 0 n'ont pas de donnes gratuites : achetez un paquet "
                                "de donnes sur la page Premium.",
    "no_hands_left_today": "Plus de donnes pour aujourd'hui : vos donnes gratuites reviennent à minuit "
                           "(heure de Paris), ou achetez un paquet de donnes sur la page Premium.",
    "no_hands_left_for": "Des joueurs n'ont plus de donnes : {reasons}",
    # what a table says of a player's daily hands when he may be dealt in
    "hands_unlimited": "Donnes illimitées dans votre propre taverne.",
    "hands_free_left": "{free} donnes gratuites restantes aujourd'hui.",
    "hands_paid_left": "{paid} donnes premium restantes.",
    "hands_both_left": "{free} donnes gratuites restantes aujourd'hui, {paid} en paquets.",
    "hands_contest": "Concours : pas de donnes quotidiennes.",
    "pack_bought": "Paquet acheté : {hands} mains de plus, sans limite de temps.",
    # seats
    "table_closed": "Cette table est fermée.",
    # what the table tells a player (its notices)
    "leaving_after_deal": "Vous partirez avec vos jetons à la fin de cette donne.",
    "timed_out": "Temps écoulé : la table a joué à votre place ({timeouts} sur {most} avant d'être levé).",
    "timed_out_sat_out": "Trois temps écoulés de suite : vous êtes levé (« Se rasseoir » pour revenir).",
    "table_could_not_close": "La table n'a pas pu fermer : {why}",
    "table_goes_on": "Elle continue.",
    "owner_closes_after_deal": "Le patron ferme la table : elle fermera à la fin de cette donne.",
    "closing_after_deal": "La table fermera à la fin de la donne en cours.",
    "no_such_seat": "Cette table a les places 1 à {seats}.",
    "already_seated": "Vous êtes déjà assis à cette table.",
    "cave_out_of_range": "La cave à cette table est comprise entre {minimum} et {maximum:écus}.",
    "seat_taken": "Cette place est prise.",
    "top_up_too_much": "Vous pouvez ajouter jusqu'à {most} jetons (cave maximale : {maximum}).",
    "not_seated": "Vous n'êtes pas assis à cette table.",
    # taverns, the shop, tables
    "unknown_game": "Jeu inconnu : « {game} ».",
    # the house players (tavern.bots)
    "bot_level": "Niveau de joueur de la maison inconnu : « {level} » (niveaux : {choices}).",
    "no_variant": "Ce jeu n'a pas de variante (seul le Draw Poker en a) : laissez le champ Variante vide.",
    "variant_unknown": "{game} se joue en {variants}.",
    "players_range": "{game} se joue de {lo} à {hi} joueurs.",
    "stake_positive": "Une mise est un nombre entier de jetons supérieur à 0.",
    "small_blind_above_big_blind": "La petite blinde ne peut pas dépasser la grosse blinde.",
    "rake_range": "Le rake est compris entre 0 et {maximum} %.",
    "negative_rake_cap": "Le plafond du rake ne peut pas être négatif.",
    "cave_bounds": "La cave est comprise entre {low_bb}× et {high_bb}× la grosse blinde ({low} à {high} jetons) ; "
                   "le propriétaire peut seulement resserrer ces bornes.",
    "invalid_settings": "Certaines valeurs sont invalides. {problems}",
    # a table's options (the field, « Options », comes first)
    "no_options": "{game} n'a pas d'option de table (« {option} » inconnue).",
    "option_unknown": "Option inconnue pour {game} : « {option} » (au choix : {choices}).",
    "option_too_large": "Les nombres de « {option} » valent au plus {maximum}.",
    "option_invalid": "« {option} » : {refusal}",
    "village_needs_name": "Un village doit avoir un nom.",
    "village_exists": "Le village « {name} » existe déjà.",
    "tavern_needs_name": "Une taverne doit avoir un nom.",
    "no_such_village": "Ce village n'existe pas.",
    "tavern_exists": "Le village a déjà une taverne nommée « {name} ».",
    "no_such_item": "La boutique ne vend pas cet article ({kind}).",
    "item_not_yours": "Cet article ne vous appartient pas.",
    "deck_in_use": "Ce jeu de cartes sert à une table ouverte : fermez d'abord la table.",
    "store_in_own_tavern": "On n'entrepose que dans sa propre taverne.",
    "no_such_tavern": "Cette taverne n'existe pas.",
    "owner_only_opens": "Seul le patron de la taverne peut y ouvrir une table.",
    "decks_needed": "Pour ouvrir une table de {game}, il faut {decks} ({item}) entreposé(s) dans la taverne "
                    "et libre(s) ; libres : {free}.",
    "no_such_open_table": "Cette table n'est pas ouverte.",
    "owner_only_closes": "Seul le patron de la taverne peut fermer une table.",
    "players_still_seated": "Des joueurs sont encore assis à cette table : elle ne peut pas fermer.",
    "chips_still_out": "Des jetons sont encore en jeu à cette table : elle ne peut pas fermer.",
    # « Mes donnes »: a player's archived deals
    "not_your_deal": "Vous n'avez pas joué cette donne.",
    "deal_in_progress": "Cette donne est en cours : elle se rejouera pas à pas une fois finie.",
    "deal_voided_no_replay": "Cette donne a été annulée (le serveur s'est arrêté pendant la donne) : "
                             "elle ne se rejoue pas, mais ses cartes restent vérifiables.",
    "seed_not_revealed": "Cette donne n'a pas de graine révélée (elle est peut-être en cours).",
    # who may see what (tavern.web.deps and the routes)
    "admin_only": "Réservé aux administrateurs du site.",
    "not_your_tavern": "Cette taverne ne vous appartient pas.",
    "table_not_in_your_tavern": "Cette table n'est pas dans votre taverne.",
    "no_such_table": "Cette table n'existe pas.",
    "no_such_inventory_item": "Cet article n'existe pas.",
    "shop_does_not_sell": "La boutique ne vend pas cet article.",
    "no_such_deal": "Cette donne n'existe pas.",
    "no_shared_deal": "Ce joueur n'a partagé aucune donne archivée.",
    "no_such_username": "Pas d'utilisateur « {username} ».",
    "no_self_demotion": "Vous ne pouvez pas retirer votre propre rôle d'administrateur.",
    "no_self_ban": "Vous ne pouvez pas vous bannir vous-même.",
    "level_range": "Le niveau est un nombre entier entre 0 et {maximum}.",
    "role_choice": "Le rôle est « {first} » ou « {second} ».",
    "credit_currency": "On crédite des écus ou des tokens.",
    "credit_range": "Le montant est un nombre entier entre 1 et {maximum}.",
    # what the admin is told once done (the page's notice)
    "user_changed": "{username} : niveau {level}, rôle {role}.",
    "user_credited": "{username} crédité de {amount:money}.",
    "user_banned": "{username} est banni : ses sessions sont fermées.",
    "user_unbanned": "{username} peut de nouveau se connecter.",
    "tavern_entrusted": "Taverne « {name} » confiée à {username}.",
    # what a tavern's owner is told once done (the page's notice)
    "item_bought": "{item} acheté. Entreposez-le dans la taverne pour ouvrir une table.",
    "item_stored": "Article entreposé dans l'inventaire de la taverne.",
    "table_opened": "Table ouverte : elle apparaît maintenant dans le village.",
    "table_closed_now": "Table fermée ; son jeu de cartes est revenu dans l'inventaire.",
    "table_closing_after_deal": "Une donne est en cours : la table fermera à la fin de cette donne "
                                "(aucune nouvelle donne ne commence).",
})


# --- tables among friends (services/private_tables.py) ----------------------

_section({
    "no_such_private_table": "Cette table n'est pas une table privée ouverte.",
    "owner_only_invites": "Seul le patron de la taverne peut renouveler le lien d'invitation.",
    "invitation_invalid": "Ce lien d'invitation n'est pas valable : il a été renouvelé ou il est faux. "
                          "Demandez le lien actuel à qui vous a invité.",
    "private_table_needs_invitation": "Table privée : il faut le lien d'invitation pour s'y asseoir.",
    "private_table_no_spectators": "Table privée : seuls les invités peuvent la regarder.",
    "practice_table_no_spectators": "Table d'entraînement : seul son joueur peut la regarder.",
    # what the owner and the invited player are told once done
    "table_opened_private": "Table privée ouverte : elle n'apparaît dans le village que pour vous et ceux qui "
                            "ont ouvert son lien.",
    "invitation_link": "Lien d'invitation de la table « {name} », à donner à vos amis "
                       "(un nouveau lien annule l'ancien) : {link}",
    "invitation_accepted": "Invitation acceptée : vous pouvez vous asseoir à la table « {name} ».",
    # an invitation sent by the owner to a named player (issue 30 §4)
    "invite_no_such_player": "Aucun joueur ne s'appelle « {name} ».",
    "invite_yourself": "Vous êtes le patron : la table vous est déjà ouverte.",
    "invitation_sent": "Invitation envoyée à {name} : il peut s'asseoir à la table « {table} ».",
    "table_invitation_notice": "{owner} vous invite à sa table privée « {table} ».",
})


# --- the live table ----------------------------------------------------------

_section({
    "table_moved_reconnect": "La table change de serveur : reconnectez-vous.",
    "table_moving": "La table change de serveur : réessayez dans quelques secondes.",
    "table_failed": "La table n'a pas pu faire cela.",
    "unknown_command": "Commande inconnue : « {command} ».",
    "login_to_play": "Connectez-vous pour jouer.",
    "seat_driven": "Cette place est jouée par un programme : elle n'obéit qu'à lui.",
    "table_closing": "Le patron ferme cette table : elle fermera à la fin de cette donne.",
    "top_up_between_deals": "On ne recave qu'entre deux donnes, jamais pendant une donne.",
    "unknown_auto": "Action automatique inconnue : « {auto} » (au choix : {choices}).",
    "bad_client_seed": "Une graine de joueur tient en 64 caractères au plus : lettres, chiffres, _ et -.",
    "stale_move": "Ce coup a été choisi sur un état plus ancien de la table (n° {seq}, maintenant n° {now}) : "
                  "regardez de nouveau.",
    "not_in_deal": "Vous ne jouez pas cette donne.",
    "bad_arguments": "Arguments invalides pour {action} (reçus : {given}).",
    "message_too_long": "Message trop long (au plus {maximum} octets).",
    "too_many_messages": "Trop de messages : ralentissez.",
    "malformed_message": "Message mal formé : {refusal}",
    "binary_frame": "Message binaire refusé : la table parle en texte (JSON).",
    # contest tables
    "contest_seats_drawn": "Les places d'un concours sont tirées au sort : inscrivez-vous au concours.",
    "contest_no_cave": "En concours, pas de cave : les jetons du concours ne s'achètent pas.",
    "contest_keep_seat": "En concours, on garde sa place jusqu'à ce qu'on n'ait plus de jetons.",
    "contest_absent_dealt": "En concours, un joueur absent reçoit ses cartes et paie ses blindes.",
    "contest_table_by_director": "Une table de concours ferme quand le directeur la casse.",
    # practice tables (issue 29)
    "practice_seats_set": "À l'entraînement, les places sont données à l'ouverture : ouvrez une autre table.",
    "practice_no_cave": "À l'entraînement, pas de cave : vos jetons d'entraînement sont remis quand vous n'en avez plus.",
    "practice_closes_on_leave": "Une table d'entraînement ferme quand vous la quittez.",
    "practice_left": "Vous avez quitté votre table d'entraînement.",
    "house_seats_range": "De 0 à {high} joueurs de la maison à cette table (une place au moins reste à un joueur).",
    "house_seat_after_deal": "Un joueur de la maison vous cède sa place à la fin de la donne : vous vous y assiérez alors.",
    "house_seat_yours": "Le joueur de la maison vous a cédé sa place : vous êtes assis.",
    "house_seat_failed": "Le joueur de la maison est parti, mais votre place n'a pu être prise : {why}",
    "house_level_unknown": "« {level} » n'est pas un niveau ; les niveaux : {choices}.",
    "house_level_changed": "{name} : les joueurs de la maison jouent au niveau « {level} » dès la prochaine donne.",
    "house_purse_credited": "Versé à la caisse de la maison : {amount:écus}.",
    "practice_opponents": "Nombre d'adversaires impossible pour ce jeu : entre {low} et {high}.",
    "practice_opponents_only": "Nombre d'adversaires impossible pour ce jeu : il se joue contre {count} adversaire.",
    "practice_no_level": "Choisissez le niveau des joueurs de la maison ({choices}).",
    "hands_practice": "Entraînement : aucune donne quotidienne comptée, jetons d'entraînement.",
})


# --- a full table's waiting list (tables/waiting.py, issue 30 §3) ---------------

_section({
    "waiting_seated": "Vous êtes déjà assis à cette table : pas besoin de liste d'attente.",
    "waiting_twice": "Vous êtes déjà sur la liste d'attente de cette table.",
    "waiting_seat_free": "Une place est libre à cette table : asseyez-vous directement.",
    "waiting_not_listed": "Vous n'êtes pas sur la liste d'attente de cette table.",
    "no_seat_offered": "Aucune place ne vous est offerte à cette table en ce moment.",
    "seat_held": "Cette place est réservée quelques secondes au premier de la liste d'attente.",
    "practice_no_waiting": "Une table d'entraînement n'a pas de liste d'attente : ouvrez-en une autre.",
    "contest_no_waiting": "Une table de concours n'a pas de liste d'attente : inscrivez-vous au concours.",
    # the notices (web/notices.py): to the player in line only
    "seat_offer_notice": "Une place vous attend à la table {table} — {seconds} s.",
    "seat_offer_taken": "Vous êtes assis à la table {table}.",
    "seat_offer_passed": "Vous avez laissé passer la place à la table {table} : vous quittez sa liste d'attente.",
    "seat_offer_expired": "Temps écoulé : la place à la table {table} passe au suivant, "
                          "vous quittez sa liste d'attente.",
    "seat_offer_left": "Vous avez quitté la liste d'attente de la table {table}.",
    "contest_soon_notice": "Le concours « {contest} » commence dans {minutes} min : soyez prêt.",
})


# --- cards and decks ---------------------------------------------------------

_section({
    "joker_has_no_rank": "Un joker n'a pas de rang.",
    "joker_has_no_suit": "Un joker n'a pas de couleur.",
    "not_a_card": "« {card} » n'est pas une carte (rang 2-9, T, J, Q, K, A puis couleur c, d, h, s ; "
                  "X1… pour les jokers).",
    "bad_deck": "Un paquet a au moins un jeu et pas de jokers en nombre négatif.",
    "deck_not_permutation": "L'ordre du paquet n'est pas une permutation du paquet du jeu "
                            "(manquent : {missing} ; en trop : {extra}).",
    "stock_short": "Le talon n'a plus que {left} cartes, {asked} demandées.",
    "card_dealt_twice": "Une carte est donnée deux fois.",
    "poker_hand_size": "Une main de poker se fait avec 5 à 7 cartes distinctes.",
    "joker_in_poker_hand": "Un joker n'a pas sa place dans une main de poker.",
    "card_twice_in_hand": "La même carte deux fois dans une main : {cards}.",
    "bad_reshuffle": "Le remélange n° {index} doit être fait des cartes couchées et des écarts ({size} cartes), "
                     "sans les écarts de celui qui tire.",
    "reshuffle_missing": "Le relevé n'a pas le paquet remélangé dont ce tirage a besoin.",
    "stock_empty": "Il ne reste pas assez de cartes pour tirer.",
})


# --- every game: turns, seats, records ---------------------------------------

_section({
    "not_your_turn": "Ce n'est pas votre tour.",
    "deal_over": "La donne est finie.",
    "deal_not_over": "La donne n'est pas finie.",
    "not_dealt_in": "Vous ne jouez pas cette donne.",
    "unknown_action": "Coup inconnu : {action}.",
    "unknown_action_of": "Coup inconnu : {action} ; les coups sont {actions}.",
    "no_arguments": "{action} ne prend pas d'argument.",
    "takes_arguments": "{action} prend : {names}.",
    "takes_no": "{action} ne prend pas : {names}.",
    "seats_list": "Les places sont une liste de joueurs avec leurs jetons.",
    "seat_needs_player": "La place {seat} doit avoir un joueur.",
    "seat_chips": "Les jetons de la place {seat} sont un nombre entier positif ou nul.",
    "chips_whole": "Les jetons sont un nombre entier positif ou nul.",
    "seated_twice": "{name} est assis deux fois.",
    "bad_button": "Le donneur est une des places (0 à {last}).",
    "dealer_one_of_seats": "Le donneur doit être une des places.",
    "in_action": "Action {index} ({who} {what}) : {refusal}",
    "record_malformed": "Relevé mal formé ({kind} : {detail}).",
    "record_not_object": "Un relevé de donne est un objet JSON.",
    "record_file_missing": "Le fichier « {path} » n'existe pas.",
    "record_file_directory": "« {path} » est un dossier, pas un fichier de relevé.",
    "record_file_denied": "Le fichier « {path} » ne peut pas être lu : accès refusé.",
    "record_file_unreadable": "Le fichier « {path} » ne peut pas être lu (erreur du système n° {errno}).",
    "record_not_utf8": "Le fichier « {path} » n'est pas un texte UTF-8 (octet illisible à la position {position}) : "
                       "un relevé de donne est du JSON en UTF-8.",
    "record_empty": "Le fichier « {path} » est vide : un relevé de donne est un objet JSON.",
    "record_not_json": "Le fichier « {path} » n'est pas du JSON (erreur ligne {line}, colonne {column}).",
    "record_json_not_object": "Le fichier « {path} » contient {kind}, pas un objet JSON : un relevé de donne "
                              "est un objet.",
    "record_format": "Format de relevé non pris en charge : {value}.",
    "no_reshuffles": "{game} ne remélange jamais son talon : les remélanges du relevé doivent être vides.",
    "carry_nothing": "Une donne de {game} ne reporte rien de la précédente.",
    "record_no_more_reshuffles": "Le relevé n'a plus de talon reconstitué (remélanges).",
    "record_bad_reshuffle": "Le talon reconstitué du relevé est faux : {refusal}",
    "deck_order": "L'ordre du paquet est faux : {refusal}",
})

# --- poker (Ramponneau, draw) ------------------------------------------------

_section({
    "betting_players": "Un tour d'enchères se joue de {lo} à {hi} joueurs.",
    "fold_when_check_free": "On ne se couche pas quand on peut dire parole sans payer.",
    "check_facing_bet": "Impossible de dire parole : il y a une mise de {bet} à suivre ; suivez, relancez ou couchez-vous.",
    "nothing_to_call": "Il n'y a pas de mise à suivre : dites parole ou misez.",
    "bet_already_made": "Il y a déjà une mise de {bet} : suivez ou relancez.",
    "raise_without_bet": "Personne n'a encore misé : misez plutôt que relancer.",
    "amount_whole_chips": "{action} demande un nombre entier de jetons : votre total pour ce tour d'enchères.",
    "more_than_stack": "Vous n'avez que {available} jetons pour ce tour.",
    "cannot_cover_bet": "Vous ne pouvez pas couvrir la mise : suivez à tapis ou couchez-vous.",
    "short_all_in_no_reopen": "Un tapis inférieur à une relance complète ne rouvre pas les enchères : suivez ou couchez-vous.",
    "fixed_limit_capped": "Limite fixe : une mise et trois relances par tour, les enchères sont plafonnées.",
    "nobody_to_call_raise": "Plus personne ne peut suivre une relance : suivez ou couchez-vous.",
    "fixed_limit_amount": "Limite fixe : on va à exactement {amount}.",
    "bet_too_small": "Une mise vaut au moins la grosse blinde ({minimum}).",
    "raise_too_small": "Une relance vaut au moins la mise ou la relance précédente de ce tour : relancez à {minimum} "
                       "ou plus.",
    "pot_limit_exceeded": "Pot limite : une relance vaut au plus le pot après avoir suivi, {maximum} en tout.",
    "seat_post_value": "Place {seat} : « post » vaut true, « big » ou « both ».",
    "no_chips_no_deal": "{name} n'a plus de jetons : il ne peut pas recevoir de cartes.",
    "post_between_button_and_blind": "{name} ne peut pas payer pour entrer entre le bouton et la grosse blinde : "
                                     "il paie la petite blinde ou attend la grosse.",
    "amount_only": "{action} ne prend qu'un montant.",
    "muck_only_when_beaten": "Seul un joueur qui se voit battu peut jeter ses cartes : montrez-les.",
    "showdown_show_or_muck": "À l'abattage, on montre ou on jette ses cartes.",
    "no_draw_here": "Ce jeu n'a pas de tirage.",
    "protect_only_in_deal": "Seul un joueur encore dans la donne peut être protégé.",
    "already_protected": "Ce joueur est déjà protégé.",
    "draw_now": "C'est le tirage : jetez de 0 à 5 cartes.",
    "draw_args": "Un tirage ne prend que la liste des cartes jetées.",
    "throw_own_cards": "On ne jette que des cartes de sa main.",
    "throw_once": "Chaque carte n'est jetée qu'une fois.",
    "record_post_once": "Action {index} : seul un joueur assis et servi paie pour entrer, une fois.",
    "record_post_amount": "Action {index} : payer pour entrer, c'est la grosse blinde ({big}), ou les deux blindes "
                          "après des blindes manquées.",
    "record_posts_first": "Action {index} : les paiements pour entrer viennent avant la première décision de la donne.",
    "phh_ramponneau_only": "Seuls les relevés de Ramponneau (hold'em) s'écrivent en PHH.",
    "phh_no_post": "PHH ne sait pas dire le paiement pour entrer hors position de {name}.",
    "phh_no_protect": "PHH ne sait pas dire un joueur protégé après une déconnexion.",
    "phh_whole_hand": "Le relevé s'arrête avant la fin de la donne : PHH demande une main entière.",
    "stars_poker_only": "Seules les donnes de poker (Ramponneau, draw poker) s'écrivent au format PokerStars.",
    "stars_no_post": "Le format PokerStars ne sait pas dire le paiement pour entrer hors position de {name}.",
    "stars_no_protect": "Le format PokerStars ne sait pas dire un joueur protégé après une déconnexion.",
    "stars_whole_hand": "Le relevé s'arrête avant la fin de la donne : le format PokerStars demande une main entière.",
    "rake_not_a_number": "Le pourcentage du rake est un nombre.",
    "draw_small_blind_half": "Au draw poker, la petite blinde est la moitié de la grosse, arrondie en dessous ({half}).",
})

# Issue 31: a player's data out (his deals, his archive).
_section({
    "export_range_upside_down": "La période est à l'envers : le {start} vient après le {end}.",
    "export_range_too_long": "Une exportation couvre au plus {days} jours : choisissez une période plus courte.",
    "export_not_your_deals": "Vous n'avez pas joué ces donnes : {ids}.",
    "export_format": "Formats d'exportation : {formats}.",
    "board_no_such_player": "Aucun joueur ne s'appelle « {name} ».",
    "board_unknown_game": "Il n'y a pas de classement pour ce jeu.",
    "delete_no_account": "Ce compte n'existe plus.",
    "delete_wrong_password": "Mot de passe incorrect : votre compte n'a pas été supprimé.",
    "delete_last_admin": "C'est le dernier compte administrateur : nommez d'abord un autre administrateur.",
    "delete_in_contest": "Vous êtes inscrit au concours « {contest} », qui n'est pas fini : votre compte pourra "
                         "être supprimé quand il sera terminé (ou après votre désinscription).",
    "delete_at_table": "Vous êtes encore assis avec des jetons ({tables}) : quittez d'abord vos tables, vos "
                       "jetons seront changés en écus, puis supprimez votre compte.",
})


# --- contests ------------------------------------------------------------------

_section({
    "contest_needs_name": "Le concours a besoin d'un nom.",
    "contest_name_too_long": 'Le nom du concours fait au plus {maximum} caractères.',
    "contest_start_timezone": "L'heure de début doit préciser son fuseau horaire.",
    "contest_start_past": "L'heure de début est déjà passée.",
    "contest_start_too_far": "Un concours commence au plus {days} jours à l'avance.",
    "contest_negative_fee": "Le droit d'entrée ne peut pas être négatif (0 : concours gratuit).",
    "contest_negative_prize": 'Le prix ajouté par la maison ne peut pas être négatif.',
    "contest_starting_chips": 'Chaque joueur reçoit au moins un jeton au départ.',
    "contest_seats_range": 'Une table de ramponneau a de {lo} à {hi} places.',
    "contest_min_players": 'Il faut au moins {minimum} joueurs pour un concours.',
    "contest_max_below_min": 'Le nombre maximum de joueurs est inférieur au minimum.',
    "contest_max_players": 'Un concours accueille au plus {maximum} joueurs.',
    "contest_no_levels": "La structure des blindes a besoin d'au moins un niveau.",
    "contest_level_positive": "Niveau {level} : les blindes et l'ante sont des nombres positifs.",
    "contest_level_small_above_big": 'Niveau {level} : la petite blinde dépasse la grosse blinde.',
    "contest_level_too_short": 'Niveau {level} : un niveau dure au moins {minimum} secondes.',
    "contest_level_too_long": 'Niveau {level} : un niveau dure au plus {maximum} secondes.',
    "contest_level_too_large": "Niveau {level} : les blindes et l'ante valent au plus {maximum}.",
    "contest_amount_too_large": '{field} : au plus {maximum}.',
    "contest_levels_increase": 'Niveau {level} : les niveaux doivent augmenter (blindes ou ante plus fortes que le niveau {previous}).',
    "contest_first_blind_above_chips": 'La première grosse blinde dépasse les jetons de départ.',
    "contest_late_levels": "L'inscription tardive va au plus jusqu'à la fin du niveau {levels}.",
    "contest_timer_range": 'Le temps pour jouer est de {lo} à {hi} secondes.',
    "contest_payouts_empty": 'Le tableau des prix paie au moins une place.',
    "contest_payout_positive": 'Chaque place payée reçoit un pourcentage positif.',
    "contest_payouts_sum": 'Les pourcentages des prix font {total} %, pas 100 %.',
    "contest_payouts_order": 'Une place ne peut pas rapporter plus que la place avant elle.',
    "contest_payouts_places": 'Le tableau paie {places} places : il faut au moins autant de joueurs minimum ({minimum} demandés).',
    "contest_payouts_format": "Les prix s'écrivent en pourcentages entiers séparés par des virgules (par exemple « 50, 30, 20 »).",
    "contest_structure_line": "Ligne {line} de la structure : écrivez « petite/grosse minutes » ou "
                              "« petite/grosse/ante minutes », par exemple « 10/20 10 ».",
    "contest_admin_only": 'Seul un administrateur peut créer un concours.',
    "no_such_contest": "Ce concours n'existe pas.",
    # what a contest's player or admin is told once done (the page's notice)
    "contest_registered": "Vous êtes inscrit au concours.",
    "contest_registered_late": "Inscription tardive : votre place vous attend.",
    # a contest opening soon, on the live village (web/village_live.py)
    "village_contest_starts": "{game}, début le {start} ({entered})",
    "village_contest_late": "{game}, en cours : inscription tardive ouverte ({entered})",
    "contest_unregistered": "Désinscrit : votre droit d'entrée vous est rendu.",
    "contest_created": "Concours créé : les inscriptions sont ouvertes.",
    "contest_cancelled": "Concours annulé : chaque droit d'entrée est rendu.",
    "contest_cancelled_by_admin": "Annulé par un administrateur.",
    "contest_too_few_players": "Pas assez de joueurs : {entered} pour {minimum} au minimum.",
    "contest_table_name": "{contest} — table {number}",
    "contest_cancel_not_started": "Seul un concours qui n'a pas commencé peut être annulé.",
    "contest_registration_closed": 'Les inscriptions à ce concours sont closes.',
    "contest_starting": "Le concours commence : réessayez l'inscription tardive dans un instant.",
    "contest_already_registered": 'Vous êtes déjà inscrit à ce concours.',
    "contest_full": 'Le concours est complet ({maximum} joueurs).',
    "contest_no_unregister": 'Le concours a commencé : on ne peut plus se désinscrire.',
    "contest_no_unregister_finished": "Le concours est terminé : il n'y a plus d'inscription à retirer.",
    "contest_no_unregister_cancelled": "Le concours a été annulé et chaque droit d'entrée remboursé : "
                                       "il n'y a plus d'inscription à retirer.",
    "contest_not_registered": "Vous n'êtes pas inscrit à ce concours.",
    "contest_table_closes_empty": 'Une table de concours ne ferme que vide.',
    "contest_not_registering": 'Ce concours a déjà commencé ou est terminé.',
    "contest_fee_funds": "Fonds insuffisants : le droit d'entrée est de {fee:écus}, vous en avez {available}.",
    "contest_form_integer": "{label} : un nombre entier.",
    "contest_form_start": "L'heure de début : une date et une heure (heure de Paris).",
})


# --- trick games (Rams, the shared trick core) ------------------------------

_section({
    "card_not_in_hand": "Vous n'avez pas {card} en main.",
    "must_follow_suit": "Vous devez fournir à la couleur demandée.",
    "must_trump": "Vous devez couper.",
    "must_overtrump": "Vous devez surcouper.",
    "must_undertrump": "Vous devez jouer un atout, même plus petit, plutôt que de vous défausser.",
    "must_overtake": "Vous devez monter (jouer plus haut dans la couleur demandée).",
    "blind_lead_leader_only": "Seul celui qui entame peut jouer à l'aveugle.",
    "blind_lead_no_trump": "Pas d'atout fixé pour entamer à l'aveugle.",
    "partie_over": "Cette partie est finie ; une nouvelle commence sans report.",
    "wrong_phase": "C'est le moment de {phase}, pas de {action}.",
    "rams_speech_unknown": "Annoncez l'un de : {choices}.",
    "say_which_card": "Dites quelle carte vous jouez.",
    "rams_forced_lead_trump": "Sur une donne forcée, la première entame est un atout.",
    "rams_forced_deal": "Cette donne est forcée : tout le monde joue.",
    "rams_widow_forced": "La veuve est forcée : jouez ou prenez la veuve tant que personne ne l'a prise.",
    "rams_widow_taken": "La veuve est déjà prise.",
    "rams_no_widow": "Il n'y a pas de veuve dans cette donne.",
    "rams_general_before_widow": "On ne peut pas demander le rams général avant que la veuve soit prise.",
    "rams_thrown_hand": "Seul le joueur juste après le preneur de la veuve peut prendre la main jetée, "
                        "quand la table le permet.",
    "rams_not_now": "Vous ne pouvez pas annoncer cela maintenant.",
})


# --- what a deal carries to the next (hand records' "carry") ----------------

_section({
    "gin_sheet_shape": "La feuille a {ncols} colonnes à {target} points ; la table joue {columns} colonnes "
                       "à {column_target}.",
    "gin_sheet_column": "Une partie en cours est dans les colonnes 0 à {last}, pas {column}.",
    "gin_sheet_points": "{ncols} colonnes de points et les cocottes de chaque joueur.",
    "gin_sheet_first": "Une entrée par colonne : qui a atteint {target} le premier, ou null.",
    "rami_chips_carry_nothing": "Une table qui joue des jetons ne reporte rien d'une donne à l'autre.",
    "rami_sheet_shape": "La feuille de marque reportée donne les points de chaque joueur (« scores ») "
                        "et compte ses donnes (« deals »).",
    "rami_sheet_scores": "La feuille de marque reportée donne à chaque joueur un nombre entier de points.",
    "rami_sheet_deals": "La feuille de marque reportée compte ses donnes.",
    # The account of a deal in the result panel (issue 42 §10): each chip that moved, in the game's words.
    "rams_account_stake": ("{player} donne et met {amount:jetons} au pot, qui en tenait {carried} de la donne "
                           "précédente : le pot de la donne est de {pot:jetons}."),
    "rams_account_share": "{player} fait {tricks:plis} sur {n_tricks} : sa part du pot, {amount:jetons}.",
    "rams_account_remainder": "Le reste du partage, {amount:jetons}, reste au pot.",
    "rams_account_rams": "{player} est rams (aucun pli) : il paie au pot suivant autant que le pot tenait, {amount:jetons}.",
    "rams_account_all_passed": ("Tous ont passé jusqu'au dernier : {player} ramasse le pot, {amount:jetons}, "
                                "et la donne suivante est forcée."),
    "rams_account_general_won": "Rams général réussi : {player} paie à {announcer} autant que le pot, {amount:jetons}.",
    "rams_account_general_lost": "Rams général manqué : {announcer} paie à {player} autant que le pot, {amount:jetons}.",
    "rams_account_general_pot": "On ne touche pas au pot : ses {amount:jetons} restent pour la donne suivante.",
    "rams_account_next_pot": "Reste au pot pour la donne suivante : {amount:jetons}.",
    "rams_account_partie_lost": "{loser} a perdu la partie : il paie {amount:jetons} à {player}.",
    "rummoli_account_antes": ("Mises : chacun met {unit:jetons} sur chacune des {sections} sections du tableau, "
                              "{amount:jetons} en tout."),
    "rummoli_account_widow": "{player} achète la veuve {amount:jetons}, payés au donneur, {dealer}.",
    "rummoli_account_bet": "{player} mise {amount:jetons} au pot du poker.",
    "rummoli_account_won": "{section} : {amount:jetons} pour {player}.",
    "rummoli_account_cards": "{player} paie {amount:jetons} à {winner} pour {n_cards:cartes} restées en main.",
    "rummoli_account_deadlock": "Blocage : {player} met {amount:jetons} au pot Rummoli pour {n_cards:cartes} gardées.",
    "rummoli_account_board": "Restent sur le tableau pour la donne suivante : {amount:jetons}{left}.",
    "rams_carry_shape": "Le report du Rams « au coup » tient le pot (« pot », en jetons) et dit si la "
                        "donne est forcée (« forced »).",
    "rams_partie_carry": "Le report du Rams « à la partie » tient les jetons des joueurs.",
    "rummoli_carry_shape": "Le report du Rummoli tient les jetons de chaque case du plateau (« board ») "
                           "de la donne précédente.",
})


# --- Rummoli -------------------------------------------------------------------

_section({
    "rummoli_betting_actions": "Pendant les enchères du poker, on se couche, on dit parole, on suit, on mise "
                               "ou on relance.",
    "rummoli_leftover_players": "Les jetons restés sur le plateau vont à l'un des joueurs encore assis, "
                                "chacun sous un nom différent.",
    "rummoli_leftover_poker_players": "Un jeu de 52 cartes donne cinq cartes à dix joueurs au plus.",
    "rummoli_leftover_method": "Le reste va à la plus haute coupe (« cut ») ou à la meilleure main de poker "
                               "(« poker »).",
    "rummoli_no_jokers": "Le Rummoli se joue sans joker.",
    "rummoli_section_cards_once": "Une case du plateau nomme chaque carte une fois.",
    "rummoli_section_ranks": "Les rangs sont des caractères distincts parmi 23456789TJQKA.",
    "rummoli_section_cards_or_ranks": "Case « {section} » : donnez des cartes ou des rangs, pas les deux ni aucun.",
    "rummoli_section_is_pot": "« {section} » est le nom d'un pot, pas d'une case du plateau.",
    "rummoli_section_ids": "Les cases du plateau ont des noms distincts.",
    "rummoli_board_size": "Un plateau a de 1 à 13 cases payantes (7 sur le plateau habituel).",
    "rummoli_widow_name": "« widow » est le nom de la main de la veuve, pas d'un joueur.",
    "rummoli_play_called": "{called} est appelée et vous l'avez : jouez-la, avec les cartes suivantes de la couleur "
                           "si vous les avez.",
    "rummoli_run_starts_with": "La séquence continue avec {called} : votre suite doit commencer par elle.",
    "rummoli_run": "Une suite est faite des cartes suivantes de la même couleur, chacune d'un rang plus haut, "
                   "toutes dans votre main.",
    "rummoli_lead_now": "La séquence s'est arrêtée et c'est à vous d'entamer.",
    "rummoli_other_colour": "La séquence repart dans l'autre couleur (rouge ou noire) : pas {card}.",
    "rummoli_lead_lowest": "Entamez avec la plus basse carte d'une couleur : votre plus basse dans cette couleur "
                           "est {card}.",
    "cards_list": "Les cartes se donnent en liste de codes, comme « 7h », « 8h ».",
    "rummoli_exchange_or_keep": "Le donneur dit d'abord s'il échange sa main contre la veuve : « échanger » ou "
                                "« garder ».",
    "bid_too_small": "Une enchère doit battre la plus haute ({high} jetons) : au moins {minimum}.",
    "rummoli_auction_actions": "Pendant les enchères pour la veuve, on enchérit d'un nombre de jetons ou on passe.",
})

# --- how a deal ended, said in its result panel (a result's "said") ----------

_section({
    # RULES.md (Rummoli): "If nobody can restart (deadlock), the deal ends and
    # each player puts one chip per card held into the Rummoli pot."
    "rummoli_deadlock": "Donne bloquée : personne ne pouvait relancer la séquence. Chacun met {per_card} par carte "
                        "qu'il tient encore dans le pot du Rummoli : {held}.",
})


# --- the rami family (rami, double rami, Remigio, Gin) ------------------------

_section({
    "meld_no_jokers": "Les jokers ne sont pas des cartes libres dans ce jeu : un joker n'entre dans aucune combinaison.",
    "meld_real_cards": "Une combinaison a au moins {minimum} vraie(s) carte(s).",
    "set_size": "Un brelan ou un carré a {sizes} cartes d'un même rang.",
    "set_suits": "Un brelan ou un carré a des cartes de couleurs différentes.",
    "run_consecutive": "Une suite a au moins trois cartes qui se suivent dans une même couleur.",
    "meld_set_or_run": "Ces cartes ne font pas une combinaison : c'est un brelan ou un carré (un rang) ou une suite "
                       "(une couleur), pas les deux.",
    "meld_three_cards": "Une combinaison a au moins trois cartes : un brelan ou un carré (un rang) ou une suite "
                        "(une couleur).",
    "set_three_or_four": "Un brelan ou un carré a trois ou quatre cartes d'un même rang.",
    "add_a_card": "Ajoutez au moins une carte à la combinaison.",
    "cannot_join_set": "{cards} ne peut pas rejoindre ce brelan ou ce carré : {refusal}",
    "run_wrong_suit": "Une suite se fait dans une seule couleur : cette carte n'est pas de la couleur de la suite.",
    "run_not_extended": "Une suite a des cartes qui se suivent : cette carte ne prolonge pas la suite.",
    "ace_somewhere": "L'as doit aller quelque part : en bas, en haut ou autour.",
    "set_at_least_2": "Un brelan a au moins 2 cartes.",
    "cards_not_in_hand": "Vous n'avez pas {cards} en main.",
    "already_drawn": "Vous avez déjà pioché ce tour-ci.",
    "already_drawn_gin": "Vous avez déjà pioché : défaussez maintenant (ou frappez, ou faites gin).",
    "already_drawn_remigio": "Vous avez déjà pioché : défaussez maintenant, ou fermez.",
    "stock_empty_draw": "Le talon est vide.",
    "discard_empty": "La défausse est vide.",
    "stock_exhausted_draw_discard": "Le talon est épuisé : piochez dans la défausse.",
    "stock_exhausted_take_discard": "Le talon est épuisé : prenez la carte du dessus de la défausse.",
    "draw_source": "Piochez dans le talon ou dans la défausse.",
    "draw_first": "Piochez d'abord une carte : celle du dessus du talon ou de la défausse.",
    "discard_another": "Vous avez pris cette carte dans la défausse : défaussez-en une autre.",
    "joker_move_run_only": "Seul un joker dans une suite peut être déplacé, à l'un des bouts de la suite.",
    "no_joker_for": "Aucun joker de cette combinaison ne remplace {card}.",
    "joker_marked": "Ce joker a déjà été déplacé une fois : il est marqué.",
    "joker_end_blocked": "Le joker ne peut pas aller au bout {end} de cette suite : aucune carte ne suit là.",
    "joker_put_real_card": "Mettez à sa place la vraie carte que le joker remplace.",
    "joker_end": "Le joker va au bout bas ou au bout haut de la suite.",
    "no_such_meld": "Il n'y a pas de combinaison n° {index} sur la table.",
    "own_melds_only": "On ne joue que sur ses propres combinaisons ({action}).",
    "knock_melds_shape": "Les combinaisons d'un knock sont une liste de combinaisons, chacune une liste de cartes.",
    "knock_card_not_kept": "{card} n'est pas parmi les cartes que vous gardez (ou est dans deux combinaisons).",
    "knock_is_gin": "Toutes vos cartes forment des combinaisons : c'est gin, pas un knock.",
    "knock_limit": "Pour frapper, 8 ou 9 de vos cartes forment des combinaisons et les 1 ou 2 autres font moins "
                   "de {limit}, la valeur de la carte retournée.",
    "knock_discards": "Un knock se fait en jetant une carte : dites laquelle.",
    "only_gin_wins": "La carte retournée est un as ou un 2 : seul gin gagne cette donne.",
    "gin_needs_all": "Gin demande vos 10 autres cartes en combinaisons ; restent {deadwood}.",
    "big_gin_needs_all": "Le grand gin demande vos 11 cartes en combinaisons ; restent {deadwood}.",
    "gin_deck_order": "Un paquet de gin a 104 cartes : le jeu de la donne, puis le jeu mis de côté.",
    "close_needs_all": "Pour fermer, vos 10 cartes forment toutes des combinaisons ; restent {deadwood}.",
})


# --- the provably fair shuffle (tavern.fair, `tavern verify`) ----------------

_section({
    "fair_client_seed": "Une graine de joueur tient en 64 caractères au plus : lettres, chiffres, _ et -.",
    "fair_server_seed_size": "Une graine du serveur fait {size} octets.",
    "fair_draw_range": "Impossible de tirer un nombre au-dessous de {n}.",
    "fair_no_block": "Ce relevé n'a pas de bloc « fair » : la donne n'a pas été mélangée de façon vérifiable.",
    "fair_scheme": "Schéma inconnu « {scheme} » (attendu : {wanted}).",
    "fair_block_malformed": "Bloc « fair » mal formé ({kind} : {detail}).",
    "fair_commitment": "La graine révélée ne correspond pas à l'engagement publié avant la donne.",
    "fair_seats": "Les graines du bloc « fair » ne sont pas celles des joueurs de la donne, dans l'ordre des places.",
    "fair_unknown_game": "Le relevé nomme un jeu inconnu (« {game} ») : impossible de savoir de quel paquet "
                         "la donne part.",
    "fair_table_refused": "Le paquet d'une table de {game} ne se déduit pas de ce relevé : {refusal}",
    "fair_no_deck": "Le relevé n'a pas de paquet (« deck ») lisible : une liste de cartes.",
    "fair_sizes_cover": "Les mélanges annoncés ({shuffles} cartes) ne couvrent pas le paquet de {size} cartes.",
    "fair_reshuffle_count": "Le bloc « fair » annonce {announced} remélange(s), le relevé en contient {found}.",
    "fair_reshuffle_size": "Un remélange du relevé n'a pas la taille annoncée.",
    "fair_packs": "Une donne de {game} à cette table mélange des paquets de {pack_sizes} cartes ; "
                  "le relevé annonce des mélanges de {announced} cartes pour un paquet de {size} cartes.",
    "fair_not_the_pack": "Le paquet du mélange n° {index} n'est pas celui d'une table de {game} "
                         "(manquent : {missing} ; en trop : {extra}) : aucune graine ne peut le donner.",
    "fair_foreign_reshuffle": "Le remélange (mélange n° {index}) contient des cartes que le paquet d'une table "
                              "de {game} n'a pas : {extra}.",
    # what tavern verify finds right, line by line
    "fair_seed_ok": "Graine du serveur conforme à l'engagement ({commitment}…).",
    "fair_shuffle_ok": "Mélange n° {index} : {size} cartes, identiques à celles tirées des graines.",
    "fair_shuffle_mismatch": "Le mélange n° {index} ({size} cartes) ne découle pas des graines.",
    # the per-card commitments (tavern.fair_cards): a player's openings
    "fair_opening_malformed": "Ouverture de cartes mal formée ({kind} : {detail}).",
    "fair_cards_digest": "Les empreintes des cartes du mélange n° {index} ne sont pas celles annoncées avant "
                         "la donne : ouverture refusée.",
    "fair_opening_position": "Aucune carte n'a été engagée en position {position} du mélange n° {index} : "
                             "ouverture refusée.",
    "fair_opening_mismatch": "La carte {card} en position {position} du mélange n° {index} ne correspond pas à "
                             "l'empreinte annoncée avant la donne : carte échangée ou falsifiée, ouverture refusée.",
    "fair_openings_ok": "{count} carte(s) ouverte(s), conformes aux empreintes des {digests} mélange(s) annoncées "
                        "avant la donne.",
    "fair_cards_mismatch": "Les empreintes des cartes publiées pour le mélange n° {index} ne découlent pas de la "
                           "graine et du paquet du relevé.",
    "fair_cards_ok": "Empreintes des cartes : les {count} mélange(s) annoncés avant la donne découlent de la "
                     "graine et du paquet.",
})


# --- the surveillance report (services/surveillance.py): why a pair is flagged
# (the rates and ratios come already said: « 3,2 fois », « 45 % »)

_section({
    "flag_dumping": "En {deals} donnes communes, {giver} a cédé {given} jetons à {taker} et n'en a repris "
                    "que {back} ({ratio} plus) ; face aux autres joueurs, {giver} cède {gives} plus qu'il ne "
                    "reprend et {taker} prend {takes} plus qu'il ne rend (écart {excess}, seuil {threshold}).",
    "flag_soft_fold": "{player} se couche {rate} du temps face aux mises de {other} ({faced} fois), contre "
                      "{others_rate} face aux autres joueurs (écart {gap}, seuil {threshold}).",
    "flag_soft_raise": "{player} relance {rate} du temps face aux mises de {other}, contre {others_rate} "
                       "face aux autres joueurs (écart {gap}, seuil {threshold}).",
    "flag_same_address": "{first} et {second} ont joué depuis la même adresse à la table {tables}.",
    "flag_same_browser": "{first} et {second} ont joué depuis le même navigateur à la table {tables}.",
})


# --- the operator's side: starting the server (web/single.py) ------------------

_WHY_ONE_WORKER = ("sans Redis, les tables vivantes d'une base sont tenues par un seul processus : lancez un "
                   "seul worker (TAVERN_WORKERS=1, uvicorn sans --workers), ou donnez TAVERN_REDIS_URL pour "
                   "répartir les tables entre plusieurs workers.")
_section({
    "tables_held_elsewhere": "Le processus {pid} ({host}) tient déjà les tables de cette base : " + _WHY_ONE_WORKER,
    "tables_lock_unavailable": "Impossible de prendre {path} : " + _WHY_ONE_WORKER,
    "workers_need_redis": "TAVERN_WORKERS={workers} : " + _WHY_ONE_WORKER,
})


# --- the operator's side: tavern backup and tavern restore (store/backup.py) ----

_section({
    "backup_memory_store": "Une base SQLite en mémoire n'a pas de fichier à sauvegarder.",
    "backup_damaged": "{path} est endommagée (PRAGMA integrity_check).",
    "backup_not_a_tavern": "{path} n'est pas une base de la taverne (pas de table alembic_version).",
    "backup_unreadable": "{path} n'est pas une base SQLite lisible : {detail}.",
    "backup_not_sqlite": "La base n'est pas SQLite : sauvegardez PostgreSQL avec pg_dump "
                         "(docs/operations.md « Sauvegarder et restaurer »).",
    "restore_not_sqlite": "La base n'est pas SQLite : restaurez PostgreSQL avec pg_restore "
                          "(docs/operations.md « Sauvegarder et restaurer »).",
    "backup_store_missing": "La base {path} n'existe pas.",
    "backup_target_exists": "{path} existe déjà : choisissez un nouveau fichier.",
    "backup_target_unwritable": "Impossible d'écrire {path} ({detail}) : choisissez un dossier accessible en écriture, "
                                "avec de la place.",
    "backup_file_missing": "{path} n'existe pas.",
})


# --- the operator's side: the command line (cli.py) -----------------------------

#: A JSON value that is not an object, as a refusal of tavern replay names it.
JSON_KINDS = {"list": "une liste", "str": "un texte", "int": "un nombre", "float": "un nombre",
              "bool": "un booléen", "NoneType": "null", "other": "autre chose"}
STDIN = "l'entrée standard"
#: Pieces of a line, not sentences: what tavern verify found right, a server process.
VERIFY_OK_LINE = "ok : {what}"
PROCESS = "processus {pid} ({host})"

_section({
    "cli_unreadable": "ILLISIBLE : {why}",
    "cli_verify_failed": "ÉCHEC : {why}",
    "cli_verify_ok": "La donne découle bien des graines publiées.",
    "cli_verify_openings_ok": ("Les cartes ouvertes sont bien celles engagées avant la donne (comparez ces empreintes "
                               "à celles notées avant elle) ; la graine, qui prouve tout le paquet, vient après le "
                               "délai de la taverne."),
    "cli_pg_backup": "La base est PostgreSQL : sauvegardez-la avec ses outils, serveur en marche :\n"
                     "  pg_dump --format=custom --file=tavern.dump \"$DATABASE_URL\"\n"
                     "et restaurez, serveurs arrêtés, avec pg_restore --clean --if-exists puis "
                     "« tavern restore --after-pg » (docs/operations.md « Sauvegarder et restaurer »).",
    "cli_backup_refused": "Sauvegarde refusée : {why}",
    "cli_backup_written": "Sauvegarde écrite : {path} ({size} octets ; donnes en cours à cet instant : "
                          "{in_progress}, annulées et remboursées par une restauration).",
    "cli_restore_server_running": "Restauration refusée : un serveur utilise cette base ({who}). Arrêtez-le "
                                  "d'abord ; la restauration remplace la base sous ses pieds sinon.",
    "cli_restore_needs_file": "Restauration refusée : donnez le fichier de sauvegarde (tavern restore CHEMIN).",
    "cli_restore_refused": "Restauration refusée : {why}",
    "cli_old_store_kept": "L'ancienne base est gardée : {path}",
    "cli_restored": "Base restaurée. Donnes en cours au moment de la sauvegarde, annulées et remboursées : "
                    "{voided}.",
    "cli_ledger_unbalanced": "ALERTE : le grand livre ne s'équilibre pas : {audit}",
    "cli_ledger_balanced": "Grand livre vérifié : équilibré.",
})

# The player's records (docs/statistics.md, docs/privacy.md).
_section({
    "no_such_player": "Aucun joueur de ce nom.",
    "off_boards_hidden": "{name} n'apparaît plus dans les classements.",
    "off_boards_shown": "{name} apparaît de nouveau dans les classements.",
    "account_deleted": "Votre compte est supprimé : votre nom est remplacé partout par un pseudonyme.",
    "cli_stats_rebuilt": "{counted} donnes comptées dans les statistiques et les classements.",
})
#: A leaderboard's week, from Monday to Sunday.
WEEK_LABEL = "du {start} au {end} (heure de Paris)"

# A table's chat (services/chat.py, tables/chat.py, docs/protocol.md "Chat").
_section({
    "chat_empty": "Message vide : écrivez quelque chose.",
    "chat_too_long": "Message trop long : {maximum} caractères au plus (le vôtre en a {length}).",
    "chat_control_chars": "Message refusé : il contient des caractères de contrôle (texte seulement, sur une ligne).",
    "chat_too_fast": "Trop de messages : attendez {wait} s avant d'écrire de nouveau.",
    "chat_banned": "Ce compte est banni : il ne peut pas écrire.",
    "chat_off": "La discussion de cette table est fermée.",
    "chat_players_only": "À cette table, seuls les joueurs assis écrivent.",
    "chat_contest_players_only": "À une table de concours, seuls les joueurs écrivent.",
    "chat_muted": "Vous ne pouvez plus écrire ici jusqu'au {until} (heure de Paris).",
    "chat_hide_self": "On ne se masque pas soi-même.",
    "chat_no_such_message": "Ce message n'existe pas (ou plus).",
    "chat_report_own": "On ne signale pas son propre message.",
    "chat_mute_minutes": "Durée : entre 1 et {maximum} minutes.",
    "chat_mute_self": "On ne se rend pas muet soi-même.",
    "chat_mode_unknown": "Réglage de discussion inconnu.",
    "chat_message_deleted": "Message supprimé.",
    "chat_muted_done": "{name} ne peut plus écrire jusqu'au {until} (heure de Paris).",
    "chat_mode_changed": "Discussion de la table : {mode}.",
    "chat_purged": "{deleted} messages de plus de 30 jours oubliés.",
})
#: The one-click phrases beside the chat's free text.
#: The house players' names at a practice table (issue 29), one per seat.
HOUSE_NAMES = ("Maison Ana", "Maison Bruno", "Maison Céline", "Maison Denis", "Maison Élise", "Maison Fanny",
               "Maison Gaston", "Maison Hugo", "Maison Inès", "Maison Jules", "Maison Karine")
#: A practice table's name, and the word « Mes donnes » marks its deals with.
PRACTICE_NAME = "Entraînement : {game}"
PRACTICE_WORD = "entraînement"


#: Words of the site's mails (tavern.services.outbox: subjects, buttons) and
#: of the admins' page « Courriers » (a mail's state): labels, not sentences.
MAIL_WORDS = {
    "confirm_subject": "Confirmez votre adresse",
    "confirm_button": "Confirmer mon adresse",
    "changed_subject": "Votre adresse a changé",
    "reset_subject": "Nouveau mot de passe",
    "reset_button": "Choisir un nouveau mot de passe",
    "password_reset_subject": "Votre mot de passe a changé",
    "password_changed_subject": "Votre mot de passe a changé",
    "totp_changed_subject": "Votre double authentification a changé",
    "status_sent": "envoyé",
    "status_waiting": "en attente",
    "status_failing": "en échec, réessayé",
    "status_abandoned": "abandonné",
}
#: The admin log's actions (tavern.services.adminlog), as its page names them.
ADMIN_ACTIONS = {"credit": "crédit", "level": "niveau", "role": "rôle", "ban": "bannissement",
                 "unban": "bannissement levé", "mute": "rendu muet", "2fa_lifted": "double authentification levée"}

#: Beside a house player's name on the table page.
HOUSE_WORD = "maison"
#: The account the house players cave from at real tables (issue 29 §2, services/house_seats.py).
HOUSE_PURSE_NAME = "Caisse de la maison"

CHAT_PHRASES = ("Bien joué", "Bonne chance", "Merci")
#: The owner's choices of who writes at a table.
CHAT_MODES = {"open": "ouverte à tous", "players": "joueurs assis seulement", "off": "fermée"}
