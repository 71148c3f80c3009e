"""Game logs linked to the rules: which timing step a logged line happened in and which CR rules
it exercises.

An online engine prints a game as lines such as "Corp rezzes Tollbooth protecting HQ at position
0", "Runner uses Corroder to break 1 subroutine on Ice Wall" or "Runner is dealt 2 net damage".
`annotate_lines` reads them in order, keeps the game's timing position as it goes (whose turn, which
phase, the run's phase and the ice in front of the Runner) and gives each line:

- ``event``: what the line reports ("rez", "break_subroutine", ...), or None when no pattern of
  the table below recognises it (the line is *unknown*: nothing is guessed);
- ``step``: the stable id of the timing step the line happens in, when the line and its position
  in the log say it unambiguously (None otherwise: a damage line names its rules but not the step
  its source resolved in unless that source is the encountered ice's subroutine);
- ``rules``: the stable ids of the rules the line exercises;
- ``cards``: the card names the line names (resolved to cards by the caller).

Everything is keyed by CR stable id (the table is written against CR 26.03; each id is checked to
exist there by tests/test_gamelog.py); the caller gives the numbers of the version asked for.
Pure functions over strings: no build, no web code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = ["MAX_LINE", "Annotation", "Timing", "annotate_lines", "player_names", "table_ids"]

MAX_LINE = 1000  # characters in one log line (an engine's line is well under 200)

# ----------------------------------------------------------------------------------------------
# Normalising a line
# ----------------------------------------------------------------------------------------------

_TIMESTAMP = re.compile(r"^\s*(?:\[\d{1,2}:\d{2}(?::\d{2})?\]|\d{1,2}:\d{2}(?::\d{2})?\s*[-–|]?)\s*")
_SYMBOLS = (
    (re.compile(r"\[(?:credits?|c)\]|\{c\}", re.I), "[credit]"),
    (re.compile(r"\[click\]|\{click\}", re.I), "[click]"),
    (re.compile(r"\[(?:subroutine|sub)\]|\{sub\}", re.I), "[subroutine]"),
    (re.compile(r"\[(?:link)\]|\{link\}", re.I), "[link]"),
)
_ACTOR = re.compile(r"^(?:the\s+)?(?P<actor>corp|runner)\b\s*:?\s*", re.I)
_CHAT = re.compile(r"^(?:the\s+)?(?:corp|runner)\s*:\s")  # "Runner: gl hf" is someone talking


def normalise(line: str) -> str:
    """A log line as the patterns read it: no timestamp, one spelling per symbol, single spaces,
    no final full stop."""
    text = _TIMESTAMP.sub("", line)
    for pattern, symbol in _SYMBOLS:
        text = pattern.sub(symbol, text)
    text = " ".join(text.split())
    return text[:-1] if text.endswith(".") else text


# ----------------------------------------------------------------------------------------------
# The game's timing position, as the log tells it
# ----------------------------------------------------------------------------------------------

SERVER = r"(?:HQ|R&D|Archives|Server \d+|remote server \d+|a new remote server|a remote server|the server)"
_SERVER_RE = re.compile(rf"^{SERVER}$", re.I)


@dataclass
class Timing:
    """Where the game is: the active player, their turn's phase, and during a run its phase, the
    attacked server and the ice in the Runner's position."""

    turn: str | None = None  # "corp" | "runner"
    phase: str | None = None  # "draw" | "action" | "discard"
    run: str | None = None  # the attacked server while a run is on
    run_phase: str | None = None  # initiation approach encounter movement continued success breach access
    ice: str | None = None  # the approached or encountered ice
    resolving: bool = False  # the Corp has begun resolving the encountered ice's subroutines
    trace: bool = False
    played: str | None = None  # the event or operation the last action played
    last: str | None = None  # the previous line's event

    def to_dict(self) -> dict:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "run": None
            if self.run is None
            else {"server": self.run, "phase": self.run_phase, "ice": self.ice},
        }

    def end_run(self) -> None:
        self.run = self.run_phase = self.ice = None
        self.resolving = False


