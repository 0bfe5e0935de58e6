from .a import ask
from .sub import PERSONA

__all__ = ["ask", "PERSONA"]
