"""Conditional abilities on cards that meet their trigger condition together, and the reaction
window that resolves them (9.2.8, 9.6): the active player receives priority first and triggers
their pending abilities in the order they choose (9.2.8d); when they have none left the other
player does the same with theirs (9.2.8b). A trigger is mandatory unless it says `optional`
("you may ..."): a player passes only once their mandatory ones are resolved (9.6.9b), and
declines each optional one (`decline:KEY`, 9.6.9a) or triggers it. A card's ability whose condition is not met
never becomes pending: an inactive card (an unrezzed Corp card), or an ability about another
card ("when encountered" on a different piece of ice).

Board vocabulary: `triggers` on a Runner installed card (programs, hardware, resources), an
installed Corp card (active only when rezzed): a list of `{"when": CONDITION,
"effects": [...]}`, effects resolving with the card's controller as controller. Conditions
(`WHEN`), each met at one step:

* `successful_run` (6.9.5a): any active card, when the run is declared successful;
* `encountered` (6.9.3a, 9.6.14a): the encountered ice itself; a Runner card: any encounter;
* `passed` (6.9.4a): the passed ice itself; a Runner card: any ice passed;
* `run_ends` (6.9.6d, 6.8.5): any active card, when the run as a whole is complete;
* `installed` (8.5.15f, 9.6.14b): the Runner card just installed ("when installed" on its
  source; a Corp card is installed unrezzed, so inactive); with a `card_type` filter any active
  card ("whenever you install a program", `watches`);
* `scored` (9.6.14c): the agenda the Corp just scored, in its score area (`scored`); with a
  `card_type` filter any active card ("whenever you score an agenda");
* `trace_initiated` (10.8.6a): any active card, when a trace initiates (Power Tap);
* `accessed` (7.2.1): any active card, whenever the Runner accesses a card ("whenever you
  access a card"); the accessed Corp card's own "when accessed" ability is its `on_access`,
  pending with them;
* `run_begins` (6.9.1c): any active card, when the run formally begins ("whenever a run
  begins"; with a `server` filter, only a run on that server);
* `stolen` (7.2.3): any active card, whenever the Runner steals an agenda; the stolen
  agenda's own `stolen` abilities ("when you steal this agenda") are pending with them;
* `rezzed` (8.1.2e): the Corp card just rezzed in a paid ability window ("When you rez this
  asset, ..."), its own abilities only; they resolve when play returns to the window (`rezzed`);
* `trashed` (7.2.2, 9.1.8b): the Corp card the Runner has just paid to trash while accessing it
  ("When the Runner trashes this asset, ..."), its own abilities only, rezzed or not: they can only
  meet their condition in Archives, so they are active there (engine.access).

Active cards: the Runner's installed cards, rezzed Corp cards and the agendas in the Corp's
score area (4.5.4; the Runner's score area is inactive).

A trigger may name what it watches with `filter` (`engine.board.TRIGGER_FILTERS`): `card_type`
(accessed: "when you access an agenda"; installed, scored: see above), `server` (the server
breached, run on, the trace's run is on, or the agenda is scored from; a server name,
`central` or `remote`), `subtype` (the ice encountered or passed, the card installed) and
`successful` (run_ends: "when a run ... ends successfully"). A filter not met means the
condition is not met: the ability never becomes pending
(rule_condition_requirements_part_of_condition), and an event walked but not applied names it
(`not_met`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .decision import Decision, card_ref
from .machine import Ctx, Frame, call, dec, opponent, wait

WHEN = {
    "successful_run": "when the run is successful",
    "encountered": "when the ice is encountered",
    "passed": "when the ice is passed",
    "run_ends": "when the run ends",
    "installed": "when installed",
    "scored": "when scored",
    "trace_initiated": "when a trace is initiated",
    "accessed": "when a card is accessed",
    "stolen": "when an agenda is stolen",
    "turn_begins": "when its controller's turn begins",
    "turn_ends": "when its controller's turn ends",
    "run_begins": "when a run begins",
    "rezzed": "when rezzed",
    "trashed": "when the Runner trashes it",
}
# conditions met only by the active player's cards ("when your turn begins / ends")
YOURS = ("turn_begins", "turn_ends")
# conditions a Runner card meets for any ice (its text says "whenever you encounter / pass")
ANY_ICE = ("encountered", "passed")
# conditions every active card meets whatever the card they are about ("whenever the Runner
# accesses a card / steals an agenda"); the subject's own abilities are passed as `extra`
ANY_CARD = ("accessed", "stolen")
# conditions about one card that a trigger naming a `card_type` watches on every card (`watches`)
WATCHED = ("installed", "scored")
CENTRALS = ("hq", "rd", "archives")


def facts(ctx: Ctx, f: Frame, when: str, subject: dict | None) -> dict:
    """What a trigger's `filter` is compared with, at the step where `when` is met in frame `f`
    (the run frame, or the access frame: both know their server; a trace, the run it is in)."""
    if when == "trace_initiated":
        run = ctx.run_frame()
        out = {"server": run.v.get("server") if run is not None else None}
    else:
        out = {"server": f.v.get("server")}
    if subject is not None:
        out["card_type"] = subject.get("type")
        out["subtypes"] = subject.get("subtypes", ())
    if when == "run_ends":
        out["successful"] = f.v.get("result") == "successful"
    return out


def _filter_met(flt: dict, known: dict | None, here: str | None = None) -> bool:
    """Does `known` match every field of `flt`? `here`: the server of the card whose trigger it
    is (a `server` filter of "this": "a successful run on this server")."""
    if known is None:
        return False
    for key, want in flt.items():
        if key == "subtype":
            if want not in known.get("subtypes", ()):
                return False
            continue
        have = known.get(key)
        if key == "server" and want == "this":
            if have is None or have != here:
                return False
        elif key == "server" and want in ("central", "remote"):
            if have is None or (have in CENTRALS) != (want == "central"):
                return False
        elif have != want:
            return False
    return True


def meets(tr: dict, known: dict | None) -> bool:
    """Does trigger `tr` (with its optional `filter`) meet its condition given `known`?"""
    return "filter" not in tr or _filter_met(tr["filter"], known)


def watches(when: str, tr: dict) -> bool:
    """Does `tr` watch every card meeting `when`, not only its own card? "Whenever you install a
    program" / "whenever you score an agenda": an `installed` or `scored` trigger naming a
    `card_type` (`WATCHED`); without one it is the card's own "when installed" / "when scored"."""
    return when in WATCHED and "card_type" in tr.get("filter", ())


