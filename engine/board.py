"""Board state format (version 2; version 1 still read): validation and normalisation.

The documented format is in docs/board-format.md and engine/board.schema.json. `validate_board`
returns every problem (field-path prefixed); `normalise_board` turns a valid board into the
canonical form the engine works on (counts expanded into placeholder cards, defaults filled in).
"""

from __future__ import annotations

import re
from typing import Any

FORMAT = "nrrules-board"
FORMAT_VERSION = 2
# Versions still read. Version 2 (issue 32) changed one rule: the ice-level `break_cost` shortcut
# (`break:i`) is offered only on ice that names a `break_cost`; a version 1 board also offers it
# (at 1 credit) when the Runner has no icebreaker abilities installed. A version 1 board is read
# as written and keeps `"version": 1` when normalised, so the engine applies its rule
# (`implicit_break_shortcut`): its shared links and tokens replay unchanged. `upgrade_board`
# rewrites a version 1 board as version 2 when that keeps its meaning exactly.
READ_VERSIONS = (1, 2)

MAX_CREDITS = 999
MAX_SMALL = 99  # clicks, tags, damage, agenda points, hand size, link, amounts...
MAX_ZONE = 200  # cards in one zone
MAX_ICE = 30  # ice protecting one server
MAX_ROOT = 10  # upgrades in one root
MAX_SUBS = 20  # subroutines on one ice
MAX_REMOTES = 30
MAX_EFFECTS = 10  # instructions in one effect list
MAX_NAME = 100
MAX_TRACE_DEPTH = 3  # nested effect lists (trace results, unless_pays, if_tagged)
MAX_RIG = 30  # cards in one rig zone (programs, hardware, resources, facedown)
MAX_ABILITIES = 10  # paid abilities on one card
MAX_SUBTYPES = 10
MAX_TEXT = 1000  # printed card text / a text-only effect or ability
DEFAULT_MEMORY_LIMIT = 4  # CR 1.20.2: the starting memory limit when the identity names none
RIG_ZONES = ("programs", "hardware", "resources", "facedown")
RIG_TYPE = {"programs": "program", "hardware": "hardware", "resources": "resource"}
COUNTERS = ("advancement", "agenda", "power", "virus", "credits")
# counters a card may be loaded with (10.9.1, `load_counters`) and its `when_empty` ability about
LOAD_COUNTERS = ("credits", "power", "agenda", "advancement", "virus")
ACCESS_ZONES = ("hq", "rd", "archives", "installed")

CENTRAL = ("hq", "rd", "archives")
REMOTE_RE = re.compile(r"^remote([1-9][0-9]?)$")
PLAYERS = ("corp", "runner")

CORP_TYPES = ("agenda", "asset", "upgrade", "ice", "operation")
RUNNER_TYPES = ("event", "program", "hardware", "resource")

# "for each" amounts (gain_credits / lose_credits / draw_cards `per`): "Gain 1[credit] for each tag
# the Runner has" is `amount` times what `per` counts when the instruction resolves
# (engine.effects.count_per): its key -> the words after "for each"
PER_WORDS = {
    "runner_tag": "tag the Runner has",
    "card_in_hq": "card in HQ",
    "remaining_click": "[click] the controller has remaining",
    "rezzed_harmonic_ice": "rezzed piece of harmonic ice",
    "hosted_advancement": "advancement counter hosted on this card",
}
PER = tuple(PER_WORDS)

# Effect vocabulary: name -> (parameters, which controller may use it)
EFFECTS: dict[str, dict[str, Any]] = {
    "end_the_run": {"params": (), "corp_only": True, "text": "End the run."},
    "lose_clicks": {
        "params": ("amount",),
        "corp_only": False,
        "text": "The opponent loses {amount} [click].",
    },
    "gain_credits": {
        "params": ("amount",),
        "enums": {"per": PER},
        "corp_only": False,
        "text": "Gain {amount}[credit].",
    },
    "lose_credits": {
        "params": ("amount",),
        "enums": {"per": PER},
        "corp_only": False,
        "text": "The opponent loses {amount}[credit].",
    },
    # damage is always the Runner's: done by a Corp card, suffered from a Runner card's own
    # ability ("When you install this hardware, suffer 1 core damage"); preventable either way (9.9.6b)
    "net_damage": {"params": ("amount",), "corp_only": False, "text": "Do {amount} net damage."},
    "meat_damage": {"params": ("amount",), "corp_only": False, "text": "Do {amount} meat damage."},
    "core_damage": {"params": ("amount",), "corp_only": False, "text": "Do {amount} core damage."},
    "give_tags": {"params": ("amount",), "corp_only": True, "text": "Give the Runner {amount} tag(s)."},
    "trace": {"params": ("strength",), "corp_only": True, "text": "Trace {strength}."},
    "unless_pays": {
        "params": ("amount",),
        "optional": {"clicks": 0},  # "... unless the Runner spends [click]"
        "nested": ("effects",),
        "corp_only": True,
        "text": "Unless the Runner pays {cost}:",
    },
    "if_tagged": {
        "params": (),
        "optional": {"min_tags": 1},  # "... if the Runner has at least 2 tags"
        "nested": ("effects",),
        "corp_only": False,
        "text": "If the Runner is tagged{min_tags_text}:",
    },
    "trash_program": {
        "params": (),
        "optional": {"amount": 1},
        "corp_only": True,
        "text": "Trash {amount} installed program(s).",
    },
    "must_pay": {
        "params": ("amount",),
        "nested": ("effects",),
        "corp_only": True,
        "text": "The Runner must pay {amount}[credit], if able. If they do not:",
    },
    "may_pay": {
        "params": ("amount",),
        "nested": ("effects",),
        "corp_only": False,
        "text": "The controller may pay {amount}[credit]. If they do:",
    },
    "if_accessed_from": {
        "params": (),
        "nested": ("effects",),
        "zones": True,
        "corp_only": True,
        "text": "If accessed from {zones}:",
    },
    "text": {
        "params": (),
        "strings": ("text",),
        "corp_only": False,
        "text": "{text}",
    },
    # ----- added for real cards' text (engine.cardtext; coord EFFECTS.md "Added by cards") ----------
    "trash_installed": {
        "params": ("amount",),
        "lists": {"card_types": ("program", "hardware", "resource"), "except_subtypes": None},
        "enums": {"chooser": ("corp", "runner")},
        "corp_only": True,
        "text": "Trash {amount} installed {what}.",
    },
    "choose": {
        "params": (),
        "choices": "options",
        "corp_only": True,
        "text": "Choose one:",
    },
    "opponent_gains_credits": {
        "params": ("amount",),
        "corp_only": True,
        "text": "The opponent gains {amount}[credit].",
    },
    "draw_cards": {
        "params": ("amount",),
        "enums": {"per": PER},
        "flags": ("optional", "up_to"),
        "corp_only": False,
        "text": "{may}raw {upto}{amount} card(s).",
    },
    "trash_this_ice": {"params": (), "corp_only": True, "text": "Trash this ice."},
    "runner_may_jack_out": {"params": (), "corp_only": True, "text": "The Runner may jack out."},
    "add_installed_to_grip": {
        "params": ("amount",),
        "corp_only": True,
        "text": "Add {amount} installed Runner card(s) to the grip.",
    },
    "if_ice_subtype": {
        "params": (),
        "strings": ("subtype",),
        "nested": ("effects",),
        "corp_only": True,
        "text": "If this ice is a {subtype}:",
    },
    "if_threat_level": {
        "params": ("amount",),
        "nested": ("effects",),
        "corp_only": False,
        "text": "If the threat level is {amount} or greater:",
    },
    "if_runner_credits_at_most": {
        "params": ("amount",),
        "nested": ("effects",),
        "corp_only": False,
        "text": "If the Runner has {amount}[credit] or less:",
    },
    # ----- issue 10's vocabulary: bypass, derez, expose, gain clicks, bad publicity -----------------
    "bypass": {"params": (), "corp_only": False, "text": "Bypass the encountered ice."},
    "corp_chooses_hq_access": {
        "params": (),
        "corp_only": True,
        "text": "The Corp chooses which cards the Runner accesses from HQ for the remainder of this run.",
    },
    "derez": {
        "params": (),
        "optional": {"amount": 1},
        "lists": {"card_types": ("ice", "asset", "upgrade")},
        "corp_only": False,
        "text": "Derez {amount} installed {what}.",
    },
    "expose": {
        "params": (),
        "optional": {"amount": 1},
        "lists": {"card_types": ("ice", "asset", "upgrade", "agenda")},
        "corp_only": False,
        "text": "Expose {amount} installed {what}.",
    },
    "gain_clicks": {"params": ("amount",), "corp_only": False, "text": "Gain {amount}[click]."},
    # "If you have any [click] remaining, lose [click]." (Creative Commission, VRcation)
    "lose_own_clicks": {
        "params": ("amount",),
        "corp_only": False,
        "text": "Lose {amount}[click] (as many as the controller has left).",
    },
    "take_bad_publicity": {"params": ("amount",), "corp_only": True, "text": "Take {amount} bad publicity."},
    # ----- run events (issue 32): "Run HQ. If successful, ..." (6.7.4) -------------------------------
    "run": {
        "params": (),
        "required": ("server",),
        "enums": {"server": ("hq", "rd", "archives", "any")},
        "optional": {"additional_access": 0},
        "optional_nested": ("if_successful",),
        "flags": ("instead_of_breach",),
        "corp_only": False,
        "runner_only": True,
        "text": "Run {server}.",
    },
    "may_trash_from_hand": {
        "params": ("amount",),
        "nested": ("effects",),
        "corp_only": True,
        "text": "The Corp may trash {amount} card(s) from HQ. If they do:",
    },
    # ----- install as an effect (issue 32; engine.installs, CR 8.5): "You may install 1 card from HQ" --
    "install": {
        "params": (),
        "optional": {"amount": 1},
        "lists": {"from": ("hq", "archives"), "card_types": ("agenda", "asset", "upgrade", "ice")},
        "flags": ("optional", "up_to", "ignore_costs"),
        "corp_only": True,
        "text": "{may}nstall {upto}{amount} {what} from {where}{costs}.",
    },
    "trash_from_hq": {
        "params": ("amount",),
        "corp_only": True,
        "text": "Trash {amount} card(s) from HQ (as many as it holds; the Corp chooses).",
    },
    "shuffle_hq_into_rd": {
        "params": ("amount",),
        "corp_only": True,
        "text": "Shuffle {amount} card(s) from HQ into R&D (the Corp chooses).",
    },
    # ----- counters on cards (issue 32 set A; engine.effects, CR 1.9, 1.13.1) -------------------------
    # "Remove 1 tag." on a Runner card (as many as the Runner has, 1.2.3)
    "remove_tags": {
        "params": ("amount",),
        "corp_only": False,
        "runner_only": True,
        "text": "Remove {amount} tag(s).",
    },
    "place_counters": {
        "params": ("amount",),
        "enums": {"counter": ("advancement", "agenda", "power", "virus")},
        "required": ("counter",),
        "corp_only": False,
        "text": "Place {amount} {counter} counter(s) on this card.",
    },
    "remove_counters": {
        "params": (),
        "optional": {"amount": 0},  # 0: all of them ("remove all hosted power counters")
        "enums": {"counter": ("advancement", "agenda", "power", "virus")},
        "required": ("counter",),
        "corp_only": False,
        "text": "Remove {amount_text} hosted {counter} counter(s) from this card.",
    },
    # ----- load and empty (10.9), taking hosted credits (1.10.4a) ----------------------------------
    "load_counters": {
        "params": ("amount",),
        "enums": {"counter": LOAD_COUNTERS},
        "required": ("counter",),
        "corp_only": False,
        "text": "Load {amount} {counter_words} onto this card.",
    },
    "take_credits": {
        "params": (),
        "optional": {"amount": 0},  # 0: all of them ("take all credits from this asset")
        "corp_only": False,
        "text": "Take {amount_text} credit(s) from this card.",
    },
    "trash_this_card": {"params": (), "corp_only": False, "text": "Trash this card."},
}
# `play_if` on an operation or event: its "Play only if ..." restriction (9.3.3b), every
# condition of which must hold for the card to be played (engine.restrictions). Condition ->
# its kind; the Runner's last turn is what the board says of it (`runner.last_turn`).
PLAY_IF = {
    "runner_tagged": "bool",  # true: "the Runner is tagged"; false: "you are not tagged" (an event)
    "runner_min_tags": "int",  # "the Runner has at least N tags"
    "threat_level": "int",  # "the threat level is N or greater" (1.17.1a)
    "runner_agenda_points": "int",  # "the Runner has N or more agenda points"
    "runner_last_turn": "fact",  # "the Runner made a successful run / stole ... during their last turn"
}
# what happened during the Runner's last turn (`runner.last_turn`, a list; default none of them):
# the facts a `runner_last_turn` restriction reads; "stole_or_trashed" is met by either of the two
LAST_TURN_FACTS = ("successful_run", "stole_agenda", "trashed_corp_card")
LAST_TURN_CONDITIONS = (*LAST_TURN_FACTS, "stole_or_trashed")
# ice `strength_mods`: a constant ability changing the ice's strength (engine.rig.ice_strength):
# "per" counts something (each hosted advancement counter: Ice Wall), "while" a condition (the
# only piece of ice protecting its server: Scatter Field; the Runner is tagged; it protects a
# remote server: Palisade, or Archives: Bathynomus); "icebreaker": each installed icebreaker (Hagen);
# "virus" / "power": each hosted counter of that kind
STRENGTH_PER = ("advancement", "icebreaker", "virus", "power")
STRENGTH_WHILE = (
    "only_ice",
    "tagged",
    "protecting_remote",
    "protecting_archives",
    "protecting_hq",
    "advanced_3",
)
# ice `break_limit` {"max": N, "except_subtype": "killer", "while": STRENGTH_WHILE}: "the Runner
# cannot break more than N of its printed subroutines during each encounter" (Hammer: except
# using killers; Afshar: while protecting HQ; Akhet: while it hosts 3 or more advancement
# counters); engine.rig.break_allowance, read by the offers and the refusals alike
BREAK_LIMIT_FIELDS = ("max", "except_subtype", "while")
MAX_UNMODELED = 10  # printed paragraphs the engine does not apply, on one card
_LIMITS = ("once_per", "only_if", "threat")  # optional limits on icebreaker abilities (break, strength)
_CORP_LIMITS = ("counter_cost", "once_per")  # optional on Corp paid / click abilities
MAX_OPTIONS = 4  # options of one "choose" effect ("X or end the run")
ONCE_PER = ("turn", "run", "encounter")  # icebreaker abilities' "use this ability only once per ..."
PUMP_LASTS = (
    "encounter",
    "run",
    "turn",
)  # how long a strength ability's pump lasts (3.9.5b-c); engine.rig.add_boost

