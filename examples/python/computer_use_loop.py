"""QA bot that clicks through the staging dashboard with the computer-use tool.

Findings: only the last three screenshots are kept, so the cached prefix moves every turn;
old bash output is removed by dropping tool_result blocks (their tool_use stays); the history
is cut on every turn; and the one-shot screen describer puts its breakpoint on the block with
the capture time.
"""
import base64
from datetime import datetime
from pathlib import Path

import anthropic

from harness import run_action, take_screenshot  # drives the VM

client = anthropic.Anthropic()
QA_GUIDE = Path(__file__).with_name("qa_guide.md").read_text()
TOOLS = [
    {"type": "computer_20250124", "name": "computer", "display_width_px": 1280, "display_height_px": 800},
    {"type": "bash_20250124", "name": "bash"},
]


def keep_recent_screenshots(messages: list[dict], keep: int = 3) -> None:
    seen = 0
    for message in reversed(messages):
        if not isinstance(message["content"], list):
            continue
        for block in message["content"]:
            if block.get("type") != "tool_result" or not isinstance(block.get("content"), list):
                continue
            images = [c for c in block["content"] if c.get("type") == "image"]
            seen += len(images)
            if seen > keep:
                block["content"] = [c for c in block["content"] if c.get("type") != "image"]


def drop_old_bash_output(messages: list[dict]) -> list[dict]:
    for message in messages[:-4]:
        if isinstance(message["content"], list):
            message["content"] = [b for b in message["content"] if b.get("type") != "tool_result"]
    return messages


def run_qa(scenario: str, max_steps: int = 60) -> list[dict]:
    messages = [{"role": "user", "content": f"{QA_GUIDE}\n\nScenario: {scenario}"}]
    for _ in range(max_steps):
        keep_recent_screenshots(messages)
        resp = client.beta.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=2048,
            betas=["computer-use-2025-01-24"],
            tools=TOOLS,
            messages=messages,
            cache_control={"type": "ephemeral"},
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "tool_use":
            break
        results = []
        for block in resp.content:
            if block.type == "tool_use":
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": run_action(block.name, block.input)})
        messages.append({"role": "user", "content": results})
        messages = drop_old_bash_output(messages)
        messages = messages[:1] + messages[-30:]
    return messages


def describe_screen() -> str:
    png = base64.b64encode(take_screenshot()).decode()
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        messages=[
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": QA_GUIDE},
                    {"type": "text", "text": f"Captured at {datetime.now():%H:%M:%S}", "cache_control": {"type": "ephemeral"}},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
                    {"type": "text", "text": "Describe what is on the screen and any error banners."},
                ],
            }
        ],
    )
    return resp.content[0].text
