# Sourced by the benchmark scripts: `journal_args BINARY` prints the server options for the
# journal that JOURNAL asks for — `off` (the default: memory only, as the core's figures were
# measured), `on` (SQLite in a fresh folder, --sync process) or `full` (the same with --sync full).
# A binary older than the journal gets no option.
journal_args() {
  "$1" --help 2>&1 | grep -q -- '--no-journal' || return 0
  case "${JOURNAL:-off}" in
    off) echo "--no-journal" ;;
    on) echo "--data-dir $(mktemp -d "${TMPDIR:-/tmp}/mlive-journal.XXXXXX")" ;;
    full) echo "--data-dir $(mktemp -d "${TMPDIR:-/tmp}/mlive-journal.XXXXXX") --sync full" ;;
    *) echo "JOURNAL must be off, on or full" >&2; return 1 ;;
  esac
}
