"""The board vocabulary as one declarative answer, and the parts of the board JSON Schema made
from it.

The declarations live where the validator reads them (`engine.board`: EFFECTS, TRIGGER_WHEN,
TRIGGER_FILTERS, ability kinds, limits). This module turns them into:

* `vocabulary()`: a JSON-ready description of every effect (its parameters with their types
  and ranges, nested effect lists, who may use it, its words), trigger condition and filter,
  ability kind, strength modifier, zone, counter and limit: what `GET /api/engine/vocabulary`
  answers and what the editor and the board picture may read;
* `sync_schema(schema)`: `engine/board.schema.json` with its generated parts made current (the
  effect names, the trigger conditions, the strength modifiers). ``python -m engine.vocabulary
  --write`` rewrites the file; a test fails when the file on disk is not current.

Adding an effect is: its spec in `engine.board.EFFECTS`, its resolver in `engine.effects`
(a test checks every spec has one), a scenario test; then ``python -m engine.vocabulary --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import board as B

SCHEMA_PATH = Path(__file__).with_name("board.schema.json")


def bare_effects() -> list[str]:
    """Effects that may be written as a bare name ("end_the_run"): no required field."""
    out = []
    for name, spec in B.EFFECTS.items():
        if (
            spec["params"]
            or spec.get("nested")
            or spec.get("strings")
            or spec.get("choices")
            or spec.get("required")
        ):
            continue
        if spec.get("zones"):
            continue
        out.append(name)
    return out


def _int_range(name: str) -> dict:
    hi = B.MAX_CREDITS if name in ("cost",) else B.MAX_SMALL
    return {"type": "integer", "minimum": 0, "maximum": hi}


def effect_spec(name: str) -> dict:
    """One effect's declaration as data."""
    spec = B.EFFECTS[name]
    fields: dict[str, Any] = {}
    for p in spec["params"]:
        fields[p] = {**_int_range(p), "required": True}
    for p, default in spec.get("optional", {}).items():
        fields[p] = {**_int_range(p), "default": default}
    for p in spec.get("strings", ()):
        fields[p] = {
            "type": "string",
            "required": True,
            "max_length": B.MAX_TEXT if p == "text" else B.MAX_NAME,
        }
    for p in spec.get("nested", ()):
        fields[p] = {"type": "effects", "required": True}
    for p in spec.get("optional_nested", ()):
        fields[p] = {"type": "effects"}
    for p, known in spec.get("lists", {}).items():
        fields[p] = {"type": "list", "items": list(known) if known else "name"}
    for p, known in spec.get("enums", {}).items():
        fields[p] = {
            "type": "enum",
            "values": list(known),
            **({"required": True} if p in spec.get("required", ()) else {}),
        }
    for p in spec.get("flags", ()):
        fields[p] = {"type": "boolean", "default": False}
    if spec.get("choices"):
        fields[spec["choices"]] = {"type": "options", "min": 2, "max": B.MAX_OPTIONS, "required": True}
    if spec.get("zones"):
        fields["zones"] = {"type": "list", "items": list(B.ACCESS_ZONES), "required": True}
    if name == "trace":
        fields["on_success"] = {"type": "effects"}
        fields["on_failure"] = {"type": "effects"}
    return {
        "name": name,
        "fields": fields,
        "bare": name in bare_effects(),
        "corp_only": spec["corp_only"],
        "runner_only": bool(spec.get("runner_only")),
        "words": spec["text"],
    }