_RUN_PAW = {
    "initiation": "step_initiation_paw",
    "approach": "step_approach_paw",
    "encounter": "step_encounter_paw",
    "movement": "step_before_jack_out_paw",
    "continued": "step_after_jack_out_paw",
}
_TURN_PAW = {
    ("corp", "draw"): "step_corp_turn_draw_phase_paw",
    ("corp", "action"): "step_corp_turn_action_phase_paw",
    ("corp", "discard"): "step_corp_turn_discard_phase_paw",
    ("runner", "action"): "step_runner_turn_loop_paw",
    ("runner", "discard"): "step_runner_turn_discard_phase_paw",
}


def _paw(t: Timing) -> str | None:
    """The paid ability window the game is in when nothing else is happening (None during the
    success phase, a breach or an access, which have none, or when the log has not said yet)."""
    if t.run is not None:
        return _RUN_PAW.get(t.run_phase or "")
    return _TURN_PAW.get((t.turn or "", t.phase or ""))


# ----------------------------------------------------------------------------------------------
# The pattern table
# ----------------------------------------------------------------------------------------------


@dataclass
class Annotation:
    """One line read: what it reports, its step and rules (stable ids) and the cards it names."""

    line: int  # 1-based line number in the log
    text: str  # the line as given (stripped)
    event: str | None = None  # None: unknown
    step: str | None = None
    rules: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    timing: dict = field(default_factory=dict)  # the position after the line


Handler = Callable[[re.Match, Timing, str], "tuple[str | None, list[str], list[str]] | None"]


@dataclass(frozen=True)
class Pattern:
    """A kind of line: its regular expression (over the normalised line, actor removed), the
    event it reports, and `read`, which takes the match, the timing position (which it updates)
    and the actor, and returns (step, rules, card names), or None when the line, in this
    position, says too little to link it."""

    event: str
    regex: re.Pattern
    read: Handler
    ids: tuple[str, ...]  # every stable id `read` can return (checked against the CR)


_PATTERNS: list[Pattern] = []
_N = r"(?:\d+|an?|one|two|three|four|five)"
_NUM_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_PAY = r"(?:(?:spends|pays) (?:\[click\])+(?:,? and (?:pays |spends )?\d+ ?\[credit\])?|pays \d+ ?\[credit\]|spends \d+ ?\[credit\])"


def pattern(event: str, regex: str, *ids: str) -> Callable[[Handler], Handler]:
    def register(read: Handler) -> Handler:
        _PATTERNS.append(Pattern(event, re.compile(regex, re.I), read, ids))
        return read

    return register


def _card(name: str | None) -> list[str]:
    """A captured card name ("an unseen card", "a card" and servers are not cards)."""
    if not name:
        return []
    name = name.strip().strip("\"'“”")
    if not name or re.match(
        r"^(?:an? |the |\d+ )?(?:unseen |facedown |unrezzed )?(?:cards?|ice|piece of ice)$", name, re.I
    ):
        return []
    if _SERVER_RE.match(name):
        return []
    return [name]


def _action(t: Timing, actor: str) -> str:
    t.played = None
    t.turn = actor
    t.phase = "action"
    return "step_corp_turn_action" if actor == "corp" else "step_runner_turn_action"


# --- turns ------------------------------------------------------------------------------------


@pattern(
    "turn_begins",
    r"^(?:has )?started (?:their|his|her) turn(?: \d+)?\b|^'?s? turn(?: \d+)? (?:begins|starts)\b",
    "step_corp_turn_turn_formal_begin",
    "step_runner_turn_recurring_formal_begin",
    "rule_turn_begin_trigger_conditions",
)
def _turn_begins(m, t, actor):
    t.end_run()
    t.turn = actor
    t.phase = "draw" if actor == "corp" else "action"
    step = (
        "step_corp_turn_turn_formal_begin" if actor == "corp" else "step_runner_turn_recurring_formal_begin"
    )
    return step, ["rule_turn_begin_trigger_conditions"], []


@pattern(
    "mandatory_draw",
    r"^(?:makes (?:their|his|her) mandatory (?:start of turn )?draw|draws (?:1|a|one) card at the start of (?:their|the) turn|performs (?:their|the) mandatory draw)",
    "step_corp_turn_mandatory_draw",
    "rule_mandatory_draw",
)
def _mandatory_draw(m, t, actor):
    if actor != "corp":
        return None
    t.turn, t.phase = "corp", "draw"
    return "step_corp_turn_mandatory_draw", ["rule_mandatory_draw"], []


