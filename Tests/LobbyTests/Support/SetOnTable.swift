import Model

@testable import Lobby

/// The ids of a set on `table`'s board (empty when it has none): what a player who finds one
/// chooses.
func aSet(on table: TableState<SetCard>) -> [Int] {
  let board = table.game.board
  for i in board.indices {
    for j in board.indices where j > i {
      for k in board.indices
      where k > j && SetCard.matchScore([board[i], board[j], board[k]]) > 0 {
        return [board[i].id, board[j].id, board[k].id]
      }
    }
  }
  return []
}
