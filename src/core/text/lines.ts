import type { Position, Range } from './types';
import { commonAffixes } from './unchanged';

/**
 * Maps offsets to line/character positions. Line breaks are `\n`, `\r\n` and lone `\r`, the same
 * set LSP clients use, so CRLF and mixed endings give the positions the editor shows.
 */
export class LineIndex {
  /** Offsets where lines start, in a typed array: a 130 KB suite has thousands of lines. */
  private readonly starts: Int32Array;

  /**
   * The index of `text`, an edit of `previous.text`: the lines before the edit are the previous
   * index's, those after it the previous index's moved by the change of length, and only the edited
   * stretch is searched for line breaks. An edit of one case of a 1 MB suite file otherwise searched
   * its 40,000 lines again. Texts with a carriage return are indexed afresh (a `\r\n` could be cut
   * in two by where the edit starts or ends).
   */
  static after(previous: LineIndex, text: string): LineIndex {
    const old = previous.text;
    if (text.includes('\r') || old.includes('\r')) return new LineIndex(text);
    const { prefix, suffix } = commonAffixes(old, text);
    const was = previous.starts;
    // Starts up to `prefix` follow a line break in the shared start; from `tail` on, one in the shared end.
    const head = upperBound(was, prefix);
    const tail = upperBound(was, old.length - suffix);
    const end = text.length - suffix;
    let middle = 0;
    for (let i = text.indexOf('\n', prefix); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) middle++;
    const starts = new Int32Array(head + middle + was.length - tail);
    starts.set(was.subarray(0, head));
    let k = head;
    for (let i = text.indexOf('\n', prefix); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
    const shift = text.length - old.length;
    for (let j = tail; j < was.length; j++) starts[k++] = was[j] + shift;
    return new LineIndex(text, starts);
  }

  constructor(
    readonly text: string,
    known?: Int32Array,
  ) {
    if (known) {
      this.starts = known;
      return;
    }
    if (!text.includes('\r')) {
      // The common case, found with indexOf, which is many times faster than a loop over char codes.
      let count = 1;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
      const starts = new Int32Array(count);
      let k = 1;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
      this.starts = starts;
      return;
    }
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.starts = Int32Array.from(starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  /** Offset just past the line's content, before its line break. */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    let end = next;
    if (end > this.starts[line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.starts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    // An offset between the \r and \n of a CRLF (a parse error can point there) is shown at the
    // end of its line: no position may lie past a line's last character.
    return { line: lo, character: Math.min(o, this.lineEnd(lo)) - this.starts[lo] };
  }

  offsetAt(position: Position): number {
    if (position.line >= this.starts.length) return this.text.length;
    if (position.line < 0) return 0;
    return Math.min(this.starts[position.line] + Math.max(0, position.character), this.lineEnd(position.line));
  }

  rangeOf(offset: number, length: number): Range {
    return { start: this.positionAt(offset), end: this.positionAt(offset + Math.max(0, length)) };
  }
}

/** How many of the ascending `starts` are at most `offset`. */
function upperBound(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
