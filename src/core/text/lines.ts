import type { Position, Range } from './types';

/**
 * Maps offsets to line/character positions. Line breaks are `\n`, `\r\n` and lone `\r`, the same
 * set LSP clients use, so CRLF and mixed endings give the positions the editor shows.
 */
export class LineIndex {
  /** Offsets where lines start, in a typed array: a 130 KB suite has thousands of lines. */
  private readonly starts: Int32Array;

  constructor(readonly text: string) {
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
