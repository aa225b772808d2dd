//! Callgrind's output files, read: one dump (`callgrind.out.<pid>.<n>`) becomes a [`Profile`],
//! each function's exclusive and inclusive cost per event.
//!
//! The format is callgrind's "Callgrind Format, Version 1" (valgrind's manual, chapter
//! `cl-format`). No crate reads it well enough to be the field's choice (the one parser on
//! crates.io is a first release on three dependencies), and the part needed here is small: the
//! header's `events:`, `positions:`, `totals:` and `desc: Trigger:`, and in the body `fn=`,
//! `cfn=`, `calls=` and cost lines. File and object names (`fl=`, `fi=`, `fe=`, `ob=`, their
//! called forms) and jumps do not change whose cost a line is, so they are read past.
//!
//! **Names.** A name may be compressed: `fn=(12) name` defines id 12, a later `fn=(12)` or
//! `cfn=(12)` refers to it; functions have one id space (`fn=` and `cfn=` share it). Names are
//! callgrind's own demangled ones (its `--demangle=yes`, the default, which in valgrind 3.19
//! reads both Rust manglings, legacy and v0), with the recursion-depth suffix that
//! `--separate-recs` adds (`fib'2`) removed: every depth of a function is that function.
//!
//! **Inclusive cost.** A function's inclusive cost is everything executed while it is on the
//! stack: its own cost plus the cost of its calls to other functions. A call to itself is left
//! out, since the callee's cost is already the function's own (callgrind sums a function's cost
//! over all its activations), so direct recursion is counted once. Mutual recursion (`f` calls
//! `g` calls `f`) cannot be untangled from summed data; such a function gets the cost of its
//! whole cycle, as KCachegrind shows a cycle, and is marked [`Function::in_cycle`].

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// One callgrind dump: its events, totals and every function's cost.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Profile {
    /// The event names of the `events:` line, in the order of every cost vector here.
    pub(crate) events: Vec<String>,
    /// Why the dump was written: `Client Request: <label>`, `Program termination`, ….
    pub(crate) trigger: Option<String>,
    /// The file's `totals:` (else `summary:`) line; the sum of every exclusive cost if neither.
    pub(crate) totals: Vec<u64>,
    /// Every function with a cost or a call in the dump, by name.
    pub(crate) functions: BTreeMap<String, Function>,
}

/// One function's cost in a dump, one value per event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Function {
    /// What its own instructions cost (callgrind's "self" cost).
    pub(crate) exclusive: Vec<u64>,
    /// What it cost with everything it called.
    pub(crate) inclusive: Vec<u64>,
    /// Whether it is part of a mutual recursion, so `inclusive` is its cycle's.
    pub(crate) in_cycle: bool,
}

/// A line callgrind would not have written, by its line number (from 1), or a dump that could
/// not be read at all.
#[derive(Debug, thiserror::Error)]
#[error("{}{reason}", where_it_is(.file.as_deref(), *.line))]
pub(crate) struct FormatError {
    /// The file, when the text came from one.
    pub(crate) file: Option<PathBuf>,
    /// The line number, from 1; 0 when the file as a whole could not be read.
    pub(crate) line: usize,
    /// What is wrong with it.
    pub(crate) reason: Malformed,
}

/// `file:line: `, `file: ` when the whole file is meant, or `line n: ` for text from no file.
fn where_it_is(file: Option<&Path>, line: usize) -> String {
    match (file, line) {
        (Some(file), 0) => format!("{}: ", file.display()),
        (Some(file), line) => format!("{}:{line}: ", file.display()),
        (None, line) => format!("line {line}: "),
    }
}

