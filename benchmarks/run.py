"""`make bench`: measure replay, random access, appends and memory; write BENCHMARKS.md.

    python -m benchmarks.run                  # the full run (1,000,000 events)
    python -m benchmarks.run --quick          # a smoke run (100,000 events, 20,000-event long log)
    python -m benchmarks.run --events 100000  # a smaller corpus
    python -m benchmarks.run --profile        # cProfile of replay, with and without audit

Everything is measured in one process, in one run, next to baselines from the same run,
so the figures are ratios that do not depend on the machine. Only a full-size run writes
its section of BENCHMARKS.md (the other sections belong to the warehouse and simulation
runs); smaller runs write `.bench/BENCHMARKS-<events>.md` unless `--out` says.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import io
import os
import platform
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import msgspec

from benchmarks import measure
from benchmarks.baseline import Stored
from benchmarks.corpus import (
    GAME,
    LONG_BOT,
    ROOT,
    VARIANT,
    Corpus,
    CorpusError,
    corpus_home,
    ensure,
)
from benchmarks.measure import Speed, median, percentile, timed
from benchmarks.report import Figure, document, mb, ms, rate, table, times
from benchmarks.sections import write_section
from events.codec import read_header
from rulesets import registry

REPO = Path(__file__).resolve().parent.parent
SECTION = "replay"
"""This run's marked section of BENCHMARKS.md; the warehouse and simulation runs own theirs."""
TITLE = "Replay, state_at, appends and memory (`make bench`)"
FULL_EVENTS = 1_000_000
FULL_LONG = 150_000
"""The long random-bot log: >= 100,000 events for `state_at`, longer still for memory."""
STATE_AT_LOG = 100_000
STATE_AT_CALLS = 1000
STREAMING_CALLS = 20
SINGLE_APPENDS = 200
APPEND_BATCH = 1000
APPEND_BATCHES = 50
TARGET_REPLAY = 10.0
TARGET_AUDIT = 4.0
TARGET_P99_MS = 20.0
TARGET_FLAT = 1.5


def say(message: str) -> None:
    """Progress on stdout, at once (a run takes minutes)."""
    print(message, flush=True)


@dataclass(frozen=True)
class Options:
    """The command line, parsed."""

    events: int
    long: int
    repeat: int
    out: Path
    profile: bool
    command: str


def parse(argv: Sequence[str] | None) -> Options:
    """Options; `--quick` is a smaller corpus and long log, not fewer repeats."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=None, help=f"corpus size (default {FULL_EVENTS:,})")
    parser.add_argument("--long", type=int, default=None, help=f"length of the long random-bot log (default {FULL_LONG:,})")
    parser.add_argument("--quick", action="store_true", help="100,000 corpus events and a 20,000-event long log")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure, after a warm-up (median; at least 3)")
    parser.add_argument("--out", type=Path, default=None, help="report file (default BENCHMARKS.md for a full-size run)")
    parser.add_argument("--profile", action="store_true", help="only profile replay (top functions) and exit")
    args = parser.parse_args(argv)
    events = args.events or (100_000 if args.quick else FULL_EVENTS)
    long = args.long or (20_000 if args.quick else FULL_LONG)
    if args.repeat < 3:
        parser.error("--repeat must be at least 3: every figure is a median of at least three runs")
    if long < 2 + SINGLE_APPENDS + APPEND_BATCH * 3:
        parser.error(f"--long must be at least {2 + SINGLE_APPENDS + APPEND_BATCH * 3:,} (the append benchmark records it)")
    full = events == FULL_EVENTS and long == FULL_LONG
    out = args.out or (REPO / "BENCHMARKS.md" if full else ROOT / f"BENCHMARKS-{events}.md")
    given = " ".join(argv if argv is not None else sys.argv[1:])
    command = "make bench  (= .venv/bin/python -m benchmarks.run)" if not given else f".venv/bin/python -m benchmarks.run {given}"
    return Options(events=events, long=long, repeat=args.repeat, out=out, profile=args.profile, command=command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement once, print the table and write the report."""
    options = parse(argv)
    began = time.perf_counter()
    load_before = os.getloadavg()[0]
    code = git_state()
    cached = (corpus_home(options.events, options.long) / "corpus.json").is_file()
    try:
        corpus = ensure(options.events, options.long, say=say)
    except CorpusError as error:
        print(error, file=sys.stderr)
        return 1
    logs = [list(corpus.workspace.store.lines(match_id)) for match_id in corpus.manifest.games]
    for lines in logs:
        header = read_header(lines[0])
        assert header.version == VARIANT and header.fingerprint == corpus.manifest.fingerprint, header
    if options.profile:
        profile(corpus, logs)
        return 0
    figures, notes = measure_all(corpus, logs, options)
    total = time.perf_counter() - began
    load = f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    heading = [
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC in one run of `{options.command}`",
        f"from the repository root. The run took {total / 60:.1f} min"
        + (", the corpus being cached." if cached else
           f", of which {corpus.manifest.seconds / 60:.1f} min generating the corpus (not cached yet).")
        + f" Load average (1 min): {load}.",
        "Every figure below comes from that one run; each ratio is against a baseline measured in the same run.",
        "",
        summary(figures),
    ]
    sections = [
        ("Machine and code", machine(corpus, code)),
        ("Corpus", describe(corpus)),
        ("What each figure measures", notes),
        ("Targets", TARGETS),
    ]
    text = document(title=TITLE, heading=heading, figures=figures, sections=sections)
    say("")
    say(table(figures))
    say("")
    say(summary(figures))
    options.out.parent.mkdir(parents=True, exist_ok=True)
    write_section(SECTION, text, options.out)
    say(f"wrote the {SECTION!r} section of {options.out} ({total / 60:.1f} min)")
    return 0