# the rules each condition is met under (cited when abilities become pending)
MET = {
    "successful_run": ("rule_success_phase",),
    "encountered": ("rule_when_encountered",),
    "passed": ("rule_movement_phase",),
    "run_ends": ("rule_run_ends_condition",),
    "installed": ("rule_steps_installing_installed_condition", "rule_when_installed"),
    "scored": ("rule_when_scored", "rule_score_steal"),
    "trace_initiated": ("rule_trace_attempt_and_base_trace_strength",),
    "accessed": ("rule_accessing",),
    "stolen": ("rule_after_mid_access_agenda", "rule_score_steal"),
    "turn_begins": ("rule_begin_end_turn_step",),
    "turn_ends": ("rule_begin_end_turn_step",),
    "run_begins": ("step_initiation_formal_begin",),
    "rezzed": ("rule_rez_procedure",),
    "trashed": ("rule_access_trash", "rule_ability_active_inactive_source_card"),
}


def instance(side: str, card: dict, tr: dict, key: str) -> dict:
    """One pending instance of a card's trigger `tr`: {"side", "source", "effects", "key"}, and
    "optional" for a "you may" trigger (its owner may decline it, 9.6.9a)."""
    p = {"side": side, "source": card["name"], "effects": tr["effects"], "key": key}
    if tr.get("optional"):
        p["optional"] = True
    return p


