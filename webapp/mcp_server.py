"""The MCP server: the rules, cards, rulings and the timing-structure engine as tools and resources
for AI assistants, over stdio (`nrrules mcp`) or streamable HTTP (`nrrules mcp --http`, or the
ASGI app `create_http_app` mounted beside the web app; docs/mcp.md).

Built on the official Python MCP SDK (`mcp`, the ``mcp`` extra). Every tool calls the payload
builders the pages, the JSON API and the CLI use (webapp.payloads), so an assistant gets the
answer a judge gets on the rule page, minus the HTML, plus ``citations``: each rule the answer
rests on with its number, stable id, version, effective date, verbatim text and page URL (with
a public base URL configured). The project's errors (webapp.errors) come back as tool errors
(``isError``) with the API's message and its JSON as structured content; reading a resource
that does not exist is a JSON-RPC error with the same message. No Flask app or request is
involved: engine sessions travel in tokens signed with SECRET_KEY, as on the web.

    build_server(rules, base_url=..., secret_key=...)   the MCPServer with its tools and resources
    create_http_app(...)                                 the streamable HTTP ASGI app (a factory)
    run_stdio(...), run_http(...)                        what `nrrules mcp` runs
"""

import functools
import html
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolResult,
    Completion,
    ResourceTemplateReference,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field

import engine
from rules_index.lookup import number_key
from rules_index.store import Library, LibraryError

from .errors import BadRequest, NrrulesError
from .payloads import Rules
from .payloads import cards as card_payloads
from .payloads import engine as engine_payloads
from .payloads import judge as judge_payloads
from .payloads import rules as rule_payloads
from .payloads import search as search_payloads
from .payloads.card_board import board_from_cards
from .payloads.citations import absolute, citations
from .tokens import SessionSpec, decoder, encoder

MAX_DECISIONS = 400  # decisions one session replays (the web app's MAX_DECISIONS)
MAX_STEP = 50  # decisions one engine_decide call takes
READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
# Keys left out of answers: an assistant reads text, and the HTML doubles every answer's size.
_HTML_KEYS = frozenset({"html", "text_html", "diff_html"})
_TAG = re.compile(r"<[^>]+>")

INSTRUCTIONS = """\
nrrules answers Netrunner rules questions from Null Signal Games' Comprehensive Rules (CR), \
NetrunnerDB card data with the official rulings, and judges' documents, in every published CR \
version (the latest unless a tool is given `version`). Rules have a printed number (6.9.4c), \
which can change between versions, and a stable id (step_jack_out_choice), which does not.
Start with `search` for a question in words; use `rule` once you know a number or id, `card` \
and `rulings` for a card, `changes` and `rule_history` for what changed between versions, and \
`engine_start` / `engine_decide` / `engine_trace` to walk a run or a turn step by step.
Every answer carries `citations`: quote the rule's `text` verbatim with its number and version \
(and its `url` when given) rather than paraphrasing from memory."""


def _version() -> str:
    try:
        return package_version("nrrules")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "0"


def lean(value: Any, base_url: str | None) -> Any:
    """A payload for an assistant: without its HTML (the same words are in its text fields),
    snippets as plain text, and page paths ("url", "…_url") as URLs under `base_url`."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in _HTML_KEYS:
                continue
            if isinstance(item, str) and (key == "url" or key.endswith("_url")) and item.startswith("/"):
                out[key] = absolute(item, base_url) or item
            elif key == "snippet" and isinstance(item, str):
                out[key] = html.unescape(_TAG.sub("", item))
            else:
                out[key] = lean(item, base_url)
        return out
    if isinstance(value, list | tuple):
        return [lean(item, base_url) for item in value]
    return value


def _message(exc: NrrulesError) -> str:
    """The error as the CLI prints it: the API's message, then the nearest names if any."""
    nearest = exc.fields.get("suggestions")
    return exc.message + (f"; nearest: {', '.join(map(str, nearest))}" if nearest else "")


