"""Finishes a request: marks the system prompt, then asks the marks module again."""
from pkg.marks import mark_tools


def finish(kw, depth):
    kw["system"][-1]["cache_control"] = {"type": "ephemeral", "ttl": "1h"}
    mark_tools(kw, depth)
    finish(kw, depth + 1)