/// What is wrong with a dump: a line callgrind would not have written, or a file or folder that
/// cannot be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Malformed {
    /// The dump file cannot be read.
    #[error("cannot read it: {0}")]
    Unreadable(#[source] io::Error),
    /// The dump folder cannot be listed.
    #[error("cannot list the folder: {0}")]
    Unlisted(#[source] io::Error),
    /// A line after `calls=` that is not its cost line.
    #[error("a calls= line must be followed by its cost line, not `{0}`")]
    CallsWithoutCost(String),
    /// The file ends right after a `calls=` line.
    #[error("the file ends after a calls= line, without its cost line")]
    EndsAfterCalls,
    /// A line of no kind callgrind writes.
    #[error("`{0}` is neither a cost line, a name nor a header line")]
    UnknownLine(String),
    /// A second `events:` line.
    #[error("a second `events:` line: the file holds several parts, and rtcompare reads one dump per file")]
    SecondEvents,
    /// `events:` with nothing after it.
    #[error("`events:` names no event")]
    NoEvent,
    /// `positions:` with nothing after it.
    #[error("`positions:` names no position")]
    NoPosition,
    /// No `events:` line at all.
    #[error("no `events:` line: not a callgrind output file")]
    NoEventsLine,
    /// `calls=` with no `cfn=` before it.
    #[error("a calls= line with no cfn= before it")]
    CallsWithoutCallee,
    /// `calls=` before any `fn=`.
    #[error("a calls= line before any fn=")]
    CallsBeforeFunction,
    /// A position key callgrind does not write.
    #[error("`{0}=` is not a position callgrind writes")]
    UnknownPosition(String),
    /// A compressed name whose id is not closed.
    #[error("`{0}`: a compressed name's id has no `)`")]
    UnclosedId(String),
    /// A compressed name whose id is not a number.
    #[error("`{value}`: `{id}` is not a number")]
    BadId { value: String, id: String },
    /// A compressed id used before a name was given it.
    #[error("function id ({0}) is used before it is defined")]
    UndefinedId(u64),
    /// A cost line before the `events:` line.
    #[error("a cost line before the `events:` line")]
    CostBeforeEvents,
    /// A cost line before any `fn=`.
    #[error("a cost line before any fn=")]
    CostBeforeFunction,
    /// A cost line with fewer positions than `positions:` names.
    #[error("`{line}` has fewer than {positions} positions")]
    FewPositions { line: String, positions: usize },
    /// A cost line with more costs than there are events.
    #[error("`{line}` has {costs} costs for {events} events")]
    TooManyCosts { line: String, costs: usize, events: usize },
    /// A cost that is not a number.
    #[error("`{0}` is not a count")]
    NotACount(String),
}

impl Profile {
    /// The index of `event` (`"Ir"`) in the cost vectors, if the dump has it.
    pub(crate) fn event(&self, event: &str) -> Option<usize> {
        self.events.iter().position(|e| e == event)
    }

    /// The label a `CALLGRIND_DUMP_STATS_AT(label)` request gave this dump.
    pub(crate) fn label(&self) -> Option<&str> {
        self.trigger.as_deref()?.strip_prefix("Client Request: ")
    }

    /// The function's inclusive cost of event `index`, 0 if it did not run.
    pub(crate) fn inclusive(&self, name: &str, index: usize) -> u64 {
        self.functions.get(name).map_or(0, |f| f.inclusive[index])
    }

    /// The functions whose inclusive cost of event `index` is at least the dump's whole total:
    /// the frames around the counted region (`main`, the batch loop that switched collection
    /// on), which every dump of a run shares and which say nothing about one arm. At least, not
    /// equal: with `--dump-instr=yes --collect-jumps=yes` callgrind 3.19 gave these frames'
    /// calls 8 instructions more than its `totals:` (its `summary:` matched the calls).
    pub(crate) fn enclosing(&self, index: usize) -> impl Iterator<Item = &str> {
        let total = self.totals[index];
        self.functions.iter().filter(move |(_, f)| f.inclusive[index] >= total).map(|(name, _)| name.as_str())
    }

    /// Reads one dump from its text.
    pub(crate) fn parse(text: &str) -> Result<Profile, FormatError> {
        let mut reader = Reader::default();
        for (index, line) in text.lines().enumerate() {
            reader.line(line).map_err(|reason| FormatError { file: None, line: index + 1, reason })?;
        }
        let end = text.lines().count();
        reader.finish().map_err(|reason| FormatError { file: None, line: end, reason })
    }

    /// Reads one dump from a file.
    pub(crate) fn read(path: &Path) -> Result<Profile, FormatError> {
        let text = std::fs::read_to_string(path).map_err(|e| FormatError {
            file: Some(path.to_path_buf()),
            line: 0,
            reason: Malformed::Unreadable(e),
        })?;
        Profile::parse(&text).map_err(|e| FormatError { file: Some(path.to_path_buf()), ..e })
    }
}

/// Every dump `callgrind.out.<pid>.<n>` in `dir` — the ones requests wrote, numbered — in the
/// order callgrind wrote them. The file without a number is left out: callgrind creates it empty
/// when it starts (to see that it can write there) and fills it only when the program ends.
pub(crate) fn read_dumps(dir: &Path) -> Result<Vec<Profile>, FormatError> {
    let unreadable =
        |e: io::Error| FormatError { file: Some(dir.to_path_buf()), line: 0, reason: Malformed::Unlisted(e) };
    let mut dumps = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        let Some(rest) = name.strip_prefix("callgrind.out.") else { continue };
        let part = rest.split_once('.').and_then(|(_, part)| part.parse::<u64>().ok());
        if let Some(part) = part {
            dumps.push((part, path));
        }
    }
    dumps.sort();
    dumps.iter().map(|(_, path)| Profile::read(path)).collect()
}

