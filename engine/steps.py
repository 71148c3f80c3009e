"""The state machine: one handler per CR step id, walked in the order of the loaded document.

A frame is ``{"s": structure id, "at": current step id (None once complete), "v": {vars}}``; the
frame stack nests structures (a run calls a breach, which calls accesses, ...). A handler is
called as ``handler(ctx, frame, decision)`` and returns one of:

* ``None`` (NEXT): continue with the next step of the structure present in the document;
* ``("goto", step_id, ...)``: jump to the first of the given steps present in the document;
* ``("wait", decisions)``: stop; the player must choose (the same handler gets the decision);
* ``("call", structure, vars, then)``: walk another structure, then continue at ``then``
  (``None`` = the next step, ``"stay"`` = this step again);
* ``STAY``: run this handler again (a paid ability window after an action in it);
* ``END``: the structure is complete;  ``UNWOUND``: the frame stack was rewritten (end the run,
  game won), just continue.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import rig
from .board import EFFECTS, memory_used
from .events import Event

if TYPE_CHECKING:
    from .session import Session

STAY = ("stay",)
END = ("end",)
UNWOUND = ("unwound",)
MAX_ITERATIONS = 100_000  # safety net against a malformed table; never reached by real boards

Handler = Callable[["Ctx", dict, "str | None"], Any]
HANDLERS: dict[str, Handler] = {}

RUN_ENDS = (
    "step_open_priority_windows_closed",
    "step_run_ends_bad_publicity",
    "step_run_declared_unsuccessful",
    "step_run_complete",
)


def handles(*ids: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for i in ids:
            HANDLERS[i] = fn
        return fn

    return deco


def handler_for(step_id: str) -> Handler | None:
    h = HANDLERS.get(step_id)
    if h is None and step_id.startswith("rule_checkpoint_"):
        h = HANDLERS.get("step_checkpoint_" + step_id[len("rule_checkpoint_") :])
    return h


def modeled(step_id: str) -> bool:
    return handler_for(step_id) is not None


# ----- context ----------------------------------------------------------------------------------


class Ctx:
    __slots__ = ("s", "doc", "board", "step", "cites")

    def __init__(self, s: Session):
        self.s = s
        self.doc = s.doc
        self.board = s.board
        self.step = ""
        self.cites = s.tables.cites

    def cite(self, *ids: str) -> list[str]:
        return list(self._present(ids))

    def _present(self, ids: tuple[str, ...]) -> tuple[str, ...]:
        """The cited ids the loaded document contains (memoised per document; immutable)."""
        hit = self.cites.get(ids)
        if hit is None:
            doc = self.doc
            hit = self.cites[ids] = tuple(i for i in ids if doc.node(i) is not None)
        return hit

    def has(self, step_id: str) -> bool:
        return self.doc.node(step_id) is not None

    def ev(
        self,
        text: str,
        rules: tuple[str, ...] | list[str] = (),
        changes: dict | None = None,
        applied: bool = True,
        objects: dict | None = None,
    ) -> None:
        key = rules if type(rules) is tuple else tuple(rules)
        self.s.trace.append(
            Event(
                self.step,
                self._present(key),
                text,
                {} if changes is None else changes,
                applied,
                {} if objects is None else objects,
            )
        )

    def rand(self, n: int) -> int:
        """A seeded random integer in [0, n); the draw number is part of the state."""
        r = random.Random(f"{self.s.seed}:{self.s.rng_n}").randrange(n)
        self.s.rng_n += 1
        return r

    # money --------------------------------------------------------------------------------
    def spendable(self, side: str) -> int:
        p = self.board[side]
        return p["credits"] + (p.get("bad_publicity_fund", 0) if side == "runner" else 0)

    def pay(self, side: str, amount: int, ch: dict) -> list[str]:
        """Pay `amount`; the Runner spends bad publicity fund credits first. Returns rules cited."""
        p = self.board[side]
        rules: list[str] = []
        if side == "runner" and p["bad_publicity_fund"] and amount:
            use = min(p["bad_publicity_fund"], amount)
            ch["runner.bad_publicity_fund"] = [p["bad_publicity_fund"], p["bad_publicity_fund"] - use]
            p["bad_publicity_fund"] -= use
            amount -= use
            rules += [
                "rule_bad_publicity_fund",
                "rule_runner_can_pay_bad_publicity_costs",
                "rule_bad_publicity_beginning_run",
                "rule_bad_publicity_in_credit_pool",
            ]
        if amount:
            setv(p, side, "credits", p["credits"] - amount, ch)
        return rules

    def run_frame(self) -> dict | None:
        for f in reversed(self.s.frames):
            if f["s"] == "run":
                return f
        return None


def setv(obj: dict, prefix: str, key: str, value: Any, ch: dict) -> None:
    old = obj[key]
    if old != value:
        path = f"{prefix}.{key}"
        ch[path] = [ch[path][0] if path in ch else old, value]
        obj[key] = value


def goto(*ids: str) -> tuple:
    return ("goto", *ids)


def wait(decisions: list[dict]) -> tuple:
    return ("wait", decisions)


def call(structure: str, v: dict, then: str | None = None) -> tuple:
    return ("call", structure, v, then)


def dec(id_: str, label: str, player: str) -> dict:
    return {"id": id_, "label": label, "player": player}


def opponent(side: str) -> str:
    return "runner" if side == "corp" else "corp"


def score(board: dict, side: str) -> int:
    return sum(c.get("agenda_points", 0) for c in board[side]["score_area"])


def max_hand(board: dict, side: str) -> int:
    p = board[side]
    return p["max_hand_size"] - (p["core_damage"] if side == "runner" else 0)


# ----- the loop ---------------------------------------------------------------------------------


def initial_frame(structure: str, params: dict, board: dict, first: str) -> dict:
    v = dict(params)
    if structure == "draw":
        v.setdefault("player", board["turn"])
        v.setdefault("count", 1)
    if structure in ("subroutine",):
        v = {"instructions": _as_list(params["subroutine"]), "source": "the subroutine", "i": 0}
    if structure == "trace":
        v = {
            "strength": params["strength"],
            "on_success": _as_list(params.get("on_success", [])),
            "on_failure": _as_list(params.get("on_failure", [])),
        }
    if structure == "access":
        cands = candidates(board, params["server"], random_left=True)
        key = params.get("card", cands[0][0])
        v = {"server": params["server"], "pick": key}
    return {"s": structure, "at": first, "v": v}


def _as_list(v: Any) -> list[dict]:
    if isinstance(v, (str, dict)):
        v = [v]
    return [{"effect": e} if isinstance(e, str) else e for e in v]


def advance(s: Session, decision: str | None) -> None:
    """Walk until a decision is needed or the structure is finished."""
    ctx = Ctx(s)
    s.pending = []
    for _ in range(MAX_ITERATIONS):
        if s.finished:
            s.pending = []
            return
        if not s.frames:
            s.finished = True
            return
        f = s.frames[-1]
        at = f["at"]
        if at is None:
            s.frames.pop()
            if s.frames:
                s.frames[-1]["v"]["ret"] = f["v"].get("ret")
            continue
        ctx.step = at
        h = handler_for(at)
        if h is None:
            ctx.ev("This step is not modeled by the engine; it has no effect here.", applied=False)
            res = None
        else:
            res = h(ctx, f, decision)
        decision = None
        if res is None:
            f["at"] = s.next_of[f["s"]].get(at)
        elif res is STAY or res is UNWOUND:
            continue
        elif res is END:
            f["at"] = None
        else:
            kind = res[0]
            if kind == "goto":
                present = [t for t in res[1:] if t in s.next_of[f["s"]]]
                f["at"] = present[0] if present else None
            elif kind == "wait":
                s.pending = res[1]
                return
            elif kind == "call":
                _, structure, v, then = res
                if then == "stay":
                    pass
                elif then is None:
                    f["at"] = s.next_of[f["s"]].get(at)
                else:
                    f["at"] = then if then in s.next_of[f["s"]] else s.next_of[f["s"]].get(at)
                if structure == "checkpoint":
                    # A checkpoint never waits for a decision: walk its steps inline (same events).
                    checkpoint(ctx)
                    continue
                steps = s.steps[structure]
                s.frames.append({"s": structure, "at": steps[0] if steps else None, "v": v})
            else:  # pragma: no cover - programming error
                raise AssertionError(f"bad handler result {res!r}")
    raise AssertionError("engine did not settle")  # pragma: no cover


def checkpoint(ctx: Ctx) -> None:
    """Walk the document's checkpoint steps (10.3.1) in order; stops early if the game ends."""
    s = ctx.s
    for step_id, h in s.tables.checkpoint_plan:
        ctx.step = step_id
        if h is None:
            ctx.ev("This step is not modeled by the engine; it has no effect here.", applied=False)
            continue
        if h(ctx, {"s": "checkpoint", "at": step_id, "v": {}}, None) is UNWOUND or s.finished:
            return


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


# ----- cards and locations ----------------------------------------------------------------------


def get_card(board: dict, ref: list) -> dict | None:
    try:
        kind = ref[0]
        if kind == "content":
            return board["servers"][ref[1]]["content"]
        if kind == "root":
            return board["servers"][ref[1]]["root"][ref[2]]
        return board["corp"][kind][ref[1]]  # hand / deck / discard
    except (KeyError, IndexError, TypeError):
        return None


def take_card(board: dict, ref: list) -> dict:
    kind = ref[0]
    if kind == "content":
        card = board["servers"][ref[1]]["content"]
        board["servers"][ref[1]]["content"] = None
        return card
    if kind == "root":
        return board["servers"][ref[1]]["root"].pop(ref[2])
    return board["corp"][kind].pop(ref[1])


def candidates(board: dict, server: str, random_left: bool) -> list[tuple[str, str, list | None]]:
    """(decision key, label, ref) for the current candidates of a breach (7.4)."""
    srv = board["servers"].get(server)
    if srv is None:
        return []
    out: list[tuple[str, str, list | None]] = []
    for i, c in enumerate(srv["root"]):
        if not c.get("accessed"):
            out.append(
                (f"root.{i}", f"Access {c['name']} (upgrade in the root of {server})", ["root", server, i])
            )
    if srv.get("content") is not None and not srv["content"].get("accessed"):
        out.append(
            ("content", f"Access {srv['content']['name']} (installed in {server})", ["content", server])
        )
    corp = board["corp"]
    if server == "hq" and random_left and any(not c.get("accessed") for c in corp["hand"]):
        out.append(("hq", "Access a random card from HQ", None))
    if server == "rd" and random_left:
        for i, c in enumerate(corp["deck"]):
            if not c.get("accessed"):
                out.append(("rd", "Access the top card of R&D", ["deck", i]))
                break
    if server == "archives":
        for i, c in enumerate(corp["discard"]):
            if not c.get("accessed"):
                out.append((f"archives.{i}", f"Access {c['name']} in Archives", ["discard", i]))
    return out


