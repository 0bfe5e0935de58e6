import time

import anthropic

client = anthropic.Anthropic()
client.messages.create(model="claude-sonnet-4-6", max_tokens=64, cache_control={"type": "ephemeral"}, system=f"Now {time.time()}", messages=[{"role": "user", "content": "hi"}])  # expect: [volatile-system-prompt] `time.time()`
