/// The harness's checks stop with their message also in the optimized build that libFuzzer
/// runs, where the standard library's `precondition` drops it: a crash report then says which
/// invariant broke. (This shadows `Swift.precondition` in the fuzz target's module.)
func precondition(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { fatalError(message(), file: file, line: line) }
}