/// The reader's state between lines.
#[derive(Default)]
struct Reader {
    events: Option<Vec<String>>,
    positions: usize,
    trigger: Option<String>,
    totals: Option<Vec<u64>>,
    summary: Option<Vec<u64>>,
    /// Function names by compressed id.
    names: BTreeMap<u64, String>,
    /// The function the cost lines belong to.
    current: Option<String>,
    /// The function the next `calls=` line calls.
    callee: Option<String>,
    /// Set by `calls=`: the next cost line is that call's inclusive cost.
    call_pending: Option<String>,
    body: BTreeMap<String, Raw>,
}

/// What the file says of one function before inclusive costs are worked out.
#[derive(Default)]
struct Raw {
    exclusive: Vec<u64>,
    /// Inclusive cost of its calls, by callee.
    calls: BTreeMap<String, Vec<u64>>,
}

impl Reader {
    fn line(&mut self, line: &str) -> Result<(), Malformed> {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        if line.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-' || c == '*') {
            return self.cost_line(line);
        }
        if self.call_pending.is_some() {
            return Err(Malformed::CallsWithoutCost(line.to_owned()));
        }
        if let Some((key, value)) = line.split_once('=')
            && !key.contains(':')
        {
            return self.position(key, value);
        }
        if let Some((key, value)) = line.split_once(':') {
            return self.header(key, value.trim());
        }
        Err(Malformed::UnknownLine(line.to_owned()))
    }

    fn header(&mut self, key: &str, value: &str) -> Result<(), Malformed> {
        match key {
            "events" => {
                if self.events.is_some() {
                    return Err(Malformed::SecondEvents);
                }
                let events: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
                if events.is_empty() {
                    return Err(Malformed::NoEvent);
                }
                self.events = Some(events);
            }
            "positions" => {
                let positions = value.split_whitespace().count();
                if positions == 0 {
                    return Err(Malformed::NoPosition);
                }
                self.positions = positions;
            }
            "totals" => self.totals = Some(numbers(value.split_whitespace())?),
            "summary" => self.summary = Some(numbers(value.split_whitespace())?),
            "desc" => {
                if let Some(trigger) = value.strip_prefix("Trigger:") {
                    self.trigger = Some(trigger.trim().to_owned());
                }
            }
            // version, creator, cmd, pid, part, thread, event definitions: nothing to count.
            _ => {}
        }
        Ok(())
    }

    fn position(&mut self, key: &str, value: &str) -> Result<(), Malformed> {
        match key {
            "fn" => {
                self.current = Some(self.name(value)?);
                self.callee = None;
            }
            "cfn" => self.callee = Some(self.name(value)?),
            "calls" => {
                let Some(callee) = self.callee.clone() else {
                    return Err(Malformed::CallsWithoutCallee);
                };
                if self.current.is_none() {
                    return Err(Malformed::CallsBeforeFunction);
                }
                self.call_pending = Some(callee);
            }
            // Files, objects and jumps do not change whose cost a line is.
            "ob" | "fl" | "fi" | "fe" | "cob" | "cfi" | "cfl" | "jump" | "jcnd" | "jfi" | "jfn" => {}
            _ => return Err(Malformed::UnknownPosition(key.to_owned())),
        }
        Ok(())
    }

    /// A function's name from `(id) name`, `(id)` or `name`.
    fn name(&mut self, value: &str) -> Result<String, Malformed> {
        let value = value.trim();
        let Some(rest) = value.strip_prefix('(').filter(|r| r.starts_with(|c: char| c.is_ascii_digit())) else {
            return Ok(without_recursion_depth(value).to_owned());
        };
        let (id, name) = rest.split_once(')').ok_or_else(|| Malformed::UnclosedId(value.to_owned()))?;
        let id: u64 = id.parse().map_err(|_| Malformed::BadId { value: value.to_owned(), id: id.to_owned() })?;
        let name = name.trim();
        if name.is_empty() {
            return self.names.get(&id).cloned().ok_or(Malformed::UndefinedId(id));
        }
        let name = without_recursion_depth(name).to_owned();
        self.names.insert(id, name.clone());
        Ok(name)
    }

    fn cost_line(&mut self, line: &str) -> Result<(), Malformed> {
        let width = self.events.as_ref().ok_or(Malformed::CostBeforeEvents)?.len();
        let positions = self.positions.max(1);
        let mut fields = line.split_whitespace();
        if fields.by_ref().take(positions).count() < positions {
            return Err(Malformed::FewPositions { line: line.to_owned(), positions });
        }
        let costs = numbers(fields)?;
        if costs.len() > width {
            return Err(Malformed::TooManyCosts { line: line.to_owned(), costs: costs.len(), events: width });
        }
        let current = self.current.clone().ok_or(Malformed::CostBeforeFunction)?;
        let raw = self.body.entry(current).or_default();
        let target = match self.call_pending.take() {
            Some(callee) => raw.calls.entry(callee).or_default(),
            None => &mut raw.exclusive,
        };
        add(target, &costs, width);
        Ok(())
    }

    fn finish(self) -> Result<Profile, Malformed> {
        if self.call_pending.is_some() {
            return Err(Malformed::EndsAfterCalls);
        }
        let events = self.events.ok_or(Malformed::NoEventsLine)?;
        let width = events.len();
        let mut raw = self.body;
        // A function that is only ever called (its own lines all outside the counted region)
        // still has an entry, with no cost of its own.
        let callees: Vec<String> = raw.values().flat_map(|r| r.calls.keys().cloned()).collect();
        for callee in callees {
            raw.entry(callee).or_default();
        }
        for r in raw.values_mut() {
            r.exclusive.resize(width, 0);
        }
        let functions = inclusive_costs(&raw, width);
        let totals = match self.totals.or(self.summary) {
            Some(mut totals) => {
                totals.resize(width, 0);
                totals
            }
            None => functions.values().fold(vec![0; width], |mut sum, f| {
                add(&mut sum, &f.exclusive, width);
                sum
            }),
        };
        Ok(Profile { events, trigger: self.trigger, totals, functions })
    }
}

