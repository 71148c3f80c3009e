"""Issue 33's done-when scenario built and stepped in the board editor as a judge's thumb does
it, counted: taps, page loads and screens of scrolling. Shared by the browser test
(tests/test_browser_editor_thumbs.py, which asserts the result and the budgets) and the bench
(bench/editor_thumbs.py, which prints the numbers).

The board: a remote with Tollbooth (outermost) and Ice Wall (innermost), both rezzed, and
Hostile Takeover in its root; the Runner with Corroder and Gordian Blade and 6 credits. The
cards are typed by name, Tollbooth with a typo ("tolbooth": the forgiving name matcher).

Counting: a tap is one click on an element (typing is not a tap: it is counted in characters);
a page load is a `load` event of the page (a form post and its redirect are one); the screens of scrolling are what the judge
scrolls to bring each element into reach (|change of scrollY| / viewport height, before the tap:
the page's own scrolling after a tap is not the judge's work). An element hidden under the
sticky header or the Start bar is scrolled to as a judge would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Thumb:
    """A judge's thumb on a page: taps, typing, and what they cost."""

    page: Any
    taps: int = 0
    typed: int = 0
    scrolled_px: float = 0.0
    loads: int = 0
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("load", self._load)

    def _load(self, _page) -> None:
        self.loads += 1

    @property
    def screens(self) -> float:
        return self.scrolled_px / self.page.viewport_size["height"]

    def _reach(self, loc) -> None:
        """Scroll the element into reach and count the scrolling: not hidden under a sticky bar."""
        loc.wait_for(state="visible")
        y0 = self.page.evaluate("window.scrollY")
        loc.scroll_into_view_if_needed()
        for _ in range(12):
            covered = loc.evaluate(
                """e => { const r = e.getBoundingClientRect();
                          const x = r.left + Math.min(r.width / 2, 20), y = r.top + r.height / 2;
                          const at = document.elementFromPoint(x, y);
                          if (at && (e === at || e.contains(at))) return 0;
                          return y < innerHeight / 2 ? -1 : 1; }"""
            )
            if not covered:
                break
            self.page.evaluate(f"window.scrollBy(0, {covered * 90})")
        self.scrolled_px += abs(self.page.evaluate("window.scrollY") - y0)

    def tap(self, loc, what: str) -> None:
        self._reach(loc)
        loc.click()
        self.taps += 1
        self.log.append(f"tap {what}")

    def type(self, text: str) -> None:
        """Type into the element that has the focus (the keyboard is already up)."""
        self.page.keyboard.type(text)
        self.typed += len(text)
        self.log.append(f"type {text!r}")

    def counts(self) -> dict[str, Any]:
        return {
            "taps": self.taps,
            "page_loads": self.loads,
            "screens": round(self.screens, 2),
            "typed": self.typed,
        }


def pick_card(thumb: Thumb, scope, typed: str, card_id: str, focused: bool = False) -> None:
    """Type a card's name into the picker of `scope` (tapping it first unless it has the focus)
    and tap the suggestion."""
    q = scope.locator("input.pick-q").first
    if not focused or not q.evaluate("e => e === document.activeElement"):
        thumb.tap(q, f"picker {q.get_attribute('data-pick')}")
    thumb.type(typed)
    thumb.tap(scope.locator(f".pick-opt[data-card-id='{card_id}']"), f"suggestion {card_id}")


def build_scenario(thumb: Thumb, base: str, expect) -> dict[str, Any]:
    """Open the editor and build the board; leaves the page in the editor, ready to Start."""
    page = thumb.page
    page.goto(base + "/editor")
    page.wait_for_selector("#formroot .srv[data-server='hq']")
    thumb.tap(page.locator("#formroot .add-remote"), "add remote")
    remote = page.locator("#formroot .srv[data-server='remote1']")
    ice_box = remote.locator(".ice-add")
    page.wait_for_function("document.activeElement && document.activeElement.dataset.pick === 'ice'")
    pick_card(thumb, ice_box, "tolbooth", "tollbooth", focused=True)
    expect(remote.locator(".ic .ic-name")).to_have_text(["Tollbooth"])
    pick_card(thumb, remote.locator(".ice-add"), "ice wall", "ice_wall", focused=True)
    # new ice goes innermost by default: Tollbooth stays outermost
    expect(remote.locator(".ic .ic-name")).to_have_text(["Tollbooth", "Ice Wall"])
    thumb.tap(remote.locator(".ic[data-pos='0'] .rez"), "rez Tollbooth")
    thumb.tap(remote.locator(".ic[data-pos='1'] .rez"), "rez Ice Wall")
    expect(remote.locator(".ic.rz")).to_have_count(2)
    pick_card(thumb, remote.locator(".root > .pick").first, "hostile takeover", "hostile_takeover")
    expect(remote.locator(".content .ic-name")).to_have_text("Hostile Takeover")
    programs = page.locator("#formroot .rig[data-zone='programs']")
    pick_card(thumb, programs, "corroder", "corroder")
    pick_card(thumb, programs, "gordian", "gordian_blade", focused=True)
    expect(programs.locator(".rc .ic-name")).to_have_text(["Corroder", "Gordian Blade"])
    thumb.tap(
        page.locator("#formroot .bp-runner .stepper[data-box='runner.credits'] .more"), "Runner credits +1"
    )
    expect(page.locator("input[data-path='runner.credits']")).to_have_value("6")
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    return thumb.counts()


def gordian_then_pass(ids: list[str]) -> str:
    """The Runner pumps Gordian Blade while it can, breaks if it can, else lets the
    subroutines resolve; anything else goes on."""
    for prefix in ("break:", "use:gordian-blade"):
        hit = next((i for i in ids if i.startswith(prefix)), None)
        if hit:
            return hit
    for want in ("pass", "continue", "no_trash"):
        if want in ids:
            return want
    return next(i for i in ids if i != "jack_out")


def step_to_end(thumb: Thumb, expect, limit: int = 40) -> list[str]:
    """Tap Start, then the decisions until the run ends; returns the decision labels offered."""
    page = thumb.page
    thumb.tap(page.locator("#start"), "Start")
    page.wait_for_url("**/step?s=**")
    page.wait_for_selector("#decisions button, #finished")
    offered: list[str] = []
    for _ in range(limit):
        if page.locator("#finished").count():
            break
        buttons = page.locator("#decisions button")
        ids = [b.get_attribute("data-decision") for b in buttons.all()]
        offered += buttons.all_inner_texts()
        before = page.locator("#decisions input[name=s]").input_value()
        thumb.tap(page.locator(f"#decisions button[data-decision='{gordian_then_pass(ids)}']"), "decision")
        # the next position is drawn in place: a new token in the form or the finished banner
        page.wait_for_function(
            """old => document.querySelector('#finished') ||
                     (document.querySelector('#decisions input[name=s]') || {}).value !== old""",
            arg=before,
        )
    return offered
