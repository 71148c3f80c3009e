"""Why a decision is not legal now, citing the rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rig
from .locations import get_card

if TYPE_CHECKING:
    from .session import Session


def why_illegal(s: Session, decision: str) -> str:
    if s.finished:
        return "the session is finished"
    if decision == "pay_trash" and s.current_step == "step_mid_access_ability":
        f = s.frames[-1]
        card = get_card(s.board, f["v"]["ref"])
        if card is not None and card.get("trash_cost") is not None:
            have = s.board["runner"]["credits"] + s.board["runner"]["bad_publicity_fund"]
            return f"the Runner cannot pay the trash cost of {card['name']} ({card['trash_cost']}) with {have} credits"
    if decision == "steal" and s.current_step == "step_access_agenda":
        return "the Runner cannot pay the additional cost to steal"
    if decision.startswith("rez"):
        return "no such card can be rezzed now (already rezzed, not affordable, or not in this window)"
    if decision.startswith("break:"):
        return "no such unbroken subroutine the Runner can afford to break"
    ref = rig.AbilityRef.parse(decision)
    if ref is not None:
        return _why_not_ability(s, ref)
    return "not offered at this step"


def _why_not_ability(s: Session, ref: rig.AbilityRef) -> str:
    progs = s.board["runner"]["rig"]["programs"]
    if ref.program >= len(progs) or ref.ability >= len(progs[ref.program].get("abilities", ())):
        return "no such installed program ability"
    if s.current_step != "step_encounter_paw":
        return "interface abilities can only be used during an encounter (3.9.5f)"
    run = next(f for f in reversed(s.frames) if f["s"] == "run")
    ice = s.board["servers"][run["v"]["server"]]["ice"][run["v"]["pos"]]
    prog = progs[ref.program]
    have = s.board["runner"]["credits"] + s.board["runner"]["bad_publicity_fund"]
    why = rig.unusable(prog, prog["abilities"][ref.ability], ice, run["v"]["enc"]["broken"], have)
    return why or "not offered at this step"
