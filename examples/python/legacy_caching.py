"""Nightly contract digest, written in 2024 when prompt caching was a beta.

Findings: the old prompt_caching namespace, GA beta names still sent, `betas` passed to the
non-beta client, an empty text block added only to carry a marker, a 1h marker after a
default (5m) one, a cached prefix far below the model's minimum, and suppressions that
silence nothing.
"""
import sys
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
PLAYBOOK = Path("legal/playbook.md").read_text()
CLAUSE_LIBRARY = Path("legal/clause_library.md").read_text()
CLASSIFIER_PROMPT = "Label the contract type: NDA, MSA, SOW or other. Answer with the label only."


def summarize(contract: str) -> str:
    resp = client.beta.prompt_caching.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=2048,
        system=[{"type": "text", "text": PLAYBOOK, "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": contract}],
    )
    return resp.content[0].text


def flag_risks(contract: str) -> str:
    resp = client.beta.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=2048,
        # prefixlint: disable-next-line=stale-betas -- the proxy still wants these
        betas=["prompt-caching-2024-07-31", "extended-cache-ttl-2025-04-11"],
        system=[
            {"type": "text", "text": PLAYBOOK, "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": CLAUSE_LIBRARY, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
        ],
        messages=[{"role": "user", "content": contract}],
    )
    return resp.content[0].text


def compare(old: str, new: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=2048,
        betas=["token-counting-2024-11-01"],
        system=[
            {"type": "text", "text": PLAYBOOK},
            {"type": "text", "text": "", "cache_control": {"type": "ephemeral"}},
        ],
        messages=[{"role": "user", "content": f"<old>{old}</old>\n<new>{new}</new>\nList the changed obligations."}],
    )
    return resp.content[0].text


def classify(contract: str) -> str:
    resp = client.messages.create(  # prefixlint: disable=volatile-system-prompt -- the date was removed in 2025
        model="claude-haiku-4-5",
        max_tokens=10,
        system=[{"type": "text", "text": CLASSIFIER_PROMPT, "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": contract[:4000]}],
    )
    return resp.content[0].text.strip()


if __name__ == "__main__":
    for name in sys.argv[1:]:
        text = Path(name).read_text()
        print(f"## {name} ({classify(text)})\n{summarize(text)}\n\n{flag_risks(text)}")
