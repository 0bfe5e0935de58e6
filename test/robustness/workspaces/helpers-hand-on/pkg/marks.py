"""Marks the request it is handed; hands it on to the tool helpers, which hand it back."""
from pkg import tools as tool_helpers


def mark_tools(kw, depth=0):
    if depth < 3:
        tool_helpers.finish(kw, depth + 1)
    kw["tools"][-1]["cache_control"] = {"type": "ephemeral"}
    mark_tools(kw, depth + 1)
