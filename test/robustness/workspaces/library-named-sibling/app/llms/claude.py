import time

from anthropic import Anthropic
from openai import OpenAI  # the library, not the sibling llms/openai.py

from app.llms.base import DEFAULT_SYSTEM, BaseLLM
from app.llms.typing import Messages


class ClaudeLLM(BaseLLM):
    def __init__(self):
        self.client = Anthropic()
        self.fallback = OpenAI()

    def reply(self, history: Messages):
        return self.client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            system=[
                {
                    "type": "text",
                    "text": DEFAULT_SYSTEM + f" Session started {time.time()}.",  # expect: [volatile-system-prompt] `time.time()`
                    "cache_control": {"type": "ephemeral"},
                }
            ],
            messages=history,
        )