@pattern(
    "turn_ends",
    r"^(?:is )?end(?:s|ing) (?:their|his|her) turn\b",
    "step_corp_turn_formal_end",
    "step_runner_turn_formal_end",
    "rule_turn_end_trigger_conditions",
)
def _turn_ends(m, t, actor):
    t.end_run()
    t.turn, t.phase = actor, "discard"
    step = "step_corp_turn_formal_end" if actor == "corp" else "step_runner_turn_formal_end"
    return step, ["rule_turn_end_trigger_conditions"], []


@pattern(
    "discard",
    r"^discards (?P<what>.+?)(?: from (?:HQ|the grip|(?:their|his|her) (?:hand|grip)))?(?: at (?:the )?end of (?:their |the )?turn| to (?:reach )?(?:their )?(?:maximum )?hand size)",
    "step_corp_turn_discard",
    "step_runner_turn_discard",
    "rule_discard_step",
    "rule_max_hand_size",
)
def _discard(m, t, actor):
    t.end_run()
    t.turn, t.phase = actor, "discard"
    step = "step_corp_turn_discard" if actor == "corp" else "step_runner_turn_discard"
    return step, ["rule_discard_step", "rule_max_hand_size"], _card(re.sub(r"^\d+ cards?$", "", m["what"]))


# --- basic actions ----------------------------------------------------------------------------


@pattern(
    "gain_credit_action",
    rf"^{_PAY} to gain (?:1|a|one) ?\[credit\]$",
    "step_corp_turn_action",
    "step_runner_turn_action",
    "rule_corp_basic_action_credit",
    "runner_basic_action_credit",
)
def _credit_action(m, t, actor):
    rule = "rule_corp_basic_action_credit" if actor == "corp" else "runner_basic_action_credit"
    return _action(t, actor), [rule], []


@pattern(
    "draw_action",
    rf"^{_PAY} to draw (?:1|a|one) card$",
    "rule_corp_basic_action_draw",
    "runner_basic_action_card",
)
def _draw_action(m, t, actor):
    rule = "rule_corp_basic_action_draw" if actor == "corp" else "runner_basic_action_card"
    return _action(t, actor), [rule], []


@pattern(
    "install_ice_action",
    rf"^{_PAY} to install (?:(?P<card>.+?) )?(?:ice )?protecting (?P<server>.+?)(?: at position \d+)?$",
    "rule_corp_basic_action_install",
    "rule_ice_outermost_position",
    "rule_install_cost_link",
)
def _install_ice(m, t, actor):
    if actor != "corp":
        return None
    card = m["card"] or ""
    card = re.sub(r"^(?:an? )?(?:unseen |facedown )?(?:card|ice|piece of ice)$", "", card, flags=re.I)
    return (
        _action(t, actor),
        ["rule_corp_basic_action_install", "rule_ice_outermost_position", "rule_install_cost_link"],
        _card(card),
    )


@pattern(
    "install_action",
    rf"^{_PAY} to install (?P<card>.+?)(?: (?:in|into|on) (?:the root of )?(?P<server>{SERVER}|.+?))?$",
    "rule_corp_basic_action_install",
    "rule_corp_cards_default_install",
    "runner_basic_action_install",
    "rule_runner_cards_default_install",
)
def _install(m, t, actor):
    if actor == "corp":
        rules = ["rule_corp_basic_action_install", "rule_corp_cards_default_install"]
    else:
        rules = ["runner_basic_action_install", "rule_runner_cards_default_install"]
    return _action(t, actor), rules, _card(m["card"])


@pattern(
    "play_action",
    rf"^{_PAY} to play (?P<card>.+)$",
    "rule_corp_basic_action_operation",
    "runner_basic_action_event",
    "rule_playing",
)
def _play(m, t, actor):
    rule = "rule_corp_basic_action_operation" if actor == "corp" else "runner_basic_action_event"
    step = _action(t, actor)
    t.played = m["card"]
    return step, [rule, "rule_playing"], _card(m["card"])


