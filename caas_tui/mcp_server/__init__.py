"""mcp_server layer: the project index as MCP tools for coding agents.

``server.build_server(engine)`` for in-process use and tests, ``server.serve(root)``
for stdio. Nothing is imported here so ``caas-tui`` loads the MCP SDK only for the
``mcp`` command.
"""
