import anthropic

client = anthropic.Anthropic()


def run(history):
    while True:
        response = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=history[-6:],  # expect: [unsafe-history-slice] `history[-6:]`
            tools=[{"name": "shell", "description": "Run a command", "input_schema": {"type": "object"}}],
        )
        history.append({"role": "assistant", "content": response.content})
