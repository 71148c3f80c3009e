"""Discord answers: the slash commands' definitions and, for each interaction Discord sends, the
interaction response, built from the same payloads the pages, the API and the CLI use.

    COMMANDS                              `nrrules discord commands`, `nrrules discord register`
    respond(rules, interaction, base)     POST /discord/interactions (after its signature is checked)

Commands: ``/cr <rule> [version]`` (a number, id or words), ``/card <name>``, ``/ruling <card>
[words]``, ``/search <words> [version]`` and ``/changes <from> <to>``. Each answer is an embed
with the verbatim CR, card or ruling text, its number, the version and a link to its page
(``base`` is the site's address), cut to Discord's limits at a word boundary with a link to the
whole text. A name that fits several cards, a rule that does not exist and every other mistake
get an ephemeral message (only the person who asked sees it) saying what is wrong and offering
the nearest names. Autocomplete offers rule numbers, card names and versions.

Discord's documented limits are constants here; tests/test_discord.py checks every answer and the
command definitions against them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from rules_index.cards import name_key
from rules_index.lookup import number_key, parse_query
from rules_index.search import StaleIndexError
from rules_index.store import LibraryError

from ..errors import BadRequest, NotFound, NrrulesError
from . import cards as card_payloads
from . import judge as judge_payloads
from . import rules as rule_payloads
from . import search as search_payloads
from .context import Rules, clip

# Interaction types Discord sends, and the response types we answer with.
PING, APPLICATION_COMMAND, AUTOCOMPLETE = 1, 2, 4
PONG, CHANNEL_MESSAGE, AUTOCOMPLETE_RESULT = 1, 4, 8
EPHEMERAL = 1 << 6  # message flag: only the user who asked sees it
CHAT_INPUT = 1  # a slash command
STRING = 3  # option type

# Discord's documented limits (messages and embeds; application commands).
CONTENT_MAX = 2000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100

COLOR = 0x2F6F9F
MAX_OPTION = 200  # characters of a typed option we read (longer is a 400, as the API's q)


def _option(
    name: str, description: str, required: bool = False, autocomplete: bool = False, max_length: int = 100
):
    out: dict[str, Any] = {"type": STRING, "name": name, "description": description, "required": required}
    if autocomplete:
        out["autocomplete"] = True
    out["max_length"] = max_length
    return out


_VERSION = _option(
    "version", "CR version, e.g. 24.03 (default: the latest)", autocomplete=True, max_length=10
)

COMMANDS: list[dict[str, Any]] = [
    {
        "type": CHAT_INPUT,
        "name": "cr",
        "description": "A Comprehensive Rules entry, by number (6.9.4c), stable id or words (jack out)",
        "options": [
            _option("rule", "A rule number such as 6.9.4c, a stable id, or words", True, True, MAX_OPTION),
            _VERSION,
        ],
    },
    {
        "type": CHAT_INPUT,
        "name": "card",
        "description": "A card's text, Standard legality and the rules that mention it",
        "options": [_option("name", "The card's name (or the start of it)", True, True)],
    },
    {
        "type": CHAT_INPUT,
        "name": "ruling",
        "description": "A card's official rulings, optionally only those with some words",
        "options": [
            _option("card", "The card's name", True, True),
            _option("words", "Words the ruling's question or answer contains", max_length=MAX_OPTION),
        ],
    },
    {
        "type": CHAT_INPUT,
        "name": "search",
        "description": "Search the rules, cards, rulings and judges' notes",
        "options": [
            _option(
                "words", "Words, a question, jargon (PAW, ETR) or a card name", True, max_length=MAX_OPTION
            ),
            _VERSION,
        ],
    },
    {
        "type": CHAT_INPUT,
        "name": "changes",
        "description": "What changed in the rules between two CR versions",
        "options": [
            _option("from", "The older version, e.g. 25.08", True, True, 10),
            _option("to", "The newer version, e.g. 26.03", True, True, 10),
        ],
    },
]
COMMAND_NAMES = {c["name"] for c in COMMANDS}


# ----------------------------------------------------------------------------------------------
# Reading an interaction
# ----------------------------------------------------------------------------------------------


def _options(data: dict[str, Any]) -> tuple[dict[str, str], str | None]:
    """The command's options as name -> text, and the option being typed (autocomplete)."""
    raw = data.get("options", [])
    if not isinstance(raw, list):
        raise BadRequest("interaction data.options must be a list")
    values: dict[str, str] = {}
    focused = None
    for opt in raw:
        if not isinstance(opt, dict) or not isinstance(opt.get("name"), str):
            raise BadRequest("each interaction option must be an object with a name")
        value = opt.get("value", "")
        if not isinstance(value, str):
            raise BadRequest(f"option {opt['name'][:32]!r} must be text")
        values[opt["name"]] = value.strip()[: MAX_OPTION + 1]
        if opt.get("focused") is True:
            focused = opt["name"]
    return values, focused


