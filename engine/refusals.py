"""Why a decision is not legal now, citing the rule: `refused(session)` lists the obvious
alternatives the current step does not offer, each with its reason and the rule's stable id;
`why_illegal` explains a refused decision id (IllegalDecision's message)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from . import recurring, rig
from .board import memory_limit
from .decision import Decision, card_ref, find_card
from .locations import advanceable, corp_ability_cards, get_card
from .turns import play_blocked
from .windows import corp_ability_blocked, corp_used, runner_click_ability_ids

if TYPE_CHECKING:
    from .session import Session


@dataclass(frozen=True, slots=True)
class Refusal:
    """A decision a player might look for that is not legal now."""

    id: str  # the decision id it would have
    player: str
    reason: str  # plain English
    rule: str  # stable id of the rule that refuses it

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _spendable(b: dict, side: str) -> int:
    p = b[side]
    return (
        p["credits"]
        + (p.get("bad_publicity_fund", 0) if side == "runner" else 0)
        + recurring.hosted_credits(b, side)
    )


def _run(s: Session) -> dict | None:
    for f in reversed(s.frames):
        if f.s == "run":
            return f.v
    return None


def _credits(b: dict, side: str) -> int:
    """Credits a player can pay an action or a rez with: the pool and hosted recurring credits."""
    return b[side]["credits"] + recurring.hosted_credits(b, side)


def _corp_actions(b: dict, used: Collection[str] = ()) -> list[Refusal]:
    out = []
    corp, runner = b["corp"], b["runner"]
    credits = _credits(b, "corp")
    hand = corp["hand"]
    for i, c in enumerate(hand):
        if c.get("type") != "ice":
            continue
        for name, srv in b["servers"].items():
            cost = len(srv["ice"])
            if cost > credits:
                out.append(
                    Refusal(
                        f"install:{card_ref(hand, i)}@{name}",
                        "corp",
                        f"installing {c['name']} protecting {name} costs {cost} credits (1 per ice already "
                        f"protecting it); the Corp has {credits}",
                        "rule_install_cost_ice",
                    )
                )
    if credits < 1:
        for name, srv in b["servers"].items():
            c = srv.get("content")
            if advanceable(c):
                out.append(
                    Refusal(
                        f"advance:{name}",
                        "corp",
                        f"advancing {c['name']} costs 1 credit; the Corp has none",
                        "corp_basic_action_advance",
                    )
                )
    out += _corp_click_abilities(b, credits, used)
    for i, c in enumerate(hand):  # operations the Corp cannot play now, and why (turns.play_blocked)
        why = play_blocked(b, "corp", c, credits) if c.get("type") == "operation" else None
        if why is not None:
            out.append(Refusal(f"play:{card_ref(hand, i)}", "corp", why[0], why[1]))
    if corp["clicks"] < 3:
        out.append(
            Refusal(
                "purge",
                "corp",
                f"purging virus counters costs [click][click][click]; the Corp has {corp['clicks']} [click] left",
                "corp_basic_action_purge_virus_counters",
            )
        )
    resources = runner["rig"]["resources"]
    for i, c in enumerate(resources):
        if not runner["tags"]:
            why, rule = (
                f"the Runner is not tagged, so {c['name']} cannot be trashed",
                "corp_basic_action_trash_resource",
            )
        elif _credits(b, "corp") < 2:
            why, rule = (
                f"trashing a resource costs 2 credits; the Corp has {_credits(b, 'corp')}",
                "rule_cost",
            )
        else:
            continue
        out.append(Refusal(f"trash_resource:{card_ref(resources, i)}", "corp", why, rule))
    for name, srv in b["servers"].items():
        c = srv.get("content")
        if c and c.get("type") == "agenda":
            adv, req = c.get("advancements", 0), c.get("advancement_requirement", 0)
            if adv < req:
                out.append(
                    Refusal(
                        f"score:{name}",
                        "corp",
                        f"{c['name']} has {adv} of the {req} advancement counters it needs to be scored",
                        "rule_advancement_requirement",
                    )
                )
            else:
                out.append(
                    Refusal(
                        f"score:{name}",
                        "corp",
                        "scoring is not an action: the Corp scores in a paid ability window with (S)",
                        "rule_score_not_an_action",
                    )
                )
    return out


def _corp_click_abilities(b: dict, credits: int, used: Collection[str] = ()) -> list[Refusal]:
    """[click] abilities on installed Corp cards that the action window does not offer, and why:
    the same test as the offer (`windows.corp_ability_blocked`): the card is unrezzed (inactive,
    1.8.3c), the Corp lacks the clicks, credits or hosted counters (1.16), or a once-per-turn
    ability was already used this turn (9.3.6g)."""
    out = []
    clicks = b["corp"]["clicks"]
    for where, c in corp_ability_cards(b, rezzed_only=False):
        for a, ab in enumerate(c["abilities"]):
            if ab["kind"] != "click":
                continue
            aid = f"ability:{where}.{a}"
            why = corp_ability_blocked(c, ab, clicks, credits, aid in used)
            if why is not None:
                out.append(Refusal(aid, "corp", why[0], why[1]))
    return out


def _runner_actions(b: dict, used: Collection[str] = ()) -> list[Refusal]:
    out = []
    r = b["runner"]
    for aid, c, ab in runner_click_ability_ids(b):  # the same test as the offer (5.2.1, 1.16, 9.3.6g)
        why = corp_ability_blocked(c, ab, r["clicks"], _credits(b, "runner"), aid in used, "runner")
        if why is not None:
            out.append(Refusal(aid, "runner", why[0], why[1]))

    if not r["tags"]:
        out.append(
            Refusal(
                "remove_tag", "runner", "the Runner has no tag to remove", "runner_basic_action_remove_tag"
            )
        )
    elif _credits(b, "runner") < 2:
        out.append(
            Refusal(
                "remove_tag",
                "runner",
                f"removing a tag costs 2 credits; the Runner has {r['credits']}",
                "rule_cost",
            )
        )
    hand = r["hand"]
    for i, c in enumerate(hand):
        ref = card_ref(hand, i)
        t = c.get("type")
        if t in ("program", "hardware", "resource"):
            cost = c.get("install_cost", 0)
            if cost > _credits(b, "runner"):
                out.append(
                    Refusal(
                        f"install:{ref}",
                        "runner",
                        f"installing {c['name']} costs {cost} credits; the Runner has {_credits(b, 'runner')}",
                        "rule_install_cost",
                    )
                )
            elif t == "program" and c.get("memory_cost", 0) > memory_limit(r):
                out.append(
                    Refusal(
                        f"install:{ref}",
                        "runner",
                        f"{c['name']} needs {c.get('memory_cost', 0)} [mu], more than the memory limit of {memory_limit(r)}",
                        "rule_memory_limit",
                    )
                )
        elif t == "event":
            why = play_blocked(b, "runner", c, _credits(b, "runner"))
            if why is not None:
                out.append(Refusal(f"play:{ref}", "runner", why[0], why[1]))
    return out


def _encounter(s: Session) -> list[Refusal]:
    out = []
    b = s.board
    run = _run(s)
    if run is None or run.get("pos") is None or run.get("enc") is None:
        return out
    ice = b["servers"][run["server"]]["ice"][run["pos"]]
    have = _spendable(b, "runner")
    progs = b["runner"]["rig"]["programs"]
    for p, prog in enumerate(progs):
        ref = card_ref(progs, p)
        for a, ab in enumerate(prog.get("abilities", ())):
            use_id = f"use:{ref}.{a}"
            used = "once_per" in ab and rig.used_up(ab, use_id, run, s.frames[0].v)
            why = rig.unusable(
                prog,
                ab,
                ice,
                run["enc"]["broken"],
                have,
                used,
                rig.threat_level(b),
                rig.ice_strength(b, run["server"], ice),
                rig.break_allowance(b, run["server"], ice, run["enc"], prog)
                if ab["kind"] == "break"
                else None,
            )
            if why:
                rule = {
                    "printed subroutines during this encounter": "rule_card_precedence",  # the card's text (1.2.1)
                    "3.9.5g": "rule_icebreaker_interface_strength",
                    "3.9.5h": "rule_icebreaker_interface_subtype",
                    "9.8.6": "rule_unbroken_subroutines_target_for_break_abilities",
                    # the printed limit is the card's own text (1.2.1); 9.3.6g: "once per turn"
                    "9.3.6f": "rule_threat_flag",
                    "once per turn": "rule_once_per_turn_flag",
                    "once per": "rule_card_precedence",
                }
                rid = next((v for k, v in rule.items() if k in why), "rule_cost")
                if rid in ("rule_once_per_turn_flag", "rule_threat_flag") and s.doc.node(rid) is None:
                    rid = "rule_card_precedence"  # versions before 25.04 have no ability flag rules
                out.append(Refusal(use_id, "runner", why, rid))
    if rig.break_shortcut(b, ice) and rig.break_allowance(b, run["server"], ice, run["enc"], None) == 0:
        for i, broken in enumerate(run["enc"]["broken"]):
            if not broken:
                out.append(Refusal(f"break:{i}", "runner", rig.limit_reason(ice), "rule_card_precedence"))
    if not rig.break_shortcut(b, ice):  # version 2 boards: the shortcut only where the ice asks (issue 32)
        for i, broken in enumerate(run["enc"]["broken"]):
            if not broken:
                why = (
                    f"{ice['name']} names no break_cost: its subroutines are broken only by "
                    "icebreaker abilities (the board's break shortcut is offered on ice with a break_cost)"
                )
                out.append(Refusal(f"break:{i}", "runner", why, "rule_break_subroutine"))
    out.append(
        Refusal(
            "jack_out",
            "runner",
            "the Runner can jack out only in the Movement Phase, after passing a piece of ice",
            "rule_jacking_out",
        )
    )
    return out


def _approach(s: Session) -> list[Refusal]:
    b = s.board
    run = _run(s)
    if run is None or run.get("pos") is None:
        return []
    ice = b["servers"][run["server"]]["ice"][run["pos"]]
    if not ice["rezzed"] and ice.get("rez_cost", 0) > _credits(b, "corp"):
        return [
            Refusal(
                "rez",
                "corp",
                f"rezzing {ice['name']} costs {ice.get('rez_cost', 0)} credits; the Corp has {_credits(b, 'corp')}",
                "rule_rez_cost",
            )
        ]
    return []


R_WINDOWS = {
    "step_corp_turn_draw_phase_paw",
    "step_corp_turn_action_phase_paw",
    "step_corp_turn_discard_phase_paw",
    "step_runner_turn_action_phase_paw",
    "step_runner_turn_loop_paw",
    "step_runner_turn_discard_phase_paw",
    "step_initiation_paw",
    "step_approach_paw",
    "step_after_jack_out_paw",
}
P_ONLY_WINDOWS = {"step_encounter_paw", "step_before_jack_out_paw"}


def _rez_non_ice(s: Session, step: str) -> list[Refusal]:
    """Assets and upgrades the Corp cannot rez in this paid ability window, and why."""
    b = s.board
    credits = _credits(b, "corp")
    out = []
    for name, srv in b["servers"].items():
        root = srv["root"]
        cards = [(f"rez:{name}.root.{card_ref(root, i)}", c) for i, c in enumerate(root)]
        c = srv.get("content")
        if c and c.get("type") == "asset":
            cards.append((f"rez:{name}.content", c))
        for rid, c in cards:
            if c.get("rezzed") or "rez_cost" not in c:
                continue
            if step in P_ONLY_WINDOWS:
                why = f"{c['name']} cannot be rezzed now: in this window players may only use paid abilities (no (R))"
                out.append(Refusal(rid, "corp", why, "rule_paid_ability_window_corp_rez"))
            elif c["rez_cost"] > credits:
                why = f"rezzing {c['name']} costs {c['rez_cost']} credits; the Corp has {credits}"
                out.append(Refusal(rid, "corp", why, "rule_rez_cost"))
    return out


def _access(s: Session) -> list[Refusal]:
    b = s.board
    v = s.frames[-1].v
    card = get_card(b, v.get("ref")) if v.get("ref") else None
    if card is None:
        return []
    have = _spendable(b, "runner")
    step = s.current_step
    if step == "step_mid_access_ability" and card.get("trash_cost") is not None:
        if v["ref"][0] == "discard":
            return [
                Refusal(
                    "pay_trash",
                    "runner",
                    f"{card['name']} is in Archives: it cannot be trashed",
                    "rule_trash_in_archives",
                )
            ]
        if card["trash_cost"] > have:
            return [
                Refusal(
                    "pay_trash",
                    "runner",
                    f"the Runner cannot pay the trash cost of {card['name']} ({card['trash_cost']}) with {have} credits",
                    "rule_paying_trash_costs",
                )
            ]
    if step == "step_access_agenda" and card.get("steal_cost", 0) > have:
        return [
            Refusal(
                "steal",
                "runner",
                f"the Runner cannot pay the additional cost to steal {card['name']} ({card['steal_cost']} credits, has {have})",
                "rule_agenda_additional_cost",
            )
        ]
    return []


def _runner_paid(b: dict, used: Collection[str] = ()) -> list[Refusal]:
    """The modeled paid abilities of hardware and resources the Runner cannot use in this paid
    ability window, and why: the same test as their offer (`windows.runner_paid_abilities`)."""
    out = []
    for aid, c, ab in runner_click_ability_ids(b, "paid"):
        why = corp_ability_blocked(c, ab, 0, _credits(b, "runner"), aid in used, "runner")
        if why is not None:
            out.append(Refusal(aid, "runner", why[0], why[1]))
    return out


ACTION_STEPS = {"step_corp_turn_action": "corp", "step_runner_turn_action": "runner"}


def refused(s: Session) -> list[Refusal]:
    """The obvious decisions the current step does not offer, each with why (and the rule)."""
    if s.finished or not s.pending:
        return []
    legal = {d["id"] for d in s.pending}
    step = s.current_step
    found: list[Refusal] = []
    side = ACTION_STEPS.get(step or "")
    if side == "corp":
        found = _corp_actions(s.board, corp_used(s.frames[0].v))
    elif side == "runner":  # its paid abilities it cannot pay for too (their window closed at once)
        used = corp_used(s.frames[0].v)
        found = [*_runner_actions(s.board, used), *_runner_paid(s.board, used)]
    if side:
        for i, r in enumerate(found):
            if s.doc.node(r.rule) is None and r.rule in ("rule_once_per_turn_flag", "rule_act_restriction"):
                found[i] = Refusal(r.id, r.player, r.reason, "rule_card_precedence")  # before 25.04
    elif step == "step_encounter_paw":
        found = _encounter(s)
    elif step == "step_approach_paw":
        found = _approach(s)
    if step in R_WINDOWS or step in P_ONLY_WINDOWS:
        found = [*found, *_rez_non_ice(s, step), *_runner_paid(s.board, corp_used(s.frames[0].v))]
    elif step in ("step_mid_access_ability", "step_access_agenda"):
        found = _access(s)
    seen: set[str] = set()
    out = []
    for r in found:
        if r.id not in legal and r.id not in seen:
            seen.add(r.id)
            out.append(r)
    return out


def why_illegal(s: Session, decision: str, parsed: Decision | None) -> str:
    """Why `decision` (parsed, or None when it is not a decision id) is not legal now."""
    if s.finished:
        return "the session is finished"
    if parsed is None:
        return "not a decision id (see the grammar in engine/decision.py)"
    for r in refused(s):
        if r.id == parsed.id:
            return r.reason
    if parsed.kind == "rez":
        return "no such card can be rezzed now (already rezzed, not affordable, or not in this window)"
    if parsed.kind == "break":
        return "no such unbroken subroutine the Runner can afford to break"
    if parsed.kind == "use":
        progs = s.board["runner"]["rig"][parsed.zone]
        i = find_card(progs, parsed.card)
        if i is None or i >= len(progs) or parsed.index >= len(progs[i].get("abilities", ())):
            return "no such installed program ability" if parsed.zone == "programs" else "no such ability"
        if parsed.zone == "programs" and s.current_step != "step_encounter_paw":
            return "interface abilities can only be used during an encounter (3.9.5f)"
    return "not offered at this step"
