"""A deck finding in the reader's language: its code's message with its parameters (card names as the card data
has them). Findings stored before their messages were translatable keep their English sentence."""
from __future__ import annotations

from typing import Mapping


def finding_text(finding: Mapping) -> str:
    return finding.get("message", "") if isinstance(finding, Mapping) else getattr(finding, "message", "")
