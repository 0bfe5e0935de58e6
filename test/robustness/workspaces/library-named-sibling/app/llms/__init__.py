from .openai import OpenAILLM
from .claude import ClaudeLLM

__all__ = ["OpenAILLM", "ClaudeLLM"]
