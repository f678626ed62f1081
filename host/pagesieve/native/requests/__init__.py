"""One module per request type of ``docs/protocol.md``; each has ``handle(session, message)``.

``handle`` takes the :class:`~pagesieve.native.session.Session` of the host process and the
request (its envelope already checked by :func:`~pagesieve.native.envelope.parse_request`), and
returns the answer's fields (the envelope is added by :class:`~pagesieve.native.protocol.Host`),
or ``None`` for no reply; it raises :class:`~pagesieve.native.envelope.ProtocolError` for what it
refuses. :mod:`pagesieve.native.protocol` maps each ``type`` to its module.
"""
