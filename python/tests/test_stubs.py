"""The type stubs (libminimax/_native.pyi) against the module they describe: every class
and function they name exists, with the parameters it takes, in order, and every
property they list is there. Drift (a new option in the code but not in the stub, a
parameter renamed) fails here."""

import ast
import inspect
import pathlib

from libminimax import _native

STUB = pathlib.Path(__file__).resolve().parents[1] / "libminimax" / "_native.pyi"


def parameters(args):
    """A stub's parameter names, without self/cls, positional then keyword-only."""
    names = [a.arg for a in args.posonlyargs + args.args] + [a.arg for a in args.kwonlyargs]
    return [n for n in names if n not in ("self", "cls")]


def runtime_parameters(target):
    return [p for p in inspect.signature(target).parameters if p not in ("self", "cls")]


def is_protocol(node):
    return any(isinstance(b, ast.Name) and b.id == "Protocol" for b in node.bases)


def test_the_stubs_name_what_the_module_has_with_its_parameters():
    tree = ast.parse(STUB.read_text())
    drift, checked = [], 0
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            target = getattr(_native, node.name, None)
            if target is None:
                drift.append(f"no function {node.name}")
                continue
            if parameters(node.args) != runtime_parameters(target):
                drift.append(f"{node.name}: stub {parameters(node.args)}, module {runtime_parameters(target)}")
            checked += 1
        elif isinstance(node, ast.ClassDef) and not is_protocol(node):
            cls = getattr(_native, node.name, None)
            if cls is None:
                drift.append(f"no class {node.name}")
                continue
            for item in node.body:
                if not isinstance(item, ast.FunctionDef):
                    continue
                if item.name in ("__init__", "__new__"):
                    target = cls
                else:
                    target = getattr(cls, item.name, None)
                if target is None:
                    drift.append(f"{node.name}.{item.name} is not in the module")
                    continue
                checked += 1
                if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                    continue
                if type(target).__name__ == "wrapper_descriptor":
                    continue  # a slot (__call__): CPython shows it as (*args, **kwargs)
                if parameters(item.args) != runtime_parameters(target):
                    drift.append(f"{node.name}.{item.name}: stub {parameters(item.args)}, "
                                 f"module {runtime_parameters(target)}")
    assert checked > 50
    assert not drift, "\n".join(drift)


def test_every_public_class_of_the_module_has_a_stub():
    tree = ast.parse(STUB.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    public = {n for n in dir(_native) if not n.startswith("_")}
    assert public - stubbed == set()
