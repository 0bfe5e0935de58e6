"""FastAPI support agent with tools.

Three findings: the system prompt built in prompts.py embeds the time, the tool list is
built by iterating a set, and one beta name is misdated.
"""
import anthropic
from fastapi import FastAPI
from pydantic import BaseModel

from prompts import support_prompt

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
    "escalate": {
        "name": "escalate",
        "description": "Open a ticket for a human agent with a one-line summary.",
        "input_schema": {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]},
    },
}
ENABLED_TOOLS = {"lookup_account", "search_help_center", "escalate"}


class ChatRequest(BaseModel):
    history: list[dict]
    question: str


@app.post("/support/chat")
def chat(req: ChatRequest) -> dict:
    resp = client.beta.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=4096,
        cache_control={"type": "ephemeral"},
        betas=["interleaved-thinking-2025-04-14"],
        thinking={"type": "enabled", "budget_tokens": 2048},
        system=support_prompt(),
        tools=[TOOLS[name] for name in ENABLED_TOOLS],
        messages=[*req.history, {"role": "user", "content": req.question}],
    )
    return resp.model_dump()
