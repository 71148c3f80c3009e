"""Breach and access beyond one card (CR 7.3-7.4): R&D top-down with an access limit above 1,
HQ at random without repeats, root upgrades in the order the Runner chooses, each choice citing
the precise candidate rule; a Snare!-like optional cost on access that does not apply from
Archives; and known rule fixes (bad publicity credits in a trace during a run, operations to
Archives faceup, the run recorded when the game ends mid-run)."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine

board = engine_board
ids = decision_ids


def finish(s, pick=lambda legal: legal[0]):
    for _ in range(200):
        if s.finished:
            return s
        s, _ = engine.apply(s, pick(ids(s)))
    raise AssertionError("did not finish")


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


AGENDA = {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 2, "advancement_requirement": 2}


def test_rd_access_three_with_an_agenda_second(doc):
    b = board(corp={"deck": ["Top", AGENDA, "Third", "Fourth"]})
    s = engine.start(b, "breach", doc, {"server": "rd", "additional_access": 2})
    s = finish(s)
    assert s.outcome.accessed == ["Top", "Hostile Takeover", "Third"]  # top down, 3 cards (7.4.7)
    assert s.outcome.stolen == ["Hostile Takeover"]
    limit = next(e for e in s.trace if e.step == "step_determine_candidates_limit")
    assert limit.objects["limit"] == 3 and "rule_increasing_random_access_limit" in limit.rules
    picks = [e for e in s.trace if e.step == "step_choose_candidate" and e.objects.get("candidate") == "rd"]
    assert len(picks) == 3 and all("rule_candidates_in_rnd" in e.rules for e in picks)
    assert [e.objects["taken"] for e in picks] == [1, 2, 3]
    # the cards not stolen stay in R&D in order, unmarked
    assert [c["name"] for c in s.board["corp"]["deck"]] == ["Top", "Third", "Fourth"]
    assert not any(c.get("accessed") for c in s.board["corp"]["deck"])


def test_rig_access_bonus_raises_the_limit(doc):
    b = board(
        corp={"deck": ["A", "B", "C"]},
        runner={"rig": {"hardware": [{"name": "R&D Interface", "access_bonus": {"rd": 1}}]}},
    )
    s = finish(engine.start(b, "breach", doc, {"server": "rd"}))
    assert s.outcome.accessed == ["A", "B"]


@pytest.mark.parametrize("seed", range(6))
def test_hq_access_two_never_repeats(doc, seed):
    b = board(corp={"hand": ["One", "Two", "Three"]})
    s = finish(engine.start(b, "breach", doc, {"server": "hq", "additional_access": 1}, seed=seed))
    acc = s.outcome.accessed
    assert len(acc) == 2 and len(set(acc)) == 2 and set(acc) <= {"One", "Two", "Three"}
    picks = [e for e in s.trace if e.step == "step_choose_candidate" and e.objects.get("candidate") == "hq"]
    assert all("rule_candidates_in_hq" in e.rules for e in picks)


def test_hq_access_limit_above_hand_size_accesses_each_once(doc):
    b = board(corp={"hand": ["One", "Two"]})
    s = finish(engine.start(b, "breach", doc, {"server": "hq", "additional_access": 4}))
    assert sorted(s.outcome.accessed) == ["One", "Two"]


def test_root_upgrades_in_the_runners_order(doc):
    ups = [
        {"name": "Ash", "type": "upgrade", "trash_cost": 3},
        {"name": "Caprice", "type": "upgrade", "trash_cost": 3},
    ]
    b = board(servers={"remote1": {"root": ups, "content": AGENDA}})
    s = engine.start(b, "breach", doc, {"server": "remote1"})
    assert ids(s) == ["access:root.ash", "access:root.caprice", "access:content"]
    for want in ("access:root.caprice", "access:content"):
        while want not in ids(s):
            s, _ = engine.apply(s, "no_trash" if "no_trash" in ids(s) else ids(s)[0])
        s, _ = engine.apply(s, want)
    s = finish(s, lambda legal: "no_trash" if "no_trash" in legal else legal[0])
    assert s.outcome.accessed == ["Caprice", "Hostile Takeover", "Ash"]
    root = [
        e
        for e in s.trace
        if e.step == "step_choose_candidate" and e.objects.get("candidate", "").startswith("root")
    ]
    assert root and all("rule_candidates_in_server_root" in e.rules for e in root)


SNARE = {
    "name": "Snare!",
    "type": "asset",
    "trash_cost": 0,
    "on_access": [
        {
            "effect": "if_accessed_from",
            "zones": ["hq", "rd"],
            "effects": [
                {
                    "effect": "may_pay",
                    "amount": 4,
                    "effects": [{"effect": "give_tags", "amount": 1}, {"effect": "net_damage", "amount": 3}],
                }
            ],
        }
    ],
}


def test_snare_optional_cost_on_access_from_rd(doc):
    b = board(corp={"deck": [SNARE], "credits": 5})
    s = engine.start(b, "breach", doc, {"server": "rd"})
    assert ids(s) == ["pay", "dont_pay"] and engine.legal_decisions(s)[0]["player"] == "corp"
    paid, _ = engine.apply(s, "pay")
    assert paid.board["corp"]["credits"] == 1
    assert paid.board["runner"]["tags"] == 1 and len(paid.board["runner"]["hand"]) == 2
    declined, ev = engine.apply(s, "dont_pay")
    assert declined.board["runner"]["tags"] == 0 and declined.board["corp"]["credits"] == 5
    poor = engine.start(board(corp={"deck": [SNARE], "credits": 3}), "breach", doc, {"server": "rd"})
    assert "pay" not in ids(poor) and poor.board["runner"]["tags"] == 0


def test_snare_does_nothing_from_archives(doc):
    b = board(corp={"discard": [SNARE], "credits": 9})
    s = finish(engine.start(b, "breach", doc, {"server": "archives"}))
    assert s.board["runner"]["tags"] == 0 and s.board["corp"]["credits"] == 9
    cond = [e for e in s.trace if e.objects.get("accessed_from") == "archives"]
    assert cond and cond[0].applied is False


def test_bad_publicity_credits_raise_link_in_a_run_trace(doc):
    raven = {
        "name": "Data Raven",
        "rezzed": True,
        "subroutines": [
            {"effect": "trace", "strength": 3, "on_success": [{"effect": "give_tags", "amount": 1}]}
        ],
    }
    b = board(
        corp={"credits": 0, "bad_publicity": 2}, runner={"credits": 0}, servers={"hq": {"ice": [raven]}}
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    s, _ = engine.apply(s, "pass")  # no breaker: the subroutine resolves
    assert ids(s) == ["spend:0", "spend:1", "spend:2"]  # the 2 fund credits (10.6.2)
    s, ev = engine.apply(s, "spend:2")
    assert s.board["runner"]["bad_publicity_fund"] == 0
    spent = [e for e in ev if "runner.bad_publicity_fund" in e.changes]
    assert spent and spent[0].changes["runner.bad_publicity_fund"] == [2, 0]
    assert {"rule_bad_publicity_fund", "rule_bad_publicity_in_credit_pool"} & set(spent[0].rules)
    assert s.board["runner"]["tags"] == 1  # 3 > 0 + 2


def test_operation_goes_to_archives_faceup(doc):
    op = {
        "name": "Hedge Fund",
        "type": "operation",
        "play_cost": 5,
        "effects": [{"effect": "gain_credits", "amount": 9}],
    }
    b = board(turn="corp", corp={"hand": [op], "credits": 5, "clicks": 3})
    s = engine.start(b, "corp_turn", doc)
    s = finish(
        s,
        lambda legal: next(
            (x for x in legal if x.startswith("play:")), legal[-1] if "pass" in legal else legal[0]
        ),
    )
    hf = [c for c in s.board["corp"]["discard"] if c["name"] == "Hedge Fund"]
    assert hf and hf[0]["faceup"] is True
    assert "Hedge Fund" in s.outcome.archives_faceup


def test_game_end_mid_run_records_the_run(doc):
    katana = {"name": "Neural Katana", "rezzed": True, "subroutines": [{"effect": "net_damage", "amount": 3}]}
    b = board(runner={"hand": 1}, servers={"hq": {"ice": [katana]}})
    s = finish(
        engine.start(b, "run", doc, {"server": "hq"}), lambda legal: "pass" if "pass" in legal else legal[0]
    )
    assert s.outcome.winner == "corp"
    assert s.outcome.run == "neither" and s.outcome.runs[0].ended_by == "game_end"


def test_additional_access_param_is_validated(doc):
    with pytest.raises(engine.BoardError, match="additional_access"):
        engine.start(board(), "run", doc, {"server": "rd", "additional_access": -1})
