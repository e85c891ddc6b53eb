// The columns text takes in a terminal, for the command line's aligned help (`macmd`): the rules
// of `DisplayWidth` (East Asian Wide and Fullwidth two columns, marks none).

/// How wide text is in a terminal's grid.
public enum DisplayColumns {
    /// The columns `text` takes in a monospaced terminal.
    public static func of(_ text: String) -> Int { DisplayWidth.columns(text) }
}