def clear_access_marks(board: dict) -> None:
    for zone in ("hand", "deck", "discard"):
        for c in board["corp"][zone]:
            c.pop("accessed", None)
    for srv in board["servers"].values():
        for c in srv["root"]:
            c.pop("accessed", None)
        if srv.get("content"):
            srv["content"].pop("accessed", None)


# ----- effects ----------------------------------------------------------------------------------


def describe_effect(e: dict, controller: str = "corp") -> str:
    spec = EFFECTS.get(e.get("effect", ""), None)
    if spec is None:
        return str(e)
    fields = {k: e.get(k, 0) for k in (*spec["params"], *spec.get("optional", ()))}
    fields.update({k: e.get(k, "") for k in spec.get("strings", ())})
    if spec.get("zones"):
        fields["zones"] = " or ".join(e.get("zones", ()))
    text = spec["text"].format(**fields)
    text = text.replace("The opponent", "The Runner" if controller == "corp" else "The Corp")
    if "effects" in e:
        text += " " + " ".join(describe_effect(x, controller) for x in e["effects"])
    if e["effect"] == "trace":
        if e.get("on_success"):
            text += " If successful: " + " ".join(describe_effect(x) for x in e["on_success"])
        if e.get("on_failure"):
            text += " If unsuccessful: " + " ".join(describe_effect(x) for x in e["on_failure"])
    return text


def end_the_run(ctx: Ctx) -> Any:
    run = ctx.run_frame()
    if run is None:
        ctx.ev(
            "End the run: no run is in progress, so the instruction has no effect.",
            ("rule_end_the_run", "rule_end_run_no_run_or_encounter"),
        )
        return None
    frames = ctx.s.frames
    idx = frames.index(run)
    nested = [f["s"] for f in frames[idx + 1 :]]
    rules = ["rule_end_the_run"]
    if "breach" in nested or "access" in nested:
        rules.append("rule_end_run_access_or_breach_during_run")
    ctx.ev("The run ends: play moves to the Run Ends Phase.", rules, {"run.ended_by": [None, "end_the_run"]})
    del frames[idx + 1 :]
    clear_access_marks(ctx.board)
    rig.clear_boosts(ctx.board)
    run["v"]["ended_by"] = "end_the_run"
    present = [t for t in RUN_ENDS if t in ctx.s.next_of["run"]]
    run["at"] = present[0] if present else None
    return UNWOUND


def win(ctx: Ctx, winner: str | None, reason: str, rules: list[str]) -> Any:
    res = ctx.s.result
    res["winner"] = winner
    res["win_reason"] = reason
    who = "the game ends in a draw" if winner is None else f"the {winner.capitalize()} wins"
    ctx.ev(f"{reason}: {who}.", [*rules, "rule_game_end"], {"winner": [None, winner or "draw"]})
    run = ctx.run_frame()
    if run is not None:  # the game ended during a run: it never reaches the Run Ends Phase
        v = run["v"]
        res["runs"].append(
            {
                "server": v["server"],
                "result": "successful" if v.get("success") else "neither",
                "ended_by": "game_end",
            }
        )
    ctx.s.finished = True
    ctx.s.frames.clear()
    return UNWOUND


def damage(ctx: Ctx, kind: str, amount: int) -> Any:
    r = ctx.board["runner"]
    ch: dict = {}
    rules = ["rule_suffer_or_take_damage", "rule_core_damage" if kind == "core" else "rule_meat_net_damage"]
    if amount > 1:
        rules.append("rule_multiple_damage_taken_simultaneously")
    n = min(amount, len(r["hand"]))
    trashed = []
    before = len(r["hand"])
    for _ in range(n):
        card = r["hand"].pop(ctx.rand(len(r["hand"])))
        r["discard"].append(card)
        trashed.append(card["name"])
    if n:
        ch["runner.hand"] = [before, len(r["hand"])]
        ch["runner.discard"] = [len(r["discard"]) - n, len(r["discard"])]
    if kind == "core":
        setv(r, "runner", "core_damage", r["core_damage"] + amount, ch)
    text = f"The Runner suffers {amount} {kind} damage"
    text += f" and trashes {', '.join(trashed)} at random." if trashed else " with no cards in the grip."
    if kind == "core":
        text += f" Maximum hand size is now {max_hand(ctx.board, 'runner')}."
    ctx.ev(text, rules, ch)
    if amount > before:
        return win(
            ctx,
            "corp",
            "The Runner suffered more damage than cards in the grip and is flatlined",
            ["rule_flatline", "rule_flatline_damage_reference", "rule_win_conditions"],
        )
    return None


def _splice(f: dict, effects: list[dict]) -> None:
    """Make `effects` the next instructions of the ability resolving in frame `f` (the inner
    effects of "unless the Runner pays" / "if the Runner is tagged" resolve as its instructions)."""
    v = f["v"]
    i = v["i"]
    v["instructions"] = [*v["instructions"][: i + 1], *effects, *v["instructions"][i + 1 :]]


def resolve_effect(
    ctx: Ctx, e: dict, controller: str, source: str, d: str | None = None, f: dict | None = None
) -> Any:
    """Resolve one instruction. Effects that need a choice wait for it (the same handler gets
    the decision `d`); effects with inner effects splice them into frame `f`'s instructions."""
    name = e["effect"]
    b = ctx.board
    ch: dict = {}
    opp = opponent(controller)
    if name == "end_the_run":
        return end_the_run(ctx)
    if name == "trace":
        return call(
            "trace",
            {
                "strength": e["strength"],
                "on_success": e.get("on_success", []),
                "on_failure": e.get("on_failure", []),
            },
        )
    if name == "unless_pays":
        return _unless_pays(ctx, e, source, d, f)
    if name == "if_tagged":
        tags = b["runner"]["tags"]
        if tags:
            ctx.ev(
                f"{source}: the Runner is tagged ({tags} tag(s)), so the conditional instructions resolve.",
                ("rule_tagged",),
                objects={"tags": tags},
            )
            _splice(f, e["effects"])
        else:
            ctx.ev(
                f"{source}: the Runner is not tagged, so nothing happens.",
                ("rule_tagged",),
                applied=False,
                objects={"tags": 0},
            )
        return None
    if name == "trash_program":
        return _trash_program(ctx, e, source, d, f)
    if name == "may_pay":
        return _may_pay(ctx, e, controller, source, d, f)
    if name == "if_accessed_from":
        where = f["v"].get("accessed_from") if f is not None else None
        zones = e["zones"]
        if where in zones:
            ctx.ev(
                f"{source} was accessed from {where}: the conditional instructions resolve.",
                ("rule_conditional_ability",),
                objects={"accessed_from": where},
            )
            _splice(f, e["effects"])
        else:
            ctx.ev(
                f"{source} was not accessed from {' or '.join(zones)} ({where or 'no access'}): nothing happens.",
                ("rule_conditional_ability",),
                applied=False,
                objects={"accessed_from": where},
            )
        return None
    if name == "text":
        if d is None:
            return wait([dec("resolved", f"Resolved as written (by hand): {e['text']}", controller)])
        ctx.ev(
            f"{source}: resolved as written by the judge, outside the engine: {e['text']}",
            (),
            applied=False,
            objects={"text": e["text"]},
        )
        return None
    if name.endswith("_damage"):
        return damage(ctx, name[: -len("_damage")], e["amount"])
    amt = e["amount"]
    if name == "gain_credits":
        setv(b[controller], controller, "credits", b[controller]["credits"] + amt, ch)
        ctx.ev(f"{source}: the {controller.capitalize()} gains {amt} credit(s).", (), ch)
    elif name == "lose_credits":
        setv(b[opp], opp, "credits", max(0, b[opp]["credits"] - amt), ch)
        ctx.ev(f"{source}: the {opp.capitalize()} loses {amt} credit(s) (as many as they have).", (), ch)
    elif name == "lose_clicks":
        setv(b[opp], opp, "clicks", max(0, b[opp]["clicks"] - amt), ch)
        ctx.ev(
            f"{source}: the {opp.capitalize()} loses {amt} [click] (as many as they have).",
            ("rule_gain_spend_lose_clicks",),
            ch,
        )
    elif name == "give_tags":
        setv(b["runner"], "runner", "tags", b["runner"]["tags"] + amt, ch)
        ctx.ev(f"{source}: the Runner takes {amt} tag(s).", ("rule_tag",), ch)
    return None


def _unless_pays(ctx: Ctx, e: dict, source: str, d: str | None, f: dict | None) -> Any:
    amt = e["amount"]
    inner = " ".join(describe_effect(x) for x in e["effects"])
    if d is None:
        if ctx.spendable("runner") >= amt:
            return wait(
                [
                    dec("pay", f"Pay {amt} credit(s) (prevents: {inner})", "runner"),
                    dec("dont_pay", f"Do not pay: {inner}", "runner"),
                ]
            )
        ctx.ev(
            f"{source}: the Runner cannot pay {amt} credit(s), so the instructions resolve: {inner}",
            ("rule_cost",),
            objects={"amount": amt, "paid": False},
        )
        _splice(f, e["effects"])
        return None
    if d == "pay":
        ch: dict = {}
        rules = ctx.pay("runner", amt, ch)
        ctx.ev(
            f"{source}: the Runner pays {amt} credit(s); the instructions do not resolve.",
            ["rule_cost", *rules],
            ch,
            objects={"amount": amt, "paid": True},
        )
        return None
    ctx.ev(
        f"{source}: the Runner does not pay {amt} credit(s), so the instructions resolve: {inner}",
        ("rule_cost",),
        objects={"amount": amt, "paid": False},
    )
    _splice(f, e["effects"])
    return None


def _may_pay(ctx: Ctx, e: dict, controller: str, source: str, d: str | None, f: dict | None) -> Any:
    """ "The Corp may pay N[credit]. If they do, ...": an optional cost (1.16.4)."""
    amt = e["amount"]
    who = controller.capitalize()
    inner = " ".join(describe_effect(x, controller) for x in e["effects"])
    if d is None:
        if ctx.spendable(controller) < amt:
            ctx.ev(
                f"{source}: the {who} cannot pay {amt} credit(s); nothing happens.",
                ("rule_cost",),
                applied=False,
                objects={"amount": amt, "paid": False},
            )
            return None
        return wait(
            [
                dec("pay", f"The {who} pays {amt} credit(s): {inner}", controller),
                dec("dont_pay", f"The {who} does not pay", controller),
            ]
        )
    if d == "dont_pay":
        ctx.ev(
            f"{source}: the {who} does not pay; nothing happens.",
            ("rule_cost",),
            applied=False,
            objects={"amount": amt, "paid": False},
        )
        return None
    ch: dict = {}
    rules = ctx.pay(controller, amt, ch)
    ctx.ev(
        f"{source}: the {who} pays {amt} credit(s): {inner}",
        ["rule_cost", *rules],
        ch,
        objects={"amount": amt, "paid": True},
    )
    _splice(f, e["effects"])
    return None


