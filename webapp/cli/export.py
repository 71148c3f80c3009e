"""`nrrules export DIR`: write the whole reference as a static site (see webapp/export.py)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import build_dir_option, fail, user_errors


def register(group: click.Group) -> None:
    """Add the `export` command to the `nrrules` command group."""

    @group.command("export")
    @click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
    @click.option(
        "--base-url",
        default="http://localhost",
        show_default=True,
        help="Where the site will be served (for canonical and citation links).",
    )
    @click.option("--version", "versions", multiple=True, help="Export only this CR version (repeatable).")
    @click.option(
        "--jobs", "-j", type=click.IntRange(1, 16), default=None, help="Processes (default: up to 2)."
    )
    @build_dir_option
    @user_errors
    def export_cmd(
        directory: Path, base_url: str, versions: tuple[str, ...], jobs: int | None, build_dir: Path | None
    ) -> None:
        """Write rule pages of every version, their JSON, /all, the offline packs and assets as
        plain files for a static host (docs/deploy.md)."""
        from ..export import ExportError, export_site  # Flask renders the pages: loaded here only

        try:
            result = export_site(
                directory, build_dir, base_url=base_url, versions=versions or None, jobs=jobs
            )
        except ExportError as exc:
            fail(str(exc))
        click.echo(
            f"exported CR {', '.join(result.versions)}"
            f"{f' and {result.cards} cards' if result.cards else ''}: {result.files} files, "
            f"{result.bytes / 1e6:.1f} MB in {result.seconds:.1f} s -> {result.directory}"
        )
