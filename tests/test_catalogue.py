"""Every refusal a player can meet is French (issues 10 and 11).

The catalogue (tavern.catalogue) is walked code by code, and the source is
scanned for every code it raises: a code with no message, a message left in
English, a parameter a message names but a raise site never gives, all fail.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import Any

import pytest

from tavern.catalogue import MESSAGES, card, french, validation_refusals

SRC = Path(__file__).resolve().parents[1] / "src" / "tavern"

#: Words that give away an English sentence (none of them is French, and a
#: French sentence of the house never needs them).
ENGLISH = re.compile(
    r"\b(the|you|your|is|are|must|not|cannot|only|with|this|that|has|have|needs?|should|"
    r"which|already|there|table's|player|players|chips|deal|record|card|cards)\b",
)
#: Refusal classes whose first argument is a catalogue code.
REFUSALS = {
    "Refusal", "Invalid", "IllegalAction", "CardError", "LedgerError", "UserError", "SeatError", "TavernError",
    "NoHandsLeft", "ContestError", "ContestRuleError", "CommandError", "FairError", "BackupError",
}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _sample(name: str) -> Any:
    """A plausible value for a parameter, by its name."""
    return {
        "name": "bruno", "card": "Qh", "called": "3c", "cards": ["7h", "8h"], "missing": ["As"], "extra": [], "deadwood": ["Kd"],
        "game": "rami", "field": "stakes.big_blind", "suit": "h", "currency": "ecus", "action": "raise",
        "what": "raise", "phase": "play", "actions": ["draw", "discard"], "choices": ["a", "b"],
        "given": ["amount"], "variants": ["fixed-limit"], "sizes": [3, 4], "end": "high", "decks": 2,
        "reasons": ["Plus de donnes."], "names": ["amount"], "expected": "'a' or 'b'",
        "refusal": {"code": "raise_too_small", "params": {"minimum": 100}},
        "problems": [{"code": "greater_than_equal", "params": {"ge": 5, "field": "action_timer_seconds"}}],
    }.get(name, 7)


def test_every_code_has_a_french_message_naming_every_parameter() -> None:
    assert len(MESSAGES) > 200
    for code, template in MESSAGES.items():
        assert re.fullmatch(r"[a-z0-9_]+", code), code
        params = {name: _sample(name) for name in _fields(template)}
        text = french(code, params)
        assert text[0].isupper() or text.startswith("«") or template.startswith("{"), (code, text)
        assert text.rstrip("»").endswith((".", "!", "?", ")", "»", ":")) or text.endswith(tuple("0123456789")), (code, text)
        assert "?" not in text.replace("?»", ""), (code, text)  # every parameter it names was given
        assert not ENGLISH.search(re.sub(r"\{[^}]*\}", "", template).lower()), (code, template)
        # No internal names (account keys, Python reprs) in a message.
        assert not re.search(r"user:\d|ecus:-|None|\{'|\[\'", text), (code, text)


def _raised_codes() -> dict[str, list[str]]:
    """Every ``SomeRefusal("code", …)`` in the source, and the parameter
    names given at each site (``**`` spreads excepted)."""
    found: dict[str, list[str]] = {}
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in REFUSALS or not node.args:
                continue
            first = node.args[1] if name == "RecordError" and len(node.args) > 1 else node.args[0]
            if name == "RecordError" and len(node.args) < 2:
                continue
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, []).append(f"{path.relative_to(SRC)}:{node.lineno}")
    # The codes returned by rule helpers (why_illegal, _why_not, no_source_rule, ALREADY_DRAWN…).
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'(?:return|ALREADY_DRAWN[^=]*=|why =|why, named =)\s*(?:None if [^"]* else )?"([a-z][a-z0-9_]+)"', text):
            if m.group(1) in MESSAGES or "_" in m.group(1):
                found.setdefault(m.group(1), []).append(f"{path.relative_to(SRC)}")
    return found


def test_every_code_raised_in_the_source_is_in_the_catalogue() -> None:
    raised = _raised_codes()
    assert len(raised) > 150, sorted(raised)
    missing = {code: where for code, where in raised.items() if code not in MESSAGES}
    assert not missing, missing


def test_no_refusal_is_raised_with_a_sentence() -> None:
    """A refusal's first argument is a code, never words (the catalogue words it)."""
    for path in SRC.rglob("*.py"):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = re.search(r"\b(\w+)\(f?\"([^\"]*)\"", line)
            if m and m.group(1) in REFUSALS and m.group(1) != "RecordError":
                assert re.fullmatch(r"[a-z0-9_]+", m.group(2)), f"{path.relative_to(SRC)}:{lineno}: {line.strip()}"


