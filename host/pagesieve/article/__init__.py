"""The article: metadata and main content rendered as sanitised HTML, plain text and Markdown."""