@pattern(
    "advance_action",
    rf"^{_PAY} to advance (?P<card>.+?)(?: (?:in|on) (?P<server>{SERVER}))?$",
    "corp_basic_action_advance",
    "rule_advance",
)
def _advance(m, t, actor):
    if actor != "corp":
        return None
    return _action(t, actor), ["corp_basic_action_advance", "rule_advance"], _card(m["card"])


@pattern(
    "purge_action",
    rf"^{_PAY} to purge (?:all )?virus counters$",
    "corp_basic_action_purge_virus_counters",
    "rule_purge",
)
def _purge(m, t, actor):
    if actor != "corp":
        return None
    return _action(t, actor), ["corp_basic_action_purge_virus_counters", "rule_purge"], []


@pattern(
    "remove_tag_action",
    rf"^{_PAY} to remove (?:1|a|one) tag$",
    "runner_basic_action_remove_tag",
    "rule_tagged_remove_tag",
)
def _remove_tag(m, t, actor):
    if actor != "runner":
        return None
    return _action(t, actor), ["runner_basic_action_remove_tag", "rule_tagged_remove_tag"], []


@pattern(
    "trash_resource_action",
    rf"^{_PAY} to trash (?P<card>.+)$",
    "corp_basic_action_trash_resource",
    "rule_tagged_trash_resource",
)
def _trash_resource(m, t, actor):
    if actor != "corp" or t.run is not None or "[click]" not in m.group(0):
        return None
    return (
        _action(t, actor),
        ["corp_basic_action_trash_resource", "rule_tagged_trash_resource"],
        _card(m["card"]),
    )


@pattern(
    "run_action",
    rf"^(?:{_PAY} to )?(?:make|makes|initiates?|starts?) a run on (?P<server>.+)$",
    "runner_basic_action_run",
    "step_initiation_announce",
    "rule_announce_attacked_server",
)
def _run(m, t, actor):
    if actor != "runner":
        return None
    clicked = "[click]" in m.group(0)
    t.turn, t.phase = "runner", "action"
    t.end_run()
    t.run, t.run_phase = m["server"], "initiation"
    rules = ["rule_announce_attacked_server"]
    if clicked:
        rules.insert(0, "runner_basic_action_run")
    return "step_initiation_announce", rules, []


@pattern(
    "click_ability",
    rf"^{_PAY} to use (?P<card>.+?)(?: to .*)?$",
    "rule_action_definition",
)
def _click_ability(m, t, actor):
    if "[click]" not in m.group(0):
        return None
    return _action(t, actor), ["rule_action_definition"], _card(m["card"])


# --- the run ----------------------------------------------------------------------------------


@pattern(
    "approach_server",
    rf"^approaches (?P<server>{SERVER})$",
    "step_approach_server",
    "rule_approach_server",
)
def _approach_server(m, t, actor):
    if actor != "runner" or t.run is None:
        return None
    t.run_phase, t.ice = "success", None
    return "step_approach_server", ["rule_approach_server"], []


@pattern(
    "approach_ice",
    r"^approaches (?P<ice>.+?)(?: protecting (?P<server>.+?))?(?: at position \d+)?$",
    "step_approach_begins",
    "rule_approach_ice_phase",
)
def _approach_ice(m, t, actor):
    if actor != "runner" or _SERVER_RE.match(m["ice"]):
        return None
    t.run = t.run or (m["server"] or None)
    t.run_phase, t.ice, t.resolving = "approach", m["ice"], False
    return "step_approach_begins", ["rule_approach_ice_phase"], _card(m["ice"])


@pattern(
    "rez",
    rf"^(?:{_PAY} to rez |(?:rezzes|rezes|rezzed) )(?P<card>.+?)(?: protecting (?P<server>.+?))?(?: (?:in|at) (?:the root of )?(?:position \d+|"
    + SERVER
    + r"))?$",
    "step_approach_paw",
    "rule_rez_ice_restriction",
    "rule_rez_in_paw",
    "rule_rez_procedure",
)
def _rez(m, t, actor):
    if actor != "corp":
        return None
    card = m["card"]
    ice = bool(m["server"]) or (t.run_phase == "approach" and t.ice is not None and card == t.ice)
    if ice:
        step = "step_approach_paw" if t.run_phase == "approach" else None
        return step, ["rule_rez_ice_restriction", "rule_rez_procedure"], _card(card)
    return _paw(t), ["rule_rez_in_paw", "rule_rez_procedure"], _card(card)