def _result(payload: dict[str, Any]) -> CallToolResult:
    """An answer as an assistant reads it (compact JSON text) and as a program does (the same
    object as structured content)."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload)


def _error(message: str, payload: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=message)], structured_content=payload, is_error=True
    )


def tool_answer(build: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Decorator: a tool's payload as its result (JSON text and structured content); the
    project's errors as an ``isError`` result with the API's message and JSON."""

    @functools.wraps(build)
    def answer(*args: Any, **kwargs: Any) -> Any:
        try:
            return _result(build(*args, **kwargs))
        except NrrulesError as exc:
            return _error(_message(exc), exc.to_json())
        except LibraryError as exc:  # `message` never names a server path
            return _error(exc.message, {"error": exc.message, "status": 503})

    return answer


def resource_answer(build: Callable[..., dict[str, Any]]) -> Callable[..., str]:
    """Decorator: a resource's payload as JSON text; the project's errors as JSON-RPC errors
    (invalid params for what the reader asked wrong or for what does not exist, as the SDK
    answers an unknown resource; internal error when the build cannot answer)."""

    @functools.wraps(build)
    def answer(*args: Any, **kwargs: Any) -> str:
        try:
            return json.dumps(build(*args, **kwargs), ensure_ascii=False, separators=(",", ":"))
        except NrrulesError as exc:
            code = INTERNAL_ERROR if exc.status >= 500 else INVALID_PARAMS
            raise MCPError(code=code, message=_message(exc), data=exc.to_json()) from None
        except LibraryError as exc:
            raise MCPError(code=INTERNAL_ERROR, message=exc.message) from None

    return answer


# ----- argument types (their descriptions are what an assistant reads) -------------------------

Version = Annotated[
    str | None,
    Field(description="CR version, e.g. '26.03' or '24.03' (default: the latest built; see `versions`)."),
]
RuleRef = Annotated[
    str,
    Field(
        description="A printed rule number ('6.9.4c', '1.2', 'rule 9.1.6'), a stable id "
        "('step_jack_out_choice') or an official deep link (…?r=<id>). A number ending in '+' "
        "('6.9.4+') also returns every sub-rule."
    ),
]
CardRef = Annotated[
    str,
    Field(
        description="A card name (forgiving case, accents and punctuation: 'snare', 'Sn@re!'), a "
        "NetrunnerDB card id ('tollbooth') or a NetrunnerDB code ('35074')."
    ),
]
CardNames = Annotated[list[str] | None, Field(description="Card names, as for `card`.", max_length=30)]
Token = Annotated[
    str,
    Field(description="The session `token` from engine_start or the last engine_decide.", max_length=12000),
]


class McpContext:
    """What every tool shares: the loaded build, the public base URL and the token signer."""

    def __init__(self, rules: Rules, base_url: str | None, secret_key: str | None):
        self.rules = rules
        self.base_url = base_url.rstrip("/") if base_url else None
        key = secret_key or secrets.token_urlsafe(32)
        self.encode = encoder(key)
        self.decode = decoder(key)

    def cite(self, version: str, ids: Iterable[str]) -> list[dict[str, Any]]:
        return citations(self.rules, version, ids, self.base_url)

    def answer(self, payload: dict[str, Any], version: str | None, ids: Iterable[str]) -> dict[str, Any]:
        out = lean(payload, self.base_url)
        out["citations"] = self.cite(version, ids) if version else []
        return out

    # ----- engine sessions ---------------------------------------------------------------------
    def session(self, spec: SessionSpec, done: int, with_trace: bool) -> dict[str, Any]:
        """Walk `spec` (its decisions, of which the first `done` were taken before this call) and
        answer its state: the events of this call's decisions (all of them at the start), the
        decisions legal now, and the rules those events applied as citations."""
        if len(spec.decisions) > MAX_DECISIONS:
            raise BadRequest(f"too many decisions in one session (at most {MAX_DECISIONS})")
        reached, rebuilt, marks = engine_payloads.walk(self.rules, spec, self.encode)
        if done < len(marks):
            rebuilt.events = list(rebuilt.session.trace[marks[done].at :])
        state = engine_payloads.state(self.rules, reached, rebuilt, with_trace=with_trace, with_texts=True)
        named = state.pop("rules")
        if with_trace:
            named = {rid: None for e in state["trace"] for rid in (e["step"], *e["rules"]) if rid}
        return self.answer(state, state["version"], named)