def vocabulary() -> dict:
    """Everything a board may say, as data (the editor, the board picture and the API read it)."""
    return {
        "format": B.FORMAT,
        "version": B.FORMAT_VERSION,
        "read_versions": list(B.READ_VERSIONS),
        "effects": [effect_spec(n) for n in B.EFFECTS],
        "triggers": {
            "when": list(B.TRIGGER_WHEN),
            "filters": {k: list(v) for k, v in B.TRIGGER_FILTERS.items()},
        },
        "abilities": {
            "runner": list(B.ABILITY_KINDS),
            "corp": list(B.CORP_ABILITY_KINDS),
            "corp_card_types": list(B.CORP_ABILITY_TYPES),
            "once_per": list(B.ONCE_PER),
            "pump_lasts": list(B.PUMP_LASTS),
            "runner_prevents": list(B.RUNNER_PREVENTS),
            "corp_prevents": list(B.CORP_PREVENTS),
            "damage_kinds": list(B.DAMAGE_KINDS),
            "counter_cost": {"counters": list(B.COST_COUNTERS), "kinds": list(B.COUNTER_COST_KINDS)},
            "corp_once_per": list(B.CORP_ONCE_PER),
            "first_each": list(B.FIRST_EACH),
            "additional_cost": dict(B.ADDITIONAL_COSTS),
        },
        "strength_mods": {"per": list(B.STRENGTH_PER), "while": list(B.STRENGTH_WHILE)},
        "break_limit": {"fields": list(B.BREAK_LIMIT_FIELDS), "while": list(B.STRENGTH_WHILE)},
        "card_types": {"corp": list(B.CORP_TYPES), "runner": list(B.RUNNER_TYPES)},
        "corp_identity": sorted(B._CORP_IDENTITY_FIELDS),
        "play_if": dict(B.PLAY_IF),
        "last_turn": {"facts": list(B.LAST_TURN_FACTS), "conditions": list(B.LAST_TURN_CONDITIONS)},
        "zones": {"rig": list(B.RIG_ZONES), "access": list(B.ACCESS_ZONES)},
        "servers": {"central": list(B.CENTRAL), "remote": "remote1..remote99"},
        "counters": list(B.COUNTERS),
        "limits": {
            "credits": B.MAX_CREDITS,
            "small": B.MAX_SMALL,
            "zone": B.MAX_ZONE,
            "ice": B.MAX_ICE,
            "root": B.MAX_ROOT,
            "subroutines": B.MAX_SUBS,
            "remotes": B.MAX_REMOTES,
            "effects": B.MAX_EFFECTS,
            "name": B.MAX_NAME,
            "nesting": B.MAX_TRACE_DEPTH,
            "rig": B.MAX_RIG,
            "abilities": B.MAX_ABILITIES,
            "subtypes": B.MAX_SUBTYPES,
            "text": B.MAX_TEXT,
            "unmodeled": B.MAX_UNMODELED,
        },
    }


def _strength_mods_schema() -> dict:
    return {
        "type": "array",
        "maxItems": B.MAX_ABILITIES,
        "description": "ice: constant abilities changing its strength (engine.rig.ice_strength)",
        "items": {
            "type": "object",
            "required": ["amount"],
            "additionalProperties": False,
            "properties": {
                "amount": {"type": "integer", "minimum": -B.MAX_SMALL, "maximum": B.MAX_SMALL},
                "per": {"enum": list(B.STRENGTH_PER)},
                "while": {"enum": list(B.STRENGTH_WHILE)},
            },
            "oneOf": [{"required": ["per"]}, {"required": ["while"]}],
        },
    }


def _break_limit_schema() -> dict:
    return {
        "type": "object",
        "required": ["max"],
        "additionalProperties": False,
        "description": "ice: 'the Runner cannot break more than N of its printed subroutines during each "
        "encounter' (engine.rig.break_allowance)",
        "properties": {
            "max": {"type": "integer", "minimum": 1, "maximum": B.MAX_SMALL},
            "except_subtype": {"type": "string", "minLength": 1, "maxLength": 40},
            "while": {"enum": list(B.STRENGTH_WHILE)},
        },
    }


def _counter_cost_schema() -> dict:
    return {
        "type": "object",
        "required": ["counter", "amount"],
        "additionalProperties": False,
        "description": 'hosted counters the cost removes from this card ("Hosted virus counter: ...", 1.16, 1.9.1)',
        "properties": {
            "counter": {"enum": list(B.COST_COUNTERS)},
            "amount": {"type": "integer", "minimum": 1, "maximum": B.MAX_SMALL},
        },
    }


def _sync_abilities(defs: dict) -> None:
    """The ability limits and costs declared in `engine.board` (issue 32 set A) on the ability
    definitions: `counter_cost` (icebreaker and Corp paid / click abilities), `once_per` (Corp
    paid / click abilities, 9.3.6g) and `first_each` (prevent abilities)."""
    runner = defs["ability"]["oneOf"]
    click = {
        "type": "object",
        "required": ["kind", "effects"],
        "additionalProperties": False,
        "description": "a [click] ability on an installed Runner card: an action in the Runner's action "
        "phase (5.2.1, 9.2.7b): spend `clicks` (default 1) and `cost`, trash the card with `trash`, "
        "resolve `effects`",
        "properties": {
            "kind": {"const": "click"},
            "clicks": {"type": "integer", "minimum": 1, "maximum": 3},
            "cost": {"type": "integer", "minimum": 0, "maximum": B.MAX_CREDITS},
            "trash": {"type": "boolean", "description": "[trash] is part of the cost"},
            "effects": {"$ref": "#/$defs/effects"},
        },
    }
    paid = {
        "type": "object",
        "required": ["kind", "effects"],
        "additionalProperties": False,
        "description": "a paid ability on installed hardware or a resource without [click] in its cost "
        "(9.2.7): usable in any paid ability window; spend `cost`, trash the card with `trash` (1.16), "
        "resolve `effects`",
        "properties": {
            "kind": {"const": "paid"},
            "cost": {"type": "integer", "minimum": 0, "maximum": B.MAX_CREDITS},
            "trash": {"type": "boolean", "description": "[trash] is part of the cost"},
            "effects": {"$ref": "#/$defs/effects"},
        },
    }
    for branch in (click, paid):
        kinds = [b.get("properties", {}).get("kind", {}).get("const") for b in runner]
        kind = branch["properties"]["kind"]["const"]
        if kind in kinds:
            runner[kinds.index(kind)] = branch
        else:
            runner.append(branch)
    branches = list(runner)
    corp = _card_props(defs["corp_card"])["abilities"]["items"]["oneOf"]
    for branch in branches + list(corp):
        props = branch.get("properties", {})
        kind = props.get("kind", {}).get("const")
        if kind in B.COUNTER_COST_KINDS:
            props["counter_cost"] = _counter_cost_schema()
        if kind in ("paid", "click"):
            props["once_per"] = {
                "enum": list(B.CORP_ONCE_PER),
                "description": '"Once per turn →": usable once per turn (9.3.6g)',
            }
        if kind == "prevent":
            props["first_each"] = {
                "enum": list(B.FIRST_EACH),
                "description": '"The first time each turn you would ...": usable only while the first such '
                "instruction of the turn is imminent",
            }


