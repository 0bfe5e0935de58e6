"""Helpers in two modules hand the request to each other, and to themselves, marking it on the way."""
import anthropic

from pkg.marks import mark_tools
from tools import finish_top

TOOLS = [{"name": "lookup", "description": "Look up an order.", "input_schema": {"type": "object"}}]


def ask(question, policy):
    kw = {"max_tokens": 256, "tools": [dict(t) for t in TOOLS], "system": [{"type": "text", "text": policy}]}
    mark_tools(kw)
    finish_top(kw)
    # expect: [ttl-order] `anthropic.Anthropic().messages.create`
    return anthropic.Anthropic().messages.create(model="claude-sonnet-4-6", messages=[{"role": "user", "content": question}], **kw)
