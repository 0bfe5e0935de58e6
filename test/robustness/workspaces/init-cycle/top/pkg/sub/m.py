from top import pkg

PERSONA = "You are the release assistant."


def registry():
    return {"ask": pkg.ask}
