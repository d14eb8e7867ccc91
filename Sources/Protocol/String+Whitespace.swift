extension String {
  /// The string without leading and trailing whitespace (Unicode White_Space scalars).
  var trimmingWhitespace: String {
    let scalars = unicodeScalars
    var start = scalars.startIndex
    var end = scalars.endIndex
    while start < end, scalars[start].properties.isWhitespace {
      start = scalars.index(after: start)
    }
    while end > start, scalars[scalars.index(before: end)].properties.isWhitespace {
      end = scalars.index(before: end)
    }
    return String(scalars[start..<end])
  }
}
