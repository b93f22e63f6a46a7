"""A table's options, checked when the table opens (issue 33 §7).

A table's options reach its engine merged with its stakes, variant and rake
(``GameSpec.engine_config``), and the engine validates that config at every
deal. Checked only there, an owner could store anything: an unknown option
(``{"first_button": [1]}``, a contest table's own) was stored and every deal
of the table refused; a huge integer answered 500. So the options are
checked at the door against the same model the engine uses
(``GameSpec.config``): the names it knows, every number within
:data:`tavern.bounds.MAX_AMOUNT`, and the whole config as the engine will
see it. Each refusal names the option (``option``) under the field
« Options ».
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from tavern.bounds import MAX_AMOUNT, out_of_bounds
from tavern.games.spec import GameSpec, TableTerms
from tavern.refusal import Invalid, from_pydantic


def option_names(game: GameSpec, terms: TableTerms) -> list[str]:
    """The options an owner may set: the engine config's fields that the
    table's other terms (stakes, variant, rake) do not already set."""
    if game.config is None:
        return []
    taken: set[str] = set(game.stakes)
    for variant in game.variants:  # draw poker's variant is its structure
        bare = TableTerms(stakes=terms.stakes, variant=variant, rake_percent=terms.rake_percent,
                          rake_cap=terms.rake_cap, no_flop_no_drop=terms.no_flop_no_drop)
        taken |= set(game.engine_config(bare))
    return [name for name in game.config.model_fields if name not in taken]


def check_options(game: GameSpec, terms: TableTerms) -> None:
    """Refuse (:class:`Invalid`, naming the option) what the engine would."""
    options: Mapping[str, Any] = terms.options
    names = option_names(game, terms)
    for key, value in options.items():
        if key not in names:
            if not names:
                raise Invalid("no_options", field="options", game=game.name, option=key)
            raise Invalid("option_unknown", field="options", game=game.name, option=key, choices=names)
        if out_of_bounds(value) is not None:
            raise Invalid("option_too_large", field="options", option=key, maximum=MAX_AMOUNT)
    if game.config is None or not options:
        return
    try:
        game.config.model_validate(game.engine_config(terms))
    except ValidationError as exc:
        error = exc.errors()[0]
        code, params = from_pydantic(error)
        key = str(error["loc"][0]) if error["loc"] else ""
        if key in options:
            raise Invalid("option_invalid", field="options", option=key,
                          refusal={"code": code, "params": params}) from None
        raise Invalid(code, field=".".join(str(p) for p in error["loc"]) or "options", **params) from None
