"""What every `nrrules` command shares: its options, the `Rules` context, JSON output and how
errors reach the user.

A failure is one ``error: ...`` line on stderr and an exit status: 2 for bad input (a bad file,
an unknown version, nothing built), 1 when the rule or result asked for does not exist. Only
the project's errors (webapp.errors, the store's and the scraper's) are caught: anything else
is a bug and shows as one.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

from rules_index.store import Library, LibraryError, default_build_dir
from scraper import ScrapeError

from ..errors import EXIT_BAD_INPUT, NrrulesError
from ..payloads import Rules


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: the project's errors become one `error:` line and an exit status."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except NrrulesError as exc:
            nearest = exc.fields.get("suggestions")
            fail(exc.message + (f"; nearest: {', '.join(nearest)}" if nearest else ""), exc.exit_code)
        except (ScrapeError, LibraryError) as exc:
            fail(str(exc))

    return wrapper


def open_rules(build_dir: Path | None) -> Rules:
    return Rules(Library.open(build_dir))


def emit(payload: Any) -> None:
    """A payload as JSON, exactly as the API serves it (pretty-printed)."""
    click.echo(json.dumps(payload, indent=1, ensure_ascii=False))


build_dir_option = click.option(
    "--build-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    envvar="NRRULES_BUILD_DIR",
    help=f"Where built versions live (default {default_build_dir()}; env NRRULES_BUILD_DIR).",
)
version_option = click.option(
    "--version", "-v", "version", default=None, help="CR version, e.g. 24.03 (default: latest built)."
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON (the API's answer).")
