import struct Lobby.ConnectionID

/// The transport numbers connections with the lobby's id type, so no conversion is needed.
typealias ConnectionID = Lobby.ConnectionID
