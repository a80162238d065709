/**
 * Items with a [from, to) span in real time, found by overlap with a binary search instead of a scan:
 * a 31-day window of 5-minute candidates against hundreds of bookings would otherwise compare every
 * candidate with every booking.
 */
export class IntervalsByStart<T> {
  private readonly items: { from: number; to: number; item: T }[];
  private readonly longest: number;

  constructor(items: readonly T[], span: (item: T) => [number, number]) {
    this.items = items.map((item) => {
      const [from, to] = span(item);
      return { from, to, item };
    });
    this.items.sort((a, b) => a.from - b.from);
    this.longest = this.items.reduce((longest, { from, to }) => Math.max(longest, to - from), 0);
  }

  /** The items whose span overlaps [from, to), in order of their start. */
  overlapping(from: number, to: number): T[] {
    // No item starting before `from - longest` can reach `from`.
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.items[middle]!.from < from - this.longest) low = middle + 1;
      else high = middle;
    }
    const found: T[] = [];
    for (let i = low; i < this.items.length && this.items[i]!.from < to; i++) {
      if (this.items[i]!.to > from) found.push(this.items[i]!.item);
    }
    return found;
  }
}
