"""Time nbclient executing every code cell of a notebook (kernel start excluded).

Prints one JSON line: {"cells": N, "total_ms": T, "per_cell_ms": P}.
"""
import json
import sys
import time

import nbformat
from nbclient import NotebookClient


def main(path: str) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=600)
    with client.setup_kernel():
        cells = [c for c in nb.cells if c.cell_type == "code"]
        started = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        total = (time.perf_counter() - started) * 1000
    print(json.dumps({"cells": len(cells), "total_ms": total, "per_cell_ms": total / len(cells)}))


if __name__ == "__main__":
    main(sys.argv[1])