def test_cards_are_said_with_french_faces() -> None:
    assert [card(c) for c in ("Td", "Jc", "Qh", "Ks", "Ad", "X1")] == ["10♦", "V♣", "D♥", "R♠", "A♦", "Joker"]
    assert french("card_not_in_hand", {"card": "Qh"}) == "Vous n'avez pas D♥ en main."


def test_insufficient_funds_names_no_account() -> None:
    """Issue 11: "insufficient funds: 200 ecus needed, 0 available (user:6:ecus:-)" is gone."""
    assert french("insufficient_funds", {"needed": 200, "available": 0, "currency": "ecus"}) == (
        "Fonds insuffisants : il faut 200 écus, vous n'en avez que 0. Rien n'a été débité.")


@pytest.mark.parametrize("data, message", [
    ({"big_blind": 0}, "« Grosse blinde » : au moins 1."),
    ({"big_blind": "deux"}, "« Grosse blinde » : un nombre entier est attendu."),
    ({"big_blind": 2, "surprise": 1}, "« surprise » : champ inconnu."),
    ({}, "« Grosse blinde » : valeur requise."),
])
def test_validation_errors_name_the_field_in_french(data: dict[str, Any], message: str) -> None:
    """Issue 10: "Pydantic validation errors of forms and of table options map
    to French messages naming the field" — by the form's label."""
    from pydantic import BaseModel, ConfigDict, Field, ValidationError

    class Stakes(BaseModel):
        model_config = ConfigDict(extra="forbid")
        big_blind: int = Field(ge=1)

    with pytest.raises(ValidationError) as info:
        Stakes.model_validate(data)
    problems = validation_refusals(info.value.errors())
    assert problems[0]["message"] == message
    assert problems[0]["code"] in MESSAGES


def test_an_unknown_code_says_a_refusal_in_french_not_its_name() -> None:
    assert french("no_such_code_ever") == "Ce n'est pas possible."


def test_a_refusal_keeps_its_code_and_parameters_through_pickling() -> None:
    """Refusals cross process boundaries whole (their subclasses take other
    constructor arguments: a record's field)."""
    import pickle

    from tavern.games.base import RecordError

    exc = pickle.loads(pickle.dumps(RecordError("carry.pot", "chips_whole")))
    assert (type(exc), exc.code, exc.field, exc.params) == (RecordError, "chips_whole", "carry.pot", {"field": "carry.pot"})
    assert str(exc) == "« carry.pot » : les jetons sont un nombre entier positif ou nul."


def test_every_status_code_of_the_api_is_in_the_catalogue() -> None:
    """A refusal that is only an HTTP status still answers with a code the catalogue knows."""
    from tavern.web.errors import STATUS_CODES

    assert set(STATUS_CODES.values()) <= set(MESSAGES)


#: The codes pydantic itself gives (its stable error types, see
#: tavern.refusal.from_pydantic): the house never raises them, the forms'
#: and the messages' validation does.
PYDANTIC_TYPES = {
    "missing", "extra_forbidden", "int_type", "int_parsing", "int_from_float", "float_type", "float_parsing",
    "bool_type", "bool_parsing", "string_type", "string_too_short", "string_too_long", "string_pattern_mismatch",
    "too_short", "too_long", "greater_than_equal", "greater_than", "less_than_equal", "less_than", "literal_error",
    "enum", "dict_type", "list_type", "model_type", "model_attributes_type", "json_invalid", "json_type",
    "union_tag_invalid", "union_tag_not_found", "datetime_parsing", "datetime_type", "datetime_from_date_parsing",
    "timezone_aware", "value_error", "assertion_error",
}


