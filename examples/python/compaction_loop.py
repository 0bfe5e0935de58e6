"""A long-running research agent that relies on context management.

Findings: the compaction edit is written with the beta header's spelling, and the
tool-result clearing runs without the context-management beta.
"""
import anthropic

client = anthropic.Anthropic()

TOOLS = [
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 10},
    {"type": "web_fetch_20250910", "name": "web_fetch"},
]


def research(topic: str, max_turns: int = 40) -> list[dict]:
    messages = [{"role": "user", "content": f"Research this topic and write a sourced brief: {topic}"}]
    for _ in range(max_turns):
        resp = client.beta.messages.create(
            model="claude-opus-4-7",
            max_tokens=8192,
            betas=["compact-2026-01-12"],
            tools=TOOLS,
            context_management={
                "edits": [
                    {"type": "compact-2026-01-12", "trigger": {"type": "input_tokens", "value": 150000}},
                ]
            },
            messages=messages,
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason == "end_turn":
            break
        messages.append({"role": "user", "content": "Continue."})
    return messages


def crawl(start_url: str) -> list[dict]:
    messages = [{"role": "user", "content": f"Crawl {start_url} and list every page about pricing."}]
    while True:
        resp = client.beta.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            tools=TOOLS,
            context_management={
                "edits": [{"type": "clear_tool_uses_20250919", "keep": {"type": "tool_uses", "value": 5}}]
            },
            messages=messages,
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "pause_turn":
            return messages
