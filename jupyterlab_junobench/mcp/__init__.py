"""Agents in the room: an MCP server that gives an agent one JunoBench case per session.

``python -m jupyterlab_junobench.mcp [--casebook DIR]`` serves the tools of docs/agents.md over
stdio (or streamable HTTP with a token). The parts:

- :mod:`.plan`: the recorded replay order of a notebook (the rule of ``src/replay/plan.ts``);
- :mod:`.kernel`: the one adapter over a Jupyter kernel (start, execute, restart, stop);
- :mod:`.cli`: the ``junobench`` command line, which lists cases and judges repairs;
- :mod:`.session`: a session: the working folder, the notebook, the budget and the trajectory;
- :mod:`.server`: the MCP tools and transports (the only module that imports the ``mcp`` SDK).
"""
