"""Check a parsed Document against itself.

* In the printed layout every computed number must equal the printed one.
* Wherever a link's anchor text carries a number ("section 1.9", "step 6.9.3b", "1.8.4b"),
  the computed number of the link's target must equal it.
* Every reference must resolve to a node of the same document.
"""

from __future__ import annotations

from .model import Document
from .parse import LINK_NUMBER


def verify(doc: Document) -> list[str]:
    problems: list[str] = []
    for n in doc.nodes:
        if n.printed_number is not None and n.printed_number != n.number:
            problems.append(f"{n.id}: printed number {n.printed_number} but counted {n.number}")
    for n in doc.nodes:
        for ref in n.refs:
            target = doc.node(ref.target)
            if target is None:
                problems.append(f"{n.id}: link '{ref.text}' points to unknown id #{ref.target}")
                continue
            m = LINK_NUMBER.search(ref.text)
            if m and target.number is not None and m.group(1) != target.number:
                problems.append(
                    f"{n.id}: link '{ref.text}' names {m.group(1)} but #{ref.target} is {target.number}"
                )
    for c in doc.changes:
        for t in c.targets:
            if t not in doc:
                problems.append(f"summary of changes: link to unknown id #{t}")
    return problems