def measure_all(corpus: Corpus, logs: list[list[bytes]], options: Options) -> tuple[list[Figure], str]:
    """Every measurement, in an order that keeps each one's garbage out of the next."""
    workspace, rules = corpus.workspace, corpus.rules
    codec = registry.game(GAME).codec
    free = measure.free_rules(rules)
    events = sum(map(len, logs))
    repeat = options.repeat
    prefixes = corpus.manifest.prefixes
    long_id = prefixes[options.long]

    # 1-3: throughput over the corpus; the three passes alternate so drift hits all alike.
    passes: dict[str, Callable[[Sequence[list[bytes]]], int]] = {
        "A": lambda part: measure.decode_all(part, codec),
        "replay": lambda part: measure.replay_all(part, codec, rules, audit=False),
        "audit": lambda part: measure.replay_all(part, codec, rules, audit=True),
        "fold": lambda part: measure.replay_all(part, codec, free, audit=False),
    }
    warm = logs[: max(1, len(logs) // 20)]
    for run in passes.values():
        run(warm)
    speeds: dict[str, list[Speed]] = {name: [] for name in passes}
    for index in range(repeat):
        for name, run in passes.items():
            speeds[name].append(timed(partial(run, logs)))
            say(f"run {index + 1}/{repeat}: {name:>6} {_speed(speeds[name][-1])} over {events:,} events")
    long_lines = [list(workspace.store.lines(long_id))]
    for name in ("replay", "audit"):
        passes[name](long_lines)
        speeds[f"long {name}"] = [timed(partial(passes[name], long_lines)) for _ in range(repeat)]
        say(f"long log: {name:>6} {_speed(speeds[f'long {name}'][-1])} over {options.long:,} events")

    # 2: the eventsourcing library, alone in memory (its store is a million objects).
    say(f"eventsourcing: storing {events:,} events in one aggregate (not timed)")
    Stored(10_000).rebuild()
    stored = Stored(events)
    stored.rebuild()
    speeds["B"] = []
    for index in range(repeat):
        speeds["B"].append(timed(stored.rebuild))
        say(f"run {index + 1}/{repeat}:      B {_speed(speeds['B'][-1])} rebuilding {events:,} events")
    del stored
    gc.collect()

    # 4: state_at on the 100,000-event log.
    scrub_size = min(STATE_AT_LOG, options.long)
    scrub_id = prefixes[scrub_size]
    builds = []
    for _ in range(repeat):
        timeline, speed = measure.build_timeline(workspace, scrub_id)
        builds.append(speed)
    say(f"timeline: built over {scrub_size:,} events at {_speed(builds[-1])}")
    rng = random.Random(2)
    seqs = [rng.randrange(len(timeline)) for _ in range(STATE_AT_CALLS)]
    measure.latencies(timeline.state_at, seqs[:100])
    scrub = measure.latencies(timeline.state_at, seqs)
    stream_seqs = [rng.randrange(len(timeline)) for _ in range(STREAMING_CALLS)]
    del timeline
    gc.collect()
    stream = measure.latencies(lambda seq: workspace.state_at(scrub_id, seq), stream_seqs)
    say(f"state_at: timeline median {median(scrub) * 1000:.3f} ms, p99 {percentile(scrub, 99) * 1000:.3f} ms; "
        f"streaming median {median(stream) * 1000:.0f} ms")

    # 5: appends, on the disk the repository is on.
    ROOT.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="append-", dir=ROOT))
    try:
        batches = min(APPEND_BATCHES, (options.long - 1 - SINGLE_APPENDS) // APPEND_BATCH)
        appended = measure.appends(folder, measure.load_events(workspace, long_id), codec,
                                   singles=SINGLE_APPENDS, batch=APPEND_BATCH, batches=batches)
    finally:
        shutil.rmtree(folder)
    say(f"append: single median {median(appended.single_store) * 1000:.2f} ms "
        f"(bare write+fsync {median(appended.single_disk) * 1000:.2f} ms)")

    # 6: peak memory of a streaming replay, by log length.
    peaks = {size: median([measure.peak(partial(measure.stream_replay, workspace, mid)) for _ in range(repeat)])
             for size, mid in sorted(prefixes.items())}
    readers = {size: median([measure.peak(partial(measure.reading, workspace, mid)) for _ in range(repeat)])
               for size, mid in sorted(prefixes.items())}
    held = measure.peak(partial(measure.load_events, workspace, scrub_id))
    say("memory: " + ", ".join(f"{size:,} events {value / 1e6:.2f} MB" for size, value in peaks.items()))

    figures = build_figures(speeds=speeds, events=events, long=options.long, builds=builds, scrub_size=scrub_size,
                            scrub=scrub, stream=stream, appended=appended, peaks=peaks, readers=readers, held=held)
    notes = method_notes(events=events, long=options.long, scrub_size=scrub_size, batches=batches, repeat=repeat)
    return figures, notes


def build_figures(*, speeds: dict[str, list[Speed]], events: int, long: int, builds: list[Speed], scrub_size: int,
                  scrub: list[float], stream: list[float], appended: measure.Appends, peaks: dict[int, float],
                  readers: dict[int, float], held: float) -> list[Figure]:
    """The table rows, with ratios to the same-run baselines and the issue's targets."""
    cpu = {name: median([s.cpu for s in runs]) for name, runs in speeds.items()}
    wall = {name: median([s.wall for s in runs]) for name, runs in speeds.items()}
    a, b = cpu["A"], cpu["B"]

    def against(name: str) -> str:
        return f"{cpu[name] / a:.3f} of A; {times(cpu[name] / b)} B (wall: {times(wall[name] / wall['B'])} B)"

    def both(name: str) -> str:
        return f"{rate(cpu[name])} (wall {wall[name]:,.0f})"

    replay, audit = cpu["replay"], cpu["audit"]
    build = median([s.cpu for s in builds])
    p99 = percentile(scrub, 99)
    single, disk = median(appended.single_store), median(appended.single_disk)
    batch_rates = [APPEND_BATCH / s for s in appended.batch_store]
    disk_rates = [APPEND_BATCH / s for s in appended.batch_disk]
    base_peak = peaks[min(peaks)]
    figures = [
        Figure(f"A: msgspec typed decode per line, {events:,} events", both("A"), f"baseline A; {times(a / b)} B"),
        Figure(f"B: eventsourcing rebuilds 1 aggregate of {events:,} events", both("B"), "baseline B"),
        Figure("replay, no audit (decode + apply)", both("replay"), against("replay"),
               f">= {TARGET_REPLAY:g}x B", replay / b >= TARGET_REPLAY),
        Figure("replay, full audit (decode + check + apply)", both("audit"), against("audit"),
               f">= {TARGET_AUDIT:g}x B", audit / b >= TARGET_AUDIT),
        Figure("contrast: the fold alone (decode + fold, rules that do nothing)", both("fold"), against("fold")),
        Figure("where an audited event's time goes (from the rows above)", split(a, cpu["fold"], replay, audit),
               f"B spends {1e6 / b:.2f} us per event"),
        Figure(f"replay, no audit, long random-bot log ({long:,})", both("long replay"), against("long replay")),
        Figure(f"replay, full audit, long random-bot log ({long:,})", both("long audit"), against("long audit")),
        Figure(f"Timeline build, {scrub_size:,}-event log (read + audited fold)",
               f"{scrub_size / build:.2f} s ({rate(build)})", f"{build / a:.3f} of A"),
        Figure(f"state_at via Timeline, median of {len(scrub):,} random seqs", ms(median(scrub)),
               f"1/{median(stream) / median(scrub):,.0f} of streaming"),
        Figure(f"state_at via Timeline, p99 of {len(scrub):,} random seqs", ms(p99),
               f"1/{median(stream) / p99:,.0f} of streaming", f"< {TARGET_P99_MS:g} ms", p99 * 1000 < TARGET_P99_MS),
        Figure(f"contrast: Workspace.state_at streaming, median of {len(stream)}", ms(median(stream)),
               "baseline (no index)"),
        Figure(f"contrast: Workspace.state_at streaming, max of {len(stream)}", ms(max(stream))),
        Figure(f"append 1 event + fsync, median of {len(appended.single_store)}", ms(single),
               f"{times(single / disk)} bare write+fsync ({ms(disk)})"),
        Figure(f"append 1 event + fsync, p99 of {len(appended.single_store)}", ms(percentile(appended.single_store, 99)),
               f"{times(percentile(appended.single_store, 99) / percentile(appended.single_disk, 99))} bare p99 "
               f"({ms(percentile(appended.single_disk, 99))})"),
        Figure(f"append batches of {APPEND_BATCH:,} + fsync, median of {len(batch_rates)}", rate(median(batch_rates)),
               f"{median(batch_rates) / median(disk_rates):.3f} of bare write+fsync ({rate(median(disk_rates))})"),
    ]
    sizes = sorted(peaks)
    for index, size in enumerate(sizes):
        value, flat = peaks[size], index == 0
        ratio = "baseline" if flat else f"{times(value / base_peak)} the {sizes[0]:,} peak"
        if index > 1:
            ratio += f"; {times(value / peaks[sizes[index - 1]])} the {sizes[index - 1]:,} peak"
        figures.append(Figure(f"peak memory, streaming audited replay of {size:,} events",
                              f"{mb(value)} (reading alone {mb(readers[size])})", ratio,
                              "" if flat else f"< {TARGET_FLAT:g}x (flat)", None if flat else value / base_peak < TARGET_FLAT))
    figures.append(Figure(f"contrast: the {scrub_size:,}-event log held as a list", mb(held),
                          f"{times(held / base_peak)} the {min(peaks):,} streaming peak"))
    return figures


def split(decode: float, fold: float, replay: float, audit: float) -> str:
    """Microseconds per event: decode (A), the fold's own work, the rules' apply, their check."""
    us = [1e6 / decode, 1e6 / fold - 1e6 / decode, 1e6 / replay - 1e6 / fold, 1e6 / audit - 1e6 / replay]
    return "decode {:.2f} + fold {:.2f} + apply {:.2f} + check {:.2f} us".format(*us)


def _speed(speed: Speed) -> str:
    return f"{speed.cpu:>12,.0f} events/s (wall {speed.wall:,.0f})"


def summary(figures: Sequence[Figure]) -> str:
    """One line: which targets pass."""
    judged = [f for f in figures if f.passed is not None]
    failed = [f.name for f in judged if not f.passed]
    head = f"**{len(judged) - len(failed)} of {len(judged)} targets pass.**"
    return head + (" Failing: " + "; ".join(failed) + "." if failed else "")


def git_state() -> str:
    """The commit and uncommitted changes the run starts from (the code it imports then)."""
    changed = [line[3:] for line in _run(["git", "status", "--porcelain", "--untracked-files=no"]).splitlines()
               if line.strip() and line[3:] != "BENCHMARKS.md"]
    head = f"commit `{_run(['git', 'rev-parse', '--short', 'HEAD']).strip()}`"
    return head + (f" plus uncommitted changes to {', '.join(f'`{c}`' for c in changed)}" if changed else " (clean)")


def machine(corpus: Corpus, code: str) -> str:
    """Where and on what code the figures were taken."""
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "unknown")
    memory = next((f"{int(line.split()[1]) / 2**20:.0f} GiB" for line in _read("/proc/meminfo").splitlines()
                   if line.startswith("MemTotal")), "unknown")
    disk = _run(["df", "-h", "--output=source,fstype,size", str(ROOT)]).splitlines()[-1:] or ["unknown"]
    return "\n".join([
        f"- CPU: {cpu}, {os.cpu_count()} cores; memory {memory}; {platform.platform()}",
        f"- Python {platform.python_version()}, msgspec {msgspec.__version__}, "
        f"eventsourcing {importlib.metadata.version('eventsourcing')}",
        f"- disk under `.bench/` (appends): `{' '.join(disk[0].split())}`",
        f"- code at the start of the run: {code}",
        f"- rules fingerprint (`rulesets.registry.game(\"mortalgate\").fingerprint`): `{corpus.manifest.fingerprint}`",
    ])