def _trash_program(ctx: Ctx, e: dict, source: str, d: str | None, f: dict | None) -> Any:
    r = ctx.board["runner"]
    progs = r["rig"]["programs"]
    n = e.get("amount", 1)
    if not progs or not n:
        ctx.ev(f"{source}: the Runner has no installed program to trash.", ("rule_trashing",), applied=False)
        return None
    if d is None and len(progs) > n:
        return wait(
            [dec(f"trash:{i}", f"Trash {c['name']} (installed program)", "corp") for i, c in enumerate(progs)]
        )
    picks = [int(d[6:])] if d is not None else list(range(len(progs)))
    ch: dict = {}
    names = []
    before = len(progs)
    for i in sorted(picks, reverse=True):
        card = progs.pop(i)
        card.pop("boost", None)
        r["discard"].append(card)
        names.append(card["name"])
    ch["runner.rig.programs"] = [before, len(progs)]
    ch["runner.discard"] = [len(r["discard"]) - len(names), len(r["discard"])]
    ctx.s.result["trashed_programs"].extend(reversed(names))
    ctx.ev(
        f"{source}: the Corp trashes {', '.join(reversed(names))} (installed program).",
        ("rule_trashing",),
        ch,
        objects={"programs": sorted(picks), "cards": list(reversed(names))},
    )
    if d is not None and n > 1 and progs:
        _splice(f, [{"effect": "trash_program", "amount": n - 1}])
    return None


# ----- paid ability windows ---------------------------------------------------------------------


def _rez_options(b: dict, with_ice: dict | None) -> list[dict]:
    out = []
    credits = b["corp"]["credits"]
    if with_ice is not None and not with_ice["rezzed"] and with_ice.get("rez_cost", 0) <= credits:
        out.append(
            dec(
                "rez",
                f"Corp rezzes the approached ice {with_ice['name']} ({with_ice.get('rez_cost', 0)} credits)",
                "corp",
            )
        )
    for name, srv in b["servers"].items():
        for i, c in enumerate(srv["root"]):
            if not c["rezzed"] and "rez_cost" in c and c["rez_cost"] <= credits:
                out.append(
                    dec(
                        f"rez:{name}.root.{i}",
                        f"Corp rezzes {c['name']} in the root of {name} ({c['rez_cost']} credits)",
                        "corp",
                    )
                )
        c = srv.get("content")
        if (
            c
            and c.get("type") == "asset"
            and not c["rezzed"]
            and "rez_cost" in c
            and c["rez_cost"] <= credits
        ):
            out.append(
                dec(
                    f"rez:{name}.content",
                    f"Corp rezzes {c['name']} in {name} ({c['rez_cost']} credits)",
                    "corp",
                )
            )
    return out


def _score_options(b: dict) -> list[dict]:
    out = []
    for name, srv in b["servers"].items():
        c = srv.get("content")
        if (
            c
            and c.get("type") == "agenda"
            and c.get("advancements", 0) >= c.get("advancement_requirement", 0)
        ):
            out.append(
                dec(f"score:{name}", f"Corp scores {c['name']} ({c.get('agenda_points', 0)} points)", "corp")
            )
    return out


def paw(
    ctx: Ctx, f: dict, d: str | None, *, rez: bool = True, score_ok: bool = False, ice: dict | None = None
) -> Any:
    """A paid ability window. Offers the Corp's rez (R) / score (S) options modeled by the board
    vocabulary; when nobody has anything to do it closes at once."""
    b = ctx.board
    opts = (_rez_options(b, ice) if rez else []) + (_score_options(b) if score_ok else [])
    if d is None:
        if not opts:
            ctx.ev(
                "Paid ability window: no modeled paid ability, rez or score is available; it closes.",
                ("rule_paid_ability_window",),
                applied=False,
            )
            return None
        active = b["turn"]
        return wait([*opts, dec("pass", "All players pass; the paid ability window closes", active)])
    if d == "pass":
        ctx.ev("All players pass priority; the paid ability window closes.", ("rule_paid_ability_window",))
        return None
    ch: dict = {}
    if d == "rez":
        setv(b["corp"], "corp", "credits", b["corp"]["credits"] - ice.get("rez_cost", 0), ch)
        ice["rezzed"] = True
        ch["ice.rezzed"] = [False, True]
        ctx.ev(
            f"The Corp rezzes {ice['name']}, paying {ice.get('rez_cost', 0)} credits.",
            ("sec_rez", "rule_rez_cost"),
            ch,
        )
        return STAY
    if d.startswith("rez:"):
        server, _, where = d[4:].partition(".")
        srv = b["servers"][server]
        card = srv["content"] if where == "content" else srv["root"][int(where.split(".")[1])]
        setv(b["corp"], "corp", "credits", b["corp"]["credits"] - card["rez_cost"], ch)
        card["rezzed"] = True
        ch[f"servers.{server}.{where}.rezzed"] = [False, True]
        ctx.ev(
            f"The Corp rezzes {card['name']}, paying {card['rez_cost']} credits.",
            ("sec_rez", "rule_rez_cost"),
            ch,
        )
        return STAY
    if d.startswith("score:"):
        server = d[6:]
        card = take_card(b, ["content", server])
        card.pop("advancements", None)
        card["faceup"] = True
        b["corp"]["score_area"].append(card)
        ctx.s.result["scored"].append(card["name"])
        ch["corp.score"] = [score(b, "corp") - card.get("agenda_points", 0), score(b, "corp")]
        ctx.ev(
            f"The Corp scores {card['name']} from {server} ({card.get('agenda_points', 0)} points).",
            (
                "rule_score_steal",
                "rule_advancement_requirement",
                "rule_score_not_an_action",
                "rule_score_area_uninstalled",
            ),
            ch,
        )
        return call("checkpoint", {}, "stay")
    raise AssertionError(d)  # pragma: no cover - legal decisions are checked before


# ----- checkpoints (10.3.1) ---------------------------------------------------------------------


def _noop(text: str, *rules: str) -> Handler:
    """A step the engine walks but only narrates: nothing on the board makes it apply."""

    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        ctx.ev(text, rules, applied=False)
        return None

    return h


handles("step_checkpoint_conditional_abilities")(
    _noop("No conditional ability in the board vocabulary waits on this checkpoint.")
)
handles("step_checkpoint_duration_abilities")(_noop("No lingering effect with a duration is in play."))
handles("step_checkpoint_uniqueness")(_noop("No two active unique cards share a name."))
handles("step_checkpoint_card_restrictions")(_noop("No object breaks a restriction of the rules."))
handles("step_checkpoint_hosted_on_agenda")(_noop("No hosted objects on agendas to trash."))
handles("step_checkpoint_hosted_on_installed_cards")(_noop("No hosted objects on uninstalled cards."))
handles("step_checkpoint_vacant_position")(_noop("No vacant ice position to remove."))
handles("step_checkpoint_card_entering_root_during_breach")(
    _noop(
        "No card entered the root of the breached server.",
        "rule_checkpoints",
        "rule_candidates_entering_root",
    )
)
handles("step_checkpoint_discard_pile_cards")(_noop("No converted cards in a discard pile."))
handles("step_checkpoint_discard_pile_counters")(_noop("No counters in a discard pile."))


@handles("step_checkpoint_agenda_points")
def _cp_points(ctx: Ctx, f: dict, d: str | None) -> Any:
    c, r = score(ctx.board, "corp"), score(ctx.board, "runner")
    rules = ["rule_win_agenda_points", "rule_game_win"]
    if c >= 7 and r >= 7:
        return win(
            ctx,
            None,
            f"Both players have 7 or more agenda points ({c} and {r})",
            [*rules, "rule_simultaneous_win"],
        )
    if c >= 7 or r >= 7:
        who = "corp" if c >= 7 else "runner"
        return win(ctx, who, f"The {who.capitalize()} has {max(c, r)} agenda points", rules)
    ctx.ev(f"Scores are Corp {c}, Runner {r}: nobody has 7 agenda points.", rules)
    return None


@handles("step_checkpoint_remote_server")
def _cp_remote(ctx: Ctx, f: dict, d: str | None) -> Any:
    gone = [
        n
        for n, s in ctx.board["servers"].items()
        if n.startswith("remote") and not s["ice"] and not s["root"] and s.get("content") is None
    ]
    for n in gone:
        del ctx.board["servers"][n]
    if gone:
        ctx.ev(
            f"Remote server(s) with no cards cease to exist: {', '.join(gone)}.",
            ("rule_checkpoints",),
            {"servers": [sorted(gone), []]},
        )
    else:
        ctx.ev("Every remote server still has a card in it.", ("rule_checkpoints",))
    return None


# ----- drawing (8.4.5) --------------------------------------------------------------------------


@handles("step_draw_set_aside")
def _draw_set_aside(ctx: Ctx, f: dict, d: str | None) -> Any:
    side, n = f["v"]["player"], f["v"]["count"]
    p = ctx.board[side]
    k = min(n, len(p["deck"]))
    ch: dict = {}
    if k:
        ch[f"{side}.deck"] = [len(p["deck"]), len(p["deck"]) - k]
        p["set_aside"].extend(p["deck"][:k])
        del p["deck"][:k]
    deck = "R&D" if side == "corp" else "the stack"
    ctx.ev(
        f"The {side.capitalize()} sets aside {k} card(s) from the top of {deck} (drawing {n}).",
        ("rule_draw_procedure",),
        ch,
    )
    if side == "corp" and k < n:
        return win(
            ctx, "runner", "The Corp must draw from an empty R&D", ["rule_empty_rnd", "rule_win_conditions"]
        )
    return None


