"""What every `nrrules` command shares: its options and how errors reach the user.

A failure is one ``error: ...`` line on stderr and exit status 2 (bad input: a bad file, an
unknown version, nothing built) or 1 (the rule or result asked for does not exist). No
traceback reaches the user.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from rules_index.store import LibraryError, default_build_dir
from scraper import ScrapeError

EXIT_BAD_INPUT = 2
EXIT_NOT_FOUND = 1


class NotFound(Exception):
    """The thing asked for does not exist (exit status 1)."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def user_errors(func=None, *, extra: tuple[type[Exception], ...] = ()):
    """Decorator: the errors our packages raise for bad input become one line and an exit code.
    `extra` names further exception types whose message is meant for the user."""

    def deco(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            try:
                return f(*args, **kwargs)
            except NotFound as exc:
                fail(str(exc), EXIT_NOT_FOUND)
            except (ScrapeError, LibraryError, *extra) as exc:
                fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc))

        return wrapper

    return deco(func) if func is not None else deco


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
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