def describe(corpus: Corpus) -> str:
    """What the corpus holds and how it was made."""
    m = corpus.manifest
    mix, long_mix = _mix(m.mix, m.events), _mix(m.long_mix, m.long_events)
    endings = ", ".join(f"{count} {reason}" for reason, count in m.endings.items())
    skipped = [t for t in m.long_tried if t.seed != m.long_seed]
    tried = "; ".join(f"seed {t.seed} ended after {t.events:,} events ({t.ended})" for t in skipped) or "none"
    return "\n".join([
        f"Generated by `benchmarks/corpus.py` (generator {m.generator}) on {m.made} in {m.seconds / 60:.1f} min "
        f"with 2 processes, cached in `.bench/{corpus.home.name}/` (a tabletape store: "
        f"`tabletape --home .bench/{corpus.home.name} list`). Every log was imported through "
        "`Workspace.import_log`, so it is validated and hash-chained like a user's.",
        "",
        f"- rules: designer variant `mortalgate@{VARIANT}` = 2.5 with `grace_to_win = 100000`, "
        "so no game ends by Grace.",
        f"- corpus: {m.events:,} events in {len(m.games):,} heuristic-vs-heuristic games "
        f"(seeds 1-{len(m.games)}; mean {m.events / len(m.games):,.0f} events; the last game cut to fit). "
        f"Endings: {endings}. The heuristic bots take altars, so their games end by the altars "
        "whatever the Grace threshold: many realistic games, not a few long ones.",
        f"- event mix (share of events; the rare types as counts): {mix}.",
        f"- long log: a game of random bots that never make a move that would end it (`{LONG_BOT}`: the "
        "random bot's game, draw for draw, up to the move that would have ended it), "
        f"seed {m.long_seed}, cut at {m.long_events:,} events (the first seed whose game lasts that long). "
        f"Seeds skipped because the dice ended their game sooner: {tried}. "
        f"Its prefixes ({', '.join(f'{size:,}' for size in m.prefixes)} events) are stored as their own matches.",
        f"- long log event mix: {long_mix}.",
    ])