@pattern(
    "encounter",
    r"^encounters (?P<ice>.+?)(?: protecting (?P<server>.+?))?(?: at position \d+)?$",
    "step_encounter_begins",
    "rule_encounter_ice_phase",
)
def _encounter(m, t, actor):
    if actor != "runner":
        return None
    t.run = t.run or (m["server"] or None)
    t.run_phase, t.ice, t.resolving = "encounter", m["ice"], False
    return "step_encounter_begins", ["rule_encounter_ice_phase"], _card(m["ice"])


@pattern(
    "break_subroutine",
    rf"^(?:{_PAY} to )?uses? (?P<breaker>.+?) to break (?:(?P<n>{_N}|all(?: but \d+)?) )?(?:unbroken )?subroutines?(?: on (?P<ice>.+?))?(?: \(.*\))?$",
    "step_encounter_paw",
    "rule_break_subroutine",
    "rule_icebreaker_interface_during_encounter",
)
def _break(m, t, actor):
    if actor != "runner":
        return None
    ice = m["ice"] or t.ice
    if t.run is not None:
        t.run_phase, t.ice = "encounter", ice
    return (
        "step_encounter_paw",
        ["rule_break_subroutine", "rule_icebreaker_interface_during_encounter"],
        _card(m["breaker"]) + _card(ice),
    )


@pattern(
    "pump",
    rf"^(?:{_PAY} to )?uses? (?P<breaker>.+?) to (?:add|gain|increase|boost|pump|match)\b.*\bstrength\b",
    "rule_icebreaker_strength_increase_implicit",
    "rule_paid_ability",
)
def _pump(m, t, actor):
    if actor != "runner":
        return None
    return (
        _paw(t) if t.run is not None else None,
        ["rule_icebreaker_strength_increase_implicit", "rule_paid_ability"],
        _card(m["breaker"]),
    )


@pattern(
    "resolve_subroutines",
    rf"^resolves? (?:(?:{_N}|all|the) )?(?:unbroken )?subroutines?(?: on (?P<ice>.+?))?(?: \(.*\))?$",
    "step_resolve_subroutine",
    "rule_resolve_unbroken_subroutines",
)
def _resolve(m, t, actor):
    if actor != "corp":
        return None
    ice = m["ice"] or t.ice
    t.resolving = True
    if t.run is not None:
        t.run_phase, t.ice = "encounter", ice
    return "step_resolve_subroutine", ["rule_resolve_unbroken_subroutines"], _card(ice)


@pattern(
    "end_the_run",
    r"^(?:uses (?P<card>.+?) to )?ends? the run$",
    "step_resolve_subroutine",
    "rule_end_the_run",
)
def _end_run(m, t, actor):
    card = m["card"]
    step = None
    if t.run_phase == "encounter" and card and card == t.ice and t.resolving:
        step = "step_resolve_subroutine"
    if t.run is not None:
        t.end_run()
    return step, ["rule_end_the_run"], _card(card)


@pattern(
    "pass_ice",
    r"^passes (?P<ice>.+?)(?: protecting (?P<server>.+?))?(?: at position \d+)?$",
    "step_pass_ice",
    "rule_pass_ice",
)
def _pass(m, t, actor):
    if actor != "runner":
        return None
    t.run_phase, t.resolving = "movement", False
    return "step_pass_ice", ["rule_pass_ice"], _card(m["ice"])


@pattern(
    "continue_run",
    r"^(?:will continue|continues|decides to continue|chooses to continue|does not jack out and continues)(?: the run)?(?: on .+)?$",
    "step_jack_out_choice",
    "rule_runner_continues",
)
def _continue(m, t, actor):
    if actor != "runner":
        return None
    t.run_phase = "continued"
    return "step_jack_out_choice", ["rule_runner_continues"], []


