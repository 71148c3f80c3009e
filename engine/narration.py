"""Steps the engine walks but only narrates, as data: nothing on a board in the vocabulary makes
their rule apply, so each is reported as walked and not applied (`Event.applied` false).

Each entry: step stable id -> (the text, the rule ids cited). The coverage report lists these
steps apart from the ones whose handlers change the board (`engine.coverage`).
"""

from __future__ import annotations

from .machine import handles, narrate

NARRATED: dict[str, tuple[str, tuple[str, ...]]] = {
    # checkpoints (10.3.1)
    "step_checkpoint_conditional_abilities": (
        "No conditional ability in the board vocabulary waits on this checkpoint.",
        (),
    ),
    "step_checkpoint_duration_abilities": ("No lingering effect with a duration is in play.", ()),
    "step_checkpoint_uniqueness": ("No two active unique cards share a name.", ()),
    "step_checkpoint_card_restrictions": ("No object breaks a restriction of the rules.", ()),
    "step_checkpoint_hosted_on_agenda": ("No hosted objects on agendas to trash.", ()),
    "step_checkpoint_hosted_on_installed_cards": ("No hosted objects on uninstalled cards.", ()),
    "step_checkpoint_vacant_position": ("No vacant ice position to remove.", ()),
    "step_checkpoint_card_entering_root_during_breach": (
        "No card entered the root of the breached server.",
        ("rule_checkpoints", "rule_candidates_entering_root"),
    ),
    "step_checkpoint_discard_pile_cards": ("No converted cards in a discard pile.", ()),
    "step_checkpoint_discard_pile_counters": ("No counters in a discard pile.", ()),
    # turns (5.6, 5.7)
    "step_corp_turn_draw_phase_complete": ("The Corp's draw phase is complete.", ("rule_mandatory_draw",)),
    "step_corp_turn_action_phase_end": (
        "The Corp's action phase formally ends.",
        ("rule_action_phase_duration",),
    ),
    "step_runner_turn_action_phase_end": (
        "The Runner's action phase formally ends.",
        ("rule_action_phase_duration",),
    ),
    "step_corp_turn_action_phase_complete": (
        "The Corp's action phase is complete.",
        ("rule_action_phase_duration",),
    ),
    "step_runner_turn_action_phase_complete": (
        "The Runner's action phase is complete.",
        ("rule_action_phase_duration",),
    ),
}

for _step, (_text, _rules) in NARRATED.items():
    handles(_step)(narrate(_text, *_rules))
