"""Free the exported locator of the frame size it was traced at, so each frame gets an input of its
own aspect (`vision.detector.locator_input_size`): a portrait or 16:9 frame is not squeezed into 4:3.

The TorchScript exporter bakes every upsampling into a `Resize` to fixed sizes; the locator is fully
convolutional and its inputs are multiples of 16, so each such `Resize` is an exact 2x and is
rewritten with scales instead. Needs the `onnx` package (installed with torch, the training extra).
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


def drop_unused_nodes(graph) -> None:  # onnx.GraphProto
    """Remove nodes none of whose outputs is used (the shape arithmetic that fed the fixed sizes)."""
    while True:
        used = {name for node in graph.node for name in node.input} | {out.name for out in graph.output}
        dead = [node for node in graph.node if not any(name in used for name in node.output)]
        if not dead:
            return
        for node in dead:
            graph.node.remove(node)
