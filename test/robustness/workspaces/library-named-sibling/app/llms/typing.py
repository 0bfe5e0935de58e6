from typing import Any, Dict, List

Message = Dict[str, Any]
Messages = List[Message]
