"""The demo booth: the live game on one local web page (`server.BoothServer`, `server.BoothState`)."""
