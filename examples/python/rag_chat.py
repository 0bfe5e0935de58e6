"""Terminal chat over the product docs with retrieval.

Findings: the citation rules loaded from JSON and serialized without sort_keys, a set joined
into the system prompt, and the history cut to its last 12 messages, which can split a
tool_use from its tool_result.
"""
import json
from pathlib import Path

import anthropic

from retrieval import search_docs  # your vector store; returns [{"text": ..., "metadata": {...}}]

client = anthropic.Anthropic()

PRODUCTS = {"Compute", "Object Storage", "Managed Postgres", "CDN"}
CITATION_RULES = json.loads(Path(__file__).with_name("citation_rules.json").read_text())
SYSTEM = (
    "You answer questions about Acme Cloud using the documentation excerpts in the user turn. "
    f"Products you may discuss: {', '.join(PRODUCTS)}. "
    f"Citation rules: {json.dumps(CITATION_RULES)}"
)


def build_turn(question: str) -> str:
    hits = search_docs(question, k=4)
    excerpts = "\n\n".join(
        f"[{i}] {hit['text']}\nsource: {hit['metadata'].get('url', 'unknown')}"
        for i, hit in enumerate(hits, 1)
    )
    return f"{excerpts}\n\nQuestion: {question}"


def main() -> None:
    history: list[dict] = []
    while True:
        question = input("docs> ").strip()
        if not question:
            break
        turn = build_turn(question)
        resp = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            cache_control={"type": "ephemeral"},
            system=SYSTEM,
            messages=[*history[-12:], {"role": "user", "content": turn}],
        )
        history += [{"role": "user", "content": turn}, {"role": "assistant", "content": resp.content}]
        print(resp.content[0].text)


if __name__ == "__main__":
    main()