def _mix(counts: dict[str, int], total: int) -> str:
    """Event types by share; the rare ones (setup, the ends) by count."""
    return ", ".join(f"{name} {count / total:.1%}" if count / total >= 0.001 else f"{name} {count:,}"
                     for name, count in counts.items())


def method_notes(*, events: int, long: int, scrub_size: int, batches: int, repeat: int) -> str:
    """How each figure was taken, so it can be read and challenged."""
    return f"""\
Each throughput figure is the median of {repeat} timed passes after a warm-up pass (over a
twentieth of the corpus), in events per CPU-second of the benchmark process; the
wall-clock rate follows in parentheses. They agree on a quiet machine; other work on the
same cores (see the load average above) slows the wall rate far more than the CPU rate (in
a VM the CPU rate is not immune either), so the ratios use CPU time. The A, replay, audit
and fold passes alternate so drift affects all alike. The corpus lines are read into
memory first, so A and the replays measure CPU, not the disk. Latencies (state_at,
appends) are wall time per call.

- **A** (the parsing limit): `codec.decode(line)` for every line, the game's tagged-union
  msgspec decoder (`rulesets.registry.game("mortalgate").codec`), one line at a time.
- **B**: the `eventsourcing` library (POPO, in memory) holding one aggregate of {events:,}
  events, each with a payload shaped like `HeroMoved`; timed is `app.repository.get(id)`.
  The aggregate's apply only sets two attributes, so B is the library's own cost per event.
  Built and measured after the replays, alone in memory.
- **replay**: `projections.read.replay.replay(decode_log(lines, codec), rules, audit=...)` over
  every corpus log, every Step consumed; rules resolved once (all logs share the variant).
  The long random-bot log ({long:,} events) is measured the same way (its own event mix).
- **where the time goes**: per event, 1/A is decoding, 1/fold - 1/A the fold's own work,
  1/replay - 1/fold the rules' `apply` and 1/audit - 1/replay their `check`; each from the
  CPU rates above (so the four add up to 1/audit).
- **the fold alone**: the same replay under the same rules with `check` and `apply` replaced
  by functions that do nothing (`benchmarks.measure.free_rules`): decode, `decode_log`, the
  undo stack and a Step per event. Replay cannot be faster than this however fast the rules get.
- **Timeline build**: `Workspace.timeline(match_id)` on the {scrub_size:,}-event prefix of
  the long log: read, decode, audited fold, a snapshot every 64 events (median of {repeat}).
- **state_at**: `Timeline.state_at(seq)` for {STATE_AT_CALLS:,} seqs drawn with `random.Random(2)`,
  each timed alone after 100 warm-up calls; the contrast is `Workspace.state_at` (a streaming
  replay from the start of the log) for {STREAMING_CALLS} further random seqs.
- **append**: a fresh store in `.bench/`; `Workspace.append_events(..., expected_seq=last)`
  records the long log: {SINGLE_APPENDS} single events, then {batches} batches of {APPEND_BATCH:,}.
  Each store append (lock, read last line, stamp, hash, encode, write, fsync) alternates with a
  bare `os.write` + `os.fsync` of the same bytes to another file in the same folder.
- **peak memory**: `tracemalloc` peak above what was live before, of
  `deque(Workspace.replay(match_id, audit=True), maxlen=0)` from the store (median of {repeat});
  "flat" means every longer log peaks under {TARGET_FLAT:g}x the shortest. "Reading alone" is
  the peak of only streaming the log's lines from the store (`FileStore.lines`, 1 MiB reads):
  the reader's share, which steps up once a log spans more than one read. The contrast row is
  the same log held as a list of events, to show the measure sees growth when there is some.
- Profile: `python -m benchmarks.run --profile` prints cProfile's top functions for the replays."""