# ----- issue 32 set A: counters as costs, first-each-turn limits ---------------------------------
# hosted counters an ability's cost removes from its own card ("Hosted virus counter: +2 strength",
# "[click], hosted power counter: Gain 3[credit]"): `counter_cost` {"counter": KIND, "amount": N}
# on icebreaker (break, strength) and Corp paid / click abilities (CR 1.16, 1.9.1, 1.13.1)
COST_COUNTERS = ("agenda", "power", "virus")  # advancement: `advancements` on agendas, not a cost here
COUNTER_COST_KINDS = ("break", "strength", "paid", "click")
# "The first time each turn you would ...": a `prevent` ability usable only while the first such
# instruction of the turn is imminent (Net Shield), `first_each: "turn"`; on a trigger ("The first
# time each turn you install a program, ..."), met only by the turn's first such event (9.3.2b)
FIRST_EACH = ("turn",)
# "As an additional cost to play this operation/event, spend [click]" / "remove 1 tag" (1.16.10):
# an operation's or event's `additional_cost`, paid with the play action's click and play cost
# field -> largest value; trash_program / trash_resource (events): installed cards of the Runner's
# they choose as the cost is paid ("As an additional cost to play this event, trash 1 installed
# resource": Isolation, Spec Work)
ADDITIONAL_COSTS = {
    "clicks": 3,
    "remove_tags": MAX_SMALL,
    "core_damage": MAX_SMALL,
    "trash_program": MAX_RIG,
    "trash_resource": MAX_RIG,
}
COST_TRASH = {"trash_program": "programs", "trash_resource": "resources"}  # the rig zone each trashes from
# Corp paid / click abilities' "Once per turn →" flag (9.3.6g, rule_once_per_turn_flag): `once_per`
CORP_ONCE_PER = ("turn",)

# Runner paid abilities on programs (icebreakers): kind -> (required ints, optional fields)
ABILITY_KINDS = ("break", "strength", "text", "prevent", "trace", "click", "paid")  # click: an action (5.2.1)
# `paid`: a paid ability on installed hardware or a resource without [click] in its cost ("[trash]: Gain
# 3[credit]."), usable in any paid ability window (9.2.7); [trash] as part of the cost trashes it (1.16)
RUNNER_PAID_TYPES = ("hardware", "resource")
CORP_ABILITY_TYPES = ("asset", "upgrade", "ice")  # Corp cards with `paid` abilities
# Corp card abilities: paid (9.2.7), a trace interrupt (9.9.6d), a [click] action (5.2.6, 9.2.7b)
CORP_ABILITY_KINDS = ("paid", "trace", "click", "prevent")
# what a `prevent` ability can be about (engine.prevention), by side
RUNNER_PREVENTS = ("damage", "tags", "trash")
CORP_PREVENTS = ("expose",)
TRACE_BONUS_ONLY = ("run_on_server", "subroutine")  # `trace_bonus.only`: which traces it raises
DAMAGE_KINDS = ("net", "meat", "core", "any")
TRIGGER_WHEN = (
    "successful_run",
    "encountered",
    "passed",
    "run_ends",
    "installed",
    "scored",
    "trace_initiated",
    "accessed",
    "stolen",
    "turn_begins",
    "turn_ends",
    "run_begins",
    "rezzed",
    "trashed",
)  # engine.triggers.WHEN
# trigger `filter` field -> the conditions it may narrow (engine.triggers.FILTERS)
TRIGGER_FILTERS = {
    "card_type": ("accessed", "installed", "scored"),
    "server": (
        "accessed",
        "stolen",
        "successful_run",
        "run_ends",
        "encountered",
        "passed",
        "trace_initiated",
        "scored",
        "run_begins",
    ),
    "successful": ("run_ends",),
    "subtype": ("encountered", "passed", "installed"),
}
# the card types a `card_type` filter may name, by condition
FILTER_CARD_TYPES = {
    "accessed": CORP_TYPES,
    "installed": ("program", "hardware", "resource"),
    "scored": ("agenda",),
}

