import Model

/// Where on `board` two cards match and a third matches neither of them: the slots `(i, j, k)`
/// with `i < j`, or nil when the board has no such cards.
public func pairAndStranger<Card: MatchableCard>(_ board: [Card]) -> (Int, Int, Int)? {
  for i in board.indices {
    for j in board.indices where j > i && Card.matchScore([board[i], board[j]]) > 0 {
      if let k = board.indices.first(where: {
        $0 != i && $0 != j && Card.matchScore([board[i], board[$0]]) == 0
      }) {
        return (i, j, k)
      }
    }
  }
  return nil
}