TARGETS = """\
Targets: replay without audit
at least 10x the `eventsourcing` rebuild rate of the same run; replay with the full audit at
least 4x; `state_at` p99 under 20 ms; replay memory flat in log length. Why the two replay
targets are out of reach of pure reducers over frozen data on CPython:
docs/architecture.md, "What replay costs, and its targets"."""


def profile(corpus: Corpus, logs: list[list[bytes]], budget: int = 150_000) -> None:
    """cProfile's top functions for replay without and with audit, over part of the corpus."""
    codec = registry.game(GAME).codec
    part: list[list[bytes]] = []
    for lines in logs:
        if sum(map(len, part)) >= budget:
            break
        part.append(lines)
    count = sum(map(len, part))
    for audit in (False, True):
        profiler = cProfile.Profile()
        profiler.runcall(measure.replay_all, part, codec, corpus.rules, audit=audit)
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(30)
        name = "audit" if audit else "replay"
        path = ROOT / f"profile-{name}.txt"
        path.write_text(out.getvalue(), encoding="utf-8")
        say(f"--- {name}, {count:,} events of {len(part)} games (full text: {path})")
        say(out.getvalue())


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""


def _run(command: list[str]) -> str:
    try:
        return subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ""


if __name__ == "__main__":
    sys.exit(main())