def respond(rules: Rules | Callable[[], Rules], interaction: Any, base: str) -> dict[str, Any]:
    """The interaction response for a verified interaction. `rules` may be a function that opens
    the build, so a PING is answered even when nothing is built. BadRequest for a malformed one."""
    if not isinstance(interaction, dict) or not isinstance(interaction.get("type"), int):
        raise BadRequest("an interaction is a JSON object with an integer type")
    kind = interaction["type"]
    if kind == PING:
        return {"type": PONG}
    if kind not in (APPLICATION_COMMAND, AUTOCOMPLETE):
        raise BadRequest(f"interaction type {kind} is not supported (1 ping, 2 command, 4 autocomplete)")
    data = interaction.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise BadRequest("an application command interaction needs data with the command's name")
    name = data["name"]
    options, focused = _options(data)
    try:
        opened = rules if isinstance(rules, Rules) else rules()
        if kind == AUTOCOMPLETE:
            return {
                "type": AUTOCOMPLETE_RESULT,
                "data": {"choices": _autocomplete(opened, name, options, focused)},
            }
        if name not in COMMAND_NAMES:
            return ephemeral(
                f"Unknown command /{clip(name, 32)}: this bot knows {', '.join('/' + n for n in sorted(COMMAND_NAMES))}."
            )
        return _COMMANDS[name](opened, options, _Links(base))
    except NrrulesError as exc:
        if kind == AUTOCOMPLETE:
            return {"type": AUTOCOMPLETE_RESULT, "data": {"choices": []}}
        near = exc.fields.get("suggestions") or []
        return ephemeral(exc.message + (f"\nNearest: {', '.join(near[:8])}" if near else ""))
    except (LibraryError, StaleIndexError):
        if kind == AUTOCOMPLETE:
            return {"type": AUTOCOMPLETE_RESULT, "data": {"choices": []}}
        return ephemeral("The rules cannot be read on this server right now; please try again later.")


def ephemeral(text: str) -> dict[str, Any]:
    return {
        "type": CHANNEL_MESSAGE,
        "data": {"content": clip(text, CONTENT_MAX), "flags": EPHEMERAL, "allowed_mentions": {"parse": []}},
    }


def _message(*embeds: dict[str, Any]) -> dict[str, Any]:
    return {"type": CHANNEL_MESSAGE, "data": {"embeds": list(embeds), "allowed_mentions": {"parse": []}}}


class _Links:
    """Absolute links to the site's pages."""

    def __init__(self, base: str):
        self.base = base.rstrip("/")

    def __call__(self, path: str) -> str:
        return self.base + path


# ----------------------------------------------------------------------------------------------
# Fitting text into embeds
# ----------------------------------------------------------------------------------------------


def fit(text: str, limit: int, url: str | None = None, more: str = "read it all") -> str:
    """`text` as it is when it fits in `limit` characters, else cut at a word boundary and
    followed by "… [read it all](url)" (the whole within `limit`)."""
    if len(text) <= limit:
        return text
    tail = f" [{more}]({url})" if url else ""
    return clip(text, limit - len(tail)) + tail


def _plain(snippet: str) -> str:
    """A search snippet (HTML with <mark>) as Discord markdown (marks in bold)."""
    text = re.sub(r"</?mark>", "**", snippet or "")
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return text.replace("****", "")


