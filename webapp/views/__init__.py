"""Blueprints: `pages` (HTML rule pages and search), `api` (JSON for rules), `engine_views`
(board editor, stepper and the engine JSON API)."""
