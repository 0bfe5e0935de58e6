"""A tiny expression interpreter: every node kind has an evaluator that evaluates its children."""
import ast
import datetime

import anthropic


def evaluate_binop(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_unaryop(node.left, state, tools)
        right = evaluate_boolop(node.right, state, tools)
        return str(left) + str(right) + evaluate_compare(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_unaryop(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_call(node.left, state, tools)
        right = evaluate_listexpr(node.right, state, tools)
        return str(left) + str(right) + evaluate_constant(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_boolop(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_name(node.left, state, tools)
        right = evaluate_starred(node.right, state, tools)
        return str(left) + str(right) + evaluate_comprehension(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_compare(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_dictexpr(node.left, state, tools)
        right = evaluate_compare(node.right, state, tools)
        return str(left) + str(right) + evaluate_await_(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_call(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_comprehension(node.left, state, tools)
        right = evaluate_dictexpr(node.right, state, tools)
        return str(left) + str(right) + evaluate_compare(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_attribute(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_starred(node.left, state, tools)
        right = evaluate_slice_(node.right, state, tools)
        return str(left) + str(right) + evaluate_constant(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_subscript(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_yield_(node.left, state, tools)
        right = evaluate_call(node.right, state, tools)
        return str(left) + str(right) + evaluate_comprehension(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_name(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_boolop(node.left, state, tools)
        right = evaluate_ifexp(node.right, state, tools)
        return str(left) + str(right) + evaluate_await_(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_constant(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_attribute(node.left, state, tools)
        right = evaluate_await_(node.right, state, tools)
        return str(left) + str(right) + evaluate_compare(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_listexpr(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_constant(node.left, state, tools)
        right = evaluate_attribute(node.right, state, tools)
        return str(left) + str(right) + evaluate_constant(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_dictexpr(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_ifexp(node.left, state, tools)
        right = evaluate_lambda_(node.right, state, tools)
        return str(left) + str(right) + evaluate_comprehension(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_ifexp(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_fstring(node.left, state, tools)
        right = evaluate_yield_(node.right, state, tools)
        return str(left) + str(right) + evaluate_await_(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_lambda_(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_slice_(node.left, state, tools)
        right = evaluate_subscript(node.right, state, tools)
        return str(left) + str(right) + evaluate_compare(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_comprehension(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_binop(node.left, state, tools)
        right = evaluate_comprehension(node.right, state, tools)
        return str(left) + str(right) + evaluate_constant(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_fstring(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_compare(node.left, state, tools)
        right = evaluate_binop(node.right, state, tools)
        return str(left) + str(right) + evaluate_comprehension(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_tuple_(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_subscript(node.left, state, tools)
        right = evaluate_name(node.right, state, tools)
        return str(left) + str(right) + evaluate_await_(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_starred(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_listexpr(node.left, state, tools)
        right = evaluate_fstring(node.right, state, tools)
        return str(left) + str(right) + evaluate_compare(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_slice_(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_lambda_(node.left, state, tools)
        right = evaluate_unaryop(node.right, state, tools)
        return str(left) + str(right) + evaluate_constant(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_await_(node, state, tools):
    if isinstance(node, ast.Call):
        left = evaluate_tuple_(node.left, state, tools)
        right = evaluate_constant(node.right, state, tools)
        return str(left) + str(right) + evaluate_comprehension(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_yield_(node, state, tools):
    if isinstance(node, ast.BinOp):
        left = evaluate_await_(node.left, state, tools)
        right = evaluate_tuple_(node.right, state, tools)
        return str(left) + str(right) + evaluate_await_(node, state, tools)
    return evaluate_ast(node, state, tools)


def evaluate_ast(node, state, tools):
    handlers = {
        "binop": evaluate_binop,
        "unaryop": evaluate_unaryop,
        "boolop": evaluate_boolop,
        "compare": evaluate_compare,
        "call": evaluate_call,
        "attribute": evaluate_attribute,
        "subscript": evaluate_subscript,
        "name": evaluate_name,
        "constant": evaluate_constant,
        "listexpr": evaluate_listexpr,
        "dictexpr": evaluate_dictexpr,
        "ifexp": evaluate_ifexp,
        "lambda_": evaluate_lambda_,
        "comprehension": evaluate_comprehension,
        "fstring": evaluate_fstring,
        "tuple_": evaluate_tuple_,
        "starred": evaluate_starred,
        "slice_": evaluate_slice_,
        "await_": evaluate_await_,
        "yield_": evaluate_yield_,
    }
    kind = type(node).__name__.lower()
    if kind in handlers:
        return handlers[kind](node, state, tools)
    evaluate_binop(node, state, tools) + evaluate_unaryop(node, state, tools) + evaluate_boolop(node, state, tools) + evaluate_compare(node, state, tools) + evaluate_call(node, state, tools) + evaluate_attribute(node, state, tools)
    return ""


def summarize(source, state):
    tree = ast.parse(source)
    result = evaluate_ast(tree, state, {})
    client = anthropic.Anthropic()
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        # expect: [per-user-prefix] `"You explain...now()})"`
        system="You explain what a program computed. Result: " + evaluate_binop(tree, state, {}) + f" ({datetime.datetime.now()})",  # expect: [volatile-system-prompt] `datetime.datetime.now()`
        messages=[{"role": "user", "content": str(result)}],
    )