/// `fib'2` → `fib`: the suffix `--separate-recs` gives deeper activations of a recursion.
fn without_recursion_depth(name: &str) -> &str {
    match name.rsplit_once('\'') {
        Some((base, depth)) if !base.is_empty() && !depth.is_empty() && depth.bytes().all(|b| b.is_ascii_digit()) => {
            base
        }
        _ => name,
    }
}

fn numbers<'a>(fields: impl Iterator<Item = &'a str>) -> Result<Vec<u64>, Malformed> {
    fields
        .map(|field| {
            let parsed = match field.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => field.parse(),
            };
            parsed.map_err(|_| Malformed::NotACount(field.to_owned()))
        })
        .collect()
}

fn add(sum: &mut Vec<u64>, costs: &[u64], width: usize) {
    sum.resize(width, 0);
    for (total, cost) in sum.iter_mut().zip(costs) {
        *total = total.saturating_add(*cost);
    }
}

/// Every function's inclusive cost: its own plus its calls to functions outside its cycle,
/// where a cycle is a strongly connected component of the call graph (a function alone unless
/// it is in a mutual recursion), whose members share the cycle's cost.
fn inclusive_costs(raw: &BTreeMap<String, Raw>, width: usize) -> BTreeMap<String, Function> {
    let names: Vec<&str> = raw.keys().map(String::as_str).collect();
    let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|name| {
            raw[*name].calls.keys().filter(|callee| callee.as_str() != *name).map(|c| index[c.as_str()]).collect()
        })
        .collect();
    let component = strongly_connected(&edges);
    let mut size = vec![0usize; names.len()];
    let mut cost = vec![vec![0u64; width]; names.len()];
    for (i, name) in names.iter().enumerate() {
        let c = component[i];
        size[c] += 1;
        let r = &raw[*name];
        add(&mut cost[c], &r.exclusive, width);
        for (callee, call) in &r.calls {
            if component[index[callee.as_str()]] != c {
                add(&mut cost[c], call, width);
            }
        }
    }
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let c = component[i];
            let function =
                Function { exclusive: raw[*name].exclusive.clone(), inclusive: cost[c].clone(), in_cycle: size[c] > 1 };
            ((*name).to_owned(), function)
        })
        .collect()
}