def _label(item: dict[str, Any]) -> str:
    return " ".join(p for p in (item.get("number"), item.get("title")) if p) or item["id"]


def _footer(rules: Rules, version: str, extra: str = "") -> dict[str, str]:
    date = rules.library.document(version).effective_date
    text = f"Comprehensive Rules {version}" + (f", effective {date}" if date else "")
    return {"text": clip(text + (f" · {extra}" if extra else ""), EMBED_FOOTER_MAX)}


def _lines_within(lines: list[str], limit: int, more_url: str, noun: str) -> str:
    """Whole lines while they fit in `limit`, then "… N more <noun>: [read them all](url)"."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        rest = len(lines) - i
        tail = f"\n… {rest} more {noun}: [read them all]({more_url})"
        if used + len(line) + 1 + (len(tail) if rest > 1 else 0) > limit:
            if not out:  # not even the first line fits: cut it
                return fit(line, limit, more_url)
            return "\n".join(out) + tail
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------
# /cr
# ----------------------------------------------------------------------------------------------


def _rule_embed(rules: Rules, found: Any, link: _Links, intro: str = "") -> dict[str, Any]:
    node = found.node
    kind = node.kind
    data = rule_payloads.rule(rules, found, descendants=kind not in ("chapter",))
    url = link(data["url"])
    text = " ".join((data["text"] or "").split())
    if kind == "chapter":
        below = [
            f"**{c['number']}** [{c['title'] or c['id']}]({link(rules.url(c['id'], found.version))})"
            for c in data["children"]
        ]
        noun = "sections"
    else:
        below = [
            f"**{d['number']}** {' '.join((d['text'] or d['title'] or '').split())}"
            for d in data.get("descendants", [])
            if d["kind"] != "example"
        ]
        noun = "sub-rules"
    head = (intro + "\n" if intro else "") + fit(
        text, EMBED_DESCRIPTION_MAX - len(intro) - 1, url, "read the whole rule"
    )
    room = EMBED_DESCRIPTION_MAX - len(head) - 2
    description = head
    if below and room > 200:
        description = (head + "\n\n" if head.strip() else "") + _lines_within(below, room, url, noun)
    title = _label(data)
    crumbs = " › ".join(_label(b) for b in data["breadcrumb"])
    embed: dict[str, Any] = {
        "title": clip(title, EMBED_TITLE_MAX),
        "url": url,
        "description": description or "(this rule has no text of its own)",
        "color": COLOR,
        "footer": _footer(rules, found.version, node.id),
    }
    if crumbs:
        embed["author"] = {"name": clip(crumbs, EMBED_TITLE_MAX)}
    return embed


def _cr(rules: Rules, options: dict[str, str], link: _Links) -> dict[str, Any]:
    query = options.get("rule", "")
    version = options.get("version") or None
    if not query:
        raise BadRequest("give a rule number (6.9.4c), a stable id or some words")
    if parse_query(query) is not None:
        found = rules.find_rule(query, version)
        return _message(_rule_embed(rules, found, link))
    data = search_payloads.search(rules, query, version, 6, ("rules",))
    hits = data["results"] or data["looser"]
    if not hits:
        near = [n["number"] or n["id"] for n in data["nearest"]]
        hint = f" Did you mean {data['did_you_mean']!r}?" if data["did_you_mean"] else ""
        raise NotFound(f"No rule in CR {data['version']} matches {query!r}.{hint}", suggestions=near)
    found = rules.find_rule(hits[0]["id"], data["version"])
    embed = _rule_embed(rules, found, link, intro=f"*Best match for “{clip(query, 80)}”*")
    others = [h for h in hits[1:] if h["id"] != found.node.id][:4]
    if others:
        value = "\n".join(
            f"[{_label(h)}]({link(h['url'])}) {clip(_plain(h['snippet']), 120)}" for h in others
        )
        embed["fields"] = [
            {"name": "Other matches", "value": fit(value, EMBED_FIELD_VALUE_MAX), "inline": False}
        ]
    return _message(embed)


# ----------------------------------------------------------------------------------------------
# /card and /ruling
# ----------------------------------------------------------------------------------------------


def _one_card(rules: Rules, name: str, link: _Links) -> tuple[Any, dict[str, Any] | None]:
    """The card a name means, or (None, an ephemeral "did you mean") when it fits several."""
    if not name:
        raise BadRequest("give a card's name")
    hits = card_payloads.store(rules).find(name, limit=6)
    if not hits:
        card_payloads.find(rules, name)  # raises CardNotFound with the nearest names
    key = name_key(name)
    exact = [c for c in hits if name_key(c.title) == key or c.id == name]
    if len(hits) == 1 or len(exact) == 1:
        return (exact or hits)[0], None
    names = "\n".join(f"• [{c.title}]({link('/c/' + c.id)})" for c in hits[:5])
    more = " (and more: type more of the name)" if len(hits) > 5 else ""
    return None, ephemeral(f"“{clip(name, 80)}” could be several cards{more}. Did you mean:\n{names}")


def _card(rules: Rules, options: dict[str, str], link: _Links) -> dict[str, Any]:
    card, ask = _one_card(rules, options.get("name", ""), link)
    if card is None:
        return ask  # type: ignore[return-value]
    data = card_payloads.card(rules, card)
    url = link(data["url"])
    kind = " — ".join(p for p in (data["type"], ", ".join(s for s in data["subtypes"] if s)) if p)
    stats = [
        ("Cost", data["cost"]),
        ("Strength", data["strength"]),
        ("Memory", data["memory_cost"]),
        ("Trash", data["trash_cost"]),
        ("Advancement", data["advancement_requirement"]),
        ("Agenda points", data["agenda_points"]),
        ("Influence", data["influence_cost"]),
    ]
    fields = [{"name": n, "value": str(v), "inline": True} for n, v in stats if v is not None]
    legal = data["standard"]
    fields.append(
        {
            "name": "Standard",
            "value": clip(f"{legal['status']} ({legal['restriction_name'] or legal['snapshot']})", 200),
            "inline": True,
        }
    )
    if data["rulings"]:
        fields.append(
            {
                "name": "Rulings",
                "value": f"[{len(data['rulings'])} official ruling(s)]({url}#rulings) · `/ruling {clip(data['title'], 60)}`",
                "inline": False,
            }
        )
    if data["rules"]:
        refs = ", ".join(
            f"[{r['number'] or r['id']}]({link(rules.url(r['id'], data['version']))})" for r in data["rules"]
        )
        fields.append(
            {
                "name": f"Rules mentioning it (CR {data['version']})",
                "value": fit(refs, EMBED_FIELD_VALUE_MAX),
                "inline": False,
            }
        )
    embed = {
        "title": clip(data["title"], EMBED_TITLE_MAX),
        "url": url,
        "description": fit(data["text"] or "(no text)", EMBED_DESCRIPTION_MAX, url),
        "color": COLOR,
        "author": {"name": clip(f"{data['side']} · {data['faction']} · {kind}", EMBED_TITLE_MAX)},
        "fields": fields[:EMBED_FIELDS_MAX],
        "footer": {
            "text": "Card data: NetrunnerDB" + (f" · {data['netrunnerdb']}" if data["netrunnerdb"] else "")
        },
    }
    return _message(embed)


_WORD = re.compile(r"[\w'&-]+")


def _ruling(rules: Rules, options: dict[str, str], link: _Links) -> dict[str, Any]:
    card, ask = _one_card(rules, options.get("card", ""), link)
    if card is None:
        return ask  # type: ignore[return-value]
    data = card_payloads.rulings(rules, card)
    url = link(f"/c/{card.id}")
    rulings = data["rulings"]
    if not rulings:
        return ephemeral(f"{card.title} has no official rulings on NetrunnerDB. Its page: {url}")
    words = [w.lower() for w in _WORD.findall(options.get("words", "")) if len(w) > 1]
    shown = rulings
    if words:

        def score(r: dict[str, Any]) -> int:
            text = " ".join(x or "" for x in (r["question"], r["answer"], r["text"])).lower()
            return sum(w in text for w in words)

        ranked = sorted((r for r in rulings if score(r)), key=lambda r: -score(r))
        if not ranked:
            return ephemeral(
                f"None of the {len(rulings)} rulings of {card.title} mention {options['words']!r}. All of them: {url}#rulings"
            )
        shown = ranked
    fields = []
    budget = EMBED_TOTAL_MAX - 600  # title, description, footer
    for r in shown[:5]:
        anchor = f"{url}#ruling-{r['index']}"
        if r["question"]:
            body = f"**Q:** {r['question']}\n**A:** {r['answer'] or ''}"
        else:
            body = r["text"] or ""
        value = fit(body, EMBED_FIELD_VALUE_MAX, anchor)
        name = clip(
            " · ".join(
                p for p in (r["date"], "NSG rules team verified" if r["verified"] else None, r["source"]) if p
            )
            or "Ruling",
            EMBED_FIELD_NAME_MAX,
        )
        if len(value) + len(name) > budget:
            break
        budget -= len(value) + len(name)
        fields.append({"name": name, "value": value, "inline": False})
    about = (
        f"{len(shown)} of {len(rulings)} rulings mention {options['words']!r}"
        if words
        else f"{len(rulings)} official ruling(s)"
    )
    more = f"; showing {len(fields)}: [all of them]({url}#rulings)" if len(fields) < len(shown) else ""
    return _message(
        {
            "title": clip(f"{card.title}: rulings", EMBED_TITLE_MAX),
            "url": f"{url}#rulings",
            "description": about + more,
            "color": COLOR,
            "fields": fields,
            "footer": {"text": "Official rulings from NetrunnerDB"},
        }
    )


# ----------------------------------------------------------------------------------------------
# /search and /changes
# ----------------------------------------------------------------------------------------------


def _snippet_and_link(hit: dict[str, Any], link: _Links, limit: int) -> str:
    tail = f"\n[open]({link(hit['url'])})"
    return clip(_plain(hit["snippet"]), limit - len(tail)) + tail


def _search(rules: Rules, options: dict[str, str], link: _Links) -> dict[str, Any]:
    query = options.get("words", "")
    data = search_payloads.search(rules, query, options.get("version") or None, 5)
    hits = data["results"] or data["looser"]
    if not hits:
        offers = [n["number"] or n["id"] for n in data["nearest"]]
        offers += [s for item in data["spelling"] for s in item["suggestions"]]
        raise NotFound(f"Nothing matches {query!r} in CR {data['version']}.", suggestions=offers)
    fields = []
    for h in hits:
        source = "" if h["source"] == "rules" else f"[{h['source']}] "
        fields.append(
            {
                # five hits of 200 + 900 characters stay within the 6000 of a whole embed
                "name": clip(source + _label(h), 200),
                "value": _snippet_and_link(h, link, 900),
                "inline": False,
            }
        )
    note = "" if data["results"] else "Nothing matched every word; the closest matches:"
    embed = {
        "title": clip(f"Search: {query}", EMBED_TITLE_MAX),
        "url": link(
            f"/search?q={quote(query, safe='')}"
            + ("" if rules.is_latest(data["version"]) else f"&v={data['version']}")
        ),
        "color": COLOR,
        "fields": fields,
        "footer": _footer(rules, data["version"]),
    }
    if note:
        embed["description"] = note
    return _message(embed)


def _changes(rules: Rules, options: dict[str, str], link: _Links) -> dict[str, Any]:
    data = judge_payloads.changes(rules, options.get("from", ""), options.get("to", ""))
    url = link(data["url"])
    n, st = data["counts"], data["summary_stats"]
    description = (
        f"{n['added']} added, {n['removed']} removed, {n['renumbered']} renumbered, {n['reworded']} reworded.\n"
        f"Summary of Changes: {st['entries']} entries; {st['unmentioned']} differences it does not mention."
    )
    fields = []
    budget = EMBED_TOTAL_MAX - len(description) - 400
    shown = 0
    total = sum(len(sec["rules"]) for sec in data["sections"])
    for sec in data["sections"]:
        rows = [
            f"[{r['number'] or r.get('old_number') or r['id']}]({link(r['url'])}) {', '.join(r['change'])}"
            for r in sec["rules"]
        ]
        value = _lines_within(rows, EMBED_FIELD_VALUE_MAX, url, "changes")
        name = clip(_label(sec), EMBED_FIELD_NAME_MAX)
        if len(fields) == EMBED_FIELDS_MAX - 1 or len(value) + len(name) > budget:
            break
        budget -= len(value) + len(name)
        fields.append({"name": name, "value": value, "inline": False})
        shown += len(sec["rules"])
    if shown < total:
        fields.append(
            {
                "name": "More",
                "value": f"{total - shown} more changed rules: [all changes]({url})",
                "inline": False,
            }
        )
    return _message(
        {
            "title": clip(f"CR {data['from']} → {data['to']}: what changed", EMBED_TITLE_MAX),
            "url": url,
            "description": description,
            "color": COLOR,
            "fields": fields,
            "footer": _footer(rules, data["to"]),
        }
    )


_COMMANDS: dict[str, Callable[[Rules, dict[str, str], _Links], dict[str, Any]]] = {
    "cr": _cr,
    "card": _card,
    "ruling": _ruling,
    "search": _search,
    "changes": _changes,
}


# ----------------------------------------------------------------------------------------------
# Autocomplete
# ----------------------------------------------------------------------------------------------

_NUMBER_START = re.compile(r"^(?:rule\s*|cr\s*|§\s*)?(\d[\d.a-z]*)$", re.I)


def _choice(name: str, value: str) -> dict[str, str]:
    return {"name": clip(" ".join(name.split()), CHOICE_NAME_MAX) or value, "value": value[:CHOICE_VALUE_MAX]}


def _rule_choices(rules: Rules, typed: str, version: str | None) -> list[dict[str, str]]:
    v = rules.version(version)
    doc = rules.library.document(v)
    m = _NUMBER_START.match(typed.replace(" ", ""))
    if not typed:
        nodes = doc.chapters()
    elif m:
        prefix = m.group(1).lower()
        index = doc.number_index()
        nodes = [index[k] for k in sorted((k for k in index if k.startswith(prefix)), key=number_key)]
        if prefix in index:  # the number itself first
            nodes.remove(index[prefix])
            nodes.insert(0, index[prefix])
    else:
        if len(typed) < 2:
            return []
        hits = search_payloads.search(rules, typed, v, 10, ("rules",))["results"]
        out = []
        for h in hits:
            label, snippet = _label(h), _plain(h["snippet"]).replace("**", "")
            out.append(_choice(label if snippet in label else f"{label}: {snippet}", h["number"] or h["id"]))
        return out
    return [
        _choice(f"{n.number} {n.title or ' '.join(n.text.split())}", n.number or n.id)
        for n in nodes[:CHOICES_MAX]
        if n.kind != "example"
    ]


def _card_choices(rules: Rules, typed: str) -> list[dict[str, str]]:
    if not typed:
        return []
    store = card_payloads.store(rules)
    ids = [m.card_id for m in store.named(typed, CHOICES_MAX)]
    cards = [c for c in (store.card(i) for i in ids) if c is not None]
    if not cards and len(typed) >= 3:
        cards = store.find(typed, limit=10)
    return [_choice(c.title, c.title) for c in cards[:CHOICES_MAX]]


def _version_choices(rules: Rules, typed: str) -> list[dict[str, str]]:
    names = list(reversed(rules.version_names()))
    typed = typed.lstrip("vV")
    return [_choice(f"{v} (latest)" if rules.is_latest(v) else v, v) for v in names if v.startswith(typed)][
        :CHOICES_MAX
    ]


def _autocomplete(
    rules: Rules, command: str, options: dict[str, str], focused: str | None
) -> list[dict[str, str]]:
    typed = options.get(focused or "", "")
    if focused in ("version", "from", "to"):
        return _version_choices(rules, typed)
    if command == "cr" and focused == "rule":
        return _rule_choices(rules, typed, options.get("version") or None)
    if (command, focused) in (("card", "name"), ("ruling", "card")):
        return _card_choices(rules, typed)
    return []
