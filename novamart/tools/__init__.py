"""The business tools, one small module each; ``novamart.tools.registry`` maps names to them."""
