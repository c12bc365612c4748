"""mcp_server layer."""
