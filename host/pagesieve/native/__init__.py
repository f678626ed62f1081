"""The native-messaging host: the browser extension's link to the engine (``docs/protocol.md``)."""
