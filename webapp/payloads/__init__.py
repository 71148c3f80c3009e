"""Payload builders: every answer the app gives, built once.

Each module here takes domain objects (a `Rules` context, a found rule, a query) and returns the
JSON-ready dict the API returns. The API view returns it as it is, the HTML view renders it with
a template, and the CLI command prints it with ``--json`` or formats it as text (Datasette's
model: one context, several renderers). Errors are `webapp.errors` classes.

To add a capability (cards, judge documents, rule history): add a module here with its builders,
then a view in `webapp/views/` and a command in `webapp/cli/` that call them; see docs/payloads.md.
"""

from .context import Found, Rules

__all__ = ["Found", "Rules"]
