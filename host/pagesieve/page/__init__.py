"""Page model: an HTML page or a browser DOM snapshot, as one tree type (:class:`Page`)."""

from pagesieve.page.model import NODE_ID_ATTR, Box, NodeStyle, Page

__all__ = ["NODE_ID_ATTR", "Box", "NodeStyle", "Page"]
