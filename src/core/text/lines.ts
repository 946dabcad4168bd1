import type { Position, Range } from './types';

/**
 * Maps offsets to line/character positions. Line breaks are `\n`, `\r\n` and lone `\r`, the same
 * set LSP clients use, so CRLF and mixed endings give the positions the editor shows.
 */
export class LineIndex {
  /** Offsets where lines start, in a typed array: a 130 KB suite has thousands of lines. */
  private readonly starts: Int32Array;
  /** Whether the text holds a `\r` (then lines may end in CRLF or a lone CR). */
  private readonly carriageReturns: boolean;

  constructor(
    readonly text: string,
    known?: Int32Array,
  ) {
    if (known) {
      this.starts = known;
      this.carriageReturns = false;
      return;
    }
    this.carriageReturns = text.includes('\r');
    if (!this.carriageReturns) {
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

  /**
   * The index of `text`, an edit of the text `before` indexes that left its first `prefix` and last
   * `suffix` characters as they were (text/unchanged.ts, `commonAffixes`): the line starts in those
   * parts are taken over, moved after the edit, and only the edited part is read. An edit of one
   * case of a 1.5 MB suite file read the whole file again for its line breaks. Undefined when a
   * text holds a `\r` (a CRLF could straddle the edit's ends): then the whole text is read.
   */
  static afterEdit(before: LineIndex, text: string, prefix: number, suffix: number): LineIndex | undefined {
    const middleEnd = text.length - suffix;
    if (before.carriageReturns || text.lastIndexOf('\r', middleEnd) >= prefix) return undefined;
    const old = before.starts;
    // A line starts where the character before it is a break: in the shared start up to `prefix`
    // itself, in the shared end from the first character after a break there.
    let head = 0;
    while (head < old.length && old[head] <= prefix) head++;
    const shift = before.text.length - text.length;
    const tailFrom = before.text.length - suffix + 1;
    let tail = old.length;
    while (tail > head && old[tail - 1] >= tailFrom) tail--;
    const middle: number[] = [];
    for (let i = text.indexOf('\n', prefix); i >= 0 && i < middleEnd; i = text.indexOf('\n', i + 1)) middle.push(i + 1);
    const starts = new Int32Array(head + middle.length + (old.length - tail));
    starts.set(old.subarray(0, head), 0);
    for (let k = 0; k < middle.length; k++) starts[head + k] = middle[k];
    for (let k = tail; k < old.length; k++) starts[head + middle.length + (k - tail)] = old[k] - shift;
    return new LineIndex(text, starts);
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
