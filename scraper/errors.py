"""Errors the scraper reports to users: always a source name plus one clear sentence."""

from __future__ import annotations


class ScrapeError(Exception):
    """A CR source could not be read or is not a usable CR document."""

    def __init__(self, source: str, message: str, details: list[str] | None = None):
        self.source = source
        self.message = message
        self.details = list(details or [])
        super().__init__(f"{source}: {message}")

    def __str__(self) -> str:
        text = f"{self.source}: {self.message}"
        if self.details:
            shown = self.details[:20]
            text += "\n" + "\n".join(f"  - {d}" for d in shown)
            if len(self.details) > len(shown):
                text += f"\n  ... and {len(self.details) - len(shown)} more"
        return text
