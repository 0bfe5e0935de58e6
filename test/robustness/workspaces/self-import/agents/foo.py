from datetime import datetime
from foo import bar
import anthropic

anthropic.Anthropic().messages.create(model="claude-sonnet-4-6", max_tokens=256, cache_control={"type": "ephemeral"}, system=f"Today: {datetime.now()}", messages=[{"role": "user", "content": bar()}])  # expect: [volatile-system-prompt] `datetime.now()`
