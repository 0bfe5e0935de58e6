import anthropic

client = anthropic.Anthropic()
client.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=[{"role": "user", "content": "hi"}])
