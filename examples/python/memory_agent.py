"""Personal assistant with the memory tool and server-side compaction.

Findings: the memory handler joins the model's path to its root without checking it, memory
files and the session are written in place, recalled facts go into the cached system prompt,
the system prompt is rebuilt from the notes on every turn, the compaction trigger is below the
minimum, and only the reply text is kept, so the compaction block is lost.
"""
import json
import os
from pathlib import Path

import anthropic

from recall import MemoryIndex  # embeddings over past sessions

client = anthropic.Anthropic()
MEMORY_ROOT = Path(os.environ.get("ASSISTANT_MEMORY_DIR", "memories"))
INSTRUCTIONS = Path(__file__).with_name("assistant.md").read_text()
SESSION_FILE = Path("session.json")
index = MemoryIndex("memories.db")


def handle_memory(tool_input: dict) -> str:
    command = tool_input["command"]
    target = MEMORY_ROOT / tool_input["path"]
    if command == "view":
        if target.is_dir():
            return "\n".join(sorted(p.name for p in target.iterdir()))
        return target.read_text()
    if command == "create":
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(tool_input["file_text"])
        return f"created {tool_input['path']}"
    if command == "str_replace":
        text = target.read_text()
        target.write_text(text.replace(tool_input["old_str"], tool_input["new_str"], 1))
        return "edited"
    if command == "delete":
        target.unlink()
        return "deleted"
    return f"unsupported command: {command}"


def save_session(messages: list[dict]) -> None:
    with open(SESSION_FILE, "w") as f:
        json.dump(messages, f, default=str)


def quick_answer(user_id: str, question: str) -> str:
    facts = index.search(user_id, question, k=5)
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        system=[{"type": "text", "text": f"{INSTRUCTIONS}\nKnown about the user: {facts}", "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text


def run(task: str) -> list[dict]:
    messages = [{"role": "user", "content": task}]
    notes = "nothing yet"
    while True:
        system = f"{INSTRUCTIONS}\n\nYour working notes:\n{notes}"
        resp = client.beta.messages.create(
            model="claude-opus-4-7",
            max_tokens=4096,
            betas=["context-management-2025-06-27", "compact-2026-01-12"],
            system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            tools=[{"type": "memory_20250818", "name": "memory"}],
            context_management={"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 30000}}]},
            messages=messages,
        )
        if resp.stop_reason != "tool_use":
            messages.append({"role": "assistant", "content": resp.content[0].text})
            save_session(messages)
            return messages
        messages.append({"role": "assistant", "content": resp.content})
        results = []
        for block in resp.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": handle_memory(block.input)})
        messages.append({"role": "user", "content": results})
        notes = "\n".join(b.text for b in resp.content if b.type == "text") or notes
        save_session(messages)
