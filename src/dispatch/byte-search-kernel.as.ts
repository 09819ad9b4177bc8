// AssemblyScript, compiled to WebAssembly by `npm run build:kernel` into ./byte-search-kernel.ts
// (not TypeScript: `usize`, `v128` and `load` are AssemblyScript's own). The search a scan runs
// on every file (./byte-search.ts): a lower-case ASCII needle in a file's UTF-8 bytes, letters
// compared case-insensitively, 16 positions a step. A position is checked in full only where its
// first and last bytes both match, as in Wojciech Muła's "SIMD-friendly algorithms for substring
// searching". Every read stays inside [text, text + length): the caller passes the bytes it wrote.

/** An ASCII byte lower-cased, as `toLowerCase` does; any other byte as it is. */
function lowered(byte: u32): u32 {
  return byte - 65 < 26 ? byte | 32 : byte;
}

/** A splat of 32 where `byte` is a lower-case letter (its upper case differs by that bit), else 0. */
function caseBit(byte: u32): v128 {
  return byte - 97 < 26 ? i8x16.splat(32) : i8x16.splat(0);
}

function holdsAt(text: usize, at: usize, needle: usize, length: i32): bool {
  for (let index = 0; index < length; index++)
    if (lowered(<u32>load<u8>(text + at + index)) != <u32>load<u8>(needle + index)) return false;
  return true;
}

/** The newlines among `length` bytes from `from`. */
function newlines(from: usize, length: usize): i32 {
  let count = 0;
  let index: usize = 0;
  const newline = i8x16.splat(10);
  for (; index + 16 <= length; index += 16)
    count += <i32>popcnt(i8x16.bitmask(i8x16.eq(v128.load(from + index), newline)));
  for (; index < length; index++) if (load<u8>(from + index) == 10) count++;
  return count;
}

// Where the last call of `linesHolding` stopped with its output full, and that place's line.
let resumeAt: i32 = -1;
let resumeLine: i32 = 0;

/** Where the last `linesHolding` stopped with its output full, or -1 when it went to the end. */
export function stoppedAt(): i32 {
  return resumeAt;
}

/** The line `stoppedAt` is on. */
export function stoppedLine(): i32 {
  return resumeLine;
}

/** Where the first newline from `from` is, before `end`; `end` when there is none. */
function nextNewline(text: usize, from: i32, end: i32): i32 {
  const newline = i8x16.splat(10);
  let at = from;
  for (; at + 16 <= end; at += 16) {
    const found = i8x16.bitmask(i8x16.eq(v128.load(text + at), newline));
    if (found != 0) return at + <i32>ctz(found);
  }
  for (; at < end; at++) if (load<u8>(text + at) == 10) return at;
  return end;
}

/**
 * The first place from `from` where `text` (`length` bytes) holds `needle`, or past the last
 * place it could start (`length - needleLength`) when there is none.
 */
function nextPlace(text: usize, length: i32, needle: usize, needleLength: i32, from: i32): i32 {
  const first = <u32>load<u8>(needle);
  const last = <u32>load<u8>(needle + needleLength - 1);
  const firstBytes = i8x16.splat(<i8>first);
  const lastBytes = i8x16.splat(<i8>last);
  const firstCase = caseBit(first);
  const lastCase = caseBit(last);
  const final = length - needleLength;
  let at = from;
  // 16 candidates a step, each checked in full where its first and last bytes match; then the
  // last few one by one.
  for (; at + 16 <= final + 1; at += 16) {
    const firsts = i8x16.eq(v128.or(v128.load(text + at), firstCase), firstBytes);
    const lasts = i8x16.eq(v128.or(v128.load(text + at + needleLength - 1), lastCase), lastBytes);
    let candidates = i8x16.bitmask(v128.and(firsts, lasts));
    while (candidates != 0) {
      const candidate = at + <i32>ctz(candidates);
      candidates &= candidates - 1;
      if (holdsAt(text, candidate, needle, needleLength)) return candidate;
    }
  }
  for (; at <= final; at++) if (holdsAt(text, at, needle, needleLength)) return at;
  return final + 1;
}

/**
 * The 0-based lines (each once, ascending) of `text` holding `needle` from `start`, which is on
 * line `startLine`, written to `out` as u32s, at most `room` of them; returns how many. Output
 * full, `stoppedAt` tells where to go on from. After a line's first hit the search goes on from
 * the next line: linear in the text's length times the needle's at most.
 */
export function linesHolding(
  text: usize,
  length: i32,
  needle: usize,
  needleLength: i32,
  out: usize,
  room: i32,
  start: i32,
  startLine: i32,
): i32 {
  resumeAt = -1;
  if (needleLength == 0 || needleLength > length) return 0;
  let count = 0;
  let line = startLine;
  let countedTo = start;
  let at = start;
  while (at <= length - needleLength) {
    const found = nextPlace(text, length, needle, needleLength, at);
    if (found > length - needleLength) return count;
    line += newlines(text + countedTo, found - countedTo);
    if (count == room) {
      resumeAt = found;
      resumeLine = line;
      return count;
    }
    store<u32>(out + ((<usize>count) << 2), line);
    count++;
    // One hit a line: on from the next line's start.
    const newline = nextNewline(text, found, length);
    if (newline == length) return count;
    at = newline + 1;
    countedTo = at;
    line++;
  }
  return count;
}

/** Whether `text` holds `needle` anywhere. */
export function holds(text: usize, length: i32, needle: usize, needleLength: i32): bool {
  if (needleLength == 0 || needleLength > length) return needleLength == 0;
  return nextPlace(text, length, needle, needleLength, 0) <= length - needleLength;
}

/**
 * Where each line of `text` (`length` bytes) starts, written to `out` as u32s: 0, then one past
 * each newline. Returns how many; `out` has room for `length + 1`.
 */
export function lineStarts(text: usize, length: i32, out: usize): i32 {
  store<u32>(out, 0);
  let count = 1;
  let newline = nextNewline(text, 0, length);
  while (newline < length) {
    store<u32>(out + ((<usize>count) << 2), newline + 1);
    count++;
    newline = nextNewline(text, newline + 1, length);
  }
  return count;
}