_CARD_FIELDS_CORP = {
    "abilities",  # Corp paid abilities: [{"kind": "paid", "cost", "trash", "effects"}] (9.2.7)
    "accessed",  # engine-managed during a breach
    "name",
    "type",
    "rezzed",
    "rez_cost",
    "trash_cost",
    "agenda_points",
    "advancement_requirement",
    "advancements",
    "steal_cost",
    "subroutines",
    "break_cost",
    "on_access",
    "play_cost",
    "effects",
    "faceup",
    "strength",
    "subtypes",
    "card_id",
    "text",
    "counters",
    "recurring",  # N[recurring]: credits placed when active, refilled each turn (1.10.5)
    "triggers",  # conditional abilities: [{"when": "successful_run", "effects": [...]}] (engine.triggers)
    "when_empty",  # {"counter": K, "effects": [...]}: "When it is empty, ..." of a loaded card (10.9)
    "advanceable",  # "You can advance this asset": the advance action is offered for it (1.18.3)
    "reveal_in_rd",  # "While the Runner is accessing this ... in R&D, they must reveal it" (1.21.3)
    "trace_bonus",  # {"amount": N, "only": ...}: raises each trace's base strength (engine.trace)
    "strength_mods",  # ice: constant strength changes [{"amount": N, "per"|"while": ...}] (engine.rig)
    "break_limit",  # ice: {"max": N, "except_subtype", "while"}: at most N subroutines broken (engine.rig)
    "unmodeled",  # printed abilities the engine does not apply, shown for the judge (engine.cardtext)
    "play_if",  # an operation's "Play only if ..." restriction (PLAY_IF, engine.restrictions)
    "additional_cost",  # operations: {"clicks": N, "remove_tags": N} paid to play it (1.16.10)
}
_CARD_FIELDS_RUNNER = {
    "name",
    "type",
    "play_cost",
    "effects",
    "install_cost",
    "memory_cost",
    "strength",
    "subtypes",
    "abilities",
    "card_id",
    "text",
    "counters",
    "recurring",
    "when_empty",
    "link",  # N[link] from an installed card (10.7.1)
    "mu",  # +N[mu]: memory an installed card adds to the memory limit (1.20.2)
    "hand_size",  # "You get +N maximum hand size.": an installed card's constant ability (1.13.3b)
    "triggers",
    "boost",  # engine-managed: strength added by pump abilities still lasting (engine.rig)
    "boost_run",  # engine-managed: the part of `boost` that lasts the run (`lasts: "run"`, 3.9.5c)
    "boost_turn",  # engine-managed: the part of `boost` that lasts the turn (`lasts: "turn"`)
    "access_bonus",  # {"hq": N, "rd": N}: additional cards accessed (7.3.5b), e.g. R&D Interface
    "unmodeled",
    "play_if",  # an event's "Play only if ..." restriction (PLAY_IF, engine.restrictions)
    "additional_cost",  # events: {"clicks": N, "core_damage": N} paid to play it (1.16.10)
}
# The Runner's identity (`runner.identity`): always active (4.6.4a); its conditional abilities
# (`triggers`, engine.triggers: pending with the Runner's, `trigger:runner_identity.CARD.N`) and
# the printed paragraphs the engine does not apply (`unmodeled`, shown on the board picture)
_IDENTITY_FIELDS = {"name", "base_link", "memory_limit", "card_id", "text", "triggers", "unmodeled"}
# The Corp's identity (`corp.identity`): always active (it is never installed or rezzed), its
# abilities are conditional (`triggers`, engine.triggers), paid or [click] (`abilities`, as on a
# rezzed asset: engine.windows) and constant (`hand_size`: "+N maximum hand size", 1.13.3b);
# printed paragraphs the engine does not apply are `unmodeled`, shown on the board picture.
_CORP_IDENTITY_FIELDS = {"name", "card_id", "text", "triggers", "abilities", "hand_size", "unmodeled"}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, path: str, msg: str) -> None:
        self.problems.append(f"{path}: {msg}")

    def int_field(self, obj: dict, key: str, path: str, hi: int = MAX_SMALL, required: bool = False) -> None:
        if key not in obj:
            if required:
                self.add(f"{path}.{key}", "is required")
            return
        v = obj[key]
        if not _is_int(v) or v < 0:
            self.add(f"{path}.{key}", "must be a non-negative integer")
        elif v > hi:
            self.add(f"{path}.{key}", f"must be at most {hi}")

    def text_field(
        self, obj: dict, key: str, path: str, most: int = MAX_TEXT, required: bool = False
    ) -> None:
        if key not in obj:
            if required:
                self.add(f"{path}.{key}", "is required")
            return
        v = obj[key]
        if not isinstance(v, str) or not v or len(v) > most:
            self.add(f"{path}.{key}", f"must be a string of 1-{most} characters")

    def bool_field(self, obj: dict, key: str, path: str) -> None:
        if key in obj and not isinstance(obj[key], bool):
            self.add(f"{path}.{key}", "must be true or false")

    def unknown(self, obj: dict, allowed: set[str], path: str) -> None:
        for k in obj:
            if k not in allowed:
                self.add(f"{path}.{k}" if path else str(k), "unknown field")

    # ----- effects -----------------------------------------------------------------------------
    def effect(self, e: Any, path: str, controller: str, depth: int = 0) -> None:
        if isinstance(e, str):
            e = {"effect": e}
        if not isinstance(e, dict):
            self.add(path, "must be an effect name or an object with an 'effect' field")
            return
        name = e.get("effect")
        if not isinstance(name, str) or name not in EFFECTS:
            self.add(
                f"{path}.effect",
                f"unknown effect {name!r} (known: {', '.join(EFFECTS)})",
            )
            return
        spec = EFFECTS[name]
        if spec["corp_only"] and controller != "corp":
            self.add(f"{path}.effect", f"{name!r} can only be used on Corp cards")
        nested = spec.get("nested", ())
        strings = spec.get("strings", ())
        optional = spec.get("optional", {})
        lists = spec.get("lists", {})
        enums = spec.get("enums", {})
        flags = spec.get("flags", ())
        choices = spec.get("choices")
        later = spec.get("optional_nested", ())
        allowed = {"effect", *spec["params"], *nested, *strings, *optional, *lists, *enums, *flags, *later}
        if choices:
            allowed.add(choices)
        if spec.get("zones"):
            allowed.add("zones")
            zs = e.get("zones")
            if not isinstance(zs, list) or not zs or any(z not in ACCESS_ZONES for z in zs):
                self.add(f"{path}.zones", f"is required: a list of {', '.join(ACCESS_ZONES)}")
        if name == "trace":
            allowed |= {"on_success", "on_failure"}
        self.unknown(e, allowed, path)
        for p in spec["params"]:
            self.int_field(e, p, path, required=True)
        for p in optional:
            self.int_field(e, p, path)
        for p in strings:
            self.text_field(e, p, path, most=MAX_NAME if p != "text" else MAX_TEXT, required=True)
        for p, known in lists.items():
            if p in e:
                self.name_list(e[p], f"{path}.{p}", known)
        for p, known in enums.items():
            if p in e and e[p] not in known:
                self.add(f"{path}.{p}", f"must be one of {', '.join(known)}")
            elif p not in e and p in spec.get("required", ()):
                self.add(f"{path}.{p}", f"is required: one of {', '.join(known)}")
        for p in flags:
            self.bool_field(e, p, path)
        for p in spec.get("required", ()):
            if p not in e and p not in enums:  # a required enum says so above, with its values
                self.add(f"{path}.{p}", "is required")
        if spec.get("runner_only") and controller != "runner":
            self.add(f"{path}.effect", f"{name!r} can only be used on Runner cards")
        for p in later:  # nested effects that may be left out
            if p in e:
                if depth >= MAX_TRACE_DEPTH:
                    self.add(path, f"effects nest at most {MAX_TRACE_DEPTH} deep")
                else:
                    self.effect_list(e[p], f"{path}.{p}", controller, depth + 1)
        if name == "if_tagged" and e.get("min_tags") == 0:
            self.add(f"{path}.min_tags", "must be at least 1")
        if choices:
            opts = e.get(choices)
            if not isinstance(opts, list) or not 2 <= len(opts) <= MAX_OPTIONS:
                self.add(
                    f"{path}.{choices}",
                    f"is required: a list of 2-{MAX_OPTIONS} options, each a list of effects",
                )
            elif depth >= MAX_TRACE_DEPTH:
                self.add(path, f"effects nest at most {MAX_TRACE_DEPTH} deep")
            else:
                for k, opt in enumerate(opts):
                    self.effect_list(opt, f"{path}.{choices}[{k}]", controller, depth + 1)
        for p in nested:
            if p not in e:
                self.add(f"{path}.{p}", "is required: the effects this applies to")
            elif depth >= MAX_TRACE_DEPTH:
                self.add(path, f"effects nest at most {MAX_TRACE_DEPTH} deep")
            else:
                self.effect_list(e[p], f"{path}.{p}", controller, depth + 1)
        if name == "trace":
            if depth >= MAX_TRACE_DEPTH:
                self.add(path, f"traces nest at most {MAX_TRACE_DEPTH} deep")
                return
            for key in ("on_success", "on_failure"):
                if key in e:
                    self.effect_list(e[key], f"{path}.{key}", controller, depth + 1)

    def name_list(self, v: Any, path: str, known: tuple[str, ...] | None) -> None:
        """A non-empty list of lowercase names (card types, subtypes), each one of `known` if given."""
        names = self.bounded_list(v, path, MAX_SUBTYPES, "names")
        if names is None:
            return
        if not names:
            self.add(path, "must not be empty (omit it instead)")
        for i, x in enumerate(names):
            if not isinstance(x, str) or not x or len(x) > 40:
                self.add(f"{path}[{i}]", "must be a name of 1-40 characters")
            elif known is not None and x not in known:
                self.add(f"{path}[{i}]", f"must be one of {', '.join(known)}")

    def bounded_list(self, v: Any, path: str, most: int, noun: str, expect: str = "a list") -> list | None:
        """`v` if it is a list of at most `most` items; otherwise None, with the problem noted."""
        if not isinstance(v, list):
            self.add(path, f"must be {expect}")
            return None
        if len(v) > most:
            self.add(path, f"at most {most} {noun} (got {len(v)})")
            return None
        return v

    def effect_list(self, v: Any, path: str, controller: str, depth: int = 0) -> None:
        if isinstance(v, (str, dict)):
            v = [v]
        for i, e in enumerate(self.bounded_list(v, path, MAX_EFFECTS, "effects", "a list of effects") or ()):
            self.effect(e, f"{path}[{i}]", controller, depth)

    # ----- cards -------------------------------------------------------------------------------
    def card(self, c: Any, path: str, side: str, where: str) -> None:
        if isinstance(c, str):
            if not c or len(c) > MAX_NAME:
                self.add(path, f"card name must be 1-{MAX_NAME} characters")
            return
        if not isinstance(c, dict):
            self.add(path, "must be a card name or a card object")
            return
        allowed = _CARD_FIELDS_CORP if side == "corp" else _CARD_FIELDS_RUNNER
        self.unknown(c, allowed, path)
        name = c.get("name")
        if not isinstance(name, str) or not name or len(name) > MAX_NAME:
            self.add(f"{path}.name", f"is required: a string of 1-{MAX_NAME} characters")
        types = CORP_TYPES if side == "corp" else RUNNER_TYPES
        ctype = c.get("type", RIG_TYPE.get(where))
        if ctype is not None and ctype not in types:
            self.add(f"{path}.type", f"must be one of {', '.join(types)}")
        if where == "ice" and ctype not in (None, "ice"):
            self.add(f"{path}.type", "a card protecting a server must be ice")
        if where == "root" and ctype not in ("upgrade",):
            self.add(f"{path}.type", "cards in a server's root must be upgrades (type 'upgrade')")
        if where == "content" and ctype not in ("agenda", "asset"):
            self.add(f"{path}.type", "a remote server's installed card must be an agenda or an asset")
        if where in RIG_TYPE and ctype not in (None, RIG_TYPE[where]):
            self.add(f"{path}.type", f"cards in rig.{where} must be of type {RIG_TYPE[where]!r}")
        for key in ("rez_cost", "trash_cost", "play_cost", "steal_cost", "break_cost", "install_cost"):
            self.int_field(c, key, path, hi=MAX_CREDITS)
        for key in (
            "agenda_points",
            "advancement_requirement",
            "advancements",
            "strength",
            "memory_cost",
            "boost",
            "boost_run",
            "boost_turn",
            "recurring",
            "link",
            "mu",
            "hand_size",
        ):
            self.int_field(c, key, path)
        longer = sum(c[k] for k in ("boost_run", "boost_turn") if _is_int(c.get(k)))
        if longer and not (_is_int(c.get("boost")) and c["boost"] >= longer):
            self.add(
                f"{path}.boost",
                "must include boost_run and boost_turn (strength added by pumps still lasting)",
            )
        self.text_field(c, "card_id", path, most=MAX_NAME)
        self.text_field(c, "text", path)
        if "subtypes" in c:
            subs = self.bounded_list(c["subtypes"], f"{path}.subtypes", MAX_SUBTYPES, "subtypes")
            for i, st in enumerate(subs or ()):
                if not isinstance(st, str) or not st or len(st) > 40:
                    self.add(f"{path}.subtypes[{i}]", "must be a subtype name of 1-40 characters")
        if "counters" in c:
            cs = c["counters"]
            if not isinstance(cs, dict):
                self.add(f"{path}.counters", f"must be an object ({', '.join(COUNTERS)} -> count)")
            else:
                self.unknown(cs, set(COUNTERS), f"{path}.counters")
                for k in COUNTERS:
                    self.int_field(cs, k, f"{path}.counters")
        if "access_bonus" in c:
            ab = c["access_bonus"]
            if not isinstance(ab, dict):
                self.add(f"{path}.access_bonus", "must be an object {'hq': N, 'rd': N}")
            else:
                self.unknown(ab, {"hq", "rd"}, f"{path}.access_bonus")
                for k in ("hq", "rd"):
                    self.int_field(ab, k, f"{path}.access_bonus")
        if "trace_bonus" in c:
            self.trace_bonus(c, path)
            if ctype != "agenda" and ctype not in CORP_ABILITY_TYPES:
                self.add(f"{path}.trace_bonus", "only installed Corp cards and agendas raise traces")
        if "strength_mods" in c:
            self.strength_mods(c, path, ctype)
        if "break_limit" in c:
            self.break_limit(c, path, ctype)
        if "additional_cost" in c:
            self.additional_cost(c, path, ctype)
        if "unmodeled" in c:
            texts = self.bounded_list(c["unmodeled"], f"{path}.unmodeled", MAX_UNMODELED, "paragraphs")
            for i, t in enumerate(texts or ()):
                if not isinstance(t, str) or not t or len(t) > MAX_TEXT:
                    self.add(f"{path}.unmodeled[{i}]", f"must be a text of 1-{MAX_TEXT} characters")
        if "memory_cost" in c and ctype != "program":
            self.add(f"{path}.memory_cost", "only programs have a memory cost (3.9.3)")
        if "abilities" in c:
            self.abilities(c, path, ctype)
        self.bool_field(c, "rezzed", path)
        self.bool_field(c, "faceup", path)
        self.bool_field(c, "accessed", path)
        self.bool_field(c, "advanceable", path)
        self.bool_field(c, "reveal_in_rd", path)
        if c.get("advanceable") and ctype not in ("asset", "upgrade", "ice"):
            self.add(f"{path}.advanceable", "only assets, upgrades and ice say they can be advanced (1.18.3)")
        if "subroutines" in c:
            subs = self.bounded_list(c["subroutines"], f"{path}.subroutines", MAX_SUBS, "subroutines")
            if subs is not None:
                for i, s in enumerate(subs):
                    if isinstance(s, list):
                        self.effect_list(s, f"{path}.subroutines[{i}]", "corp")
                    else:
                        self.effect(s, f"{path}.subroutines[{i}]", "corp")
        if "on_access" in c:
            self.effect_list(c["on_access"], f"{path}.on_access", "corp")
        if "triggers" in c:
            self.triggers(c, path, side)
        if "when_empty" in c:
            self.when_empty(c, path, side)
        if "effects" in c:
            self.effect_list(c["effects"], f"{path}.effects", side)
        if "play_if" in c:
            self.play_if(c, path, ctype)
        if "steal_cost" in c and ctype != "agenda":
            self.add(f"{path}.steal_cost", "only agendas have a cost to steal")
        if "agenda_points" in c and ctype != "agenda":
            self.add(f"{path}.agenda_points", "only agendas have agenda points")

    def triggers(self, c: dict, path: str, side: str) -> None:
        """A card's (or the Corp identity's) `triggers`: conditional abilities (engine.triggers)."""
        trs = self.bounded_list(c["triggers"], f"{path}.triggers", MAX_ABILITIES, "triggers")
        for i, tr in enumerate(trs or ()):
            tp = f"{path}.triggers[{i}]"
            if not isinstance(tr, dict) or tr.get("when") not in TRIGGER_WHEN:
                self.add(tp, f"must be an object with 'when' one of {', '.join(TRIGGER_WHEN)} and 'effects'")
                continue
            self.unknown(tr, {"when", "effects", "filter", "optional", "first_each"}, tp)
            self.bool_field(tr, "optional", tp)
            if "first_each" in tr and tr["first_each"] not in FIRST_EACH:
                self.add(f"{tp}.first_each", f"must be one of {', '.join(FIRST_EACH)}")
            if "filter" in tr:
                self.trigger_filter(tr, f"{tp}.filter")
            if "effects" not in tr:
                self.add(f"{tp}.effects", "required")
            else:
                self.effect_list(tr["effects"], f"{tp}.effects", side)

    def when_empty(self, c: dict, path: str, side: str) -> None:
        """A loaded card's "When it is empty, ..." (10.9.1): {"counter": K, "effects": [...]}, met
        when an effect removes the last hosted counter of the loaded type K (engine.effects)."""
        we, wp = c["when_empty"], f"{path}.when_empty"
        if not isinstance(we, dict):
            self.add(wp, f"must be an object {{'counter': {' | '.join(LOAD_COUNTERS)}, 'effects': [...]}}")
            return
        self.unknown(we, {"counter", "effects"}, wp)
        if we.get("counter") not in LOAD_COUNTERS:
            self.add(f"{wp}.counter", f"is required: one of {', '.join(LOAD_COUNTERS)}")
        if "effects" not in we:
            self.add(f"{wp}.effects", "required")
        else:
            self.effect_list(we["effects"], f"{wp}.effects", side)

    def play_if(self, c: dict, path: str, ctype: str | None) -> None:
        """An operation's or event's `play_if`: {condition: value} (PLAY_IF), at least one."""
        pi, pp = c["play_if"], f"{path}.play_if"
        if ctype not in ("operation", "event"):
            self.add(pp, "only operations and events have a play restriction")
        if not isinstance(pi, dict) or not pi:
            self.add(pp, f"must be a non-empty object: {', '.join(PLAY_IF)}")
            return
        self.unknown(pi, set(PLAY_IF), pp)
        for key, kind in PLAY_IF.items():
            if key not in pi:
                continue
            if kind == "bool":
                self.bool_field(pi, key, pp)
            elif kind == "int":
                self.int_field(pi, key, pp)
            elif pi[key] not in LAST_TURN_CONDITIONS:
                self.add(f"{pp}.{key}", f"must be one of {', '.join(LAST_TURN_CONDITIONS)}")

    def additional_cost(self, c: dict, path: str, ctype: str | None) -> None:
        """An operation's or event's `additional_cost` to play it (1.16.10): `clicks` spent and
        `remove_tags` tags removed beside the play action's click and the play cost."""
        ac, ap = c["additional_cost"], f"{path}.additional_cost"
        if ctype not in ("operation", "event"):
            self.add(ap, "only operations and events have an additional cost to play here")
        if not isinstance(ac, dict) or not ac:
            self.add(ap, f"must be a non-empty object: {', '.join(ADDITIONAL_COSTS)}")
            return
        self.unknown(ac, set(ADDITIONAL_COSTS), ap)
        for key in COST_TRASH:
            if key in ac and ctype == "operation":
                self.add(
                    f"{ap}.{key}", "only an event's additional cost trashes the Runner's installed cards"
                )
        for key, hi in ADDITIONAL_COSTS.items():
            self.int_field(ac, key, ap, hi=hi)
            if ac.get(key) == 0:
                self.add(f"{ap}.{key}", "must be at least 1 (omit it instead)")

    def strength_mods(self, c: dict, path: str, ctype: str | None) -> None:
        """Ice `strength_mods`: each {"amount": N (-99..99), and "per" or "while"}."""
        mods = self.bounded_list(c["strength_mods"], f"{path}.strength_mods", MAX_ABILITIES, "modifiers")
        if ctype not in (None, "ice"):
            self.add(f"{path}.strength_mods", "only ice has strength modifiers here")
        for i, m in enumerate(mods or ()):
            mp = f"{path}.strength_mods[{i}]"
            if not isinstance(m, dict):
                self.add(mp, "must be an object {'amount': N, 'per' or 'while': ...}")
                continue
            self.unknown(m, {"amount", "per", "while"}, mp)
            a = m.get("amount")
            if not _is_int(a) or not -MAX_SMALL <= a <= MAX_SMALL:
                self.add(f"{mp}.amount", f"is required: an integer from -{MAX_SMALL} to {MAX_SMALL}")
            if ("per" in m) == ("while" in m):
                self.add(
                    mp,
                    f"needs exactly one of 'per' ({', '.join(STRENGTH_PER)}) or 'while' ({', '.join(STRENGTH_WHILE)})",
                )
            elif "per" in m and m["per"] not in STRENGTH_PER:
                self.add(f"{mp}.per", f"must be one of {', '.join(STRENGTH_PER)}")
            elif "while" in m and m["while"] not in STRENGTH_WHILE:
                self.add(f"{mp}.while", f"must be one of {', '.join(STRENGTH_WHILE)}")

    def break_limit(self, c: dict, path: str, ctype: str | None) -> None:
        """Ice `break_limit`: {"max": N (1..), "except_subtype": a subtype name, "while": ...}."""
        bl, bp = c["break_limit"], f"{path}.break_limit"
        if ctype not in (None, "ice"):
            self.add(bp, "only ice limits how many subroutines are broken")
        if not isinstance(bl, dict):
            self.add(bp, "must be an object {'max': N, 'except_subtype'?: subtype, 'while'?: condition}")
            return
        self.unknown(bl, set(BREAK_LIMIT_FIELDS), bp)
        self.int_field(bl, "max", bp, required=True)
        if bl.get("max") == 0:
            self.add(f"{bp}.max", "must be at least 1")
        self.text_field(bl, "except_subtype", bp, most=40)
        if "while" in bl and bl["while"] not in STRENGTH_WHILE:
            self.add(f"{bp}.while", f"must be one of {', '.join(STRENGTH_WHILE)}")

    def abilities(self, c: dict, path: str, ctype: str | None) -> None:
        abl = self.bounded_list(c["abilities"], f"{path}.abilities", MAX_ABILITIES, "abilities")
        if abl is None:
            return
        corp = ctype in CORP_ABILITY_TYPES
        if not corp and ctype not in ("program", "hardware", "resource"):
            self.add(
                f"{path}.abilities",
                "only installed Runner cards, assets, upgrades and ice have paid abilities in the board vocabulary",
            )
        for i, a in enumerate(abl):
            ap = f"{path}.abilities[{i}]"
            if corp:  # "X[credit], [trash]: effects" on a rezzed Corp card (engine.windows)
                if not isinstance(a, dict) or a.get("kind") not in CORP_ABILITY_KINDS:
                    self.add(
                        ap,
                        "must be an object with 'kind' 'paid', 'trace', 'prevent' or 'click' (a Corp card's ability)",
                    )
                    continue
                if a["kind"] == "prevent":
                    self.prevent_ability(a, ap, CORP_PREVENTS)
                    continue
                self.int_field(a, "cost", ap, hi=MAX_CREDITS)
                self.bool_field(a, "trash", ap)
                if a["kind"] == "trace":
                    self.trace_ability(a, ap)
                    continue
                if a["kind"] == "click":
                    self.unknown(a, {"kind", "cost", "trash", "clicks", "effects", *_CORP_LIMITS}, ap)
                    self.int_field(a, "clicks", ap, hi=3)
                    if a.get("clicks") == 0:
                        self.add(f"{ap}.clicks", "must be at least 1 (an action costs [click], 9.2.7b)")
                else:
                    self.unknown(a, {"kind", "cost", "trash", "effects", *_CORP_LIMITS}, ap)
                self.corp_limits(a, ap)
                if "effects" not in a:
                    self.add(f"{ap}.effects", "required: the ability's instructions")
                else:
                    self.effect_list(a["effects"], f"{ap}.effects", "corp")
                continue
            if not isinstance(a, dict) or a.get("kind") not in ABILITY_KINDS:
                self.add(ap, f"must be an object with 'kind' one of {', '.join(ABILITY_KINDS)}")
                continue
            kind = a["kind"]
            if kind == "text":
                self.unknown(a, {"kind", "text"}, ap)
                self.text_field(a, "text", ap, required=True)
                continue
            if kind == "prevent":
                self.prevent_ability(a, ap, RUNNER_PREVENTS)
                continue
            if kind == "trace":
                self.int_field(a, "cost", ap, hi=MAX_CREDITS)
                self.bool_field(a, "trash", ap)
                self.trace_ability(a, ap)
                continue
            if kind == "paid" and ctype not in RUNNER_PAID_TYPES:
                self.add(ap, f"only {' and '.join(RUNNER_PAID_TYPES)} cards have paid abilities (9.2.7)")
                continue
            if kind in (
                "click",
                "paid",
            ):  # "[click], 1[credit]: Gain 2[credit]." on an installed Runner card (5.2.1)
                self.unknown(
                    a,
                    {
                        "kind",
                        "cost",
                        "trash",
                        "effects",
                        *_CORP_LIMITS,
                        *(("clicks",) if kind == "click" else ()),
                    },
                    ap,
                )
                self.int_field(a, "cost", ap, hi=MAX_CREDITS)
                self.bool_field(a, "trash", ap)
                self.int_field(a, "clicks", ap, hi=3)
                if a.get("clicks") == 0:
                    self.add(f"{ap}.clicks", "must be at least 1 (an action costs [click], 9.2.7b)")
                self.corp_limits(a, ap)
                if "effects" not in a:
                    self.add(f"{ap}.effects", "required: the ability's instructions")
                else:
                    self.effect_list(a["effects"], f"{ap}.effects", "runner")
                continue
            if ctype != "program":
                self.add(ap, f"only programs have {kind} abilities (icebreakers, 3.9.5)")
            if "strength" not in c:
                self.add(ap, f"a {kind!r} ability needs the program's strength (an icebreaker, 3.9.4a)")
            self.int_field(a, "cost", ap, hi=MAX_CREDITS, required=True)
            if "once_per" in a and a["once_per"] not in ONCE_PER:
                self.add(f"{ap}.once_per", f"must be one of {', '.join(ONCE_PER)}")
            self.text_field(a, "only_if", ap)
            self.int_field(a, "threat", ap)
            if kind == "strength":
                self.unknown(a, {"kind", "cost", "amount", "lasts", "counter_cost", *_LIMITS}, ap)
                self.counter_cost(a, ap)
                self.int_field(a, "amount", ap, required=True)
                if "lasts" in a and a["lasts"] not in PUMP_LASTS:
                    self.add(f"{ap}.lasts", f"must be one of {', '.join(PUMP_LASTS)}")
                continue
            self.unknown(a, {"kind", "cost", "count", "up_to", "ice_subtype", "counter_cost", *_LIMITS}, ap)
            self.counter_cost(a, ap)
            self.int_field(a, "count", ap, hi=MAX_SUBS, required=True)
            if a.get("count") == 0:
                self.add(f"{ap}.count", "must be at least 1")
            self.bool_field(a, "up_to", ap)
            self.text_field(a, "ice_subtype", ap, most=40)

    def trigger_filter(self, tr: dict, fp: str) -> None:
        """A trigger's `filter` (engine.triggers.FILTERS): what its condition watches."""
        flt = tr["filter"]
        if not isinstance(flt, dict) or not flt:
            self.add(fp, f"must be a non-empty object: {', '.join(TRIGGER_FILTERS)}")
            return
        for key, val in flt.items():
            allowed = TRIGGER_FILTERS.get(key)
            if allowed is None:
                self.add(f"{fp}.{key}", f"unknown filter (expected {', '.join(TRIGGER_FILTERS)})")
            elif tr["when"] not in allowed:
                self.add(f"{fp}.{key}", f"only a trigger on {', '.join(allowed)} can filter by {key}")
            elif key == "successful":
                self.bool_field(flt, key, fp)
            elif key == "card_type" and val not in FILTER_CARD_TYPES[tr["when"]]:
                self.add(
                    f"{fp}.{key}",
                    f"must be one of {', '.join(FILTER_CARD_TYPES[tr['when']])} on {tr['when']}",
                )
            elif key == "subtype" and not (isinstance(val, str) and 0 < len(val) <= 40):
                self.add(f"{fp}.{key}", "must be a subtype name of 1-40 characters")
            elif key == "server" and not (
                val in ("hq", "rd", "archives", "central", "remote", "this") or REMOTE_RE.match(str(val))
            ):
                self.add(
                    f"{fp}.{key}", "must be hq, rd, archives, remote1..remote99, central, remote or this"
                )

    def prevent_ability(self, a: dict, ap: str, events: tuple[str, ...]) -> None:
        """An interrupt that prevents part of an imminent instruction (engine.prevention): `event`
        one of `events` (a Runner card: damage, tags, trash; a Corp card: expose), `amount`, and
        `damage` (the kind) for damage or `card_types` (what it protects) for trash."""
        self.unknown(
            a, {"kind", "event", "damage", "card_types", "amount", "cost", "trash", "first_each"}, ap
        )
        if "first_each" in a and a["first_each"] not in FIRST_EACH:
            self.add(f"{ap}.first_each", f"must be one of {', '.join(FIRST_EACH)}")
        ev = a.get("event", "damage")
        if ev not in events:
            whose = "a Corp card" if "expose" in events else "a Runner card"
            self.add(f"{ap}.event", f"must be one of {', '.join(events)} on {whose}")
        elif ev == "damage":
            if a.get("damage") not in DAMAGE_KINDS:
                self.add(f"{ap}.damage", f"must be one of {', '.join(DAMAGE_KINDS)}")
        elif "damage" in a:
            self.add(f"{ap}.damage", "only a damage prevention names a kind of damage")
        if "card_types" in a:
            if ev != "trash":
                self.add(f"{ap}.card_types", "only a trash prevention names the card types it protects")
            else:
                self.name_list(a["card_types"], f"{ap}.card_types", ("program", "hardware", "resource"))
        self.int_field(a, "amount", ap, required=True)
        if a.get("amount") == 0:
            self.add(f"{ap}.amount", "must be at least 1")
        self.int_field(a, "cost", ap, hi=MAX_CREDITS)
        self.bool_field(a, "trash", ap)

    def counter_cost(self, a: dict, ap: str) -> None:
        """`counter_cost`: hosted counters the ability's cost removes from its own card,
        {"counter": one of COST_COUNTERS, "amount": N >= 1} (1.16, 1.9.1)."""
        if "counter_cost" not in a:
            return
        cc, cp = a["counter_cost"], f"{ap}.counter_cost"
        if not isinstance(cc, dict):
            self.add(cp, f"must be an object {{'counter': {' | '.join(COST_COUNTERS)}, 'amount': N}}")
            return
        self.unknown(cc, {"counter", "amount"}, cp)
        if cc.get("counter") not in COST_COUNTERS:
            self.add(f"{cp}.counter", f"is required: one of {', '.join(COST_COUNTERS)}")
        self.int_field(cc, "amount", cp, required=True)
        if cc.get("amount") == 0:
            self.add(f"{cp}.amount", "must be at least 1")

    def corp_limits(self, a: dict, ap: str) -> None:
        """A Corp paid / click ability's counter cost and "Once per turn →" flag (9.3.6g)."""
        self.counter_cost(a, ap)
        if "once_per" in a and a["once_per"] not in CORP_ONCE_PER:
            self.add(f"{ap}.once_per", f"must be one of {', '.join(CORP_ONCE_PER)}")

    def trace_ability(self, a: dict, ap: str) -> None:
        """A trace interrupt (9.9.3b, 9.9.6d): `amount` raises the base trace strength, `set`
        makes it that value (Disrupter: 0); exactly one of them."""
        self.unknown(a, {"kind", "cost", "trash", "amount", "set"}, ap)
        if ("amount" in a) == ("set" in a):
            self.add(ap, "a 'trace' ability needs exactly one of 'amount' (raise by N) or 'set' (make it N)")
        self.int_field(a, "amount", ap)
        self.int_field(a, "set", ap)
        if a.get("amount") == 0:
            self.add(f"{ap}.amount", "must be at least 1")

    def trace_bonus(self, c: dict, path: str) -> None:
        tb, tp = c["trace_bonus"], f"{path}.trace_bonus"
        if not isinstance(tb, dict):
            self.add(tp, "must be an object {'amount': N, 'only': 'run_on_server' | 'subroutine'}")
            return
        self.unknown(tb, {"amount", "only"}, tp)
        self.int_field(tb, "amount", tp, required=True)
        if "only" in tb and tb["only"] not in TRACE_BONUS_ONLY:
            self.add(f"{tp}.only", f"must be one of {', '.join(TRACE_BONUS_ONLY)}")

    def zone(self, v: Any, path: str, side: str, where: str = "zone", max_len: int = MAX_ZONE) -> None:
        if _is_int(v):
            if v < 0:
                self.add(path, "must be a non-negative integer or a list of cards")
            elif v > max_len:
                self.add(path, f"at most {max_len} cards")
            return
        for i, c in enumerate(
            self.bounded_list(v, path, max_len, "cards", "a card count or a list of cards") or ()
        ):
            self.card(c, f"{path}[{i}]", side, where)


