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
import os
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
    click.echo("error: " + " ".join(message.split("\n")), err=True)
    sys.exit(code)


def reader_gone() -> NoReturn:
    """The program reading our output stopped reading (`nrrules card X | head -1`): that is the
    reader's choice, not an error, so exit 0 quietly (as `seq 1 100000 | head -1` does from the
    shell's view). What is still buffered, and the flush at exit, go to /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout has no file descriptor (tests): nothing to flush
        pass
    sys.exit(0)


def os_problem(exc: OSError) -> str:
    """An operating-system failure (read-only or full disk, a name too long, no permission) as
    the user's problem: what failed and on which file."""
    what = exc.strerror or exc.__class__.__name__
    return f"{what}: {exc.filename}" if exc.filename else what


class CommandGroup(click.Group):
    """The `nrrules` group: every failure, click's usage errors included, is one ``error:`` line
    on stderr, and nothing the commands print can fail to encode (a file name or argument that
    is not UTF-8 reaches Python as lone surrogates; they are printed as ``\\udcff``)."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        for stream in (sys.stdout, sys.stderr):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="backslashreplace")
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except click.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx else ""
            fail(exc.format_message() + where, EXIT_BAD_INPUT)
        except click.ClickException as exc:
            fail(exc.format_message(), exc.exit_code)
        except click.Abort:
            fail("aborted", 1)
        except BrokenPipeError:
            reader_gone()
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            reader_gone()
        sys.exit(rv if isinstance(rv, int) else 0)


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
        except BrokenPipeError:  # an OSError, but the reader's choice, not a failure
            reader_gone()
        except OSError as exc:  # the machine's problem, not the program's: say which file
            fail(os_problem(exc))

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


Payload = dict[str, Any]


def payload_command(
    group: click.Group, name: str, text: Callable[[Payload], None], *, version: bool = True
) -> Callable[[Callable[..., Payload]], click.Command]:
    """Register a command that prints one payload: the decorated function takes the `Rules`
    context and the command's own arguments (with ``version`` unless `version` is False) and
    returns the payload. ``--json`` prints it as the API serves it; otherwise `text` formats it
    (and may raise NotFound for an empty answer). The command gets --json, --build-dir and,
    with `version`, --version, and answers the project's errors with one `error:` line."""

    def register(build: Callable[..., Payload]) -> click.Command:
        @functools.wraps(build)
        def command(*args: Any, as_json: bool, build_dir: Path | None, **kwargs: Any) -> None:
            data = build(open_rules(build_dir), *args, **kwargs)
            if as_json:
                emit(data)
            else:
                text(data)

        decorated: Callable[..., Any] = user_errors(command)
        for option in (build_dir_option, json_option, *((version_option,) if version else ())):
            decorated = option(decorated)
        return group.command(name)(decorated)

    return register