@pattern("jack_out", r"^(?:jacks|jacked|chooses to jack|decides to jack) out$", "rule_jacking_out")
def _jack_out(m, t, actor):
    if actor != "runner":
        return None
    t.end_run()
    return "step_jack_out_choice", ["rule_jacking_out"], []


@pattern(
    "run_successful",
    r"^(?:'?s? )?(?:run on (?P<server>.+?) (?:is|was) (?:declared )?successful|makes a successful run on (?P<server2>.+))$",
    "step_run_declared_successful",
    "rule_successful_run",
)
def _successful(m, t, actor):
    t.run_phase = "success"
    return "step_run_declared_successful", ["rule_successful_run"], []


@pattern(
    "breach",
    rf"^breach(?:es|ed)? (?P<server>{SERVER})$",
    "step_breach",
    "rule_breaching_servers",
)
def _breach(m, t, actor):
    if actor != "runner":
        return None
    t.run_phase = "breach"
    return "step_breach", ["rule_breaching_servers"], []


@pattern(
    "access",
    r"^accesse[sd] (?P<card>.+?)(?: (?:from|in) (?:the root of )?(?P<server>" + SERVER + r"))?(?: \(.*\))?$",
    "step_card_accessed",
    "rule_accessing",
    "step_access_candidate",
)
def _access(m, t, actor):
    if actor != "runner":
        return None
    rules = ["rule_accessing"]
    if t.run_phase in ("breach", "access"):
        rules.append("step_access_candidate")
    t.run_phase = "access"
    return "step_card_accessed", rules, _card(m["card"])


@pattern(
    "steal",
    r"^steals (?P<card>.+?)(?: and gains \d+ agenda points?)?(?: \(.*\))?$",
    "step_access_agenda",
    "rule_after_mid_access_agenda",
    "rule_score_steal",
)
def _steal(m, t, actor):
    if actor != "runner":
        return None
    return "step_access_agenda", ["rule_after_mid_access_agenda", "rule_score_steal"], _card(m["card"])


@pattern(
    "trash_accessed",
    r"^pays \d+ ?\[credit\] to trash (?P<card>.+?)(?: from (?:the root of )?(?P<server>" + SERVER + r"))?$",
    "step_mid_access_ability",
    "rule_basic_trash_ability",
)
def _trash_accessed(m, t, actor):
    if actor != "runner":
        return None
    step = "step_mid_access_ability" if t.run_phase == "access" else None
    return step, ["rule_basic_trash_ability"], _card(m["card"])


@pattern(
    "run_ends",
    r"^(?:'?s? )?run(?: on (?P<server>.+?))? (?:ends|ended|is over|is unsuccessful|was unsuccessful)$",
    "step_run_complete",
    "step_run_declared_unsuccessful",
    "rule_unsuccessful_run",
)
def _run_ends(m, t, actor):
    unsuccessful = "unsuccessful" in m.group(0).lower()
    reached = t.run_phase in ("success", "breach", "access")
    t.end_run()
    if unsuccessful:
        return "step_run_declared_unsuccessful", ["rule_unsuccessful_run"], []
    return "step_run_complete", [] if reached else ["rule_unsuccessful_run"], []


# --- damage, tags, traces, scoring ------------------------------------------------------------

_DAMAGE_RULE = {"net": "rule_meat_net_damage", "meat": "rule_meat_net_damage", "core": "rule_core_damage"}


@pattern(
    "damage",
    rf"\b(?:is dealt|suffers|takes|does|deals|do|deal|inflicts?)(?: the runner)?(?: (?P<n>{_N}))? (?P<kind>net|meat|core|brain) damage\b",
    "rule_suffer_or_take_damage",
    "rule_meat_net_damage",
    "rule_core_damage",
    "step_resolve_subroutine",
)
def _damage(m, t, actor):
    kind = m["kind"].lower()
    rules = ["rule_suffer_or_take_damage", _DAMAGE_RULE.get(kind, "rule_core_damage")]
    return _source_step(m, t), rules, _used_card(m)