_BOTH_FIELDS = {
    "credits",
    "clicks",
    "allotted_clicks",
    "hand",
    "deck",
    "discard",
    "score_area",
    "max_hand_size",
    "set_aside",
}
_PLAYER_FIELDS = {
    "corp": _BOTH_FIELDS | {"bad_publicity", "identity"},
    "runner": _BOTH_FIELDS
    | {"tags", "core_damage", "link", "bad_publicity_fund", "memory_limit", "identity", "rig", "last_turn"},
}


def memory_used(rig: dict) -> int:
    """Total memory cost of the installed programs (3.9.3) of a normalised rig."""
    return sum(c.get("memory_cost", 0) for c in rig["programs"])


def _installed_sum(rig: Any, field: str) -> int:
    """The sum of an integer `field` over the installed Runner cards of `rig` (absent: 0)."""
    if not isinstance(rig, dict):
        return 0
    n = 0
    for zone in ("programs", "hardware", "resources"):
        cards = rig.get(zone)
        if isinstance(cards, list):
            n += sum(c[field] for c in cards if isinstance(c, dict) and _is_int(c.get(field)))
    return n


def memory_bonus(rig: Any) -> int:
    """Memory units the installed cards add to the memory limit ("+1[mu]": LilyPAD, 1.20.2):
    the `mu` of each installed (faceup) card."""
    return _installed_sum(rig, "mu")