@handles(
    "step_draw_checkpoint",
    "step_subroutine_checkpoint",
    "step_trace_checkpoint",
    "step_paid_ability_checkpoint",
    "step_conditional_ability_checkpoint",
    "step_play_ability_checkpoint",
)
def _checkpoint(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("A checkpoint occurs.", ("rule_checkpoints",))
    return call("checkpoint", {})


@handles("step_draw_add_to_hand")
def _draw_add(ctx: Ctx, f: dict, d: str | None) -> Any:
    side = f["v"]["player"]
    p = ctx.board[side]
    names = [c["name"] for c in p["set_aside"]]
    ch = {f"{side}.hand": [len(p["hand"]), len(p["hand"]) + len(names)]} if names else {}
    p["hand"].extend(p["set_aside"])
    p["set_aside"].clear()
    hand = "HQ" if side == "corp" else "the grip"
    ctx.ev(
        f"The {side.capitalize()} adds {len(names)} drawn card(s) to {hand}.", ("rule_draw_procedure",), ch
    )
    return None


# ----- abilities (9.5.7 paid, 9.6.15 conditional, 9.7.2 play, 9.8.10 subroutines) ---------------

_ABILITY_SOURCE = "source"


def _instr(f: dict) -> dict:
    return f["v"]["instructions"][f["v"]["i"]]


def _announce_targets(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ins = v["instructions"]
    if not ins:
        ctx.ev(f"{v['source']}: no instructions to resolve.")
        return None
    ctx.ev(
        f"{v['source']}: instruction {v['i'] + 1} of {len(ins)} becomes imminent: {describe_effect(_instr(f), v.get('controller', 'corp'))}"
    )
    return None


def _interrupt_window(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev(
        "Interrupt window: no interrupt in the board vocabulary applies.",
        ("rule_interrupt_definition",),
        applied=False,
    )
    return None


def _resolve_instruction(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    if not v["instructions"]:
        return None
    return resolve_effect(ctx, _instr(f), v["controller"], v["source"], d, f)


def _loop(back_to: str) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        v = f["v"]
        if v["i"] + 1 < len(v["instructions"]):
            v["i"] += 1
            ctx.ev(
                f"{v['source']}: instruction {v['i'] + 1} becomes imminent: {describe_effect(_instr(f), v.get('controller', 'corp'))}"
            )
            return goto(back_to)
        ctx.ev(f"{v['source']}: no more instructions to resolve.")
        return None

    return h


def _complete(text: str) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        ctx.ev(text.format(source=f["v"].get("source", "")))
        return END

    return h


# subroutine
@handles("step_subroutine_becomes_imminent")
def _sub_imminent(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    v.setdefault("controller", "corp")
    text = " ".join(describe_effect(e) for e in v["instructions"]) or "(no instructions)"
    ctx.ev(f"{v['source']} becomes imminent: {text}", ("rule_encounter_sub_resolve",))
    return None


handles(
    "step_subroutine_interrupt_subroutine_resolution",
    "step_subroutine_interrupt_subroutine_effect",
    "step_paid_ability_interrupt_window",
    "step_conditional_ability_interrupt_window",
    "step_play_ability_interrupt_window",
)(_interrupt_window)
handles(
    "step_subroutine_target_first_instruction",
    "step_conditional_ability_target_first_instruction",
    "step_play_ability_target_first_instruction",
)(_announce_targets)
handles(
    "step_subroutine_resolution",
    "step_conditional_ability_resolution",
    "step_play_ability_interrupt_resolution",
)(_resolve_instruction)
handles("step_subroutine_loop")(_loop("step_subroutine_interrupt_subroutine_effect"))
handles("step_conditional_ability_loop")(_loop("step_conditional_ability_interrupt_window"))
handles("step_play_ability_loop")(_loop("step_play_ability_interrupt_window"))
handles("step_subroutine_complete")(_complete("Resolution of {source} is complete."))
handles("step_conditional_ability_complete")(
    _complete("Resolution of the conditional ability of {source} is complete.")
)


@handles("step_conditional_ability_announce")
def _cond_announce(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ctx.ev(
        f"The {v['controller'].capitalize()} triggers the pending ability of {v['source']} ({v['why']}).",
        ("rule_conditional_ability",),
    )
    return None


@handles("step_play_ability_complete")
def _play_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    p = ctx.board[v["controller"]]
    ch: dict = {}
    for i in range(len(p["set_aside"]) - 1, -1, -1):
        if p["set_aside"][i]["name"] == v["card"]:
            card = p["set_aside"].pop(i)
            if v["controller"] == "corp":
                card["faceup"] = True  # it was visible to the Runner when trashed (4.4.6b)
            p["discard"].append(card)
            ch[f"{v['controller']}.discard"] = [len(p["discard"]) - 1, len(p["discard"])]
            break
    rules = ["rule_play_ability"]
    if v["controller"] == "corp":
        pile = "Archives, faceup"
        rules.append("rule_archives_faceup_facedown")
    else:
        pile = "the heap"
    ctx.ev(f"{v['card']} has resolved and is trashed to {pile}.", rules, ch, objects={"card": v["card"]})
    return END


# paid abilities: actions and icebreaking
@handles("step_paid_ability_announce")
def _pa_announce(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ctx.ev(f"The {v['player'].capitalize()} announces: {v['label']}.", ("rule_paid_ability",))
    return None


@handles("step_paid_ability_condition")
def _pa_pay(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    b = ctx.board
    side = v["player"]
    p = b[side]
    ch: dict = {}
    rules: list[str] = ["rule_cost"]
    act = v["action"]
    cost = 0
    if v["kind"] == "action":
        setv(p, side, "clicks", p["clicks"] - 1, ch)
        rules += ["rule_initiate_action", "rule_action_definition"]
        if act == "remove_tag":
            cost = 2
        elif act.startswith("advance:"):
            cost = 1
        elif act.startswith("install:"):
            i, _, where = act[8:].partition("@")
            card = p["hand"].pop(int(i))
            p["set_aside"].append(card)
            ch[f"{side}.hand"] = [len(p["hand"]) + 1, len(p["hand"])]
            v["card"] = card["name"]
            if side == "runner":
                cost = card.get("install_cost", 0)
            else:
                v["server"] = _new_remote(b) if where == "new" else where
                srv = b["servers"].get(v["server"])
                cost = len(srv["ice"]) if card["type"] == "ice" and srv else 0
        elif act.startswith("play:"):
            i = int(act[5:])
            card = p["hand"].pop(i)
            cost = card.get("play_cost", 0)
            p["set_aside"].append(card)
            ch[f"{side}.hand"] = [len(p["hand"]) + 1, len(p["hand"])]
            v["card"] = card["name"]
    elif v["kind"] == "ability":
        ab = p["rig"]["programs"][v["program"]]["abilities"][v["ability"]]
        cost = ab.get("cost", 0)
    else:  # break:i
        ice = b["servers"][v["server"]]["ice"][v["pos"]]
        cost = ice.get("break_cost", 1)
    if cost:
        rules += ctx.pay(side, cost, ch)
    what = "[click]" if v["kind"] == "action" else ""
    if cost:
        what += (" and " if what else "") + f"{cost} credit(s)"
    ctx.ev(f"The {side.capitalize()} pays {what or 'nothing'}.", rules, ch)
    return None


@handles("step_paid_ability_target_first_instruction")
def _pa_target(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    if v["kind"] == "ability":
        ab = ctx.board["runner"]["rig"]["programs"][v["program"]]["abilities"][v["ability"]]
        if ab["kind"] == "break":
            return _choose_break_targets(ctx, f, ab, d)
    ctx.ev(f"{v['label']}: the instruction becomes imminent.")
    return None


def _choose_break_targets(ctx: Ctx, f: dict, ab: dict, d: str | None) -> Any:
    """9.8.6: the Runner chooses unbroken subroutines as targets, one at a time: exactly
    `count` (or every unbroken one if fewer remain), or up to `count` for "break up to N"."""
    v = f["v"]
    targets = v.setdefault("targets", [])
    run = ctx.run_frame()
    enc = run["v"]["enc"]
    ice = ctx.board["servers"][v["server"]]["ice"][v["pos"]]
    if d == "done":
        pass
    elif d is not None:
        targets.append(int(d[4:]))
    free = [i for i, br in enumerate(enc["broken"]) if not br and i not in targets]
    forced = 1 if ab.get("up_to") else ab["count"]
    if d is None and not targets and len(free) <= forced:
        targets.extend(free)  # no choice to make: every unbroken subroutine is a target
    elif len(targets) < ab["count"] and free and d != "done":
        opts = [
            dec(
                f"sub:{i}",
                f"Target subroutine {i + 1} of {ice['name']} "
                f"({' '.join(describe_effect(e) for e in ice['subroutines'][i])})",
                "runner",
            )
            for i in free
        ]
        if ab.get("up_to") and targets:
            opts.append(dec("done", f"Break only the {len(targets)} chosen subroutine(s)", "runner"))
        return wait(opts)
    ctx.ev(
        f"{v['label']}: targets subroutine(s) {', '.join(str(i + 1) for i in sorted(targets))} of {ice['name']}.",
        ("rule_unbroken_subroutines_target_for_break_abilities", "rule_break_subroutine"),
        objects={"server": v["server"], "ice": v["pos"], "subroutines": sorted(targets)},
    )
    return None


@handles("step_paid_ability_resolution")
def _pa_resolve(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    b = ctx.board
    side = v["player"]
    p = b[side]
    act = v["action"]
    ch: dict = {}
    if act == "credit":
        setv(p, side, "credits", p["credits"] + 1, ch)
        rid = "rule_corp_basic_action_credit" if side == "corp" else "runner_basic_action_credit"
        ctx.ev(f"The {side.capitalize()} gains 1 credit.", (rid, "rule_basic_actions"), ch)
        return None
    if act == "draw":
        rid = "rule_corp_basic_action_draw" if side == "corp" else "runner_basic_action_card"
        ctx.ev(f"The {side.capitalize()} draws 1 card.", (rid, "rule_basic_actions"))
        return call("draw", {"player": side, "count": 1})
    if act.startswith("run:"):
        ctx.ev(f"The Runner runs {act[4:]}.", ("runner_basic_action_run", "rule_basic_actions"))
        return call("run", {"server": act[4:]})
    if act == "remove_tag":
        setv(p, "runner", "tags", p["tags"] - 1, ch)
        ctx.ev("The Runner removes 1 tag.", ("runner_basic_action_remove_tag", "rule_tagged_remove_tag"), ch)
        return None
    if act.startswith("advance:"):
        card = b["servers"][act[8:]]["content"]
        old = card.get("advancements", 0)
        card["advancements"] = old + 1
        ch[f"servers.{act[8:]}.content.advancements"] = [old, old + 1]
        ctx.ev(
            f"The Corp advances {card['name']} ({old + 1} advancement counter(s)).",
            ("corp_basic_action_advance", "rule_basic_actions"),
            ch,
        )
        return None
    if act.startswith("play:"):
        rid = "rule_corp_basic_action_operation" if side == "corp" else "runner_basic_action_event"
        ctx.ev(f"The {side.capitalize()} plays {v['card']}.", (rid, "rule_basic_actions"))
        card = next(c for c in reversed(p["set_aside"]) if c["name"] == v["card"])
        return call(
            "play_ability",
            {
                "instructions": card.get("effects", []),
                "i": 0,
                "controller": side,
                "source": v["card"],
                "card": v["card"],
            },
        )
    if v["kind"] == "ability":
        return _use_ability(ctx, v)
    if act.startswith("install:"):
        return _install(ctx, v, d)
    if act.startswith("break:"):
        run = ctx.run_frame()
        enc = run["v"]["enc"]
        i = int(act[6:])
        enc["broken"][i] = True
        ice = b["servers"][v["server"]]["ice"][v["pos"]]
        rules = ["rule_encounter_break_paw"]
        text = f"The Runner breaks subroutine {i + 1} of {ice['name']}."
        if all(enc["broken"]) and not enc["fully"]:
            enc["fully"] = True
            rules.append("rule_fully_break")
            text += f" All its subroutines are broken: {ice['name']} is fully broken."
        ctx.ev(text, rules, {f"servers.{v['server']}.ice[{v['pos']}].subroutines[{i}].broken": [False, True]})
        return None
    raise AssertionError(act)  # pragma: no cover


def _use_ability(ctx: Ctx, v: dict) -> Any:
    b = ctx.board
    prog = b["runner"]["rig"]["programs"][v["program"]]
    ab = prog["abilities"][v["ability"]]
    objs = {"program": v["program"], "card": prog["name"], "ability": v["ability"]}
    if ab["kind"] == "text":
        ctx.ev(
            f"{prog['name']}: resolved as written by the judge, outside the engine: {ab['text']}",
            ("rule_paid_ability",),
            applied=False,
            objects=objs,
        )
        return None
    if ab["kind"] == "strength":
        old = rig.strength(prog)
        prog["boost"] = prog.get("boost", 0) + ab["amount"]
        ctx.ev(
            f"{prog['name']} gets +{ab['amount']} strength for the remainder of the encounter "
            f"({old} -> {rig.strength(prog)}).",
            ("rule_icebreaker_strength_increase_implicit", "rule_icebreaker_strength_increase_implicit_link"),
            {f"runner.rig.programs[{v['program']}].strength": [old, rig.strength(prog)]},
            objects=objs,
        )
        return None
    enc = ctx.run_frame()["v"]["enc"]
    ice = b["servers"][v["server"]]["ice"][v["pos"]]
    ch = {}
    for i in sorted(v.get("targets", ())):
        enc["broken"][i] = True
        ch[f"servers.{v['server']}.ice[{v['pos']}].subroutines[{i}].broken"] = [False, True]
    rules = ["rule_encounter_break_paw", "rule_break_subroutine", "rule_icebreaker_interface_strength"]
    if ab.get("ice_subtype"):
        rules.append("rule_icebreaker_interface_subtype")
    subs = ", ".join(str(i + 1) for i in sorted(v.get("targets", ())))
    text = f"{prog['name']} (strength {rig.strength(prog)}) breaks subroutine(s) {subs} of {ice['name']} (strength {ice.get('strength', 0)})."
    if all(enc["broken"]) and not enc["fully"]:
        enc["fully"] = True
        rules.append("rule_fully_break")
        text += f" All its subroutines are broken: {ice['name']} is fully broken."
    ctx.ev(
        text,
        rules,
        ch,
        objects={**objs, "server": v["server"], "ice": v["pos"], "subroutines": sorted(v.get("targets", ()))},
    )
    return None


@handles("step_paid_ability_loop")
def _pa_loop(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("The ability has no more instructions to resolve.")
    return None


handles("step_paid_ability_complete")(_complete("Resolution of the paid ability is complete."))


# ----- traces (10.8.6) --------------------------------------------------------------------------


@handles("step_trace_initiated")
def _trace_init(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    v.setdefault("corp_spent", 0)
    v.setdefault("runner_spent", 0)
    ctx.ev(
        f"Trace {v['strength']} is initiated: base trace strength {v['strength']}.",
        ("rule_trace_attempt_and_base_trace_strength",),
    )
    return None


def _spend_options(side: str, credits: int) -> list[dict]:
    what = "trace strength" if side == "corp" else "link strength"
    return [
        dec(f"spend:{n}", f"The {side.capitalize()} spends {n} credit(s) to raise {what}", side)
        for n in range(credits + 1)
    ]


def _trace_spend(side: str) -> Handler:
    key = f"{side}_spent"
    rule = "rule_trace_strength" if side == "corp" else "rule_link_strength"

    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        have = ctx.spendable(side)  # the Runner may spend bad publicity credits in a run (10.6.2)
        if d is None and have > 0:
            return wait(_spend_options(side, have))
        n = int(d[6:]) if d else 0
        ch: dict = {}
        extra = ctx.pay(side, n, ch) if n else []
        f["v"][key] = n
        v = f["v"]
        if side == "corp":
            txt = f"The Corp spends {n} credit(s): trace strength {v['strength'] + n}."
        else:
            txt = f"The Runner spends {n} credit(s): link strength {ctx.board['runner']['link'] + n}."
        ctx.ev(txt, (rule, *extra), ch, objects={"player": side, "spent": n})
        return None

    return h


handles("step_trace_corp_spend_credits")(_trace_spend("corp"))
handles("step_trace_runner_spend_credits")(_trace_spend("runner"))


@handles("step_trace_determine_success")
def _trace_result(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    trace = v["strength"] + v["corp_spent"]
    link = ctx.board["runner"]["link"] + v["runner_spent"]
    ok = trace > link
    v["ret"] = v["success"] = ok
    word = "successful" if ok else "unsuccessful"
    ctx.ev(
        f"Trace strength {trace} against link strength {link}: the trace is {word}.",
        ("rule_compare_trace_and_link_strength", "rule_trace_conditional_abilities"),
        {"trace.success": [None, ok]},
    )
    effects = v["on_success"] if ok else v["on_failure"]
    if effects:
        return call(
            "conditional_ability",
            {
                "instructions": effects,
                "i": 0,
                "controller": "corp",
                "source": "the trace",
                "why": f"if {word}",
            },
        )
    return None


handles("step_trace_complete")(_complete("The trace is complete."))


# ----- accessing a card (7.2) -------------------------------------------------------------------


def _resolve_pick(ctx: Ctx, v: dict) -> list | None:
    """Turn a candidate key into a card location (HQ picks at random, seeded)."""
    key, server = v["pick"], v["server"]
    b = ctx.board
    if key == "hq":
        idx = [i for i, c in enumerate(b["corp"]["hand"]) if not c.get("accessed")]
        return ["hand", idx[ctx.rand(len(idx))]]
    for k, _label, ref in candidates(b, server, random_left=True):
        if k == key:
            return ref
    return None


@handles("step_card_accessed")
def _access_card(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    if "ref" not in v:
        v["ref"] = _resolve_pick(ctx, v)
    card = get_card(ctx.board, v["ref"])
    if card is None:
        ctx.ev("The chosen card is no longer there; nothing is accessed.", ("rule_moved_while_accessing",))
        return goto("step_access_complete")
    card["accessed"] = True
    where = {"hand": "HQ", "deck": "R&D", "discard": "Archives"}.get(v["ref"][0], v["server"])
    ctx.s.result["accessed"].append(card["name"])
    ctx.ev(
        f"The Runner accesses {card['name']} ({where}).",
        ("rule_accessing", "rule_accessing_who_can_look"),
        {"accessed": [None, card["name"]]},
    )
    if card.get("on_access"):
        return call(
            "conditional_ability",
            {
                "instructions": card["on_access"],
                "i": 0,
                "controller": "corp",
                "source": card["name"],
                "why": "when accessed",
                "accessed_from": {"hand": "hq", "deck": "rd", "discard": "archives"}.get(
                    v["ref"][0], "installed"
                ),
            },
        )
    return None


@handles("step_mid_access_ability")
def _mid_access(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    b = ctx.board
    card = get_card(b, v["ref"])
    if card is None:
        ctx.ev("The card left its location: the access ends.", ("rule_moved_while_accessing",))
        return goto("step_access_complete")
    cost = card.get("trash_cost")
    if cost is None:
        ctx.ev(
            f"{card['name']} has no trash cost; the Runner uses no mid-access ability.",
            ("rule_mid_access_ability_opportunity", "rule_paying_trash_costs"),
        )
        return None
    if v["ref"][0] == "discard":
        ctx.ev(
            f"{card['name']} is in Archives: the Runner cannot pay its trash cost.",
            ("rule_mid_access_ability_opportunity", "rule_trash_in_archives"),
        )
        return None
    if d is None:
        opts = []
        if ctx.spendable("runner") >= cost:
            opts.append(dec("pay_trash", f"Pay {cost} credit(s) to trash {card['name']}", "runner"))
        opts.append(dec("no_trash", f"Do not trash {card['name']}", "runner"))
        return wait(opts)
    if d == "no_trash":
        ctx.ev(f"The Runner does not pay to trash {card['name']}.", ("rule_mid_access_ability_opportunity",))
        return None
    ch: dict = {}
    rules = ctx.pay("runner", cost, ch)
    take_card(b, v["ref"])
    card.pop("accessed", None)
    card["faceup"] = True
    b["corp"]["discard"].append(card)
    ch["corp.discard"] = [len(b["corp"]["discard"]) - 1, len(b["corp"]["discard"])]
    ctx.s.result["trashed"].append(card["name"])
    ctx.ev(
        f"The Runner pays {cost} credit(s) and trashes {card['name']}.",
        ["rule_basic_trash_ability", "rule_access_trash", "rule_trashing", *rules],
        ch,
    )
    return call("checkpoint", {}, "step_access_complete")


def _steal(ctx: Ctx, f: dict, card: dict, extra: list[str]) -> Any:
    b = ctx.board
    take_card(b, f["v"]["ref"])
    card.pop("accessed", None)
    adv = card.pop("advancements", None)
    card["faceup"] = True
    b["runner"]["score_area"].append(card)
    ctx.s.result["stolen"].append(card["name"])
    pts = card.get("agenda_points", 0)
    ch = {"runner.score": [score(b, "runner") - pts, score(b, "runner")]}
    if adv:
        ch["advancements"] = [adv, 0]
    ctx.ev(
        f"The Runner steals {card['name']} ({pts} agenda point(s)).",
        [
            "rule_after_mid_access_agenda",
            "rule_score_steal",
            "rule_decline_to_steal",
            "rule_score_area_faceup",
            "rule_score_area_uninstalled",
            *extra,
        ],
        ch,
    )
    return call("checkpoint", {})


@handles("step_access_agenda")
def _access_agenda(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    card = get_card(ctx.board, v["ref"])
    if card is None or card.get("type") != "agenda":
        ctx.ev(
            "The accessed card is not an agenda; there is nothing to steal.",
            ("rule_after_mid_access_agenda",),
        )
        return None
    cost = card.get("steal_cost", 0)
    if not cost:
        return _steal(ctx, f, card, [])
    if d is None:
        opts = []
        if ctx.spendable("runner") >= cost:
            opts.append(dec("steal", f"Pay {cost} credit(s) to steal {card['name']}", "runner"))
        opts.append(dec("decline_steal", f"Decline to pay; do not steal {card['name']}", "runner"))
        return wait(opts)
    if d == "decline_steal":
        ctx.ev(
            f"The Runner declines the additional cost and does not steal {card['name']}.",
            ("rule_decline_to_steal", "rule_agenda_additional_cost"),
        )
        return None
    ch: dict = {}
    rules = ctx.pay("runner", cost, ch)
    ctx.ev(
        f"The Runner pays the additional cost of {cost} credit(s) to steal.",
        ["rule_agenda_additional_cost", *rules],
        ch,
    )
    return _steal(ctx, f, card, ["rule_agenda_additional_cost"])


@handles("step_access_complete")
def _access_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("The access is complete.", ("rule_accessing",))
    if not any(fr["s"] == "breach" for fr in ctx.s.frames):
        clear_access_marks(ctx.board)
    return END


# ----- breaching a server (7.5) -----------------------------------------------------------------


@handles("step_breaching_begins")
def _breach_begins(ctx: Ctx, f: dict, d: str | None) -> Any:
    f["v"].setdefault("taken", 0)
    f["v"].setdefault("limit", None)
    ctx.ev(f"The Runner begins breaching {f['v']['server']}.", ("rule_breaching_servers",))
    return None


@handles("step_flip_archives")
def _flip_archives(ctx: Ctx, f: dict, d: str | None) -> Any:
    if f["v"]["server"] != "archives":
        ctx.ev("The breached server is not Archives; no cards are turned faceup.", applied=False)
        return None
    n = 0
    for c in ctx.board["corp"]["discard"]:
        if not c.get("faceup"):
            c["faceup"] = True
            n += 1
    ctx.ev(
        f"All cards in Archives are turned faceup ({n} were facedown).",
        ("rule_breaching_archives",),
        {"corp.discard.facedown": [n, 0]} if n else {},
    )
    return None


@handles("step_determine_candidates_limit")
def _limit(ctx: Ctx, f: dict, d: str | None) -> Any:
    server = f["v"]["server"]
    if server in ("hq", "rd"):
        extra = f["v"].get("additional_access", 0)
        from_rig = [
            (c["name"], c["access_bonus"][server])
            for zone in ctx.board["runner"]["rig"].values()
            for c in zone
            if c.get("access_bonus", {}).get(server)
        ]
        limit = 1 + extra + sum(n for _, n in from_rig)
        f["v"]["limit"] = limit
        rules = ["rule_random_access_limit", "rule_default_random_access_limit"]
        text = f"The random access limit is {limit}"
        if limit > 1:
            rules.append("rule_increasing_random_access_limit")
            parts = ([f"{extra} from the run"] if extra else []) + [
                f"{n} from {name}" for name, n in from_rig
            ]
            text += f" (1 by default, +{', +'.join(parts)})"
        ctx.ev(text + ".", rules, objects={"server": server, "limit": limit})
    else:
        ctx.ev("The breached server is neither HQ nor R&D; there is no random access limit.", applied=False)
    return None


@handles("step_choose_candidate")
def _choose(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    left = v["limit"] is None or v["taken"] < v["limit"]
    cands = candidates(ctx.board, v["server"], random_left=left)
    rules = ["rule_candidates_presented", "rule_candidates_beginning_breach"]
    if not cands:
        if not left:
            rules.append("rule_after_reaching_random_access_limit")
        ctx.ev("There are no candidates left to choose.", rules)
        return goto("step_breach_complete")
    if d is None and len(cands) > 1:
        return wait([dec(f"access:{k}", label, "runner") for k, label, _ in cands])
    key = d[7:] if d else cands[0][0]
    v.pop("ref", None)
    sub = {"server": v["server"], "pick": key}
    if key in ("hq", "rd"):
        v["taken"] += 1
        rules += (
            ["rule_candidates_in_hq", "rule_candidates_breaching_hq"]
            if key == "hq"
            else ["rule_candidates_in_rnd", "rule_rnd_candidates_1_at_a_time"]
        )
        rules += ["rule_random_access_limit", "rule_counting_random_access_limit"]
    elif key.startswith("archives."):
        rules.append("rule_candidates_in_archives")
    else:  # an upgrade in the root, or a remote's installed card: the Runner picks the order
        rules += ["rule_candidates_in_server_root", "rule_server_root_order"]
    label = next(lbl for k, lbl, _ in cands if k == key)
    v["next"] = sub
    objs = {"server": v["server"], "candidate": key}
    if key in ("hq", "rd"):
        objs.update(taken=v["taken"], limit=v["limit"])
    ctx.ev(f"The Runner chooses: {label}.", rules, objects=objs)
    return None


@handles("step_access_candidate")
def _access_candidate(ctx: Ctx, f: dict, d: str | None) -> Any:
    sub = f["v"].pop("next")
    ctx.ev("The Runner accesses the chosen card.", ("rule_candidates_already_accessed",))
    return call("access", sub)


@handles("step_repeat_candidate_selection")
def _repeat(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("Return to choosing a candidate.")
    return goto("step_choose_candidate")


@handles("step_breach_complete")
def _breach_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    clear_access_marks(ctx.board)
    ctx.ev(f"The breach of {f['v']['server']} is complete.", ("rule_breaching_servers",))
    return END


# ----- a run (6.9) ------------------------------------------------------------------------------


def _ice(ctx: Ctx, v: dict) -> dict | None:
    srv = ctx.board["servers"].get(v["server"])
    if srv is None or v.get("pos") is None or v["pos"] >= len(srv["ice"]):
        return None
    return srv["ice"][v["pos"]]


@handles("step_initiation_announce")
def _announce(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    v.update(pos=None, moved=False, success=False, ended_by=None, enc=None)
    ctx.ev(
        f"The Runner announces a run on {v['server']}.",
        ("rule_announce_attacked_server", "rule_attacked_server"),
        {"run.server": [None, v["server"]]},
    )
    return None


@handles("step_initiation_bad_publicity")
def _run_bp(ctx: Ctx, f: dict, d: str | None) -> Any:
    bp = ctx.board["corp"]["bad_publicity"]
    r = ctx.board["runner"]
    ch: dict = {}
    rules = ["rule_bad_publicity", "rule_bad_publicity_beginning_run", "rule_bad_publicity_fund"]
    if bp:
        setv(r, "runner", "bad_publicity_fund", r["bad_publicity_fund"] + bp, ch)
        ctx.ev(
            f"The Corp has {bp} bad publicity: {bp} credit(s) go to the Runner's bad publicity fund for this run.",
            rules,
            ch,
        )
    else:
        ctx.ev("The Corp has no bad publicity: no bad publicity credits this run.", rules, applied=False)
    return None


@handles("step_initiation_formal_begin")
def _run_begins(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("The run formally begins.", ("rule_run",))
    return None


def _set_position(ctx: Ctx, f: dict) -> str:
    v = f["v"]
    ice = ctx.board["servers"][v["server"]]["ice"]
    v["pos"] = 0 if ice else None
    v["pos_set"] = True
    if ice:
        return f"The Runner's position is set at the outermost ice, {ice[0]['name']} (1 of {len(ice)})."
    return "The server has no ice: the Runner has no position at a piece of ice."


@handles("step_runner_position")
def _position(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev(_set_position(ctx, f), ("rule_position",))
    return None


@handles("step_initiation_paw", "step_after_jack_out_paw")
def _paw_rez_nonice(ctx: Ctx, f: dict, d: str | None) -> Any:
    return paw(ctx, f, d)


@handles("step_initiation_complete")
def _init_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    text = "" if v.get("pos_set") else _set_position(ctx, f) + " "
    if _ice(ctx, v) is not None:
        ctx.ev(text + "The Initiation Phase is complete: on to the Approach Ice Phase.", ("rule_position",))
        return None
    ctx.ev(
        text + "The Initiation Phase is complete: no ice, on to the Movement Phase.",
        ("rule_position", "rule_jack_out_before_approach"),
    )
    return goto("step_pass_ice")


@handles("step_approach_begins")
def _approach(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ice = _ice(ctx, v)
    n = len(ctx.board["servers"][v["server"]]["ice"])
    state = "rezzed" if ice["rezzed"] else "unrezzed"
    ctx.ev(
        f"The Runner approaches {ice['name']} ({state}; ice {v['pos'] + 1} of {n}, outermost first).",
        ("rule_approach_ice_phase",),
    )
    return None


@handles("step_approach_paw")
def _approach_paw(ctx: Ctx, f: dict, d: str | None) -> Any:
    return paw(ctx, f, d, ice=_ice(ctx, f["v"]))


@handles("step_approach_complete")
def _approach_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    ice = _ice(ctx, f["v"])
    if ice["rezzed"]:
        ctx.ev(f"{ice['name']} is rezzed: on to the Encounter Ice Phase.", ("rule_approach_ice_phase",))
        return None
    ctx.ev(
        f"{ice['name']} is unrezzed: it is not encountered; on to the Movement Phase.",
        ("rule_approach_ice_phase",),
    )
    return goto("step_pass_ice")


@handles("step_encounter_begins")
def _encounter(ctx: Ctx, f: dict, d: str | None) -> Any:
    ice = _ice(ctx, f["v"])
    n = len(ice["subroutines"])
    f["v"]["enc"] = {"broken": [False] * n, "next": 0, "fully": False}
    ctx.ev(
        f"The Runner encounters {ice['name']} ({n} subroutine(s), all unbroken).",
        ("rule_encounter_ice_phase", "rule_encounter_unbroken_sub_status"),
    )
    return None


def _legacy_break(b: dict, ice: dict) -> bool:
    """The board-level `break_cost` shortcut (one credit-priced break per subroutine) applies when
    the ice names a `break_cost`, or when the Runner has no icebreaker abilities installed."""
    return "break_cost" in ice or not rig.has_interface_abilities(b)


def _rig_options(ctx: Ctx, ice: dict, enc: dict) -> list[dict]:
    """`use:P.A` decisions: every usable break / strength / text ability on an installed program."""
    out = []
    have = ctx.spendable("runner")
    for p, prog in enumerate(ctx.board["runner"]["rig"]["programs"]):
        for a, ab in enumerate(prog.get("abilities", ())):
            if rig.unusable(prog, ab, ice, enc["broken"], have) is None:
                label = f"{prog['name']}: {rig.describe_ability(ab)}"
                if ab["kind"] != "text":
                    label += f" (strength {rig.strength(prog)})"
                else:
                    label += " (resolve by hand)"
                out.append(dec(f"use:{p}.{a}", label, "runner"))
    return out


@handles("step_encounter_paw")
def _encounter_paw(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ice = _ice(ctx, v)
    enc = v["enc"]
    if not ice["subroutines"]:
        if not enc["fully"]:
            enc["fully"] = True
            ctx.ev(
                f"{ice['name']} has no subroutines: it is fully broken when this window closes.",
                ("rule_fully_break_no_subroutines", "rule_fully_break"),
            )
        return None
    cost = ice.get("break_cost", 1)
    if d == "pass":
        ctx.ev("The Runner breaks no more subroutines; the window closes.", ("rule_encounter_break_paw",))
        return None
    if d is not None:
        ref = rig.AbilityRef.parse(d)
        if ref is not None:
            prog = ctx.board["runner"]["rig"]["programs"][ref.program]
            ab = prog["abilities"][ref.ability]
            return call(
                "paid_ability",
                {
                    "kind": "ability",
                    "player": "runner",
                    "action": d,
                    "program": ref.program,
                    "ability": ref.ability,
                    "label": f"{prog['name']}: {rig.describe_ability(ab)}",
                    "server": v["server"],
                    "pos": v["pos"],
                },
                "stay",
            )
        i = int(d[6:])  # break:i (legality was checked against the listed decisions)
        return call(
            "paid_ability",
            {
                "kind": "break",
                "player": "runner",
                "action": d,
                "label": _break_label(ice, i, cost),
                "server": v["server"],
                "pos": v["pos"],
            },
            "stay",
        )
    opts = []
    if _legacy_break(ctx.board, ice) and ctx.spendable("runner") >= cost:
        broken = enc["broken"]
        opts = [
            dec(f"break:{i}", _break_label(ice, i, cost), "runner")
            for i in range(len(ice["subroutines"]))
            if not broken[i]
        ]
    if not all(enc["broken"]):
        opts += _rig_options(ctx, ice, enc)
    if not opts:
        why = "all subroutines are broken" if all(enc["broken"]) else "the Runner cannot break more"
        ctx.ev(f"Paid ability window: {why}; the window closes.", ("rule_encounter_break_paw",))
        return None
    return wait([*opts, dec("pass", "Stop breaking; unbroken subroutines will resolve", "runner")])


def _break_label(ice: dict, i: int, cost: int) -> str:
    text = " ".join(describe_effect(e) for e in ice["subroutines"][i])
    return f"Break subroutine {i + 1} ({text}) for {cost} credit(s)"


@handles("step_resolve_subroutine")
def _resolve_sub(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ice = _ice(ctx, v)
    enc = v["enc"]
    for i in range(enc["next"], len(ice["subroutines"])):
        if not enc["broken"][i]:
            enc["next"] = i + 1
            ctx.ev(
                f"The Corp resolves unbroken subroutine {i + 1} of {ice['name']}.",
                ("rule_encounter_sub_resolve",),
            )
            return call(
                "subroutine",
                {
                    "instructions": ice["subroutines"][i],
                    "i": 0,
                    "controller": "corp",
                    "source": f"subroutine {i + 1} of {ice['name']}",
                },
                "step_resolve_subroutine_loop",
            )
    enc["next"] = len(ice["subroutines"])
    rules = ["rule_encounter_sub_resolve"]
    if enc["fully"]:
        rules.append("rule_fully_break")
        text = f"{ice['name']} was fully broken: no subroutine resolves."
    else:
        text = "No unbroken subroutines remain to resolve."
    ctx.ev(text, rules)
    return goto("step_encounter_complete")


@handles("step_resolve_subroutine_loop")
def _resolve_loop(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("Return to resolving the next unbroken subroutine.")
    return goto("step_resolve_subroutine")


@handles("step_encounter_complete")
def _encounter_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    ended = rig.clear_boosts(ctx.board)
    text = "The Encounter Ice Phase is complete."
    rules = ["rule_encounter_ice_next_phase"]
    if ended:
        text += " Strength added for the encounter ends."
        rules.append("rule_icebreaker_strength_increase_implicit")
    ctx.ev(text, rules)
    return None


@handles("step_pass_ice")
def _pass_ice(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ice = _ice(ctx, v)
    if ice is None:
        ctx.ev("The Runner's position is not at a piece of ice: nothing is passed.", ("rule_movement_phase",))
        return None
    n = len(ctx.board["servers"][v["server"]]["ice"])
    text = f"The Runner passes {ice['name']}."
    if v["pos"] == n - 1:
        text += " It was the innermost ice: the Runner has passed all ice protecting the server."
    ctx.ev(text, ("rule_movement_phase",))
    return None


@handles("step_before_jack_out_paw")
def _paw_p_only(ctx: Ctx, f: dict, d: str | None) -> Any:
    return paw(ctx, f, d, rez=False)


@handles("step_jack_out_choice")
def _jack_out(ctx: Ctx, f: dict, d: str | None) -> Any:
    if d is None:
        return wait(
            [
                dec("continue", "Continue the run", "runner"),
                dec("jack_out", "Jack out (end the run)", "runner"),
            ]
        )
    if d == "continue":
        ctx.ev("The Runner does not jack out.", ("rule_jacking_out",))
        return None
    f["v"]["ended_by"] = "jack_out"
    ctx.ev(
        "The Runner jacks out: play moves to the Run Ends Phase.",
        ("rule_jacking_out", "rule_jack_out_after_passing_ice"),
        {"run.ended_by": [None, "jack_out"]},
    )
    return goto(*RUN_ENDS)


@handles("step_move_position")
def _move(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    n = len(ctx.board["servers"][v["server"]]["ice"])
    if v["pos"] is not None and v["pos"] + 1 < n:
        v["pos"] += 1
        v["moved"] = True
        ice = ctx.board["servers"][v["server"]]["ice"][v["pos"]]
        ctx.ev(
            f"The Runner moves inward to {ice['name']} (ice {v['pos'] + 1} of {n}).",
            ("rule_position",),
            {"run.position": [v["pos"] - 1, v["pos"]]},
        )
    else:
        v["moved"] = False
        old = v["pos"]
        v["pos"] = None
        ctx.ev(
            "There is no position further inward: the Runner moves on toward the server.",
            ("rule_position",),
            {"run.position": [old, None]} if old is not None else {},
        )
    return None


@handles("step_approach_new_ice")
def _approach_new(ctx: Ctx, f: dict, d: str | None) -> Any:
    if f["v"]["moved"]:
        ctx.ev(
            "The Runner moved to a new position: return to the Approach Ice Phase.", ("rule_movement_phase",)
        )
        f["v"]["moved"] = False
        return goto("step_approach_begins")
    ctx.ev(
        "The Runner did not move to a new position: continue to approach the server.",
        ("rule_movement_phase",),
    )
    return None


@handles("step_approach_server")
def _approach_server(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev(f"The Runner approaches {f['v']['server']}.", ("rule_movement_phase",))
    return None


@handles("step_movement_complete")
def _movement_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("The Movement Phase is complete: on to the Success Phase.", ("rule_movement_phase",))
    return None


@handles("step_run_declared_successful")
def _success(ctx: Ctx, f: dict, d: str | None) -> Any:
    f["v"]["success"] = True
    ctx.ev(
        "The run is declared successful.",
        ("rule_success_phase", "rule_successful_run"),
        {"run.successful": [False, True]},
    )
    return None


@handles("step_breach")
def _breach(ctx: Ctx, f: dict, d: str | None) -> Any:
    srv = f["v"]["server"]
    if srv not in ctx.board["servers"]:
        ctx.ev(f"{srv} no longer exists: there is nothing to breach.")
        return None
    ctx.ev(f"The Runner breaches {srv}.", ("rule_breaching_servers",), objects={"server": srv})
    return call("breach", {"server": srv, "additional_access": f["v"].get("additional_access", 0)})


@handles("step_success_complete")
def _success_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("The Success Phase is complete.", ("rule_success_phase",))
    return None


@handles("step_open_priority_windows_closed")
def _windows_closed(ctx: Ctx, f: dict, d: str | None) -> Any:
    rules = ["rule_run_ends_phase", "rule_run_ends_process_priority_windows"]
    if f["v"]["ended_by"] == "end_the_run":
        rules.append("rule_run_ends_close_paws")
    ctx.ev("Any priority windows open when the run moved to this phase are closed.", rules)
    return None


@handles("step_run_ends_bad_publicity")
def _run_ends_bp(ctx: Ctx, f: dict, d: str | None) -> Any:
    r = ctx.board["runner"]
    ch: dict = {}
    n = r["bad_publicity_fund"]
    setv(r, "runner", "bad_publicity_fund", 0, ch)
    rules = [
        "rule_run_ends_lose_bad_pub_credits",
        "rule_bad_publicity_gone_in_run_ends_phase",
        "rule_bad_publicity_fund",
        "rule_bad_publicity_beginning_run",
    ]
    ctx.ev(
        f"{n} unspent bad publicity credit(s) return to the bank."
        if n
        else "No bad publicity credits are left.",
        rules,
        ch,
    )
    return None


@handles("step_run_declared_unsuccessful")
def _unsuccessful(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    if v["success"]:
        v["result"] = "successful"
        ctx.ev(
            "The Success Phase was reached: the run is not unsuccessful.",
            ("rule_unsuccessful_run", "rule_not_unsuccessful_when_reached_success_phase"),
        )
    elif v["server"] not in ctx.board["servers"]:
        v["result"] = "neither"
        ctx.ev(
            "The attacked server no longer exists: the run is neither successful nor unsuccessful.",
            ("rule_unsuccessful_run", "rule_server_cease_to_exist_unsuccesful_exception"),
        )
    else:
        v["result"] = "unsuccessful"
        ctx.ev("The run becomes unsuccessful.", ("rule_unsuccessful_run",), {"run.successful": [None, False]})
    return None


@handles("step_run_complete")
def _run_complete(ctx: Ctx, f: dict, d: str | None) -> Any:
    v = f["v"]
    ctx.s.result["runs"].append(
        {"server": v["server"], "result": v.get("result", "neither"), "ended_by": v["ended_by"]}
    )
    ctx.ev(f"The run on {v['server']} is complete ({v.get('result', 'neither')}).", ("rule_run_ends_phase",))
    return END


# ----- turns (5.6, 5.7) -------------------------------------------------------------------------


def _gain_clicks(side: str) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        p = ctx.board[side]
        ch: dict = {}
        if ctx.board["turn"] != side:
            ch["turn"] = [ctx.board["turn"], side]
            ctx.board["turn"] = side
        setv(p, side, "clicks", p["clicks"] + p["allotted_clicks"], ch)
        ctx.ev(
            f"The {side.capitalize()} gains {p['allotted_clicks']} allotted [click].",
            ("rule_allotted_clicks",),
            ch,
        )
        return None

    return h


handles("step_corp_turn_allotted_clicks")(_gain_clicks("corp"))
handles("step_runner_turn_allotted_clicks")(_gain_clicks("runner"))


@handles("step_corp_turn_draw_phase_paw", "step_corp_turn_action_phase_paw")
def _corp_paw_rs(ctx: Ctx, f: dict, d: str | None) -> Any:
    return paw(ctx, f, d, score_ok=True)


handles(
    "step_corp_turn_discard_phase_paw",
    "step_runner_turn_action_phase_paw",
    "step_runner_turn_loop_paw",
    "step_runner_turn_discard_phase_paw",
)(_paw_rez_nonice)
handles("step_corp_turn_recurring_credits_refill", "step_runner_turn_recurring_credits_refill")(
    _noop("No recurring credits are modeled; nothing refills.", "rule_sec_recurring")
)
handles("step_corp_turn_turn_formal_begin")(
    _noop("The Corp's turn formally begins.", "rule_begin_end_turn_step")
)
handles("step_runner_turn_recurring_formal_begin")(
    _noop("The Runner's turn formally begins.", "rule_begin_end_turn_step")
)
handles("step_corp_turn_draw_phase_complete")(
    _noop("The Corp's draw phase is complete.", "rule_mandatory_draw")
)
handles("step_corp_turn_action_phase_end")(
    _noop("The Corp's action phase formally ends.", "rule_action_phase_duration")
)
handles("step_runner_turn_action_phase_end")(
    _noop("The Runner's action phase formally ends.", "rule_action_phase_duration")
)
handles("step_corp_turn_action_phase_complete")(
    _noop("The Corp's action phase is complete.", "rule_action_phase_duration")
)
handles("step_runner_turn_action_phase_complete")(
    _noop("The Runner's action phase is complete.", "rule_action_phase_duration")
)
handles("step_corp_turn_formal_end")(_noop("The Corp's turn formally ends.", "rule_begin_end_turn_step"))
handles("step_runner_turn_formal_end")(_noop("The Runner's turn formally ends.", "rule_begin_end_turn_step"))


@handles("step_corp_turn_mandatory_draw")
def _mandatory_draw(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("The Corp performs their mandatory draw.", ("rule_mandatory_draw",))
    return call("draw", {"player": "corp", "count": 1})


def _actions(ctx: Ctx, side: str) -> list[dict]:
    b = ctx.board
    p = b[side]
    opts = [dec("credit", "[click]: Gain 1 credit", side)]
    if p["deck"]:
        opts.append(dec("draw", "[click]: Draw 1 card", side))
    ptype = "operation" if side == "corp" else "event"
    for i, c in enumerate(p["hand"]):
        if c.get("type") == ptype and c.get("play_cost", 0) <= p["credits"]:
            opts.append(
                dec(f"play:{i}", f"[click]: Play {c['name']} ({c.get('play_cost', 0)} credits)", side)
            )
    opts += _install_options(b, side)
    if side == "corp":
        if p["credits"] >= 1:
            for name, srv in b["servers"].items():
                c = srv.get("content")
                if c and c.get("type") == "agenda":
                    opts.append(
                        dec(f"advance:{name}", f"[click], 1 credit: Advance {c['name']} in {name}", side)
                    )
    else:
        for name in b["servers"]:
            opts.append(dec(f"run:{name}", f"[click]: Run {name}", side))
        if p["tags"] and p["credits"] >= 2:
            opts.append(dec("remove_tag", "[click], 2 credits: Remove 1 tag", side))
    return opts


def _new_remote(b: dict) -> str:
    used = {int(n[6:]) for n in b["servers"] if n.startswith("remote")}
    return f"remote{next(i for i in range(1, 100) if i not in used)}"


def _install_options(b: dict, side: str) -> list[dict]:
    """The install basic actions (5.2.6d, 5.2.7d) for the cards in HQ / the grip."""
    p = b[side]
    out = []
    if side == "runner":
        r = p
        for i, c in enumerate(p["hand"]):
            t = c.get("type")
            if t not in ("program", "hardware", "resource"):
                continue
            cost = c.get("install_cost", 0)
            if cost > r["credits"] or (t == "program" and c.get("memory_cost", 0) > r["memory_limit"]):
                continue
            out.append(dec(f"install:{i}", f"[click]: Install {c['name']} ({cost} credits)", side))
        return out
    servers = b["servers"]
    new = _new_remote(b) if len([n for n in servers if n.startswith("remote")]) < 30 else None
    for i, c in enumerate(p["hand"]):
        t = c.get("type")
        if t == "ice":
            for name, srv in [*servers.items(), *([(new, {"ice": []})] if new else [])]:
                cost = len(srv["ice"])
                if cost <= p["credits"]:
                    where = "a new remote server" if name == new else name
                    out.append(
                        dec(
                            f"install:{i}@{'new' if name == new else name}",
                            f"[click]: Install {c['name']} protecting {where} ({cost} credits: "
                            f"{cost} ice already protect it)",
                            side,
                        )
                    )
        elif t in ("agenda", "asset"):
            for name, srv in servers.items():
                if name.startswith("remote") and srv.get("content") is None:
                    out.append(dec(f"install:{i}@{name}", f"[click]: Install {c['name']} in {name}", side))
            if new:
                out.append(
                    dec(f"install:{i}@new", f"[click]: Install {c['name']} in a new remote server", side)
                )
        elif t == "upgrade":
            for name in [*servers, *([new] if new else [])]:
                where = "the root of a new remote server" if name == new else f"the root of {name}"
                out.append(
                    dec(
                        f"install:{i}@{'new' if name == new else name}",
                        f"[click]: Install {c['name']} in {where}",
                        side,
                    )
                )
    return out


def _install(ctx: Ctx, v: dict, d: str | None) -> Any:
    """Resolve an install action: place the card (paid for at the cost step)."""
    b = ctx.board
    side = v["player"]
    p = b[side]
    ch: dict = {}
    if side == "runner":
        card = p["set_aside"][-1]
        t = card["type"]
        r = p
        if t == "program":
            progs = r["rig"]["programs"]
            over = memory_used(r["rig"]) + card.get("memory_cost", 0) - r["memory_limit"]
            if d is not None and d.startswith("trash:"):
                gone = progs.pop(int(d[6:]))
                gone.pop("boost", None)
                r["discard"].append(gone)
                ch["runner.rig.programs"] = [len(progs) + 1, len(progs)]
                ctx.ev(
                    f"To stay within the memory limit, the Runner trashes {gone['name']}.",
                    ("rule_install_trash_programs", "rule_program_install_exceed_memory_limit"),
                    ch,
                    objects={"card": gone["name"]},
                )
                ch = {}
                over = memory_used(r["rig"]) + card.get("memory_cost", 0) - r["memory_limit"]
            if over > 0:
                return wait(
                    [
                        dec(
                            f"trash:{j}",
                            f"Trash {c['name']} ({c.get('memory_cost', 0)} [mu]) to make room",
                            "runner",
                        )
                        for j, c in enumerate(progs)
                    ]
                )
        zone = {"program": "programs", "hardware": "hardware", "resource": "resources"}[t]
        p["set_aside"].pop()
        r["rig"][zone].append(card)
        ch[f"runner.rig.{zone}"] = [len(r["rig"][zone]) - 1, len(r["rig"][zone])]
        rules = ["runner_basic_action_install", "rule_installing", "rule_install_cost"]
        text = f"The Runner installs {card['name']}."
        if t == "program":
            rules += ["rule_program_memory_cost", "rule_memory_limit"]
            text += f" Memory: {memory_used(r['rig'])} of {r['memory_limit']} [mu] used."
        ctx.ev(text, rules, ch, objects={"card": card["name"], "zone": zone})
        return None
    card = p["set_aside"].pop()
    server = v["server"]
    if server not in b["servers"]:
        b["servers"][server] = {"ice": [], "root": [], "content": None}
        ch["servers"] = [None, server]
    srv = b["servers"][server]
    card["rezzed"] = False
    rules = [
        "rule_corp_basic_action_install",
        "rule_installing",
        "rule_corp_install_choose_destination_server",
    ]
    if card["type"] == "ice":
        srv["ice"].insert(0, card)  # the outermost position (4.6.9d)
        card.setdefault("rez_cost", 0)
        card.setdefault("subroutines", [])
        card.setdefault("subtypes", [])
        card.setdefault("strength", 0)
        where = f"protecting {server}, outermost (ice {len(srv['ice'])} of {len(srv['ice'])} counting inward from the server: position 1 of {len(srv['ice'])})"
        rules += ["rule_ice_install_outermost", "rule_install_cost_ice", "rule_install_cost_link"]
        ch[f"servers.{server}.ice"] = [len(srv["ice"]) - 1, len(srv["ice"])]
    elif card["type"] == "upgrade":
        srv["root"].append(card)
        where = f"in the root of {server}"
        rules += ["rule_upgrade_install", "rule_no_install_cost"]
        ch[f"servers.{server}.root"] = [len(srv["root"]) - 1, len(srv["root"])]
    else:
        srv["content"] = card
        where = f"in {server}"
        rules += [
            "rule_agendas_in_roots" if card["type"] == "agenda" else "rule_asset_root_remote",
            "rule_no_install_cost",
        ]
        ch[f"servers.{server}.content"] = [None, card["name"]]
    ctx.ev(
        f"The Corp installs {card['name']} {where}, unrezzed.",
        rules,
        ch,
        objects={"card": card["name"], "server": server},
    )
    return None


def _take_action(side: str, end_ids: tuple[str, ...]) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        p = ctx.board[side]
        if p["clicks"] <= 0:
            ctx.ev(
                f"The {side.capitalize()} has no unspent [click]: the action phase moves on.",
                ("rule_action_phase_duration",),
            )
            return goto(*end_ids)
        opts = _actions(ctx, side)
        if d is None:
            return wait(opts)
        label = next(o["label"] for o in opts if o["id"] == d)
        ctx.ev(
            f"The {side.capitalize()} takes an action: {label}.",
            ("rule_initiate_action", "rule_basic_actions"),
        )
        return call("paid_ability", {"kind": "action", "player": side, "action": d, "label": label})

    return h


handles("step_corp_turn_action")(
    _take_action("corp", ("step_corp_turn_action_phase_end", "step_corp_turn_action_phase_complete"))
)
handles("step_runner_turn_action")(
    _take_action("runner", ("step_runner_turn_action_phase_end", "step_runner_turn_action_phase_complete"))
)


@handles("step_corp_turn_action_phase_loop")
def _corp_loop(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("Return to the action phase's paid ability window.")
    return goto("step_corp_turn_action_phase_paw")


@handles("step_runner_turn_action_loop")
def _runner_loop(ctx: Ctx, f: dict, d: str | None) -> Any:
    ctx.ev("Return to the action phase's paid ability window.")
    return goto("step_runner_turn_loop_paw")


def _discard(side: str) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        b = ctx.board
        p = b[side]
        limit = max_hand(b, side)
        if side == "runner" and limit < 0 and d is None:
            return win(
                ctx,
                "corp",
                "The Runner's maximum hand size is below 0 at the discard step",
                ["rule_flatline", "rule_maximum_hand_size"],
            )
        if d is not None:
            i = int(d[8:])
            card = p["hand"].pop(i)
            p["discard"].append(card)
            ch = {f"{side}.hand": [len(p["hand"]) + 1, len(p["hand"])]}
            ctx.ev(
                f"The {side.capitalize()} discards {card['name']}.",
                ("rule_maximum_hand_size", "rule_discard_phase_discarding"),
                ch,
            )
            return STAY
        if len(p["hand"]) > limit:
            return wait([dec(f"discard:{i}", f"Discard {c['name']}", side) for i, c in enumerate(p["hand"])])
        ctx.ev(
            f"The {side.capitalize()} holds {len(p['hand'])} card(s), within the maximum hand size of {limit}.",
            ("rule_maximum_hand_size",),
        )
        return None

    return h


handles("step_corp_turn_discard")(_discard("corp"))
handles("step_runner_turn_discard")(_discard("runner"))


def _lose_clicks(side: str) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        p = ctx.board[side]
        ch: dict = {}
        n = p["clicks"]
        setv(p, side, "clicks", 0, ch)
        ctx.ev(
            f"The {side.capitalize()} loses {n} unspent [click]."
            if n
            else f"The {side.capitalize()} has no unspent [click].",
            ("rule_gain_spend_lose_clicks",),
            ch,
        )
        return None

    return h


handles("step_corp_turn_lose_unspent_clicks")(_lose_clicks("corp"))
handles("step_runner_turn_lose_unspent_clicks")(_lose_clicks("runner"))


def _turn_complete(side: str) -> Handler:
    def h(ctx: Ctx, f: dict, d: str | None) -> Any:
        other = opponent(side)
        ch = {"turn": [side, other]}
        ctx.board["turn"] = other
        ctx.ev(
            f"The {side.capitalize()}'s turn is complete; play proceeds to the {other.capitalize()}'s turn.",
            ("rule_begin_end_turn_step",),
            ch,
        )
        return END

    return h


handles("step_corp_turn_complete")(_turn_complete("corp"))
handles("step_runner_turn_complete")(_turn_complete("runner"))