def _unmodeled_schema() -> dict:
    return {
        "type": "array",
        "maxItems": B.MAX_UNMODELED,
        "description": "printed abilities the engine does not apply: shown on the card for the judge",
        "items": {"type": "string", "minLength": 1, "maxLength": B.MAX_TEXT},
    }


def sync_schema(schema: dict) -> dict:
    """`schema` (the board JSON Schema) with its generated parts made from the vocabulary."""
    out = json.loads(json.dumps(schema))
    defs = out["$defs"]
    bare, obj = defs["effect"]["oneOf"]
    bare["enum"] = bare_effects()
    obj["properties"]["effect"]["enum"] = list(B.EFFECTS)
    run = B.EFFECTS["run"]  # a run event's fields (engine.effects, "run")
    obj["properties"]["server"] = {
        "enum": list(run["enums"]["server"]),
        "description": "run: the server the event runs ('any': the Runner chooses as it is played)",
    }
    obj["properties"]["if_successful"] = {
        "$ref": "#/$defs/effects",
        "description": "run: the 'If successful' conditional ability (6.7.4), pending when the run is successful",
    }
    obj["properties"]["instead_of_breach"] = {
        "type": "boolean",
        "description": "run: 'instead of breaching': the if_successful effects replace the breach (6.7.4b)",
    }
    obj["properties"]["additional_access"] = {
        "type": "integer",
        "minimum": 0,
        "maximum": B.MAX_SMALL,
        "description": "run: 'access N additional cards when you breach' (7.3.5b)",
    }
    kinds = [*B.LOAD_COUNTERS]  # every kind an effect's `counter` may name (the validator checks each)
    obj["properties"]["counter"] = {
        "enum": kinds,
        "description": "place_counters / remove_counters / load_counters: the kind of counter (1.9.5)",
    }
    obj["properties"]["per"] = {
        "enum": list(B.PER),
        "description": "gain_credits / lose_credits / draw_cards: 'N for each ...': the amount times what "
        "this counts as the instruction resolves, one instance (9.12.2b)",
    }
    install = B.EFFECTS["install"]
    obj["properties"]["from"] = {
        "type": "array",
        "minItems": 1,
        "items": {"enum": list(install["lists"]["from"])},
        "description": "install: the zones the card is installed from (default HQ)",
    }
    obj["properties"]["ignore_costs"] = {
        "type": "boolean",
        "description": "install: 'ignoring all costs' (1.16.5c)",
    }
    _sync_abilities(defs)
    for side in ("corp_card", "runner_card"):
        props = _card_props(defs[side])
        triggers = props.get("triggers")
        if triggers is not None:
            triggers["items"]["properties"]["when"]["enum"] = list(B.TRIGGER_WHEN)
            triggers["items"]["properties"]["first_each"] = {
                "enum": list(B.FIRST_EACH),
                "description": '"The first time each turn ...": met only by the first such event of the turn',
            }
        props["unmodeled"] = _unmodeled_schema()
        props["play_if"] = _play_if_schema()
        props["additional_cost"] = {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "description": 'operations and events: "As an additional cost to play this ..., spend [click]" / '
            '"remove 1 tag", paid with the play action (1.16.10)',
            "properties": {
                k: {"type": "integer", "minimum": 1, "maximum": hi} for k, hi in B.ADDITIONAL_COSTS.items()
            },
        }
        props["when_empty"] = {
            "type": "object",
            "required": ["counter", "effects"],
            "additionalProperties": False,
            "description": '"When it is empty, ...": effects resolving when the last loaded counter of '
            "its kind leaves the card (10.9, engine.effects.emptied)",
            "properties": {
                "counter": {"enum": list(B.LOAD_COUNTERS)},
                "effects": {"$ref": "#/$defs/effects"},
            },
        }
        if side == "corp_card":
            props["advanceable"] = {
                "type": "boolean",
                "description": '"You can advance this asset": the advance action is offered for it (1.18.3)',
            }
            props["reveal_in_rd"] = {
                "type": "boolean",
                "description": '"While the Runner is accessing this card in R&D, they must reveal it" (1.21.3)',
            }
            props["strength_mods"] = _strength_mods_schema()
            props["break_limit"] = _break_limit_schema()
        else:
            props["hand_size"] = {
                "type": "integer",
                "minimum": 0,
                "maximum": B.MAX_SMALL,
                "description": '"You get +N maximum hand size.": added while the card is installed (1.13.3b)',
            }
            props["mu"] = {
                "type": "integer",
                "minimum": 0,
                "maximum": B.MAX_SMALL,
                "description": "+N[mu]: memory this installed card adds to the memory limit (1.20.2)",
            }
    defs["runner"]["properties"]["last_turn"] = {
        "type": "array",
        "maxItems": len(B.LAST_TURN_FACTS),
        "description": "what happened during the Runner's last turn (read by play_if.runner_last_turn)",
        "items": {"enum": list(B.LAST_TURN_FACTS)},
    }
    defs["corp"]["properties"]["identity"] = _corp_identity_schema(_card_props(defs["corp_card"]))
    out["properties"]["version"] = {
        "enum": list(B.READ_VERSIONS),
        "description": f"board format version (current {B.FORMAT_VERSION}; 1 is still read, with its "
        "implicit break_cost shortcut: see engine.board.READ_VERSIONS)",
    }
    return out


