from typing import Optional

DEFAULT_SYSTEM = "You are a careful assistant that answers in plain English."


class BaseLLM:
    system: Optional[str] = DEFAULT_SYSTEM