@pattern(
    "damage_trash",
    r"^trashes (?P<cards>.+?) (?:due to|as a result of|from) (?P<kind>net|meat|core|brain) damage$",
    "rule_meat_net_damage",
    "rule_core_damage",
)
def _damage_trash(m, t, actor):
    if actor != "runner":
        return None
    kind = m["kind"].lower()
    names = [n for part in re.split(r",\s*|\s+and\s+", m["cards"]) for n in _card(part)]
    return None, [_DAMAGE_RULE.get(kind, "rule_core_damage")], names


@pattern(
    "tag",
    rf"(?:takes|gains|receives|is given|gives? the runner|(?:^|\s)tags the runner with)(?: (?P<n>{_N}))? tags?\b",
    "rule_tag",
)
def _tag(m, t, actor):
    return _source_step(m, t), ["rule_tag"], _used_card(m)


@pattern(
    "trace_initiated",
    r"(?:initiates? a trace(?: with (?:a )?(?:base )?(?:trace )?strength (?:of )?\d+)?|trace \d+ (?:is )?initiated|^trace(?: \[?\d+\]?)? initiated)",
    "step_trace_initiated",
    "rule_trace_attempt_and_base_trace_strength",
)
def _trace(m, t, actor):
    t.trace = True
    return "step_trace_initiated", ["rule_trace_attempt_and_base_trace_strength"], _used_card(m)


@pattern(
    "trace_corp",
    r"^spends \d+ ?\[credit\] to (?:increase|boost) (?:the )?trace strength(?: to \d+)?$",
    "step_trace_corp_spend_credits",
    "rule_trace_strength",
)
def _trace_corp(m, t, actor):
    if actor != "corp":
        return None
    return "step_trace_corp_spend_credits", ["rule_trace_strength"], []


@pattern(
    "trace_runner",
    r"^spends \d+ ?\[credit\] to (?:increase|boost) (?:(?:their|the|his|her) )?link strength(?: to \d+)?$",
    "step_trace_runner_spend_credits",
    "rule_link_strength",
)
def _trace_runner(m, t, actor):
    if actor != "runner":
        return None
    return "step_trace_runner_spend_credits", ["rule_link_strength"], []


@pattern(
    "trace_result",
    r"(?:^|\s)(?:the )?trace (?:is|was) (?:successful|unsuccessful)$",
    "step_trace_determine_success",
    "rule_compare_trace_and_link_strength",
)
def _trace_result(m, t, actor):
    t.trace = False
    return "step_trace_determine_success", ["rule_compare_trace_and_link_strength"], []


@pattern(
    "score",
    r"^scores (?P<card>.+?)(?: and gains \d+ agenda points?)?(?: \(.*\))?$",
    "step_corp_turn_action_phase_paw",
    "rule_score_steal",
    "rule_score_not_an_action",
)
def _score(m, t, actor):
    if actor != "corp":
        return None
    return _paw(t), ["rule_score_steal", "rule_score_not_an_action"], _card(m["card"])


@pattern(
    "bad_publicity",
    rf"(?:takes|gains|receives)(?: (?P<n>{_N}))? bad publicity\b",
    "rule_bad_publicity",
)
def _bad_publicity(m, t, actor):
    return None, ["rule_bad_publicity"], _used_card(m)


@pattern("purge", r"^purges (?:all )?virus counters$", "rule_purge")
def _purge_effect(m, t, actor):
    return None, ["rule_purge"], []


@pattern(
    "trash",
    r"^trashes (?P<card>.+?)(?: (?:from|in) (?:the root of )?(?P<server>" + SERVER + r"))?$",
    "rule_trashing",
)
def _trash(m, t, actor):
    return None, ["rule_trashing"], _card(m["card"])


@pattern(
    "play_ability",
    r"^uses (?P<card>.+?) to (?P<what>.+)$",
    "rule_steps_playing_resolve_play_abilities",
)
def _play_ability(m, t, actor):
    """The card the last action played resolving its play abilities (within that action)."""
    if t.played is None or m["card"].casefold() != t.played.casefold() or t.run is not None:
        return None
    step = "step_corp_turn_action" if actor == "corp" else "step_runner_turn_action"
    return step, ["rule_steps_playing_resolve_play_abilities"], _card(m["card"])