/// Tarjan's strongly connected components, without recursion (a call graph can be deep):
/// the component number of every node.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let (mut order, mut low, mut component) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
    let (mut on_stack, mut stack, mut next, mut components) = (vec![false; n], Vec::new(), 0, 0);
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        // Each frame: a node and how many of its edges have been followed.
        let mut frames = vec![(root, 0usize)];
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut followed)) = frames.last_mut() {
            if let Some(&to) = edges[node].get(*followed) {
                *followed += 1;
                if order[to] == UNSEEN {
                    order[to] = next;
                    low[to] = next;
                    next += 1;
                    stack.push(to);
                    on_stack[to] = true;
                    frames.push((to, 0));
                } else if on_stack[to] {
                    low[node] = low[node].min(order[to]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = components;
                    if member == node {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Profile {
        Profile::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn costs(profile: &Profile, name: &str) -> (Vec<u64>, Vec<u64>) {
        let f = profile
            .functions
            .get(name)
            .unwrap_or_else(|| panic!("no function {name} in {:?}", profile.functions.keys()));
        (f.exclusive.clone(), f.inclusive.clone())
    }

    /// The manual's extended example: main calls func1 once and func2 three times, func1 calls
    /// func2 twice; main's inclusive cost is 20 + 400 + 400.
    #[test]
    fn inclusive_cost_is_own_cost_plus_the_calls() {
        let profile = parse(
            "# callgrind format\nevents: Instructions\nfl=file1.c\nfn=main\n16 20\ncfn=func1\ncalls=1 50\n16 400\n\
             cfi=file2.c\ncfn=func2\ncalls=3 20\n16 400\nfn=func1\n51 100\ncfi=file2.c\ncfn=func2\ncalls=2 20\n51 300\n\
             fl=file2.c\nfn=func2\n20 700\n",
        );
        assert_eq!(costs(&profile, "main"), (vec![20], vec![820]));
        assert_eq!(costs(&profile, "func1"), (vec![100], vec![400]));
        assert_eq!(costs(&profile, "func2"), (vec![700], vec![700]));
        assert_eq!(profile.totals, vec![820], "no totals line: the sum of the exclusive costs");
        assert!(profile.functions.values().all(|f| !f.in_cycle));
    }

    #[test]
    fn compressed_names_are_defined_once_and_shared_by_fn_and_cfn() {
        let profile = parse(
            "events: Ir\nfl=(1) a.rs\nfn=(1) main\n1 5\ncfn=(2) helper\ncalls=2 9\n1 30\n\
             fl=(2) b.rs\nfn=(2)\n9 30\nfn=(1)\n2 1\n",
        );
        assert_eq!(costs(&profile, "main"), (vec![6], vec![36]));
        assert_eq!(costs(&profile, "helper"), (vec![30], vec![30]));
        let undefined = Profile::parse("events: Ir\nfn=(7)\n1 1\n").unwrap_err();
        assert_eq!(undefined.line, 2);
        assert!(undefined.reason.to_string().contains("id (7) is used before it is defined"), "{undefined}");
    }

    #[test]
    fn several_events_positions_and_subposition_compression() {
        // Two positions (instr line), relative subpositions, a line with fewer costs than
        // events (the rest are zero), a hex cost, a jump line, and totals at the end.
        let profile = parse(
            "version: 1\npositions: instr line\nevents: Ir Dr Dw\nsummary: 19 5 3\n\
             fn=(3) work\n0x10 4 5 2 1\n+2 * 4 1\n-1 +1 0x3\njump=2 +4 *\n+4 * 7 2 2\n\
             cfn=(4) leaf\ncalls=1 0x40 9\n* * 0 0 0\ntotals: 19 5 3\n",
        );
        assert_eq!(profile.events, vec!["Ir", "Dr", "Dw"]);
        assert_eq!(profile.event("Dw"), Some(2));
        assert_eq!(costs(&profile, "work"), (vec![19, 5, 3], vec![19, 5, 3]));
        assert_eq!(costs(&profile, "leaf"), (vec![0, 0, 0], vec![0, 0, 0]), "called, with no cost of its own");
        assert_eq!(profile.totals, vec![19, 5, 3]);
    }

    /// callgrind sums a function over its activations, and `--separate-recs` names deeper
    /// ones `fib'2`: fib's inclusive cost is its own cost at every depth, once.
    #[test]
    fn direct_recursion_is_counted_once() {
        let profile = parse(
            "events: Ir\nfn=(1) caller\n1 10\ncfn=(2) fib\ncalls=1 5\n1 1000\n\
             fn=(2)\n5 60\ncfn=(3) fib'2\ncalls=2 5\n5 940\n\
             fn=(3)\n5 940\ncfn=(3)\ncalls=6 5\n5 700\n",
        );
        assert!(!profile.functions.contains_key("fib'2"), "depths are one function: {:?}", profile.functions.keys());
        assert_eq!(costs(&profile, "fib"), (vec![1000], vec![1000]));
        assert_eq!(costs(&profile, "caller"), (vec![10], vec![1010]));
        assert_eq!(profile.totals, vec![1010]);
        // A name whose quote is not a depth keeps it.
        assert_eq!(without_recursion_depth("<&'a str as Debug>::fmt"), "<&'a str as Debug>::fmt");
        assert_eq!(without_recursion_depth("f'x1"), "f'x1");
        assert_eq!(without_recursion_depth("fib'12"), "fib");
    }

    /// even ↔ odd call each other; each gets the whole cycle's cost (their own costs and
    /// the cycle's call out to `leaf`), never the call costs between them added again.
    #[test]
    fn mutual_recursion_gets_its_cycles_cost_and_is_marked() {
        let profile = parse(
            "events: Ir\nfn=main\n1 1\ncfn=even\ncalls=1 1\n1 100\n\
             fn=even\n1 30\ncfn=odd\ncalls=2 1\n1 90\ncfn=leaf\ncalls=1 1\n1 20\n\
             fn=odd\n1 50\ncfn=even\ncalls=1 1\n1 40\n\
             fn=leaf\n1 20\n",
        );
        assert_eq!(costs(&profile, "even"), (vec![30], vec![100]));
        assert_eq!(costs(&profile, "odd"), (vec![50], vec![100]));
        assert!(profile.functions["even"].in_cycle && profile.functions["odd"].in_cycle);
        assert!(!profile.functions["main"].in_cycle && !profile.functions["leaf"].in_cycle);
        assert_eq!(costs(&profile, "main"), (vec![1], vec![101]));
    }

    #[test]
    fn the_trigger_names_the_client_requests_label_and_the_enclosing_frames() {
        let profile = parse(
            "events: Ir\ndesc: I1 cache:\ndesc: Trigger: Client Request: pair 3 candidate 8\n\
             fn=main\n0 0\ncfn=batch\ncalls=0 0\n0 58\nfn=batch\n1 10\ncfn=work\ncalls=4 2\n1 40\nfn=work\n2 40\ntotals: 50\n",
        );
        assert_eq!(profile.label(), Some("pair 3 candidate 8"));
        // main's call reports more than the totals, as callgrind's did with jumps collected.
        assert_eq!(profile.enclosing(0).collect::<Vec<_>>(), vec!["batch", "main"]);
        assert_eq!(profile.inclusive("work", 0), 40);
        assert_eq!(profile.inclusive("absent", 0), 0);
        let at_exit = parse("events: Ir\ndesc: Trigger: Program termination\ntotals: 0\n");
        assert_eq!(at_exit.label(), None);
    }

    #[test]
    fn what_callgrind_would_not_write_is_an_error_naming_its_line() {
        let cases = [
            ("fn=f\n1 2\n", 2, "before the `events:` line"),
            ("events: Ir\n1 2\n", 2, "before any fn="),
            ("events: Ir\nfn=f\ncalls=1 2\n", 3, "no cfn="),
            ("events: Ir\nfn=f\ncfn=g\ncalls=1 2\nfn=h\n", 5, "followed by its cost line"),
            ("events: Ir\nfn=f\ncfn=g\ncalls=1 2\n", 4, "ends after a calls= line"),
            ("events: Ir\nfn=f\n1 2 3\n", 3, "2 costs for 1 events"),
            ("events: Ir\nfn=f\n1 x\n", 3, "`x` is not a count"),
            ("events: Ir\nxy=1\n", 2, "`xy=` is not a position"),
            ("events: Ir\nevents: Dr\n", 2, "several parts"),
            ("creator: me\n", 1, "not a callgrind output file"),
            ("events: Ir\nfn=f\nhello\n", 3, "neither a cost line"),
        ];
        for (text, line, reason) in cases {
            let error = Profile::parse(text).expect_err(text);
            assert_eq!(error.line, line, "{text:?}: {error}");
            assert!(error.reason.to_string().contains(reason), "{text:?}: {error}");
        }
    }

    #[test]
    fn the_numbered_dumps_are_read_from_a_folder_in_the_order_callgrind_wrote_them() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let dump = |label: &str, ir: u64| format!("events: Ir\ndesc: Trigger: {label}\nfn=f\n1 {ir}\ntotals: {ir}\n");
        let files = [
            ("callgrind.out.77", String::new()),
            ("callgrind.out.77.10", dump("Client Request: tenth", 10)),
            ("callgrind.out.77.2", dump("Client Request: second", 2)),
            ("callgrind.out.77.1", dump("Client Request: first", 1)),
            ("unrelated.txt", String::from("not a dump")),
        ];
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{e}"));
        }
        let dumps = read_dumps(dir).unwrap_or_else(|e| panic!("{e}"));
        let labels: Vec<_> = dumps.iter().map(|d| d.trigger.clone().unwrap_or_default()).collect();
        assert_eq!(
            labels,
            ["Client Request: first", "Client Request: second", "Client Request: tenth"],
            "numbered dumps only: the file without a number is empty while the program runs"
        );
        std::fs::write(dir.join("callgrind.out.77.3"), "events: Ir\nfn=f\n1 q\n").unwrap_or_else(|e| panic!("{e}"));
        let error = read_dumps(dir).unwrap_err();
        assert!(error.to_string().contains("callgrind.out.77.3:3: `q` is not a count"), "{error}");
        let gone = read_dumps(&dir.join("absent")).unwrap_err().to_string();
        assert!(gone.contains("absent: cannot list the folder"), "{gone}");
    }
}