def pending(
    b: dict,
    when: str,
    subject: dict | None = None,
    known: dict | None = None,
    unmet: list | None = None,
    earlier: Sequence[dict] = (),
) -> list[dict]:
    """Instances that meet `when` now: [{"side", "source", "effects", "key"}], by card position:
    the Runner's installed cards, rezzed Corp cards, then agendas in the Corp's score area
    (active, 4.5.4). With `subject` (the card the condition is about: the encountered or passed
    ice, the installed card), only its abilities meet it, and a Runner card's for any ice
    (`ANY_ICE`), and a trigger that `watches` every such card. A trigger with a `filter` meets it
    only if the filter matches `known` (`facts`); the keys of those whose filter is not met are
    added to `unmet` if given. A `first_each: "turn"` trigger ("the first time each turn you
    install a program", 9.3.2b) is met only if none of the `earlier` occurrences of `when` this
    turn (their `facts`, `happened`) matched its filter too."""
    out = []
    rig = b["runner"]["rig"]
    any_card = when in ANY_CARD
    any_ice = when in ANY_ICE or any_card

    yours = b["turn"] if when in YOURS else None

    def take(side: str, c: dict, key: str, others: bool, here: str | None = None) -> None:
        if yours is not None and side != yours:
            return
        for t, tr in enumerate(c["triggers"]):
            if tr["when"] != when or (not others and not watches(when, tr)):
                continue
            met = "filter" not in tr or _filter_met(tr["filter"], known, here)
            if met and "first_each" in tr:
                flt = tr.get("filter", {})
                met = not any(_filter_met(flt, k, here) for k in earlier)
            if met:
                out.append(instance(side, c, tr, f"{key}.{t}"))
            elif unmet is not None:
                unmet.append(f"{key}.{t}")

    for zone in ("programs", "hardware", "resources"):
        cards = rig[zone]
        for i, c in enumerate(cards):
            if "triggers" in c:
                take("runner", c, f"{zone}.{card_ref(cards, i)}", subject is None or c is subject or any_ice)
    for name, srv in b["servers"].items():
        for zone in ("ice", "root", "content"):
            cards = srv[zone] if zone != "content" else [srv["content"]] if srv.get("content") else []
            for i, c in enumerate(cards):
                if "triggers" not in c or not c.get("rezzed"):
                    continue
                where = f"{name}.content" if zone == "content" else f"{name}.{zone}.{card_ref(cards, i)}"
                take("corp", c, where, subject is None or c is subject or any_card, name)
    area = b["corp"]["score_area"]
    for i, c in enumerate(area):
        if "triggers" in c:
            take("corp", c, f"score_area.{card_ref(area, i)}", subject is None or c is subject or any_card)
    ident = b["corp"].get("identity")
    if ident and "triggers" in ident:  # the Corp's identity: always active, on no server
        take("corp", ident, identity_key(ident), subject is None or any_card)
    rident = b["runner"].get("identity")
    if rident and "triggers" in rident:  # the Runner's identity: always active (4.6.4a), not installed
        take("runner", rident, identity_key(rident, "runner"), subject is None or any_ice)
    return out


def identity_key(ident: dict, side: str = "corp") -> str:
    """How decision ids name a player's identity: ``corp_identity.CARD`` / ``runner_identity.CARD``
    (`card_ref`)."""
    return f"{side}_identity.{card_ref([ident], 0)}"


def not_met(ctx: Ctx, when: str, unmet: list[str]) -> None:
    """The abilities whose `filter` is not met at this step: walked, not applied (9.6.5c)."""
    if unmet:
        ctx.ev(
            f"Abilities that trigger {WHEN[when]} whose condition is not met here do not become pending: "
            + ", ".join(unmet)
            + ".",
            ("rule_condition_requirements_part_of_condition",),
            applied=False,
            objects={"not_met": list(unmet), "when": when},
        )