def _play_if_schema() -> dict:
    kinds = {
        "bool": {"type": "boolean"},
        "int": {"type": "integer", "minimum": 0, "maximum": B.MAX_SMALL},
        "fact": {"enum": list(B.LAST_TURN_CONDITIONS)},
    }
    return {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": False,
        "description": "an operation's or event's \"Play only if ...\" restriction (9.3.3b, engine.restrictions)",
        "properties": {k: kinds[v] for k, v in B.PLAY_IF.items()},
    }


def _corp_identity_schema(corp_card: dict) -> dict:
    """`corp.identity`: a name, or an object with the Corp card's `triggers`, `abilities` and
    `unmodeled` (engine.board._CORP_IDENTITY_FIELDS)."""
    props: dict[str, Any] = {
        "name": {"type": "string", "minLength": 1, "maxLength": B.MAX_NAME},
        "card_id": {"type": "string", "minLength": 1, "maxLength": B.MAX_NAME},
        "text": {"type": "string", "minLength": 1, "maxLength": B.MAX_TEXT},
        "hand_size": {
            "type": "integer",
            "minimum": 0,
            "maximum": B.MAX_SMALL,
            "description": "+N maximum hand size (a constant ability, 4.3.6)",
        },
        "triggers": corp_card["triggers"],
        "abilities": corp_card["abilities"],
        "unmodeled": _unmodeled_schema(),
    }
    assert set(props) == B._CORP_IDENTITY_FIELDS
    return {
        "description": "the Corp's identity: always active (4.6.4a); its abilities as a rezzed card's",
        "oneOf": [
            {"type": "null"},
            {"type": "string", "minLength": 1, "maxLength": B.MAX_NAME},
            {"type": "object", "required": ["name"], "additionalProperties": False, "properties": props},
        ],
    }


def _card_props(d: dict) -> dict:
    """The `properties` of a card definition (the object branch when it is a name-or-object)."""
    if "properties" in d:
        return d["properties"]
    for branch in [*d.get("oneOf", ()), *d.get("anyOf", ())]:
        if isinstance(branch, dict) and "properties" in branch:
            return branch["properties"]
    raise KeyError("card definition without properties")


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=True) + "\n"


def current_schema_text() -> str:
    return render(sync_schema(json.loads(SCHEMA_PATH.read_text())))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = current_schema_text()
    if "--write" in args:
        SCHEMA_PATH.write_text(text)
        print(f"wrote {SCHEMA_PATH.name}")
        return 0
    if "--check" in args:
        ok = SCHEMA_PATH.read_text() == text
        print(
            "board.schema.json is current"
            if ok
            else "board.schema.json is stale: run python -m engine.vocabulary --write"
        )
        return 0 if ok else 1
    print(json.dumps(vocabulary(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
