"""The same support agent, written so the prompt prefix caches and every request is valid."""
import json

import anthropic
from fastapi import FastAPI
from pydantic import BaseModel

from prompts import SUPPORT_PROMPT

app = FastAPI()
client = anthropic.Anthropic()

TOOLS = {
    "lookup_account": {
        "name": "lookup_account",
        "description": "Fetch plan, usage and billing status for an account id.",
        "input_schema": {"type": "object", "properties": {"account_id": {"type": "string"}}, "required": ["account_id"]},
    },
    "search_help_center": {
        "name": "search_help_center",
        "description": "Search help-center articles; returns titles and URLs.",
        "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}
ENABLED_TOOLS = {"lookup_account", "search_help_center"}
CONTEXT_EDITS = {"edits": [{"type": "clear_tool_uses_20250919", "keep": {"type": "tool_uses", "value": 5}}]}


class ChatRequest(BaseModel):
    history: list[dict]
    question: str
    now: str
    account: dict


@app.post("/support/chat")
def chat(req: ChatRequest) -> dict:
    # Per-request facts go into the latest user turn, after the cached prefix.
    context = f"[time: {req.now}]\n[account]\n{json.dumps(req.account, sort_keys=True)}"
    resp = client.beta.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        betas=["context-management-2025-06-27"],
        system=[{"type": "text", "text": SUPPORT_PROMPT, "cache_control": {"type": "ephemeral"}}],
        tools=[TOOLS[name] for name in sorted(ENABLED_TOOLS)],
        context_management=CONTEXT_EDITS,
        # History is sent whole; context editing clears old tool results on the server.
        messages=[*req.history, {"role": "user", "content": f"{context}\n\n{req.question}"}],
    )
    return resp.model_dump()