def mark(
    ctx: Ctx,
    f: Frame,
    when: str,
    subject: dict | None = None,
    extra: Sequence[dict] = (),
    extra_unmet: Sequence[str] = (),
) -> bool:
    """The abilities meeting `when` now (with `extra`: the subject's own, such as an accessed
    card's `on_access`) become pending in frame `f` (an event lists them), and those whose filter
    is not met (with `extra_unmet`: the subject's own) are reported (`not_met`). False if none
    becomes pending."""
    unmet: list[str] = list(extra_unmet)
    if "triggers" in ctx.s.kinds:
        known = facts(ctx, f, when, subject)
        found = pending(ctx.board, when, subject, known, unmet, happened(ctx, when, known))
    else:
        found = []
    not_met(ctx, when, unmet)
    found += extra
    if not found:
        return False
    f.v["met"] = [ctx.step, when]
    f.v["pending"] = found
    names = ", ".join(f"{p['source']} ({p['side']})" for p in found)
    ctx.ev(
        f"Abilities that trigger {WHEN[when]} become pending: {names}.",
        (*MET[when], "rule_condition_checked_in_checkpoints", "rule_reaction_window"),
        objects={"pending": [p["key"] for p in found], "condition": when},
    )
    return True


def fire(
    ctx: Ctx, f: Frame, d: Decision | None, when: str, subject: dict | None = None, extra: Sequence[dict] = ()
) -> Any:
    """At the step where `when` is met: on the handler's first entry the abilities meeting it
    become pending (`mark`); then the reaction window resolves them (`reaction_window`).
    Returns None once none is left (the handler goes on), else what the window returns. A handler
    calls it last, and skips its own first-entry work while `again` is true (the window is open);
    a decision the handler itself took on its first entry is not the window's."""
    v = f.v
    if not again(ctx, f, when):
        if not extra and "triggers" not in ctx.s.kinds:  # the board has no trigger anywhere
            return None
        if not mark(ctx, f, when, subject, list(extra)):
            return None
        d = None
    res = reaction_window(ctx, f, d, when)
    if res is None:
        del v["met"]
    return res


def scored(ctx: Ctx, f: Frame, agenda: dict, server: str) -> None:
    """The Corp has just scored `agenda` (from `server`) in a paid ability window: its "when
    scored" abilities, and the "whenever ... scores an agenda" abilities of active cards
    (`watches`: the Runner's installed cards, rezzed Corp cards, the agendas in the Corp's score
    area, this one included), become pending (keys `score_area.CARD.N`, ...); the window
    resolves them when play returns to it after the checkpoint (`windows.paw`)."""
    if "triggers" not in ctx.s.kinds:
        return
    unmet: list[str] = []
    known = {"server": server, "card_type": "agenda", "subtypes": agenda.get("subtypes", ())}
    found = pending(ctx.board, "scored", agenda, known, unmet, happened(ctx, "scored", known))
    not_met(ctx, "scored", unmet)
    if found:
        f.v["pending"] = found
        names = ", ".join(f"{p['source']} ({p['side']})" for p in found)
        ctx.ev(
            f"Abilities that trigger {WHEN['scored']} become pending: {names}.",
            (*MET["scored"], "rule_condition_checked_in_checkpoints", "rule_reaction_window"),
            objects={"pending": [p["key"] for p in found], "condition": "scored"},
        )


def rezzed(ctx: Ctx, f: Frame, card: dict) -> None:
    """The Corp has just rezzed `card` in the paid ability window of frame `f`: once its rez cost is
    paid and it is turned faceup it is rezzed for trigger conditions (8.1.2e), so its own "When you
    rez this ..." abilities become pending; the window resolves them when play returns to it
    (`windows.paw`, as "when scored" abilities)."""
    if "triggers" not in card:
        return
    found = pending(ctx.board, "rezzed", card, None)
    if found:
        f.v["pending"] = found
        f.v["pending_when"] = "rezzed"
        names = ", ".join(f"{p['source']} ({p['side']})" for p in found)
        ctx.ev(
            f"Abilities that trigger {WHEN['rezzed']} become pending: {names}.",
            (*MET["rezzed"], "rule_condition_checked_in_checkpoints", "rule_reaction_window"),
            objects={"pending": [p["key"] for p in found], "condition": "rezzed"},
        )