def build_server(rules: Rules, *, base_url: str | None = None, secret_key: str | None = None) -> MCPServer:
    """The MCP server over one loaded build. `base_url` is the public address of the web app
    (answers then link rule, card and stepper pages); `secret_key` signs engine session tokens
    (give the web app's SECRET_KEY and a session's `url` opens in its stepper; without one, a
    random key: tokens then open only in this process)."""
    ctx = McpContext(rules, base_url, secret_key)
    mcp_server: MCPServer = MCPServer(
        "nrrules",
        title="Netrunner Comprehensive Rules",
        instructions=INSTRUCTIONS,
        version=_version(),
        log_level="WARNING",
    )
    try:
        structures = engine.structures(rules.document(None))
    except LibraryError:
        structures = []
    structure_list = "; ".join(
        s["id"] + (f" ({', '.join(s['params'])})" if s["params"] else "") for s in structures
    )

    def rule_answer(ref: str, version: str | None, subrules: bool = False) -> dict[str, Any]:
        found = rules.find(ref, version)
        data = rule_payloads.rule(rules, found, descendants=subrules or ref.strip().endswith("+"))
        ids = [found.node.id, *(d["id"] for d in data.get("descendants", ()) if d["kind"] != "example")]
        return ctx.answer(data, found.version, ids)

    def card_answer(name: str, version: str | None = None) -> dict[str, Any]:
        data = card_payloads.card(rules, card_payloads.find(rules, name), version)
        ids = [r["id"] for r in data["rules"]] + [r["id"] for r in data["cited_rules"]]
        return ctx.answer(data, data["version"], ids)

    @mcp_server.tool(title="Search rules, cards, rulings and judges' documents", annotations=READ_ONLY)
    @tool_answer
    def search(
        query: Annotated[
            str,
            Field(
                description="A question in a player's words ('when can the runner jack out'), "
                "jargon ('PAW', 'ETR'), a card name, a rule number or a stable id.",
                max_length=search_payloads.MAX_QUERY,
            ),
        ],
        version: Version = None,
        sources: Annotated[
            list[str] | None,
            Field(
                description="Only these sources: 'rules', 'cards', 'rulings', 'judge' (default: every built one)."
            ),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=search_payloads.MAX_LIMIT, description="Most results.")] = 10,
    ) -> dict[str, Any]:
        """Find the CR rules (and the cards, official rulings and judges' notes) that answer a
        rules question, best first, in one ranked list; each result names its source, and rules
        come with their number, stable id and verbatim text in `citations`. Use this first for
        any question in words; follow up with `rule` for a result's full text and sub-rules."""
        data = search_payloads.search(rules, query, version, limit, sources)
        ids = [h["id"] for h in (*data["results"], *data["looser"]) if h["source"] == "rules"]
        return ctx.answer(data, data["version"], ids)

    @mcp_server.tool(title="A rule by number or stable id", annotations=READ_ONLY)
    @tool_answer
    def rule(
        ref: RuleRef,
        version: Version = None,
        subrules: Annotated[bool, Field(description="Also every rule below it, each with its text.")] = False,
    ) -> dict[str, Any]:
        """One CR rule: its verbatim text, examples, breadcrumb, sub-rules (all of them, with
        their text, when `subrules` is true or the number ends in '+'), the rules it cites and
        that cite it, and its number in every other version. Use when you know the rule's
        number or id (from `search`, a card's rulings, or the user)."""
        return rule_answer(ref, version, subrules)

    @mcp_server.tool(title="A card with its rulings", annotations=READ_ONLY)
    @tool_answer
    def card(name: CardRef, version: Version = None) -> dict[str, Any]:
        """A NetrunnerDB card: type, faction, costs, strength, text, Standard legality, its
        official rulings (newest first, each with the rules it cites) and the CR rules that
        mention the card. Use for any question about a named card."""
        return card_answer(name, version)

    @mcp_server.tool(title="A card's official rulings", annotations=READ_ONLY)
    @tool_answer
    def rulings(name: CardRef) -> dict[str, Any]:
        """Only the official rulings on one card (NetrunnerDB, newest first): question and
        answer or text, date, whether the NSG rules team verified it, and the CR rules each one
        cites (in the latest version)."""
        data = card_payloads.rulings(rules, card_payloads.find(rules, name))
        return ctx.answer(data, rules.latest, [c["id"] for r in data["rulings"] for c in r["rules"]])

    @mcp_server.tool(title="What changed between two CR versions", annotations=READ_ONLY)
    @tool_answer
    def changes(
        old: Annotated[str, Field(description="The older version, e.g. '25.08'.")],
        new: Annotated[str, Field(description="The newer version, e.g. '26.03'.")],
        within: Annotated[
            str | None,
            Field(
                description="Only rules numbered within this rule or section (in either version), e.g. "
                "'6' or '6.9'; distant versions change hundreds of rules.",
                max_length=20,
            ),
        ] = None,
        kinds: Annotated[
            list[str] | None,
            Field(description="Only these kinds of change: 'added', 'removed', 'renumbered', 'reworded'."),
        ] = None,
    ) -> dict[str, Any]:
        """Every rule added, removed, renumbered or reworded between two CR versions, by
        section, with word diffs (`diff`: ['=', '-', '+'] runs of words), beside the official
        Summary of Changes and the changes it does not mention; `within` and `kinds` narrow
        the list and, with `within`, the Summary of Changes' entries (`counts` stay those of
        the whole comparison). Citations are the rules the Summary of Changes names, in the
        newer version."""
        data = narrow_changes(judge_payloads.changes(rules, old, new), within, kinds)
        ids = [t["id"] for s in data["summary"] for t in s["targets"] if t.get("number")]
        return ctx.answer(data, data["to"], ids)

    @mcp_server.tool(title="One rule across every CR version", annotations=READ_ONLY)
    @tool_answer
    def rule_history(ref: RuleRef, version: Version = None) -> dict[str, Any]:
        """A rule's number and text in every built CR version (found by its stable id, so a
        renumbered rule is followed) and a word diff at each version where it changed. `ref`
        is a number in `version` (default the latest) or a stable id."""
        data = judge_payloads.rule_history(rules, ref, version)
        present = [e["version"] for e in data["versions"] if e.get("present")]
        v = rules.version(version)
        out = ctx.answer(data, v, [data["id"]])
        if not out["citations"] and present:  # a rule removed before `version`: its last text
            out["citations"] = ctx.cite(present[-1], [data["id"]])
        return out

    @mcp_server.tool(title="Built CR versions", annotations=READ_ONLY)
    @tool_answer
    def versions() -> dict[str, Any]:
        """The CR versions this server can answer from (each tool's `version`), with their
        effective dates and sizes, which one is the latest (the default), and what NetrunnerDB
        card data is built beside them."""
        return ctx.answer(rule_payloads.versions(rules), None, ())

    @mcp_server.tool(
        title="Start a timing-structure session",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )
    @tool_answer
    def engine_start(
        structure: Annotated[
            str, Field(description=f"The timing structure to walk: {structure_list or 'see the error'}.")
        ] = "run",
        server: Annotated[
            str | None,
            Field(
                description="The server: hq, rd, archives or remote1..remote99 (run, breach and access; "
                "with card names the default is remote1 when `content` is given, else hq)."
            ),
        ] = None,
        ice: Annotated[
            list[str] | None, Field(description="Card names of the ice protecting `server`, outermost first.")
        ] = None,
        content: Annotated[
            str | None,
            Field(description="Card name of the agenda or asset installed in the remote `server`."),
        ] = None,
        root: CardNames = None,
        rig: Annotated[
            list[str] | None,
            Field(description="Card names of the Runner's installed programs, hardware and resources."),
        ] = None,
        identity: Annotated[
            str | None,
            Field(description="Card name of the Runner's identity (its link and memory limit count)."),
        ] = None,
        rezzed: Annotated[bool, Field(description="Whether the Corp's installed cards start rezzed.")] = True,
        corp: Annotated[
            dict[str, Any] | None, Field(description='Corp fields over the defaults, e.g. {"credits": 8}.')
        ] = None,
        runner: Annotated[
            dict[str, Any] | None,
            Field(description='Runner fields over the defaults, e.g. {"credits": 2, "tags": 1}.'),
        ] = None,
        board: Annotated[
            dict[str, Any] | None,
            Field(
                description="A whole board in the nrrules board format (docs/board-format.md) instead of card names."
            ),
        ] = None,
        params: Annotated[
            dict[str, Any] | None, Field(description="Other parameters of the structure (see `structure`).")
        ] = None,
        seed: Annotated[
            int, Field(ge=0, le=engine_payloads.MAX_SEED, description="Seed for random choices.")
        ] = 0,
        version: Version = None,
    ) -> dict[str, Any]:
        """Start walking a CR timing structure (a run, a turn, a breach, an access, a trace ...)
        on a board given by card names (`ice`, `content`, `root`, `rig`, looked up in
        NetrunnerDB) or as board JSON (`board`). Answers the events so far (each naming the CR
        step and rules it applied), the step it waits at, the legal `decisions` (ids to pass to
        `engine_decide`) and a `token` for the session. Use it to show how a situation plays out
        step by step, with the rules that govern each step."""
        if board is None:
            if all(n is None for n in (ice, content, root, rig, identity, corp, runner)):
                raise BadRequest("give the board: card names (ice, content, root, rig) or `board` JSON")
            server = server or ("remote1" if content is not None else "hq")
            board = board_from_cards(
                rules,
                server=server,
                ice=ice,
                content=content,
                root=root,
                rig=rig,
                identity=identity,
                rezzed=rezzed,
                corp=corp,
                runner=runner,
            )
        elif any(n is not None for n in (ice, content, root, rig, identity, corp, runner)):
            raise BadRequest(
                "give either `board` or card names (ice, content, root, rig, corp, runner), not both"
            )
        params = dict(params or {})
        if server is not None and structure in ("run", "breach", "access"):
            params.setdefault("server", server.strip().lower())
        body = {"board": board, "structure": structure, "params": params, "seed": seed, "v": version}
        spec = engine_payloads.spec_from_json(rules, body)
        return ctx.session(spec, 0, with_trace=False)

    @mcp_server.tool(
        title="Take decisions in a session",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False),
    )
    @tool_answer
    def engine_decide(
        token: Token,
        decisions: Annotated[
            list[str],
            Field(
                min_length=1,
                max_length=MAX_STEP,
                description="Decision ids from the last answer's `decisions` (e.g. 'pass', 'continue', "
                "'jack_out', 'use:corroder.0'), taken in order.",
            ),
        ],
    ) -> dict[str, Any]:
        """Take one or more decisions in an engine session and answer the new state: the events
        they fired with the CR steps and rules applied, the step it now waits at, the legal
        decisions and the new `token` (the old one still names the position before)."""
        spec = ctx.decode(token)
        taken = [engine_payloads.check_decision(d) for d in decisions]
        return ctx.session(
            spec.with_decisions([*spec.decisions, *taken]), len(spec.decisions), with_trace=False
        )

    @mcp_server.tool(title="A session's whole trace", annotations=READ_ONLY)
    @tool_answer
    def engine_trace(token: Token) -> dict[str, Any]:
        """The whole trace of an engine session so far: every event in order with the CR step
        and rules it applied, the decisions taken, the outcome if finished, and every rule
        named as a citation."""
        spec = ctx.decode(token)
        return ctx.session(spec, len(spec.decisions), with_trace=True)

    # ----- completions of resource URIs -------------------------------------------------------

    @mcp_server.completion()
    async def complete(ref: Any, argument: Any, context: Any) -> Completion | None:
        if not isinstance(ref, ResourceTemplateReference):
            return None
        given = dict(context.arguments or {}) if context is not None else {}
        values = await anyio.to_thread.run_sync(
            functools.partial(completions, rules, argument.name, argument.value, given.get("version"))
        )
        return Completion(values=values, has_more=len(values) >= MAX_COMPLETIONS)

    # ----- resources ---------------------------------------------------------------------------

    @mcp_server.resource(
        "nrrules://rule/{version}/{ref}",
        name="rule",
        title="A CR rule in one version",
        description="A rule by number or stable id in a CR version: nrrules://rule/26.03/6.9.4c",
        mime_type="application/json",
    )
    @resource_answer
    def rule_in_version(version: str, ref: str) -> dict[str, Any]:
        return rule_answer(ref, version)

    @mcp_server.resource(
        "nrrules://rule/{ref}",
        name="rule-latest",
        title="A CR rule in the latest version",
        description="A rule by number or stable id in the latest CR: nrrules://rule/step_jack_out_choice",
        mime_type="application/json",
    )
    @resource_answer
    def rule_latest(ref: str) -> dict[str, Any]:
        return rule_answer(ref, None)

    @mcp_server.resource(
        "nrrules://card/{name}",
        name="card",
        title="A card with its rulings",
        description="A NetrunnerDB card by id, code or name: nrrules://card/tollbooth",
        mime_type="application/json",
    )
    @resource_answer
    def card_resource(name: str) -> dict[str, Any]:
        return card_answer(name)

    @mcp_server.resource(
        "nrrules://versions",
        name="versions",
        title="Built CR versions",
        description="The CR versions served, their effective dates and the card data built",
        mime_type="application/json",
    )
    @resource_answer
    def versions_resource() -> dict[str, Any]:
        return ctx.answer(rule_payloads.versions(rules), None, ())

    return mcp_server


