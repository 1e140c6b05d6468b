//! The threat solvers' self-checks, for the tests: each makes a solver verify one of its
//! shortcuts against the slow way (and panic on a wrong verdict) and count the verdicts
//! it checked.
//!
//! Compiled in only with the `self-check` cargo feature: without it [`ON`] is false, the
//! checks vanish from the solvers' hot paths, and the setters do not exist. Each solver
//! takes its own [`SelfChecks`] and keeps its own [`SelfCheckCounts`], so tests that run
//! in parallel do not see each other's checks.

/// Whether the self-checks are compiled in (the `self-check` feature).
pub const ON: bool = cfg!(feature = "self-check");

/// Which self-checks a solver runs; all off by default. Set with
/// `VcfSolver::set_self_checks` or `VctSolver::set_self_checks` (`self-check` feature).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfChecks {
    /// df-pn: replay the line after every defence that the search counts as refuted
    /// without a replay because the line provably still works (`line_survives`).
    pub line_shortcut: bool,
    /// df-pn: expand every AND node whose expansion the side table holds afresh too
    /// (pass test, line, candidate defences) and compare.
    pub and_cache: bool,
    /// df-pn: replay the line of every defender VCF that refutes an AND node (or, if a
    /// line completed from a table that lost an entry does not replay, a fresh solver's).
    pub defender_vcf: bool,
    /// df-pn: give every candidate defence refuted by replaying the line of an earlier
    /// candidate's quick look to a fresh VCF solver, which must find a win.
    pub alt_lines: bool,
    /// df-pn: scan the board afresh at every OR node whose threats the side table holds
    /// (squares, classes, the defender's fours after each) and compare.
    pub or_cache: bool,
    /// VCF: scan the whole board at every node that derives its four list from the list
    /// two plies up, and compare.
    pub derived_fours: bool,
}

impl SelfChecks {
    /// Every check on.
    pub const ALL: SelfChecks = SelfChecks {
        line_shortcut: true,
        and_cache: true,
        defender_vcf: true,
        alt_lines: true,
        or_cache: true,
        derived_fours: true,
    };
}

/// How many verdicts each self-check of [`SelfChecks`] verified (a wrong one panics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfCheckCounts {
    /// See [`SelfChecks::line_shortcut`].
    pub line_shortcut: u64,
    /// See [`SelfChecks::and_cache`].
    pub and_cache: u64,
    /// See [`SelfChecks::defender_vcf`].
    pub defender_vcf: u64,
    /// See [`SelfChecks::alt_lines`].
    pub alt_lines: u64,
    /// See [`SelfChecks::or_cache`].
    pub or_cache: u64,
    /// See [`SelfChecks::derived_fours`].
    pub derived_fours: u64,
}

impl std::ops::Add for SelfCheckCounts {
    type Output = SelfCheckCounts;
    fn add(self, o: SelfCheckCounts) -> SelfCheckCounts {
        SelfCheckCounts {
            line_shortcut: self.line_shortcut + o.line_shortcut,
            and_cache: self.and_cache + o.and_cache,
            defender_vcf: self.defender_vcf + o.defender_vcf,
            alt_lines: self.alt_lines + o.alt_lines,
            or_cache: self.or_cache + o.or_cache,
            derived_fours: self.derived_fours + o.derived_fours,
        }
    }
}
