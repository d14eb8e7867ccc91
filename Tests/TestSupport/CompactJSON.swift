/// `json` with the whitespace between tokens removed: the compact form the server writes, with
/// object members in the order they were written.
public func compacted(_ json: String) -> String {
  var out = ""
  var inString = false
  var escaped = false
  for character in json {
    if inString {
      out.append(character)
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        inString = false
      }
    } else if character == "\"" {
      inString = true
      out.append(character)
    } else if !character.isWhitespace {
      out.append(character)
    }
  }
  return out
}