CHANGE_KINDS = ("added", "removed", "renumbered", "reworded")


def narrow_changes(data: dict[str, Any], within: str | None, kinds: list[str] | None) -> dict[str, Any]:
    """A changes payload (webapp.payloads.judge.changes) keeping only the rules numbered within
    `within` (a number, in the old or the new version) and changed in one of `kinds`."""
    prefix = (within or "").strip().rstrip(".")
    wanted = set(kinds or ())
    unknown = sorted(wanted - set(CHANGE_KINDS))
    if unknown:
        raise BadRequest(
            f"unknown kind(s) of change {', '.join(unknown)}; choose from {', '.join(CHANGE_KINDS)}"
        )
    if not prefix and not wanted:
        return data

    def inside(row: dict[str, Any]) -> bool:
        numbers = [n for n in (row.get("number"), row.get("old_number")) if n]
        return not prefix or any(n == prefix or n.startswith(prefix + ".") for n in numbers)

    def keep(row: dict[str, Any]) -> bool:
        return inside(row) and (not wanted or bool(wanted & set(row["change"])))

    sections = []
    for sec in data["sections"]:
        rows = [r for r in sec["rules"] if keep(r)]
        if rows:
            sections.append({**sec, "rules": rows})
    shown = sum(len(sec["rules"]) for sec in sections)
    narrowed = {"within": prefix or None, "kinds": sorted(wanted) or None, "rules": shown}
    return {
        **data,
        "sections": sections,
        "summary": [entry for entry in data["summary"] if any(inside(t) for t in entry["targets"])],
        "unmentioned": [r for r in data["unmentioned"] if keep(r)],
        "narrowed": narrowed,
    }


