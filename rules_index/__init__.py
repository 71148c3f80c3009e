"""Everything built from scraper Documents: the on-disk build, rule graph, search, lookup and
cross-version mapping. No web code here."""

from .store import BuildResult, Library, LibraryError, VersionInfo, build, default_build_dir, load_document

__all__ = [
    "BuildResult",
    "Library",
    "LibraryError",
    "VersionInfo",
    "build",
    "default_build_dir",
    "load_document",
]
