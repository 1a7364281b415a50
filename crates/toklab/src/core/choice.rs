//! Options with a fixed set of named values (an output format, an alignment unit, a gold
//! format). The library names and documents the values once; any front end (the command line's
//! flags, a workspace file, the workbench) lists and parses them through this trait, so the
//! library depends on no argument parser.

/// A value chosen by name from a fixed list.
pub trait Choice: Copy + Sized + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];

    /// The name a user types.
    fn name(self) -> &'static str;

    /// One line of help for this value.
    fn about(self) -> &'static str;

    /// The value called `name`, if there is one.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|value| value.name() == name)
    }
}
