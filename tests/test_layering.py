"""The pipeline's layering (ENGINEERING.md): each package imports only those to its left, and
the engine, which depends on the scraper's model only, never loads lxml (issue 10). Checked in a
fresh interpreter that imports every module of the package, so a transitive import counts too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "memo": ["scraper", "rules_index", "engine", "webapp", "lxml", "bs4", "whoosh", "networkx", "flask"],
    "scraper": ["rules_index", "engine", "webapp", "whoosh", "networkx", "flask"],
    "engine": ["webapp", "lxml", "bs4", "whoosh", "flask"],
    "rules_index": ["webapp", "flask"],
}

PROBE = """
import importlib, json, pkgutil, sys
pkg = importlib.import_module(sys.argv[1])
names = [pkg.__name__]
for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), pkg.__name__ + "."):
    importlib.import_module(info.name)
    names.append(info.name)
print(json.dumps({"modules": names, "loaded": sorted(m.split(".")[0] for m in sys.modules)}))
"""


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_allows(package):
    out = subprocess.run(
        [sys.executable, "-c", PROBE, package],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    seen = json.loads(out.stdout)
    assert len(seen["modules"]) >= 1
    loaded = set(seen["loaded"])
    assert package in loaded
    assert not loaded & set(FORBIDDEN[package]), f"{package} loads {sorted(loaded & set(FORBIDDEN[package]))}"


def test_the_parser_still_loads_on_first_use():
    """`from scraper import parse_html` keeps working; only then is lxml loaded."""
    probe = (
        "import sys, scraper; before = 'lxml' in sys.modules; from scraper import parse_html, verify; "
        "print(before, 'lxml' in sys.modules, callable(parse_html) and callable(verify))"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]


# What the everyday commands may load (issue 37): a person at a terminal waits for every import,
# so a rule lookup or a search loads neither the web app nor the parsers nor the engine, and
# `--help` and `rule` not the search index either. A module counts with its submodules.
NOT_FOR_THE_CLI = [
    "flask",
    "werkzeug",
    "jinja2",
    "networkx",
    "bs4",
    "lxml",
    "engine",
    "scraper.parse",
    "webapp.factory",
    "webapp.views",
    "webapp.export",
]
NOT_FOR_A_LOOKUP = [*NOT_FOR_THE_CLI, "whoosh", "numpy", "rules_index.search", "rules_index.judge"]
CLI_COMMANDS = {
    "help": (["--help"], "Exit status", NOT_FOR_A_LOOKUP),
    "rule": (["rule", "6.9.4c"], "step_jack_out_choice", NOT_FOR_A_LOOKUP),
    "search": (["search", "when can the runner jack out"], "result(s) for", NOT_FOR_THE_CLI),
}

CLI_PROBE = """
import json, sys
from webapp.cli import main
out, args = sys.argv[1], sys.argv[2:]
try:
    main(args, prog_name="nrrules")
except SystemExit as exc:
    code = exc.code
with open(out, "w") as f:
    json.dump({"code": code, "loaded": sorted(sys.modules)}, f)
"""


def _loaded(loaded: list[str], names: list[str]) -> list[str]:
    return sorted({n for n in names for m in loaded if m == n or m.startswith(n + ".")})


@pytest.mark.parametrize("build", ["cards_built", "judge_build_dir"])
@pytest.mark.parametrize("command", sorted(CLI_COMMANDS))
def test_a_cli_command_imports_only_what_it_needs(command, build, request, tmp_path):
    """Run in a fresh interpreter on a build with card data, and on one with a judges'
    document (each adds a source to search and data to a rule's answer)."""
    args, shown, forbidden = CLI_COMMANDS[command]
    out = tmp_path / "loaded.json"
    env = {**os.environ, "NRRULES_BUILD_DIR": str(request.getfixturevalue(build))}
    done = subprocess.run(
        [sys.executable, "-c", CLI_PROBE, str(out), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    seen = json.loads(out.read_text())
    assert seen["code"] in (0, None), done.stderr
    assert shown in done.stdout
    assert "rules_index.store" in seen["loaded"]  # the probe sees what the command loaded
    assert not _loaded(seen["loaded"], forbidden), (
        f"nrrules {' '.join(args)} loads {_loaded(seen['loaded'], forbidden)}"
    )


def _engine_imports() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports when it runs: at the top and inside
    functions alike; only `if TYPE_CHECKING:` blocks (annotations, never executed) are left out."""
    import ast

    folder = Path(__file__).resolve().parent.parent / "engine"
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(node)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
            for node in ast.walk(block)
        }
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only or not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 1:
                names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            elif node.module and node.module.startswith("engine."):
                names = [node.module.split(".")[1]]
            else:
                continue
            found.update(n for n in names if (folder / f"{n}.py").exists())
        graph[path.stem] = found - {path.stem}
    return graph


def test_the_engine_has_no_import_circle():
    """Issue 32: state, verbs and wording sit below the timing modules and nothing reaches back up,
    so every engine module can be read (and compiled) after the ones it imports."""
    graph = _engine_imports()
    assert len(graph) > 30 and graph["steps"] >= {"machine", "run", "encounter"}  # the walk sees imports
    done: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            circles.append(path[path.index(module) :] + [module])
            return
        if module in done:
            return
        for nxt in sorted(graph[module]):
            visit(nxt, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert circles == [], f"engine import circles: {circles[:5]}"
