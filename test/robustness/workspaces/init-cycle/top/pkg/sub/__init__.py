from .m import PERSONA, registry
