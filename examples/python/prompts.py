"""Prompt text for the support agent."""
from datetime import datetime

SUPPORT_PROMPT = """You are the support assistant for Acme Cloud, a hosting platform.
Answer in at most two short paragraphs. Link one help-center article when it helps.
Never promise refunds or delivery dates; offer to escalate instead."""


def support_prompt() -> str:
    # Looks harmless, but the text changes every minute, and the cache with it.
    return f"{SUPPORT_PROMPT}\nCurrent time: {datetime.now():%Y-%m-%d %H:%M}"