@pattern(
    "encounter_ability",
    r"^uses (?P<card>.+?) to (?P<what>.+)$",
    "step_encounter_begins",
    "rule_encounter_condition",
    "step_resolve_subroutine",
    "rule_resolve_unbroken_subroutines",
)
def _ice_ability(m, t, actor):
    """A Corp ability of the encountered ice: a subroutine once the Corp resolves them, an
    encounter trigger right after the encounter begins; anything else is unknown."""
    if actor != "corp" or t.run_phase != "encounter" or m["card"] != t.ice:
        return None
    if t.resolving:
        return "step_resolve_subroutine", ["rule_resolve_unbroken_subroutines"], _card(m["card"])
    if t.last == "encounter":
        return "step_encounter_begins", ["rule_encounter_condition"], _card(m["card"])
    return None


_USES = re.compile(r"\buses? (?P<card>.+?) to ", re.I)


def _used_card(m: re.Match) -> list[str]:
    """The card a line says was used ("Corp uses Neural Katana to do 3 net damage")."""
    found = _USES.search(m.string)
    return _card(found["card"]) if found else []


def _source_step(m: re.Match, t: Timing) -> str | None:
    """The step of an effect whose source is the encountered ice's subroutine, else None."""
    used = _used_card(m)
    if t.run_phase == "encounter" and t.resolving and (not used or used == [t.ice]):
        return "step_resolve_subroutine"
    return None


# ----------------------------------------------------------------------------------------------
# Reading a log
# ----------------------------------------------------------------------------------------------

_USES_CARD = re.compile(r"^(?:(?:spends|pays) .*? to )?uses? (?P<card>.+?) to ", re.I)


def player_names(corp: str | None = None, runner: str | None = None) -> Callable[[str], str]:
    """A function that writes a line's leading player name ("alice spends [click]...", as engines
    that name players by their user names print it) as "Corp" or "Runner"."""
    names = {
        n.strip().casefold(): side for n, side in ((corp, "Corp"), (runner, "Runner")) if n and n.strip()
    }
    if not names:
        return lambda body: body
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    lead = re.compile(rf"^\[?(?P<name>{alternatives})\]?(?=[\s:']|$)", re.I)

    def rename(body: str) -> str:
        m = lead.match(body)
        return body if m is None else names[m["name"].casefold()] + body[m.end() :]

    return rename


def annotate_lines(
    lines: Iterable[str], corp: str | None = None, runner: str | None = None
) -> list[Annotation]:
    """Each non-blank line of a log, annotated in order (line numbers count blank lines too).
    `corp` and `runner`: the players' names, when the log names them rather than their sides."""
    timing = Timing()
    rename = player_names(corp, runner)
    out: list[Annotation] = []
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        note = Annotation(number, text)
        body = rename(normalise(text))
        actor_match = _ACTOR.match(body)
        if actor_match and not _CHAT.match(body):
            actor = actor_match["actor"].lower()
            rest = body[actor_match.end() :]
            for p in _PATTERNS:
                m = p.regex.search(rest)
                if m is None:
                    continue
                read = p.read(m, timing, actor)
                if read is None:
                    continue
                note.event = p.event
                note.step, note.rules, note.cards = read[0], list(read[1]), list(read[2])
                break
            if note.event is None:
                used = _USES_CARD.match(rest)  # unknown, but the card it names can be linked
                note.cards = _card(used["card"]) if used else []
        elif not _CHAT.match(body):
            for p in _PATTERNS:  # lines without an actor: "Trace 3 initiated", "The run ends"
                if p.event not in ("trace_initiated", "trace_result", "run_ends", "run_successful"):
                    continue
                m = p.regex.search(re.sub(r"^the\s+", "", body, flags=re.I))
                if m is not None and (read := p.read(m, timing, "")) is not None:
                    note.event = p.event
                    note.step, note.rules, note.cards = read[0], list(read[1]), list(read[2])
                    break
        timing.last = note.event
        note.timing = timing.to_dict()
        out.append(note)
    return out


def table_ids() -> set[str]:
    """Every stable id the pattern table can give (each must exist in the CR it is written for)."""
    return {i for p in _PATTERNS for i in p.ids} | set(_RUN_PAW.values()) | set(_TURN_PAW.values())
