/**
 * Duration segments (Vidal, Crainic, Gendreau & Prins 2013): a sequence of visits summarised by
 * its minimal duration D, its unavoidable time warp TW, and the earliest E and latest L start
 * times at its first visit that achieve them. Two segments joined by an edge merge in O(1), so a
 * move is judged by two or three merges of cached prefix and suffix segments.
 */

/** A mutable segment; callers reuse instances so evaluating a move allocates nothing. */
export class DurationSegment {
  constructor(
    public d = 0,
    public tw = 0,
    public e = 0,
    public l = 0,
  ) {}

  set(d: number, tw: number, e: number, l: number): this {
    this.d = d;
    this.tw = tw;
    this.e = e;
    this.l = l;
    return this;
  }

  copy(o: DurationSegment): this {
    return this.set(o.d, o.tw, o.e, o.l);
  }

  /** Appends segment (bd, btw, be, bl) reached after travel time t; this becomes the merge. */
  append(t: number, bd: number, btw: number, be: number, bl: number): this {
    const delta = this.d - this.tw + t;
    const wait = Math.max(be - delta - this.l, 0);
    const warp = Math.max(this.e + delta - bl, 0);
    const e = Math.max(be - delta, this.e) - wait;
    const l = Math.min(bl - delta, this.l) + warp;
    this.d = this.d + bd + t + wait;
    this.tw = this.tw + btw + warp;
    this.e = e;
    this.l = l;
    return this;
  }

  /** Prepends segment (ad, atw, ae, al), which is followed by this one after travel time t. */
  prepend(ad: number, atw: number, ae: number, al: number, t: number): this {
    const delta = ad - atw + t;
    const wait = Math.max(this.e - delta - al, 0);
    const warp = Math.max(ae + delta - this.l, 0);
    const e = Math.max(this.e - delta, ae) - wait;
    const l = Math.min(this.l - delta, al) + warp;
    this.d = ad + this.d + t + wait;
    this.tw = atw + this.tw + warp;
    this.e = e;
    this.l = l;
    return this;
  }
}