def hand_size_bonus(rig: Any) -> int:
    """What the installed cards add to the Runner's maximum hand size ("You get +1 maximum hand
    size.": Supercorridor, 1.13.3b): the `hand_size` of each installed card."""
    return _installed_sum(rig, "hand_size")


def memory_limit(runner: dict) -> int:
    """The Runner's memory limit now: the base (`memory_limit`: the identity's, else 4) plus the
    memory installed cards add (`memory_bonus`)."""
    return runner["memory_limit"] + memory_bonus(runner["rig"])


def _check_identity(ck: _Checker, ident: Any) -> None:
    if ident is None:
        return
    if isinstance(ident, str):
        ident = {"name": ident}
    if not isinstance(ident, dict):
        ck.add("runner.identity", "must be an identity name or an object")
        return
    ck.unknown(ident, _IDENTITY_FIELDS, "runner.identity")
    ck.text_field(ident, "name", "runner.identity", most=MAX_NAME, required=True)
    ck.int_field(ident, "base_link", "runner.identity")
    ck.int_field(ident, "memory_limit", "runner.identity")
    ck.text_field(ident, "card_id", "runner.identity", most=MAX_NAME)
    ck.text_field(ident, "text", "runner.identity")
    if "triggers" in ident:
        ck.triggers(ident, "runner.identity", "runner")
    _check_unmodeled(ck, ident, "runner.identity")