def _code_literals() -> set[str]:
    """Every string constant of the source outside the catalogue that looks
    like a code: what a raise, a ``french("…")``, a status map or a rule
    helper's ``return "…"`` names."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        if path.name == "catalogue.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[a-z0-9_]+", node.value):
                found.add(node.value)
    return found


def test_every_message_of_the_catalogue_is_used_somewhere() -> None:
    """The other direction: a code nobody raises is a dead sentence (issue 28
    found eight). Every code is raised, named by a route or a service, or is
    one of pydantic's own error types."""
    used = set(_raised_codes()) | _code_literals() | PYDANTIC_TYPES
    assert not sorted(set(MESSAGES) - used)


def test_the_catalogue_names_every_game_as_its_spec_does_without_the_registry() -> None:
    """The catalogue says a game's name without importing the registry (the
    loop refusal → catalogue → registry → base → refusal is closed)."""
    import subprocess
    import sys

    from tavern.catalogue import GAME_LABELS
    from tavern.games import registry

    # The house's games (a test registers its own game from outside tavern.games).
    house = [name for name, module in registry.GAMES.items() if module.startswith("tavern.games.")]
    assert {name: registry.spec(name).label for name in house} == GAME_LABELS
    assert french("unknown_game", {"game": "rummoli"}) == "Jeu inconnu : « Rummoli »."
    # A fresh interpreter: saying a refusal about a game loads no engine.
    probe = ("import sys; from tavern.refusal import Refusal; "
             "assert 'Rummoli' in Refusal('unknown_game', game='rummoli').message; "
             "print(sorted(m for m in sys.modules if m.startswith('tavern.games')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "PYTHONPATH": str(SRC.parent)})
    assert out.stdout.strip() == "[]"


def test_ecus_are_said_singular_below_two_by_one_helper() -> None:
    """Issue 42 §7: « 0 écu », « 1 écu », « 2 écus » everywhere (French puts
    the singular below two). The pages' ``|ecus`` filter and the messages'
    ``{amount:écus}`` / ``{amount:money}`` say it through catalogue.ecus."""
    from tavern.catalogue import ecus, money
    from tavern.web.rendering import templates

    assert [ecus(n) for n in (0, 1, 2, 150)] == ["0 écu", "1 écu", "2 écus", "150 écus"]
    assert [money(n, c) for n, c in ((1, "tokens"), (3, "tokens"), (0, "chips"), (1, "ecus"))] == [
        "1 token", "3 tokens", "0 jeton", "1 écu"]
    assert french("insufficient_funds", {"needed": 1, "available": 0, "currency": "ecus"}) == (
        "Fonds insuffisants : il faut 1 écu, vous n'en avez que 0. Rien n'a été débité.")
    assert french("cave_out_of_range", {"minimum": 1, "maximum": 1}).endswith("entre 1 et 1 écu.")
    assert french("house_purse_credited", {"amount": 0}) == "Versé à la caisse de la maison : 0 écu."
    assert templates.env.from_string("{{ 1|ecus }} · {{ 0|ecus }} · {{ 2|ecus }}").render() == "1 écu · 0 écu · 2 écus"


def test_no_page_script_or_message_writes_a_count_of_ecus_by_hand() -> None:
    """Issue 42 §7: a count followed by a hand-written « écus » (« 0 écus
    rendus ») is what the helper replaced; the templates, the page's scripts
    and the catalogue's messages say an amount of écus only through it."""
    web = SRC / "web"
    by_hand = re.compile(r"(\}\}|\}|\d|fmt\([^)]*\)\s*\+\s*\")\s*écus\b")
    found = []
    for path in [*web.glob("templates/**/*.html"), *web.glob("static/**/*.js")]:
        found += [f"{path.name}: {line.strip()}" for line in path.read_text(encoding="utf-8").splitlines()
                  if by_hand.search(line) and not line.lstrip().startswith(("/*", "*", "//", "{#"))]
    found += [f"catalogue {code}: {t}" for code, t in MESSAGES.items() if by_hand.search(t)]
    assert found == []