MAX_COMPLETIONS = 20


def completions(rules: Rules, argument: str, value: str, version: str | None = None) -> list[str]:
    """What a resource URI's `argument` may be, starting with `value`: CR versions (newest
    first), rule numbers in reading order (or stable ids, for a value that starts with a
    letter), card names. Nothing for what cannot be completed (an unknown version, no cards)."""
    value = (value or "").strip()[:100]
    try:
        if argument == "version":
            return [v for v in reversed(rules.version_names()) if v.startswith(value)][:MAX_COMPLETIONS]
        if argument == "ref":
            doc = rules.document(version)
            if value[:1].isalpha():
                low = value.lower()
                return [n.id for i, n in doc.lower_id_index().items() if i.startswith(low)][:MAX_COMPLETIONS]
            numbers = sorted((n for n in doc.number_index() if n.startswith(value)), key=number_key)
            return numbers[:MAX_COMPLETIONS]
        if argument == "name" and value:
            return [c.title for c in card_payloads.store(rules).find(value, limit=MAX_COMPLETIONS)]
    except (NrrulesError, LibraryError):
        pass
    return []


# ----- running ---------------------------------------------------------------------------------


def settings(
    build_dir: Path | str | None = None, base_url: str | None = None, secret_key: str | None = None
) -> tuple[Rules, str | None, str | None]:
    """The build, base URL and token key, from the arguments or the environment as the web app
    reads them (NRRULES_BUILD_DIR, NRRULES_BASE_URL, SECRET_KEY / NRRULES_SECRET_KEY). Opening
    the build fails now (LibraryError) rather than on the first call."""
    rules = Rules(Library.open(build_dir or os.environ.get("NRRULES_BUILD_DIR") or None))
    rules.document(None)
    base = base_url or os.environ.get("NRRULES_BASE_URL") or None
    key = secret_key or os.environ.get("SECRET_KEY") or os.environ.get("NRRULES_SECRET_KEY") or None
    return rules, base, key


