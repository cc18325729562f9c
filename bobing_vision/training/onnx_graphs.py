"""Rewrites of the exported ONNX graphs (needs the `onnx` package, installed with torch, the training extra).

- `free_input_size`: frees the exported locator of the frame size it was traced at, so each frame gets
  an input of its own aspect (`vision.detector.locator_input_size`): a portrait or 16:9 frame is not
  squeezed into 4:3. The TorchScript exporter bakes every upsampling into a `Resize` to fixed sizes;
  the locator is fully convolutional and its inputs are multiples of 16, so each such `Resize` is an
  exact 2x and is rewritten with scales instead.
- `write_metadata`: notes the reader's crop geometry in its file, so the detector cuts crops as the
  reader was trained (`vision.detector.FACE_FRACTION_KEY`).
- `face_only`: the reader without its pip head, for the detector's second look at unsure dice, which
  uses the face logits alone (onnxruntime computes every output of a graph, asked for or not).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SCALES_2X = "resize_scales_2x"


def free_input_size(path: Path) -> None:
    """Rewrite the ONNX file at `path` in place: symbolic H and W, every `Resize` a 2x by scales."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    resizes = [node for node in graph.node if node.op_type == "Resize"]
    for node in resizes:
        if len(node.input) != 4 or not node.input[3]:
            raise ValueError(f"expected Resize {node.name} to take fixed sizes, got inputs {list(node.input)}")
        source = node.input[0]
        del node.input[:]
        node.input.extend([source, "", SCALES_2X])
    if resizes:
        graph.initializer.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), SCALES_2X))
    drop_unused_nodes(graph)
    for value, names in ((graph.input[0], ("height", "width")), (graph.output[0], ("map_height", "map_width"))):
        for dim, name in zip(value.type.tensor_type.shape.dim[2:], names):
            dim.Clear()
            dim.dim_param = name
    del graph.value_info[:]  # the traced shapes of inner tensors no longer hold
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def write_metadata(path: Path, entries: dict[str, str]) -> None:
    """Rewrite the ONNX file at `path` in place with `entries` in its metadata (onnxruntime's
    `custom_metadata_map`), replacing any of the same keys."""
    import onnx

    model = onnx.load(str(path))
    kept = [(prop.key, prop.value) for prop in model.metadata_props if prop.key not in entries]
    del model.metadata_props[:]
    for key, value in [*kept, *entries.items()]:
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))


def drop_unused_nodes(graph) -> None:  # onnx.GraphProto
    """Remove nodes none of whose outputs is used (the shape arithmetic that fed the fixed sizes)."""
    while True:
        used = {name for node in graph.node for name in node.input} | {out.name for out in graph.output}
        dead = [node for node in graph.node if not any(name in used for name in node.output)]
        if not dead:
            return
        for node in dead:
            graph.node.remove(node)


def face_only(reader_path: Path, out_path: Path, output: str = "face_logits") -> None:
    """Write the reader at `reader_path` with `output` its only output, and only the nodes and weights
    that feed it, to `out_path`: the same face logits for ~60% of the reader's time."""
    import onnx

    model = onnx.load(str(reader_path))
    graph = model.graph
    kept = [value for value in graph.output if value.name == output]
    if not kept:
        raise ValueError(f"expected an output named {output!r}, got {[value.name for value in graph.output]}")
    del graph.output[:]
    graph.output.extend(kept)
    drop_unused_nodes(graph)
    used = {name for node in graph.node for name in node.input}
    for weights in [init for init in graph.initializer if init.name not in used]:
        graph.initializer.remove(weights)
    made = {name for node in graph.node for name in node.output}
    for info in [info for info in graph.value_info if info.name not in made]:
        graph.value_info.remove(info)
    onnx.checker.check_model(model)
    onnx.save(model, str(out_path))