def _check_corp_identity(ck: _Checker, ident: Any) -> None:
    if ident is None:
        return
    if isinstance(ident, str):
        ident = {"name": ident}
    if not isinstance(ident, dict):
        ck.add("corp.identity", "must be an identity name or an object")
        return
    path = "corp.identity"
    ck.unknown(ident, _CORP_IDENTITY_FIELDS, path)
    ck.text_field(ident, "name", path, most=MAX_NAME, required=True)
    ck.text_field(ident, "card_id", path, most=MAX_NAME)
    ck.text_field(ident, "text", path)
    ck.int_field(ident, "hand_size", path)
    if "triggers" in ident:
        ck.triggers(ident, path, "corp")
    if "abilities" in ident:
        ck.abilities(ident, path, "asset")  # the Corp card abilities of a rezzed asset
    _check_unmodeled(ck, ident, path)


def _check_unmodeled(ck: _Checker, ident: dict, path: str) -> None:
    """An identity's `unmodeled` paragraphs: at most MAX_UNMODELED texts."""
    if "unmodeled" in ident:
        texts = ck.bounded_list(ident["unmodeled"], f"{path}.unmodeled", MAX_UNMODELED, "paragraphs")
        for i, t in enumerate(texts or ()):
            if not isinstance(t, str) or not t or len(t) > MAX_TEXT:
                ck.add(f"{path}.unmodeled[{i}]", f"must be a text of 1-{MAX_TEXT} characters")


