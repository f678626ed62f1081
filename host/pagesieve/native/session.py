"""What one host process keeps between requests: its stores, models, snapshot streams and windows.

A :class:`Session` opens the template store, the label store and the model on first use (each
failure a :class:`~pagesieve.native.envelope.ProtocolError` with its own code), holds the
snapshots streamed in parts until their last request, and the library windows it started. The
request handlers (:mod:`pagesieve.native.requests`) take it as their first argument; it imports
none of them. :class:`~pagesieve.native.protocol.Host` is a session that dispatches requests.
"""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError, or_protocol_error


class Session:
    """The stores and models of one host process (all opened on first use).

    Args:
        store_path: template store file (default: the user's).
        model_path: a model file instead of the shipped one.
        library_dir: the folder of saved articles (default: ``$PAGESIEVE_LIBRARY_DIR``, else
            the user's documents folder; :func:`pagesieve.library.folder.library_dir`).
        labels_path: the label store file (default: the user's).

    Attributes:
        streams: stream name -> ``(SnapshotStream, parts so far, monotonic time last fed)``.
        windows: the library window processes started (reaped when they end).
        personal, retrainer: the personal model and its background retraining.
    """

    def __init__(self, store_path=None, model_path=None, library_dir=None, labels_path=None) -> None:
        from pagesieve.corrections.personal import PersonalModel, Retrainer

        self._store_path = store_path
        self._model_path = model_path
        self._labels_path = labels_path
        self._store = None
        self._labels = None
        self._model = None
        self.personal = PersonalModel()
        self.retrainer = Retrainer(labels_path, None)
        self._rebuild_asked = False  # an outdated personal model is rebuilt once per host process
        self.streams: dict[str, tuple] = {}  # stream -> (SnapshotStream, parts so far, last fed)
        self.library_dir = library_dir  # the article library folder (None: the user's default)
        self.windows: list = []  # library window processes started (reaped when they end)
        self._spent: tuple = ()  # what the last "clean" answer was made from (see release())

    def close(self) -> None:
        """Close the template and label stores."""
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._labels is not None:
            self._labels.close()
            self._labels = None

    def release(self) -> None:
        """Free what the last ``clean`` was made from: the page's tree, blocks and features.

        Freeing them takes some 4 ms for a 5,000-element page (measured in-process on
        dragnet/T51), so :func:`pagesieve.native.host.serve` calls this once the reply is
        written, while the browser applies it, instead of the reply waiting for it. A caller
        that never calls it keeps one request's objects alive until the next ``clean``.
        """
        self._spent = ()

    def hold(self, spent: tuple) -> None:
        """Keep ``spent`` (what a ``clean`` answer was made from) until :meth:`release`."""
        self._spent = spent

    def store(self):
        """The template store (opened once; STORE error if it cannot be)."""
        from pagesieve.templates.store import TemplateStore

        if self._store is None:
            self._store = or_protocol_error(ErrorCode.STORE, TemplateStore, self._store_path)
        return self._store

    def label_store(self):
        """The label store (opened once; LABELS error if it cannot be)."""
        from pagesieve.corrections.store import LabelStore

        if self._labels is None:
            self._labels = or_protocol_error(ErrorCode.LABELS, LabelStore, self._labels_path)
        return self._labels

    def rules(self, site):
        """The corrections of ``site`` (:class:`~pagesieve.corrections.store.SiteRules`) or ``None``."""
        from pagesieve.errors import LabelStoreError

        if site is None:
            return None
        try:
            return self.label_store().rules_for(site)
        except LabelStoreError as exc:
            raise ProtocolError(ErrorCode.LABELS, str(exc)) from None

    def model(self, page=None):
        """The block classifier for ``page`` (loaded once; MODEL error if it cannot be): the
        model file given to the host; else the personal model when the user has one
        (:mod:`pagesieve.corrections.personal`, reloaded when retrained); else the shipped model
        that suits the page (box-aware for a snapshot with layout,
        :func:`pagesieve.classify.model_store.model_for`)."""
        from pagesieve.classify.model_store import load_model, model_for

        if self._model_path is None and page is not None:
            personal = self.personal_model()
            if personal is not None:
                return personal
            return or_protocol_error(ErrorCode.MODEL, model_for, page)
        if self._model is None:
            self._model = or_protocol_error(ErrorCode.MODEL, load_model, self._model_path)
        return self._model

    def personal_model(self):
        """The personal model, or ``None`` (:meth:`~pagesieve.corrections.personal.PersonalModel.get`),
        after reaping a finished retraining. A model of another feature set (or one refused) is
        rebuilt from the labels in the background, once per host process: the host calls this
        when it starts, so the rebuild runs while it answers."""
        self.retrainer.poll()
        model = self.personal.get()
        if self.personal.outdated and not self._rebuild_asked:
            self._rebuild_asked = True
            self.retrainer.request(rebuild=True)
        return model

    def personal_status(self) -> dict:
        """What the ``pong`` reply says of the personal model
        (:func:`~pagesieve.corrections.personal.personal_status`)."""
        from pagesieve.corrections.personal import personal_status

        self.personal_model()
        try:
            corrections = self.label_store().count() if self.personal.stamp is not None or self.retrainer.rebuild else None
        except ProtocolError:
            corrections = None
        return personal_status(self.personal, self.retrainer, corrections)

    def page(self, message: dict):
        """The page of ``message["snapshot"]``; with ``message["stream"]``, the snapshot's
        earlier nodes came in ``part`` requests and ``snapshot["nodes"]`` holds the rest.

        Raises:
            ProtocolError: BAD_REQUEST without a snapshot, BAD_SNAPSHOT for a broken one,
                NO_STREAM for a stream this host has not got.
        """
        from pagesieve.errors import InputError
        from pagesieve.page.snapshot import SnapshotStream, parse_snapshot

        snapshot = message.get("snapshot")
        if not isinstance(snapshot, dict):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"snapshot\" must be an object (docs/snapshot.md)")
        name = message.get("stream")
        if name is not None:
            if not isinstance(name, str):
                raise ProtocolError(ErrorCode.BAD_REQUEST, "\"stream\" must be a string")
            entry = self.streams.pop(name, None)
            if entry is None:
                raise ProtocolError(ErrorCode.NO_STREAM, f"no parts of stream {name!r} were received; send the whole snapshot")
        try:
            if name is None:
                return parse_snapshot(snapshot)
            stream: SnapshotStream = entry[0]
            return stream.finish(snapshot)
        except InputError as exc:
            raise ProtocolError(ErrorCode.BAD_SNAPSHOT, str(exc)) from None

    def folder(self, message: dict):
        """The library folder of a ``save``/``library`` request: its ``folder`` (the one the
        user chose on the options page; an absolute path, ``~`` allowed), else the host's.

        Raises:
            ProtocolError: BAD_REQUEST when ``folder`` is not an absolute path.
        """
        from pathlib import Path

        folder = message.get("folder")
        if folder is None:
            return self.library_dir
        if not isinstance(folder, str) or not Path(folder).expanduser().is_absolute():
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"folder\" must be an absolute path")
        return Path(folder).expanduser()