def run_stdio(rules: Rules, base_url: str | None = None, secret_key: str | None = None) -> None:
    build_server(rules, base_url=base_url, secret_key=secret_key).run("stdio")


def http_app(
    rules: Rules,
    *,
    base_url: str | None = None,
    secret_key: str | None = None,
    path: str = "/mcp",
    host: str = "127.0.0.1",
    allowed_hosts: Iterable[str] | None = None,
):
    """The streamable HTTP transport as an ASGI (Starlette) app serving `path`. Stateless (each
    POST stands alone, answered with JSON), so any number of workers or machines can serve it,
    as they serve the web app. Host headers are checked against `allowed_hosts` (host or
    host:port, ``*`` for any port); without them, a loopback `host` accepts only loopback names
    (the SDK's protection against DNS rebinding) and any other host accepts any name."""
    server = build_server(rules, base_url=base_url, secret_key=secret_key)
    security = None
    hosts = [h.strip() for h in allowed_hosts or () if h.strip()]
    if hosts:
        names = [name for h in hosts for name in ((h,) if ":" in h else (h, f"{h}:*"))]
        origins = [f"{scheme}://{h}" for h in names for scheme in ("http", "https")]
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=names, allowed_origins=origins
        )
    return server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=True,
        json_response=True,
        transport_security=security,
        host=host,
    )


def create_http_app():
    """ASGI app factory for deployers (``uvicorn --factory webapp.mcp_server:create_http_app``):
    the build, base URL and key from the environment as `settings` reads them, the path from
    NRRULES_MCP_PATH (default /mcp) and the public host names from NRRULES_MCP_ALLOWED_HOSTS
    (comma-separated). docs/mcp.md shows it mounted beside the web app."""
    rules, base, key = settings()
    hosts = (os.environ.get("NRRULES_MCP_ALLOWED_HOSTS") or "").split(",")
    return http_app(
        rules,
        base_url=base,
        secret_key=key,
        path=os.environ.get("NRRULES_MCP_PATH") or "/mcp",
        allowed_hosts=hosts,
    )


def run_http(app: Any, host: str, port: int, log_level: str = "warning") -> None:
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level=log_level)