def happened(ctx: Ctx, when: str, known: dict) -> list[dict]:
    """The `facts` of the earlier occurrences of `when` this turn (for "the first time each turn"
    triggers, `first_each`), and this one noted after them: kept in the outermost frame (the
    turn) for every condition met while the board has triggers, whichever cards were in play
    then (a card installed later still knows a program was installed before it). Cleared when
    the turn ends (engine.turns); a session starting mid-turn knows the turn from its start."""
    hist = ctx.s.frames[0].v.setdefault("happened", [])
    earlier = [k for w, k in hist if w == when]
    hist.append([when, {k: list(v) if isinstance(v, tuple) else v for k, v in known.items()}])
    return earlier


def again(ctx: Ctx, f: Frame, when: str) -> bool:
    """Is the handler at this step re-entered while its reaction window for `when` is open (its
    own work already done)?"""
    return f.v.get("met") == [ctx.step, when]


def reaction_window(ctx: Ctx, f: Frame, d: Decision | None, when: str) -> Any:
    """Resolve the pending instances kept in `f.v["pending"]` (set when the condition was met);
    None once none is left."""
    v = f.v
    left = v.get("pending") or []
    if not left:
        v.pop("pending", None)
        v.pop("reacting", None)
        return None
    active = ctx.board["turn"]
    holder = v.get("reacting") or active
    mine = [p for p in left if p["side"] == holder]
    if not mine:
        other = opponent(holder)
        ctx.ev(
            f"The {holder.capitalize()} has no pending ability left and passes: the {other.capitalize()} receives priority.",
            ("rule_reaction_window_priority",),
            objects={"priority": other},
        )
        v["reacting"] = other
        return reaction_window(ctx, f, None, when)
    v["reacting"] = holder
    may = any("optional" in p for p in mine)
    if d is None and (len(mine) > 1 or may):
        offers = [
            dec(f"trigger:{p['key']}", f"Trigger {p['source']}'s ability ({WHEN[when]})", holder)
            for p in mine
        ]
        if may:  # 9.6.9a: an optional ability may stay pending, not triggered
            offers += [
                dec(f"decline:{p['key']}", f"Decline {p['source']}'s optional ability ({WHEN[when]})", holder)
                for p in mine
                if "optional" in p
            ]
        return wait(offers)
    if d is not None and d.kind == "decline":
        pick = next(p for p in mine if f"decline:{p['key']}" == d.id)
        left.remove(pick)
        ctx.ev(
            f"The {holder.capitalize()} declines {pick['source']}'s optional ability ({WHEN[when]}): it does not resolve.",
            ("rule_optional_conditional_ability", "rule_pass_with_optional_conditional_abilities_pending"),
            applied=False,
            objects={"card": pick["source"], "player": holder, "declined": pick["key"]},
        )
        return reaction_window(ctx, f, None, when)
    pick = mine[0] if d is None else next(p for p in mine if f"trigger:{p['key']}" == d.id)
    left.remove(pick)
    rules = ["rule_trigger_conditional_ability", "rule_reaction_window_priority"]
    if len(mine) > 1:
        rules.append("rule_reaction_window_pending_abilities_unordered")
    ctx.ev(
        f"The {holder.capitalize()} triggers {pick['source']}'s pending ability ({WHEN[when]})"
        + (f"; {len(mine) - 1} more of theirs still pending." if len(mine) > 1 else "."),
        rules,
        objects={"card": pick["source"], "player": holder, "trigger": pick["key"]},
    )
    return call(
        "conditional_ability",
        {
            "instructions": pick["effects"],
            "i": 0,
            "controller": holder,
            "source": pick["source"],
            "why": WHEN[when],
            "this_card": pick["key"].rpartition(".")[0],  # "this card" of its effects (effects.this_card)
            **pick.get("vars", {}),
        },
        "stay",
    )