def _memory_limit(p: dict) -> Any:
    """The Runner's memory limit as given: `memory_limit`, else the identity's, else 4 (1.20.2)."""
    ident = p.get("identity")
    from_identity = ident.get("memory_limit") if isinstance(ident, dict) else None
    return p.get("memory_limit", DEFAULT_MEMORY_LIMIT if from_identity is None else from_identity)


def _check_rig(ck: _Checker, p: dict) -> None:
    rig = p.get("rig")
    if rig is None:
        return
    if not isinstance(rig, dict):
        ck.add("runner.rig", f"must be an object with lists {', '.join(RIG_ZONES)}")
        return
    ck.unknown(rig, set(RIG_ZONES), "runner.rig")
    for zone in RIG_ZONES:
        cards = ck.bounded_list(rig.get(zone, []), f"runner.rig.{zone}", MAX_RIG, "cards", "a list of cards")
        for i, c in enumerate(cards or ()):
            ck.card(c, f"runner.rig.{zone}[{i}]", "runner", zone)
    progs = rig.get("programs", [])
    if isinstance(progs, list):
        used = sum(c["memory_cost"] for c in progs if isinstance(c, dict) and _is_int(c.get("memory_cost")))
        limit = _memory_limit(p)
        if _is_int(limit):
            limit += memory_bonus(rig)
        if _is_int(limit) and used > limit:
            ck.add(
                "runner.rig.programs",
                f"installed programs use {used} [mu] but the memory limit is {limit}; "
                "the Runner must trash programs down to the limit (3.9.3c)",
            )


def validate_board(data: Any) -> list[str]:
    """Every problem with a board, each prefixed by its field path; [] when the board is valid."""
    ck = _Checker()
    if not isinstance(data, dict):
        return ["board: must be a JSON object"]
    ck.unknown(data, {"format", "version", "turn", "corp", "runner", "servers"}, "")
    if data.get("format", FORMAT) != FORMAT:
        ck.add("format", f"must be {FORMAT!r}")
    if "version" not in data:
        ck.add("version", f"is required (current board format version is {FORMAT_VERSION})")
    elif not _is_int(data["version"]) or data["version"] not in READ_VERSIONS:
        ck.add(
            "version",
            f"unsupported board format version {data['version']!r} "
            f"(supported: {', '.join(map(str, READ_VERSIONS))}; current {FORMAT_VERSION})",
        )
    if data.get("turn", "runner") not in PLAYERS:
        ck.add("turn", "must be 'corp' or 'runner'")
    for side in PLAYERS:
        p = data.get(side, {})
        if not isinstance(p, dict):
            ck.add(side, "must be an object")
            continue
        ck.unknown(p, _PLAYER_FIELDS[side], side)
        ck.int_field(p, "credits", side, hi=MAX_CREDITS)
        for key in ("clicks", "allotted_clicks", "max_hand_size"):
            ck.int_field(p, key, side)
        if side == "corp":
            ck.int_field(p, "bad_publicity", side)
            _check_corp_identity(ck, p.get("identity"))
        else:
            for key in ("tags", "core_damage", "link"):
                ck.int_field(p, key, side)
            ck.int_field(p, "bad_publicity_fund", side)
            ck.int_field(p, "memory_limit", side)
            _check_identity(ck, p.get("identity"))
            _check_rig(ck, p)
            facts = ck.bounded_list(p.get("last_turn", []), "runner.last_turn", len(LAST_TURN_FACTS), "facts")
            for i, x in enumerate(facts or ()):  # [] says the last turn had none of them
                if x not in LAST_TURN_FACTS:
                    ck.add(f"runner.last_turn[{i}]", f"must be one of {', '.join(LAST_TURN_FACTS)}")
        for zone in ("hand", "deck", "discard", "score_area", "set_aside"):
            if zone in p:
                ck.zone(p[zone], f"{side}.{zone}", side if zone != "score_area" else "corp")
        if isinstance(p.get("score_area"), list):
            for i, c in enumerate(p["score_area"]):
                if isinstance(c, dict) and c.get("type", "agenda") != "agenda":
                    ck.add(f"{side}.score_area[{i}].type", "only agendas can be in a score area")
    servers = data.get("servers", {})
    if not isinstance(servers, dict):
        ck.add("servers", "must be an object mapping server names to servers")
        return ck.problems
    remotes = [k for k in servers if REMOTE_RE.match(str(k))]
    if len(remotes) > MAX_REMOTES:
        ck.add("servers", f"at most {MAX_REMOTES} remote servers")
    for name, srv in servers.items():
        path = f"servers.{name}"
        if name not in CENTRAL and not REMOTE_RE.match(str(name)):
            ck.add(path, "unknown server (expected hq, rd, archives or remote1..remote99)")
            continue
        if not isinstance(srv, dict):
            ck.add(path, "must be an object")
            continue
        allowed = {"ice", "root"} | ({"content"} if name not in CENTRAL else set())
        ck.unknown(srv, allowed, path)
        ice = srv.get("ice", [])
        for i, c in enumerate(
            ck.bounded_list(ice, f"{path}.ice", MAX_ICE, "pieces of ice", "a list of ice, outermost first")
            or ()
        ):
            ck.card(c, f"{path}.ice[{i}]", "corp", "ice")
        root = srv.get("root", [])
        for i, c in enumerate(
            ck.bounded_list(root, f"{path}.root", MAX_ROOT, "upgrades", "a list of upgrades") or ()
        ):
            ck.card(c, f"{path}.root[{i}]", "corp", "root")
        content = srv.get("content")
        if content is not None:
            ck.card(content, f"{path}.content", "corp", "content")
        if name not in CENTRAL and not ice and not root and content is None and isinstance(ice, list):
            ck.add(path, "a remote server with no cards does not exist (10.3.1h); remove it")
    return ck.problems


# ----- normalisation -------------------------------------------------------------------------------


def _norm_filter(flt: dict) -> dict:
    out = dict(flt)
    if "subtype" in out:
        out["subtype"] = out["subtype"].lower()  # as card subtypes are
    return out


def _card(c: Any, default_type: str | None = None) -> dict:
    card = {"name": c} if isinstance(c, str) else dict(c)
    if default_type and "type" not in card:
        card["type"] = default_type
    if "subtypes" in card:
        card["subtypes"] = [st.lower() for st in card["subtypes"]]
    if "abilities" in card:
        card["abilities"] = [_norm_ability(a) for a in card["abilities"]]
    if "triggers" in card:
        card["triggers"] = [
            {
                "when": t["when"],
                "effects": _norm_effects(t["effects"]),
                **({"filter": _norm_filter(t["filter"])} if "filter" in t else {}),
                **({"optional": True} if t.get("optional") else {}),
                **({"first_each": t["first_each"]} if "first_each" in t else {}),
            }
            for t in card["triggers"]
        ]
    if "counters" in card:
        card["counters"] = dict(card["counters"])
    if "when_empty" in card:
        we = card["when_empty"]
        card["when_empty"] = {"counter": we["counter"], "effects": _norm_effects(we["effects"])}
    if card.get("type") == "agenda":
        card.setdefault("agenda_points", 0)
        card.setdefault("advancement_requirement", 0)
    for key in ("subroutines", "on_access", "effects"):
        if key in card:
            card[key] = (
                [_norm_instructions(s) for s in card[key]]
                if key == "subroutines"
                else _norm_effects(card[key])
            )
    return card


