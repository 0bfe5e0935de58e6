"""Multi-tenant contract review API: each customer has its own playbook and tool permissions.

Findings: the tool list is filtered by the caller's scopes and the system prompt is looked
up by the customer's plan, so tenants never share a cached prefix; every tool result gets
its own cache marker (five parallel lookups are five markers); and the batch endpoint adds
automatic caching on top of four explicit markers.
"""
from pathlib import Path

import anthropic
from fastapi import Depends, FastAPI
from pydantic import BaseModel

from auth import Customer, current_customer
from tools import ALL_TOOLS, run_tool

app = FastAPI()
client = anthropic.Anthropic()
EPHEMERAL = {"type": "ephemeral"}
PROMPTS = {plan: Path(f"prompts/review_{plan}.md").read_text() for plan in ("starter", "business", "enterprise")}
GUIDE = Path("prompts/guide.md").read_text()
GLOSSARY = Path("prompts/glossary.md").read_text()
EXAMPLES = Path("prompts/examples.md").read_text()
HOUSE_STYLE = Path("prompts/house_style.md").read_text()


class ReviewRequest(BaseModel):
    messages: list[dict]


@app.post("/review")
def review(req: ReviewRequest, customer: Customer = Depends(current_customer)) -> dict:
    allowed = [t for t in ALL_TOOLS if t["name"] in customer.scopes]
    playbook = [{"type": "text", "text": PROMPTS[customer.plan], "cache_control": EPHEMERAL}]
    messages = list(req.messages)
    while True:
        resp = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            tools=allowed,
            system=playbook,
            messages=messages,
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "tool_use":
            return {"messages": messages}
        results = [
            {"type": "tool_result", "tool_use_id": b.id, "content": run_tool(b.name, b.input), "cache_control": EPHEMERAL}
            for b in resp.content
            if b.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})


def grade_batch(essays: list[str]) -> list[str]:
    grades = []
    for essay in essays:
        resp = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            cache_control=EPHEMERAL,
            system=[
                {"type": "text", "text": GUIDE, "cache_control": EPHEMERAL},
                {"type": "text", "text": GLOSSARY, "cache_control": EPHEMERAL},
                {"type": "text", "text": EXAMPLES, "cache_control": EPHEMERAL},
                {"type": "text", "text": HOUSE_STYLE, "cache_control": EPHEMERAL},
            ],
            messages=[{"role": "user", "content": essay}],
        )
        grades.append(resp.content[0].text)
    return grades
