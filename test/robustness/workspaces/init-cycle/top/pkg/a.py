import uuid

import anthropic

from . import sub

client = anthropic.Anthropic()


def ask(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        system=sub.PERSONA + f" Conversation {uuid.uuid4()}",  # expect: [volatile-system-prompt] `uuid.uuid4()`
        messages=[{"role": "user", "content": question}],
    )
