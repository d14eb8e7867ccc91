import Foundation
import Lobby
import Model
import Store

extension LobbyEntropy {
  /// The system's random source (unguessable tokens, seeds and codes), with tokens kept only as
  /// their SHA-256 (``TokenDigest``): what the server runs with.
  static let system = LobbyEntropy(
    seed: { UInt64.random(in: .min ... .max) }, token: SessionToken.make,
    below: { Int.random(in: 0..<$0) }, hash: TokenDigest.hex,
    today: { DailyDeal.day(unixSeconds: Date().timeIntervalSince1970) },
    wallClock: { Date().timeIntervalSince1970 })
}