def _norm_ability(a: dict) -> dict:
    a = dict(a)
    if a["kind"] in ("paid", "click"):
        a.setdefault("cost", 0)
        a.setdefault("trash", False)
        a["effects"] = _norm_effects(a["effects"])
        if a["kind"] == "click":
            a.setdefault("clicks", 1)
    if a["kind"] in ("prevent", "trace"):
        a.setdefault("cost", 0)
        a.setdefault("trash", False)
    if a["kind"] == "break":
        a.setdefault("up_to", False)
        if "ice_subtype" in a:
            a["ice_subtype"] = a["ice_subtype"].lower()
    return a


def _norm_effect(e: Any) -> dict:
    e = {"effect": e} if isinstance(e, str) else dict(e)
    for key in ("on_success", "on_failure", "effects", "if_successful"):
        if key in e:
            e[key] = _norm_effects(e[key])
    if "options" in e:
        e["options"] = [_norm_effects(o) for o in e["options"]]
    for key in ("card_types", "except_subtypes"):
        if key in e:
            e[key] = [x.lower() for x in e[key]]
    for key, default in EFFECTS.get(e["effect"], {}).get("optional", {}).items():
        e.setdefault(key, default)
    return e


def _norm_effects(v: Any) -> list[dict]:
    if isinstance(v, (str, dict)):
        v = [v]
    return [_norm_effect(e) for e in v]


def normalise_effects(v: Any) -> list[dict]:
    """An effect or a list of effects (validated) in canonical form: objects all the way down."""
    return _norm_effects(v)


def _norm_instructions(s: Any) -> list[dict]:
    """A subroutine is a list of instructions (usually one)."""
    return _norm_effects(s)


def _zone(v: Any, label: str, default_type: str | None = None, faceup: bool | None = None) -> list[dict]:
    if _is_int(v):
        cards = [{"name": f"{label} {i + 1}"} for i in range(v)]
    else:
        cards = [_card(c, default_type) for c in v]
    if faceup is not None:
        for c in cards:
            c.setdefault("faceup", faceup)
    return cards


def normalise_board(data: dict) -> dict:
    """The canonical board for a valid `data` (call `validate_board` first). Returns a new dict."""
    corp_in = data.get("corp", {})
    runner_in = data.get("runner", {})
    corp = {
        "credits": corp_in.get("credits", 5),
        "clicks": corp_in.get("clicks", 0),
        "allotted_clicks": corp_in.get("allotted_clicks", 3),
        "bad_publicity": corp_in.get("bad_publicity", 0),
        "max_hand_size": corp_in.get("max_hand_size", 5),
        "hand": _zone(corp_in.get("hand", 5), "HQ card"),
        "deck": _zone(corp_in.get("deck", 30), "R&D card"),
        "discard": _zone(corp_in.get("discard", []), "Archives card", faceup=False),
        "score_area": _zone(corp_in.get("score_area", []), "Agenda", "agenda"),
        "set_aside": _zone(corp_in.get("set_aside", []), "Set-aside card"),
    }
    if corp_in.get("identity") is not None:  # absent from boards that name none (no key added)
        corp["identity"] = _card(corp_in["identity"])
    ident_in = runner_in.get("identity")
    identity = {"name": ident_in} if isinstance(ident_in, str) else _card(ident_in) if ident_in else None
    rig_in = runner_in.get("rig", {})
    rig = {zone: _zone(rig_in.get(zone, []), zone, RIG_TYPE.get(zone)) for zone in RIG_ZONES}
    for c in rig["programs"]:
        c.setdefault("memory_cost", 0)
    runner = {
        "credits": runner_in.get("credits", 5),
        "clicks": runner_in.get("clicks", 0),
        "allotted_clicks": runner_in.get("allotted_clicks", 4),
        "tags": runner_in.get("tags", 0),
        "core_damage": runner_in.get("core_damage", 0),
        "max_hand_size": runner_in.get("max_hand_size", 5),
        "link": runner_in.get("link", (identity or {}).get("base_link", 0)),
        "memory_limit": _memory_limit(runner_in),
        "identity": identity,
        "rig": rig,
        "bad_publicity_fund": runner_in.get("bad_publicity_fund", 0),
        "hand": _zone(runner_in.get("hand", 5), "Grip card"),
        "deck": _zone(runner_in.get("deck", 30), "Stack card"),
        "discard": _zone(runner_in.get("discard", []), "Heap card"),
        "score_area": _zone(runner_in.get("score_area", []), "Agenda", "agenda"),
        "set_aside": _zone(runner_in.get("set_aside", []), "Set-aside card"),
    }
    if runner_in.get("last_turn"):  # absent from boards that say nothing of it (no key added)
        runner["last_turn"] = list(runner_in["last_turn"])
    for c in corp["score_area"] + runner["score_area"]:
        c.setdefault("agenda_points", 0)
    servers_in = data.get("servers", {})
    servers: dict[str, dict] = {}
    names = list(CENTRAL) + sorted(
        (k for k in servers_in if k not in CENTRAL), key=lambda k: int(REMOTE_RE.match(k).group(1))
    )
    for name in names:
        srv = servers_in.get(name, {})
        s: dict[str, Any] = {
            "ice": [_card(c, "ice") for c in srv.get("ice", [])],
            "root": [_card(c, "upgrade") for c in srv.get("root", [])],
        }
        for ice in s["ice"]:
            ice.setdefault("rezzed", False)
            ice.setdefault("rez_cost", 0)
            ice.setdefault("subroutines", [])
            ice.setdefault("subtypes", [])
            ice.setdefault("strength", 0)
        for up in s["root"]:
            up.setdefault("rezzed", False)
        if name not in CENTRAL:
            content = srv.get("content")
            s["content"] = _card(content) if content is not None else None
            if s["content"] is not None:
                s["content"].setdefault("rezzed", False)
        servers[name] = s
    return {
        "format": FORMAT,
        "version": data.get("version", FORMAT_VERSION),
        "turn": data.get("turn", "runner"),
        "corp": corp,
        "runner": runner,
        "servers": servers,
    }


def implicit_break_shortcut(board: dict) -> bool:
    """Does the (normalised) board follow version 1's rule for the `break_cost` shortcut: offered
    also on ice naming no `break_cost` while the Runner has no icebreaker abilities installed?
    Version 2 offers it only on ice that names a `break_cost` (`READ_VERSIONS`)."""
    return board.get("version", FORMAT_VERSION) < 2


def upgrade_board(data: dict) -> dict:
    """A valid version 1 board rewritten as version 2 when that keeps its meaning exactly, else
    the board as it is (still version 1, which the engine keeps reading). Version 1 offers the
    shortcut on ice naming no `break_cost` while no icebreaker ability is installed: when no
    Runner card anywhere on the board has a `break` or `strength` ability, that is always the
    case, so each such piece of ice gets `"break_cost": 1` (version 1's default); when none lacks
    a `break_cost`, nothing changes but the version. Returns a new dict."""
    if data.get("version") != 1:
        return dict(data)
    lacking = [
        (name, i)
        for name, srv in (data.get("servers") or {}).items()
        for i, ice in enumerate(srv.get("ice", []))
        if isinstance(ice, str) or "break_cost" not in ice
    ]
    if lacking and _runner_has_breaker_ability(data.get("runner") or {}):
        return dict(data)
    out = {**data, "version": FORMAT_VERSION}
    if lacking:
        out["servers"] = {name: dict(srv) for name, srv in data["servers"].items()}
        for name, i in lacking:
            srv = out["servers"][name]
            srv["ice"] = list(srv["ice"])
            ice = srv["ice"][i]
            srv["ice"][i] = (
                {"name": ice, "break_cost": 1} if isinstance(ice, str) else {**ice, "break_cost": 1}
            )
    return out


def _runner_has_breaker_ability(runner: dict) -> bool:
    """Has any Runner card on the board (installed, in the grip, stack, heap or set aside) a
    `break` or `strength` ability: one that could be installed during a session?"""
    zones = [runner.get(z) for z in ("hand", "deck", "discard", "set_aside")]
    zones += list((runner.get("rig") or {}).values())
    for cards in zones:
        for c in cards if isinstance(cards, list) else ():
            if isinstance(c, dict) and any(
                isinstance(a, dict) and a.get("kind") in ("break", "strength") for a in c.get("abilities", ())
            ):
                return True
    return False


def count_cards(board: dict) -> int:
    """Every card on the board (used by the conservation property tests)."""
    n = 0
    for side in PLAYERS:
        p = board[side]
        n += sum(len(p[z]) for z in ("hand", "deck", "discard", "score_area", "set_aside"))
    n += sum(len(cards) for cards in board["runner"]["rig"].values())
    for srv in board["servers"].values():
        n += len(srv["ice"]) + len(srv["root"]) + (1 if srv.get("content") else 0)
    return n
