from openai import OpenAI

from app.llms.base import BaseLLM


class OpenAILLM(BaseLLM):
    def __init__(self, model: str):
        self.client = OpenAI()
        self.model = model
